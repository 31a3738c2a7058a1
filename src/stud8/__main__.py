"""``python -m stud8``: the ``stud8`` command."""

from stud8.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
