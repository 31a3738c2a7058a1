"""stud8: Seven Card Stud Hi/Lo (Stud 8 or better)."""

__version__ = "0.1.0"
