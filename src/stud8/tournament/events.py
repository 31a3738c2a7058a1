"""What the director is told (events) and what it answers (decisions): frozen records.

Every event carries ``now``, the time in seconds (the room's clock: any epoch, the
same for every event of a tournament; POSIX seconds when the definition starts at a
time). The director reads no clock of its own.

>>> Tick(now=12.5)
Tick(now=12.5)
>>> as_dict(Moved(entry=3, player="ann", from_table=2, from_seat=5, to_table=1, to_seat=4,
...               reason=MoveReason.BALANCE))["reason"]
'balance'
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum, StrEnum
from typing import Any

__all__ = [
    "Busted",
    "Cancelled",
    "DealHand",
    "Decision",
    "Event",
    "FinalTable",
    "Finished",
    "HandCancelled",
    "HandFinished",
    "HandRestored",
    "LevelStarted",
    "MoveReason",
    "Moved",
    "Register",
    "Registered",
    "RegistrationClosed",
    "Result",
    "Resume",
    "Seated",
    "Started",
    "TableBroken",
    "TableOpened",
    "Tick",
    "Unregister",
    "Unregistered",
    "as_dict",
]


# -------------------------------------------------------------------- events (in)
@dataclass(frozen=True, slots=True, kw_only=True)
class Tick:
    """Time passes: levels and breaks end on time, a scheduled tournament starts."""

    now: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Resume:
    """The room is back after a stop: the time since the last event is not counted
    (the clock pauses while the room is down; a scheduled start is not moved)."""

    now: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Register:
    """A player buys in (before the start, during late registration, or again after
    busting if re-entry is allowed)."""

    now: float
    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Unregister:
    """A player takes back his registration, before the start."""

    now: float
    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HandFinished:
    """The hand dealt at ``table`` (numbered ``hand``) is over: each dealt seat's chips
    now, as ``(seat, chips)`` pairs (every seat dealt in, busted ones with 0)."""

    now: float
    table: int
    hand: int
    stacks: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandCancelled:
    """The hand dealt at ``table`` was cut short (a crash, a misdeal): it is void and
    every player's chips go back to what they were when it was dealt."""

    now: float
    table: int
    hand: int


Event = Tick | Resume | Register | Unregister | HandFinished | HandCancelled


# ---------------------------------------------------------------- decisions (out)
class MoveReason(StrEnum):
    BALANCE = "balance"  # to balance the tables (TDA 11)
    BREAK = "break"  # from a broken table (TDA 10)


@dataclass(frozen=True, slots=True, kw_only=True)
class Registered:
    player: str
    entry: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Unregistered:
    player: str
    entry: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Started:
    """The tournament starts with ``entries`` entries; ``prize_pool`` so far."""

    entries: int
    prize_pool: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Cancelled:
    """A scheduled tournament that could not start (too few entrants)."""

    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TableOpened:
    table: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Seated:
    """An entry takes a seat with its chips (at the start, or registering late)."""

    entry: int
    player: str
    table: int
    seat: int
    chips: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Moved:
    """An entry moves, with its chips, between two hands of its old table."""

    entry: int
    player: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: MoveReason


@dataclass(frozen=True, slots=True, kw_only=True)
class TableBroken:
    table: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FinalTable:
    """One table is left: the final table."""

    table: int
    players: int


@dataclass(frozen=True, slots=True, kw_only=True)
class LevelStarted:
    """Level ``level`` (from 1) starts: its stakes apply from the next hand dealt
    (TDA "New Hand & New Limits"). ``break_minutes``: a break comes first."""

    level: int
    stakes: tuple[int, int, int, int]
    break_minutes: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class RegistrationClosed:
    entries: int
    prize_pool: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DealHand:
    """Deal hand number ``hand`` at ``table``, at level ``level``, to these seats:
    ``(seat, entry, chips)``. Chips are as the director knows them: a cancelled hand
    goes back to exactly these."""

    table: int
    hand: int
    level: int
    seats: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandRestored:
    """A cancelled hand: every seat's chips back to ``(seat, entry, chips)``."""

    table: int
    hand: int
    seats: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Busted:
    """An entry lost its last chip in ``hand``. ``place``: its finishing place, the
    first of ``shared`` places shared with others busted in the same hand with as
    many chips (None while late registration is open: more entries may come)."""

    entry: int
    player: str
    table: int
    hand: int
    place: int | None
    shared: int = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    """An entry's finish: ``place`` (the first of ``shared`` shared places) and prize."""

    entry: int
    player: str
    place: int
    shared: int
    prize: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Finished:
    """The tournament is over: every entry's result, best first."""

    results: tuple[Result, ...]
    prize_pool: int


Decision = (
    Registered
    | Unregistered
    | Started
    | Cancelled
    | TableOpened
    | Seated
    | Moved
    | TableBroken
    | FinalTable
    | LevelStarted
    | RegistrationClosed
    | DealHand
    | HandRestored
    | Busted
    | Finished
)


def as_dict(record: Event | Decision | Result) -> dict[str, Any]:
    """A JSON-ready dictionary of an event or decision, its kind under ``"kind"``."""
    out: dict[str, Any] = {"kind": type(record).__name__}
    for f in fields(record):
        out[f.name] = _plain(getattr(record, f.name))
    return out


def _plain(value: object) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Result):
        return as_dict(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value
