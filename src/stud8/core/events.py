"""The events of a hand: frozen records, appended to the hand's log in order.

Every change to a hand is one of these. Replaying a hand's actions over the same
setup gives the same events. Amounts: ``to`` is the player's total bet on the
street after the action, ``adds`` the chips it put in.

Being immutable values, the common ones (a card dealt, a fold, a call of 4 to 4) are
made once and shared by every hand (:mod:`stud8.core._shared_events`): compare
events with ``==``, never ``is``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import StrEnum
from typing import ClassVar

from stud8.core.actions import Action, BringIn, Call, Check, Fold, make_action
from stud8.core.cards import Card
from stud8.core.evaluate import HighValue, LowValue, RazzValue
from stud8.core.record import Record, record


class Event(Record):
    """Base of the hand's events: frozen :func:`~stud8.core.record.record` classes."""

    __slots__ = ()
    kind: ClassVar[str] = "event"


@record
class AntePosted(Event):
    seat: int
    amount: int
    all_in: bool = False
    kind: ClassVar[str] = "ante"


@record
class StreetStarted(Event):
    """A new street: 3 to 7. Cards for it follow."""

    street: int
    kind: ClassVar[str] = "street"


@record
class CardDealt(Event):
    """One card to one seat. ``card`` is None in a view where it is hidden."""

    seat: int
    card: Card | None
    face_up: bool
    street: int
    kind: ClassVar[str] = "deal"


@record
class CommunityCardDealt(Event):
    """7th street when the deck cannot give every player a card (RULES.md section 4)."""

    card: Card
    kind: ClassVar[str] = "community"


@record
class ActionOpened(Event):
    """Betting on a street starts with this seat (the bring-in on 3rd street)."""

    street: int
    seat: int
    kind: ClassVar[str] = "first_to_act"


@record
class BringInPosted(Event):
    seat: int
    amount: int
    all_in: bool = False
    kind: ClassVar[str] = "bring_in"


@record
class Completed(Event):
    """The bring-in (or a short all-in bet) made up to a full bet: the round's bet."""

    seat: int
    to: int
    adds: int
    all_in: bool = False
    kind: ClassVar[str] = "complete"


@record
class BetMade(Event):
    seat: int
    to: int
    adds: int
    all_in: bool = False
    kind: ClassVar[str] = "bet"


@record
class Raised(Event):
    seat: int
    to: int
    adds: int
    all_in: bool = False
    kind: ClassVar[str] = "raise"


@record
class Called(Event):
    seat: int
    to: int
    adds: int
    all_in: bool = False
    kind: ClassVar[str] = "call"


@record
class Checked(Event):
    seat: int
    kind: ClassVar[str] = "check"


@record
class Folded(Event):
    seat: int
    kind: ClassVar[str] = "fold"


class TimeoutOutcome(StrEnum):
    """What the timeout rule did to a player who ran out of time (RULES.md 6). A
    string enum: each member equals its value (``TimeoutOutcome.FOLD == "fold"``), as
    the records and the wire write it."""

    FOLD = "fold"
    CHECK = "check"
    BRING_IN = "bring_in"  # the forced bring-in, posted for him
    ALL_IN_PROTECTION = "all_in_protection"  # in for what he has put in, no more action


@record
class TimedOut(Event):
    """The player to act ran out of time; ``outcome`` is what the timeout rule did:
    ``fold``, ``check``, ``bring_in`` or ``all_in_protection`` (he stays in for
    what he has put in, and takes no further action)."""

    seat: int
    outcome: TimeoutOutcome
    kind: ClassVar[str] = "timeout"


@record
class UncalledBetReturned(Event):
    seat: int
    amount: int
    kind: ClassVar[str] = "uncalled"


@record
class HandShown(Event):
    """A player shows his cards at the showdown (all of them, in dealing order).

    ``high`` is his best high hand and ``low`` his low, by the game (RULES.md 5, 8):
    in Stud Hi/Lo his 8-or-better low (None if he has none); in Stud, high only,
    None; in Razz his ace-to-five :class:`RazzValue`, the hand that plays (``high``
    is then shown for information only).
    """

    seat: int
    cards: tuple[Card, ...]
    high: HighValue
    low: LowValue | RazzValue | None
    kind: ClassVar[str] = "show"


@record
class HandMucked(Event):
    """A player who cannot win throws his hand away unseen."""

    seat: int
    kind: ClassVar[str] = "muck"


@record
class RakeTaken(Event):
    amount: int
    kind: ClassVar[str] = "rake"


@record
class PotAwarded(Event):
    """Chips from one pot to one seat. ``pot`` 0 is the main pot, 1 side pot 1, ...;
    ``half`` is ``high``, ``low`` or ``whole`` (no low qualified, or uncontested; always
    ``whole`` in Stud, high only, and in Razz)."""

    pot: int
    seat: int
    amount: int
    half: str
    kind: ClassVar[str] = "award"


@record
class HandEnded(Event):
    """The hand is over; ``stacks`` are the final stacks by seat."""

    stacks: tuple[tuple[int, int], ...]
    kind: ClassVar[str] = "end"


@record
class HandCancelled(Event):
    """The hand was cancelled (e.g. the server failed): every chip goes back."""

    refunds: tuple[tuple[int, int], ...]
    reason: str = ""
    kind: ClassVar[str] = "cancel"


def decisions_from_events(events: Iterable[Event]) -> Iterator[tuple[int, Action | None]]:
    """The players' decisions in a hand's events (a timeout is ``None``)."""
    after_timeout: int | None = None
    for e in events:
        if isinstance(e, TimedOut):
            after_timeout = e.seat
            yield e.seat, None
            continue
        if isinstance(e, (Folded, Checked, Called, BringInPosted)):
            if after_timeout == e.seat:
                after_timeout = None
                continue
            simple = {Folded: Fold, Checked: Check, Called: Call, BringInPosted: BringIn}
            yield e.seat, simple[type(e)]()
        elif isinstance(e, (Completed, BetMade, Raised)):
            kind = {Completed: "complete", BetMade: "bet", Raised: "raise"}[type(e)]
            yield e.seat, make_action(kind, e.to)
        after_timeout = None
