"""Tools built on the rules engine: bots, and later equity, batch evaluation, simulation.

This layer may import :mod:`stud8.core` (and :mod:`stud8.formats`), never the server
or the command line.
"""
