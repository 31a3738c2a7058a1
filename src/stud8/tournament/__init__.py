"""Tournaments: the definition, the ready structures, the payouts and the director.

Pure like the engine (standard library and :mod:`stud8.core` only; no I/O, no clock, no
global random): the director is driven by events that carry the time, draws from the
random source it is given, and answers with decisions, so the same code runs the
offline simulator (:mod:`stud8.tools.tournament_sim`) and the room
(:mod:`stud8.server.tournaments`).
"""

from stud8.tournament.definition import (
    Break,
    DefinitionError,
    Level,
    Start,
    Structure,
    TournamentDefinition,
    TournamentError,
)
from stud8.tournament.structures import STRUCTURES

__all__ = [
    "STRUCTURES",
    "Break",
    "DefinitionError",
    "Level",
    "Start",
    "Structure",
    "TournamentDefinition",
    "TournamentError",
]
