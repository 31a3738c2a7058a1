"""Event records made once and shared by every hand.

Events are immutable, and a hand makes the same few over and over (a card dealt to
a seat on a street, a call of 4 to 4, a fold): about sixty a hand, most of them
seen before. Taking them from these tables instead of building each one (a tuple,
then the record) saves most of a hand's object churn; equal values, so nothing
tells a shared record from a fresh one but ``is``.

The engine takes them through the functions below (or straight from the fixed tuples:
a street started, action opened, a fold, a check). Each keyed table is bounded: past
its size, records are made fresh.
"""

from __future__ import annotations

from typing import Final, TypeVar

from stud8.core.cards import Card
from stud8.core.events import (
    ActionOpened,
    AntePosted,
    BetMade,
    BringInPosted,
    Called,
    CardDealt,
    Checked,
    Completed,
    Folded,
    Raised,
    StreetStarted,
    UncalledBetReturned,
)
from stud8.core.rules import MAX_SEATS

_new: Final = tuple.__new__
_E = TypeVar("_E", bound=tuple[object, ...])
_S = TypeVar("_S", Called, Completed, BetMade, Raised)
_LIMIT: Final = 4096  # entries in each keyed table
_SMALL: Final = 1 << 16  # amounts below this are keyed (with at most 16 bits each)

# CardDealt by ((seat * 16 + street * 2 + face_up) * 52 + card code)
DEALT: Final[list[CardDealt | None]] = [None] * ((MAX_SEATS + 1) * 16 * 52)
STREET_STARTED: Final = tuple([_new(StreetStarted, (street,)) for street in range(8)])
# ActionOpened by street * 16 + seat
OPENED: Final = tuple(
    [_new(ActionOpened, (street, seat)) for street in range(8) for seat in range(16)]
)
FOLDED: Final = tuple([_new(Folded, (seat,)) for seat in range(MAX_SEATS + 1)])
CHECKED: Final = tuple([_new(Checked, (seat,)) for seat in range(MAX_SEATS + 1)])
# (seat, amount, all_in) events by amount * 32 + seat * 2 + all_in
ANTES: Final[dict[int, AntePosted]] = {}
BRING_INS: Final[dict[int, BringInPosted]] = {}
UNCALLED: Final[dict[int, UncalledBetReturned]] = {}
# (seat, to, adds, all_in) events, for to and adds below _SMALL, by
# ((to << 16 | adds) << 5) | seat << 1 | all_in
CALLS: Final[dict[int, Called]] = {}
COMPLETES: Final[dict[int, Completed]] = {}
BETS: Final[dict[int, BetMade]] = {}
RAISES: Final[dict[int, Raised]] = {}


def card_dealt(seat: int, card: Card, face_up: bool, street: int) -> CardDealt:
    i = ((seat << 4 | street << 1 | face_up) * 52) + card.code
    event = DEALT[i]
    if event is None:
        event = DEALT[i] = _new(CardDealt, (seat, card, face_up, street))
    return event


def _shared(table: dict[int, _E], cls: type[_E], key: int, values: tuple[object, ...]) -> _E:
    """The record of ``cls`` with these ``values``, kept in ``table`` under ``key``."""
    event = table.get(key)
    if event is None:
        event = _new(cls, values)
        if len(table) < _LIMIT:
            table[key] = event
    return event


def ante_posted(seat: int, amount: int, all_in: bool) -> AntePosted:
    return _shared(ANTES, AntePosted, amount << 5 | seat << 1 | all_in, (seat, amount, all_in))


def bring_in_posted(seat: int, amount: int, all_in: bool) -> BringInPosted:
    key = amount << 5 | seat << 1 | all_in
    return _shared(BRING_INS, BringInPosted, key, (seat, amount, all_in))


def uncalled(seat: int, amount: int) -> UncalledBetReturned:
    return _shared(UNCALLED, UncalledBetReturned, amount << 5 | seat << 1, (seat, amount))


def _sized(table: dict[int, _S], cls: type[_S], seat: int, to: int, adds: int, all_in: bool) -> _S:
    """A (seat, to, adds, all_in) record: shared when both amounts fit in 16 bits."""
    if to >= _SMALL or adds >= _SMALL:
        return _new(cls, (seat, to, adds, all_in))
    key = ((to << 16 | adds) << 5) | seat << 1 | all_in
    event = table.get(key)  # _shared's lookup, written in: these are most of the actions
    if event is None:
        event = _new(cls, (seat, to, adds, all_in))
        if len(table) < _LIMIT:
            table[key] = event
    return event


def called(seat: int, to: int, adds: int, all_in: bool) -> Called:
    return _sized(CALLS, Called, seat, to, adds, all_in)


def completed(seat: int, to: int, adds: int, all_in: bool) -> Completed:
    return _sized(COMPLETES, Completed, seat, to, adds, all_in)


def bet_made(seat: int, to: int, adds: int, all_in: bool) -> BetMade:
    return _sized(BETS, BetMade, seat, to, adds, all_in)


def raised(seat: int, to: int, adds: int, all_in: bool) -> Raised:
    return _sized(RAISES, Raised, seat, to, adds, all_in)
