"""A lean, live view of a hand for one seat, and a fast loop that plays bots through it.

:meth:`stud8.core.hand.Hand.view` copies the whole table into frozen records at every
decision (tens of microseconds); a simulation of thousands of hands a second cannot
afford that. A :class:`SeatWindow` answers the same questions on demand, one at a time,
and only those its seat may ask: its own down cards, every up card, the community card,
who has folded, every bet, stack and the pot, and its legal actions when it is to act.
Another seat's down cards are never given: asked for them, it answers ``None`` for each
(the showdown is not a time to decide). It keeps no copy of anything, so a bot that
wants to save work caches what it computed (a window lives for one hand: its identity
is a good cache key).

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

from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable

from stud8.core import Hand, HandResult
from stud8.core.actions import Action, ActionKind, LegalAction
from stud8.core.cards import Card
from stud8.core.rules import TableRules
from stud8.core.views import HandView
from stud8.tools.bots.base import Bot

__all__ = ["FastBot", "HandWindows", "SeatWindow", "deciders", "play_fast"]

_FOLD = ActionKind.FOLD
_NONE: tuple[LegalAction, ...] = ()


class _Public:
    """What a hand's windows share: public facts worked out once (who folded; each
    street's up cards). It holds no window, so a hand is freed as soon as it is done."""

    __slots__ = ("counts", "hand", "live", "seen", "street", "ups")

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.live: tuple[int, ...] = hand.live_seats()
        self.seen = len(hand.decisions)
        self.street = 0  # the street ups and counts are for
        self.ups: tuple[tuple[Card, ...], ...] = ()
        self.counts: tuple[int, ...] = ()

    def live_seats(self) -> tuple[int, ...]:
        """Seats not folded, brought up to date from the decisions made since last asked."""
        decisions = self.hand.decisions
        n = len(decisions)
        if n != self.seen:
            hand = self.hand
            live = self.live
            for i in range(self.seen, n):
                seat, action = decisions[i]
                # a fold, or a timeout (which may fold)
                if (action is None or action.kind is _FOLD) and hand.is_folded(seat):
                    live = tuple(s for s in live if s != seat)
            self.live = live
            self.seen = n
        return self.live

    def refresh(self) -> None:
        """Read the up cards again if a street has been dealt since."""
        hand = self.hand
        if hand.street != self.street:
            self.street = hand.street
            up_cards = hand.up_cards
            self.ups = ups = tuple(up_cards(s) for s in hand.seats)
            counts = [0] * 15
            for up in ups:
                for c in up:
                    counts[c.rank] += 1
            self.counts = tuple(counts)


class HandWindows:
    """The windows of one hand, one per seat."""

    __slots__ = ("_public", "_windows")

    def __init__(self, hand: Hand) -> None:
        public = _Public(hand)
        self._public = public
        self._windows = {s: SeatWindow(public, s) for s in hand.seats}

    def seat(self, seat: int) -> SeatWindow:
        """The window of ``seat``."""
        try:
            return self._windows[seat]
        except KeyError:
            raise KeyError(f"seat {seat} is not in this hand") from None


class SeatWindow:
    """One seat's window onto a live hand: public information and its own cards only."""

    __slots__ = ("_hand", "_public", "seat")

    def __init__(self, public: _Public, seat: int) -> None:
        self._public = public
        self._hand = public.hand
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
        """Seats still in the hand (not folded), in seat order."""
        return self._public.live_seats()

    def all_up_cards(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's up cards, in the order of :attr:`seats` (folded seats' too)."""
        public = self._public
        if public.street != self._hand.street:
            public.refresh()
        return public.ups

    def up_rank_counts(self) -> tuple[int, ...]:
        """How many up cards of each rank every seat shows together (folded seats too),
        indexed by rank (2 to 14, the ace 14)."""
        public = self._public
        if public.street != self._hand.street:
            public.refresh()
        return public.counts

    # ------------------------------------------------------------------- seats
    @property
    def down_cards(self) -> tuple[Card, ...]:
        """This seat's own down cards."""
        return self._hand.down_cards(self.seat)

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


@runtime_checkable
class FastBot(Bot, Protocol):
    """A bot that can also decide from a :class:`SeatWindow` (the same choice as ``act``)."""

    def decide(self, window: SeatWindow) -> Action: ...


Decider = Callable[[Hand, HandWindows, int], Action]


def _by_window(bot: FastBot) -> Decider:
    decide = bot.decide

    def run(hand: Hand, windows: HandWindows, seat: int) -> Action:
        return decide(windows.seat(seat))

    return run


def _by_view(bot: Bot) -> Decider:
    act = bot.act

    def run(hand: Hand, windows: HandWindows, seat: int) -> Action:
        return act(hand.view(seat))

    return run


def deciders(bots: Mapping[int, Bot]) -> dict[int, Decider]:
    """How each seat's bot is asked: by window if it can, else by a full view."""
    return {
        seat: _by_window(bot) if isinstance(bot, FastBot) else _by_view(bot)
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
    windows = HandWindows(hand)
    apply = hand.apply
    while True:
        seat = hand.to_act
        if seat is None:
            break
        apply(ask[seat](hand, windows, seat))
    assert hand.result is not None, "a hand with nobody to act is over"
    return hand.result
