"""A lean, live view of a hand for one seat, and a fast loop that plays bots through it.

:meth:`stud8.core.hand.Hand.view` copies the whole table into frozen records at every
decision (tens of microseconds); a simulation of thousands of hands a second cannot
afford that. A :class:`SeatWindow` answers the same questions on demand, one at a time,
and only those its seat may ask: its own down cards, every up card, the community card,
who has folded, every bet, stack and the pot, and its legal actions when it is to act.
Another seat's down cards are never given: asked for them, it answers ``None`` for each
(the showdown is not a time to decide). The windows of a hand share what every seat
sees alike (who is still in, every up card and their ranks), brought up to date with
only what is new since last asked, never rebuilt; the rest they read from the hand
when asked. A bot that wants to save more work caches what it computed (a window lives
for one hand: its identity is a good cache key).

Unlike a HandView, which is a copy that holds nothing hidden, a window reads the live
hand, which it keeps in a private attribute: what it guarantees is its interface (every
answer is one the seat's HandView gives, as the tests check decision by decision), not
that a bot set on prying into private attributes could not.

A bot that can decide from a window has a ``decide(window)`` method besides the
:class:`~stud8.tools.bots.base.Bot` protocol's ``act(view)``; the two must choose the
same action. :func:`play_fast` uses ``decide`` where a bot has it and a full
:class:`~stud8.core.views.HandView` otherwise.

>>> import random
>>> from stud8.core import Deck, Hand, TableRules
>>> from stud8.tools.bots import RuleBasedBot
>>> rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
>>> deck = Deck.from_cards("As 9d 2s Kd 3s Qc")
>>> hand = Hand.start(rules=rules, stacks={1: 100, 2: 100}, deck=deck)
>>> windows = HandWindows(hand)
>>> w = windows.seat(1)
>>> [str(c) for c in w.down_cards], w.others_down(2), [str(c) for c in w.up_cards(2)]
(['As', '2s'], (None, None), ['Qc'])
>>> result = play_fast(hand, {s: RuleBasedBot(random.Random(s)) for s in (1, 2)})
>>> sum(result.stacks.values())
200
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import compress, repeat
from operator import is_
from types import MappingProxyType

from stud8.core import Hand, HandResult
from stud8.core.actions import Action, Fold, LegalAction
from stud8.core.cards import Card
from stud8.core.events import CardDealt
from stud8.core.rules import TableRules
from stud8.core.views import HandView
from stud8.tools.bots.base import Bot, FastBot

__all__ = ["FastBot", "HandWindows", "SeatWindow", "deciders", "play_fast"]

_NONE: tuple[LegalAction, ...] = ()
# The engine's events are records, tuples underneath: a CardDealt unpacks as (seat, card,
# face_up, street), in C, much faster than reading its fields by name (the tests check
# the windows against the views, card for card).


class _Public:
    """What a hand's windows share, brought up to date when asked and only with what is
    new: who is still in (from the decisions made since last asked), every seat's up
    cards and their ranks (from the cards dealt since last asked, read again only when
    a street has been dealt). It holds no window, so a hand is freed as soon as it is
    done."""

    __slots__ = (
        "_counts",
        "_decisions",
        "_events",
        "_hand",
        "_read",
        "_seen",
        "_street",
        "cards",
        "counts",
        "live",
        "shown",
        "up",
        "ups",
    )

    def __init__(self, hand: Hand) -> None:
        seats = hand.seats
        self._hand = hand
        self._decisions = hand.decisions  # the hand's own lists, which grow
        self._events = hand.events
        self._seen = 0  # decisions read
        self._read = 0  # events read
        self.live = seats
        self._street = 0  # the street the up cards were read on
        self.up: dict[int, tuple[Card, ...]] = dict.fromkeys(seats, ())  # in seat order
        self.shown = MappingProxyType(self.up)
        # every seat's cards as dealt, down and up: a window gives out its own seat's only
        self.cards: dict[int, tuple[Card, ...]] = dict.fromkeys(seats, ())
        self._counts = [0] * 15
        self.ups: tuple[tuple[Card, ...], ...] | None = None  # made when asked
        self.counts: tuple[int, ...] | None = None

    def read_folds(self) -> None:
        """Read the decisions made since last read for folds (a timeout may fold too)."""
        decisions = self._decisions
        live = self.live
        hand = self._hand
        for i in range(self._seen, len(decisions)):
            seat, action = decisions[i]
            if (action is None or type(action) is Fold) and hand.is_folded(seat):
                live = tuple(filter(seat.__ne__, live))
        self.live = live
        self._seen = len(decisions)

    def read_up_cards(self) -> None:
        """Read the cards dealt since last read (a street or more ago: cards are dealt
        as a street starts), the other events passed over in C."""
        self._street = self._hand.street
        events = self._events
        new = events[self._read :]
        self._read = len(events)
        up = self.up
        cards = self.cards
        counts = self._counts
        dealt: Iterable[tuple[int, Card, bool, int]]
        dealt = compress(new, map(is_, map(type, new), repeat(CardDealt)))
        for seat, card, face_up, _ in dealt:
            cards[seat] += (card,)
            if face_up:
                up[seat] += (card,)
                counts[card.rank] += 1
        self.ups = self.counts = None


class HandWindows:
    """The windows of one hand, one per seat."""

    __slots__ = ("_public", "_windows")

    def __init__(self, hand: Hand) -> None:
        public = _Public(hand)
        self._public = public
        self._windows = {s: SeatWindow(hand, public, s) for s in hand.seats}

    def seat(self, seat: int) -> SeatWindow:
        """The window of ``seat``."""
        try:
            return self._windows[seat]
        except KeyError:
            raise KeyError(f"seat {seat} is not in this hand") from None


class SeatWindow:
    """One seat's window onto a live hand: public information and its own cards only."""

    __slots__ = ("_hand", "_public", "seat")

    def __init__(self, hand: Hand, public: _Public, seat: int) -> None:
        self._hand = hand
        self._public = public
        self.seat = seat

    # --------------------------------------------------------------- the table
    @property
    def rules(self) -> TableRules:
        return self._hand.rules

    @property
    def hand_id(self) -> str:
        return self._hand.hand_id

    @property
    def seats(self) -> tuple[int, ...]:
        """Every seat dealt in, in order."""
        return self._hand.seats

    @property
    def street(self) -> int:
        return self._hand.street

    @property
    def to_act(self) -> int | None:
        return self._hand.to_act

    @property
    def pot(self) -> int:
        """Every chip put in this hand, this street's bets included."""
        return self._hand.pot_total

    @property
    def current_bet(self) -> int:
        """What a call reaches on this street."""
        return self._hand.current_bet

    @property
    def community_card(self) -> Card | None:
        return self._hand.community_card

    @property
    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What this seat may do; empty when it is not its turn."""
        hand = self._hand
        return hand.legal_actions() if hand.to_act == self.seat else _NONE

    def live_seats(self) -> tuple[int, ...]:
        """Seats still in the hand (not folded), in seat order (the same tuple until
        somebody folds)."""
        public = self._public
        if public._seen != len(public._decisions):
            public.read_folds()
        return public.live

    def all_up_cards(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's up cards, in the order of :attr:`seats` (folded seats' too); the
        same tuple until a card is dealt face up, and each seat's the same tuple until
        it is dealt one."""
        public = self._public
        if public._street != self._hand.street:
            public.read_up_cards()
        ups = public.ups
        if ups is None:
            ups = public.ups = tuple(public.up.values())
        return ups

    def shown(self) -> Mapping[int, tuple[Card, ...]]:
        """Every seat's up cards by seat (folded seats' too), read-only and kept up to
        date; a seat's the same tuple until it is dealt another up card."""
        public = self._public
        if public._street != self._hand.street:
            public.read_up_cards()
        return public.shown

    def up_rank_counts(self) -> tuple[int, ...]:
        """How many up cards of each rank every seat shows together (folded seats too),
        indexed by rank (2 to 14, the ace 14)."""
        public = self._public
        if public._street != self._hand.street:
            public.read_up_cards()
        counts = public.counts
        if counts is None:
            counts = public.counts = tuple(public._counts)
        return counts

    # ------------------------------------------------------------------- seats
    @property
    def down_cards(self) -> tuple[Card, ...]:
        """This seat's own down cards."""
        return self._hand.down_cards(self.seat)

    def own_cards(self) -> tuple[Card, ...]:
        """This seat's own cards in the order dealt: down, down, up..., and the 7th
        street's down card (not the community card)."""
        public = self._public
        if public._street != self._hand.street:
            public.read_up_cards()
        return public.cards[self.seat]

    def others_down(self, seat: int) -> tuple[Card | None, ...]:
        """A seat's down cards as this seat sees them: its own, else ``None`` for each."""
        down = self._hand.down_cards(seat)
        return down if seat == self.seat else (None,) * len(down)

    def up_cards(self, seat: int) -> tuple[Card, ...]:
        return self._hand.up_cards(seat)

    def street_bet(self, seat: int) -> int:
        return self._hand.street_bet(seat)

    def stack(self, seat: int) -> int:
        return self._hand.stack(seat)

    def contributed(self, seat: int) -> int:
        return self._hand.contributed(seat)

    def is_folded(self, seat: int) -> bool:
        return self._hand.is_folded(seat)

    def is_all_in(self, seat: int) -> bool:
        return self._hand.is_all_in(seat)

    def view(self) -> HandView:
        """The full :class:`HandView` of this seat (slower: every seat copied)."""
        return self._hand.view(self.seat)


Decider = Callable[[SeatWindow], Action]
"""How :func:`play_fast` asks a seat's bot: given the seat's window, the action."""


def _by_view(bot: Bot) -> Decider:
    act = bot.act

    def run(window: SeatWindow) -> Action:
        return act(window.view())

    return run


def deciders(bots: Mapping[int, Bot]) -> dict[int, Decider]:
    """How each seat's bot is asked: by window if it can, else by a full view."""
    return {
        seat: bot.decide if isinstance(bot, FastBot) else _by_view(bot)
        for seat, bot in bots.items()
    }


def play_fast(
    hand: Hand, bots: Mapping[int, Bot], ask: Mapping[int, Decider] | None = None
) -> HandResult:
    """Let the bots play the hand to its end, as :func:`~stud8.tools.bots.base.play_hand`
    does, through windows where they can (``ask``: :func:`deciders` made once, to save
    the work on every hand)."""
    if ask is None:
        ask = deciders(bots)
    windows = HandWindows(hand)._windows
    apply = hand.apply
    while (seat := hand.to_act) is not None:
        apply(ask[seat](windows[seat]))
    assert hand.result is not None, "a hand with nobody to act is over"
    return hand.result
