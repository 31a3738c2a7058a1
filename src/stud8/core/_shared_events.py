"""Event records made once and shared by every hand.

Events are immutable, and a hand makes the same few over and over (a card dealt to
a seat on a street, a call of 4 to 4, a fold): about sixty a hand, most of them
seen before. Taking them from these tables instead of building each one (a tuple,
then the record) saves most of a hand's object churn; equal values, so nothing
tells a shared record from a fresh one but ``is``.

Lookups are inline on the hot paths (``_DEALT[i] or card_dealt(...)``); the functions
here fill the tables. Each table is bounded: past its size, records are made fresh.
"""

from __future__ import annotations

from typing import Final

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


def ante_posted(seat: int, amount: int, all_in: bool) -> AntePosted:
    key = amount << 5 | seat << 1 | all_in
    event = ANTES.get(key)
    if event is None:
        event = _new(AntePosted, (seat, amount, all_in))
        if len(ANTES) < _LIMIT:
            ANTES[key] = event
    return event


def bring_in_posted(seat: int, amount: int, all_in: bool) -> BringInPosted:
    key = amount << 5 | seat << 1 | all_in
    event = BRING_INS.get(key)
    if event is None:
        event = _new(BringInPosted, (seat, amount, all_in))
        if len(BRING_INS) < _LIMIT:
            BRING_INS[key] = event
    return event


def uncalled(seat: int, amount: int) -> UncalledBetReturned:
    key = amount << 5 | seat << 1
    event = UNCALLED.get(key)
    if event is None:
        event = _new(UncalledBetReturned, (seat, amount))
        if len(UNCALLED) < _LIMIT:
            UNCALLED[key] = event
    return event


def called(seat: int, to: int, adds: int, all_in: bool) -> Called:
    if to >= _SMALL or adds >= _SMALL:
        return _new(Called, (seat, to, adds, all_in))
    key = ((to << 16 | adds) << 5) | seat << 1 | all_in
    event = CALLS.get(key)
    if event is None:
        event = _new(Called, (seat, to, adds, all_in))
        if len(CALLS) < _LIMIT:
            CALLS[key] = event
    return event


def completed(seat: int, to: int, adds: int, all_in: bool) -> Completed:
    if to >= _SMALL or adds >= _SMALL:
        return _new(Completed, (seat, to, adds, all_in))
    key = ((to << 16 | adds) << 5) | seat << 1 | all_in
    event = COMPLETES.get(key)
    if event is None:
        event = _new(Completed, (seat, to, adds, all_in))
        if len(COMPLETES) < _LIMIT:
            COMPLETES[key] = event
    return event


def bet_made(seat: int, to: int, adds: int, all_in: bool) -> BetMade:
    if to >= _SMALL or adds >= _SMALL:
        return _new(BetMade, (seat, to, adds, all_in))
    key = ((to << 16 | adds) << 5) | seat << 1 | all_in
    event = BETS.get(key)
    if event is None:
        event = _new(BetMade, (seat, to, adds, all_in))
        if len(BETS) < _LIMIT:
            BETS[key] = event
    return event


def raised(seat: int, to: int, adds: int, all_in: bool) -> Raised:
    if to >= _SMALL or adds >= _SMALL:
        return _new(Raised, (seat, to, adds, all_in))
    key = ((to << 16 | adds) << 5) | seat << 1 | all_in
    event = RAISES.get(key)
    if event is None:
        event = _new(Raised, (seat, to, adds, all_in))
        if len(RAISES) < _LIMIT:
            RAISES[key] = event
    return event
