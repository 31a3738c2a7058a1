"""Tools built on the rules engine: bots, equity, batch evaluation, the simulators,
the shuffle's fairness report (:mod:`.fairness`).

This layer may import :mod:`stud8.core` (and :mod:`stud8.formats`), never the server
or the command line.
"""
