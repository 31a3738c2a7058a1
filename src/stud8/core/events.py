"""The events of a hand: frozen records, appended to the hand's log in order.

Every change to a hand is one of these. Replaying a hand's actions over the same
setup gives the same events. Amounts: ``to`` is the player's total bet on the
street after the action, ``adds`` the chips it put in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from stud8.core.cards import Card
from stud8.core.evaluate import HighValue, LowValue


@dataclass(frozen=True, slots=True)
class Event:
    """Base of the hand's events."""

    kind: ClassVar[str] = "event"


@dataclass(frozen=True, slots=True)
class AntePosted(Event):
    seat: int
    amount: int
    all_in: bool = False
    kind: ClassVar[str] = "ante"


@dataclass(frozen=True, slots=True)
class StreetStarted(Event):
    """A new street: 3 to 7. Cards for it follow."""

    street: int
    kind: ClassVar[str] = "street"


@dataclass(frozen=True, slots=True)
class CardDealt(Event):
    """One card to one seat. ``card`` is None in a view where it is hidden."""

    seat: int
    card: Card | None
    face_up: bool
    street: int
    kind: ClassVar[str] = "deal"


@dataclass(frozen=True, slots=True)
class CommunityCardDealt(Event):
    """7th street when the deck cannot give every player a card (RULES.md section 4)."""

    card: Card
    kind: ClassVar[str] = "community"


@dataclass(frozen=True, slots=True)
class ActionOpened(Event):
    """Betting on a street starts with this seat (the bring-in on 3rd street)."""

    street: int
    seat: int
    kind: ClassVar[str] = "first_to_act"


@dataclass(frozen=True, slots=True)
class BringInPosted(Event):
    seat: int
    amount: int
    all_in: bool = False
    kind: ClassVar[str] = "bring_in"


@dataclass(frozen=True, slots=True)
class Completed(Event):
    """The bring-in (or a short all-in bet) made up to a full bet: the round's bet."""

    seat: int
    to: int
    adds: int
    all_in: bool = False
    kind: ClassVar[str] = "complete"


@dataclass(frozen=True, slots=True)
class BetMade(Event):
    seat: int
    to: int
    adds: int
    all_in: bool = False
    kind: ClassVar[str] = "bet"


@dataclass(frozen=True, slots=True)
class Raised(Event):
    seat: int
    to: int
    adds: int
    all_in: bool = False
    kind: ClassVar[str] = "raise"


@dataclass(frozen=True, slots=True)
class Called(Event):
    seat: int
    to: int
    adds: int
    all_in: bool = False
    kind: ClassVar[str] = "call"


@dataclass(frozen=True, slots=True)
class Checked(Event):
    seat: int
    kind: ClassVar[str] = "check"


@dataclass(frozen=True, slots=True)
class Folded(Event):
    seat: int
    kind: ClassVar[str] = "fold"


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """The player to act ran out of time; ``outcome`` is what the timeout rule did:
    ``fold``, ``check``, ``bring_in`` or ``all_in_protection`` (he stays in for
    what he has put in, and takes no further action)."""

    seat: int
    outcome: str
    kind: ClassVar[str] = "timeout"


@dataclass(frozen=True, slots=True)
class UncalledBetReturned(Event):
    seat: int
    amount: int
    kind: ClassVar[str] = "uncalled"


@dataclass(frozen=True, slots=True)
class HandShown(Event):
    """A player shows his cards at the showdown (all of them, in dealing order)."""

    seat: int
    cards: tuple[Card, ...]
    high: HighValue
    low: LowValue | None
    kind: ClassVar[str] = "show"


@dataclass(frozen=True, slots=True)
class HandMucked(Event):
    """A player who cannot win throws his hand away unseen."""

    seat: int
    kind: ClassVar[str] = "muck"


@dataclass(frozen=True, slots=True)
class RakeTaken(Event):
    amount: int
    kind: ClassVar[str] = "rake"


@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """Chips from one pot to one seat. ``pot`` 0 is the main pot, 1 side pot 1, ...;
    ``half`` is ``high``, ``low`` or ``whole`` (no low qualified, or uncontested)."""

    pot: int
    seat: int
    amount: int
    half: str
    kind: ClassVar[str] = "award"


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over; ``stacks`` are the final stacks by seat."""

    stacks: tuple[tuple[int, int], ...]
    kind: ClassVar[str] = "end"


@dataclass(frozen=True, slots=True)
class HandCancelled(Event):
    """The hand was cancelled (e.g. the server failed): every chip goes back."""

    refunds: tuple[tuple[int, int], ...]
    reason: str = ""
    kind: ClassVar[str] = "cancel"
