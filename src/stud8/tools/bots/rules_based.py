"""A rule-based Stud Hi/Lo player: plain, solid poker from hand-written rules.

It sees only what its seat sees (its own down cards, every up card, the pot and
the bets) and decides in a few microseconds, without simulation:

* **3rd street**: plays three to a low (better with an ace or wheel cards), rolled-up
  trips, big live pairs, a low pair with an ace, three suited low cards; folds
  rubbish such as K-9-4 offsuit when someone has completed; brings in (never
  completes) with junk; completes or raises with its best hands.
* **4th to 7th street**: scores its high hand and its low (made or drawing), counts
  the cards it has seen for its outs, and marks its hand down against scare cards (a
  pair showing over its pair, four low cards showing over a weak hand). Bets and
  raises for value with made hands (a made 8-low or better with a pair, two pair or
  better, a made wheel), keeps drawing to a low while the pot pays for it, gives up
  busted draws without a high hand, and never folds when it can check.

>>> import random
>>> from stud8.core import Deck, Hand, TableRules
>>> rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
>>> # Seat 1 is dealt rolled-up queens; seat 2 brings in with the 2c.
>>> hand = Hand.start(rules=rules, stacks={1: 100, 2: 100},
...                   deck=Deck.from_cards("Qs 9d Qh 8c Qd 2c"))
>>> bot = RuleBasedBot(random.Random(1))
>>> _ = hand.apply(bot.act(hand.view(2)))   # junk: it brings in, it does not complete
>>> hand.events[-1]
BringInPosted(seat=2, amount=2, all_in=False)
>>> bot.act(hand.view(1))                   # trips: it completes
Complete(to=4)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from stud8.core.actions import Action, ActionKind, LegalAction
from stud8.core.cards import Card
from stud8.core.evaluate import HighCategory, evaluate_hi_lo
from stud8.core.views import HandView, SeatView
from stud8.tools.bots.base import aggressive_action, give_up, passive_action

if TYPE_CHECKING:
    from stud8.tools.bots.window import SeatWindow

_FOLD = ActionKind.FOLD
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_BRING_IN = ActionKind.BRING_IN
_COMPLETE = ActionKind.COMPLETE
_BET = ActionKind.BET
_RAISE = ActionKind.RAISE

#: High-hand points by category, from five or more cards (one pair is scored by rank).
_HIGH_POINTS = {
    HighCategory.HIGH_CARD: 0.0,
    HighCategory.TWO_PAIR: 2.0,
    HighCategory.THREE_OF_A_KIND: 3.0,
    HighCategory.STRAIGHT: 3.3,
    HighCategory.FLUSH: 3.5,
    HighCategory.FULL_HOUSE: 4.0,
    HighCategory.FOUR_OF_A_KIND: 4.5,
    HighCategory.STRAIGHT_FLUSH: 5.0,
}
# The categories as plain names (an enum member's lookup costs more than the test).
_HIGH_CARD = HighCategory.HIGH_CARD
_ONE_PAIR = HighCategory.ONE_PAIR
_TWO_PAIR = HighCategory.TWO_PAIR
_THREE_OF_A_KIND = HighCategory.THREE_OF_A_KIND
_STRAIGHT = HighCategory.STRAIGHT
#: Made-low points by the low's top card (8 with a second card of 7 scores less).
_LOW_POINTS = {5: 3.5, 6: 3.0, 7: 2.4, 8: 1.6}


def _low(rank: int) -> int:
    """The rank with the ace low (1)."""
    return 1 if rank == 14 else rank


#: A card's low rank as a bit (ace 1 to 8), by card code; 0 for a 9 or above.
_LOW_BIT = tuple(
    (1 << low if (low := 1 if code >> 2 == 12 else (code >> 2) + 2) <= 8 else 0)
    for code in range(52)
)


def _pair_points(rank: int) -> float:
    """One pair: 0.6 (deuces) to 1.4 (aces)."""
    return 0.6 + (rank - 2) * (0.8 / 12)


class _Board:
    """What one opponent shows: its up cards read for high and for low."""

    __slots__ = ("category", "low_count", "low_top", "pair_rank")

    def __init__(self, ranks: Sequence[int]) -> None:
        counts: dict[int, int] = {}
        for r in ranks:
            counts[r] = counts.get(r, 0) + 1
        most = max(counts.values(), default=0)
        pairs = [r for r, n in counts.items() if n >= 2]
        if most >= 3:
            self.category = 3
        elif len(pairs) >= 2:
            self.category = 2
        else:
            self.category = len(pairs)
        self.pair_rank = max(pairs, default=0)
        lows = {_low(r) for r in counts if _low(r) <= 8}
        self.low_count = len(lows)
        self.low_top = max(lows, default=0)


_BOARDS: dict[int, _Board] = {}  # by the multiset of ranks: there are few
#: A card's rank as a count in a 3-bit field: the sum over cards is a multiset of ranks.
_RANK_FIELD = tuple(1 << 3 * (code >> 2) for code in range(52))


def _board(up: Sequence[Card]) -> _Board:
    key = 0
    for c in up:
        key += _RANK_FIELD[c.code]
    board = _BOARDS.get(key)
    if board is None:
        board = _BOARDS[key] = _Board(sorted([c.rank for c in up]))
    return board


# The boards of every seat for the last street seen, shared by the bots of a process:
# (every seat's up cards, as the hand's windows share them; their boards).
_last_boards: tuple[tuple[tuple[Card, ...], ...], list[_Board]] = ((), [])


def _boards_of(ups: tuple[tuple[Card, ...], ...]) -> list[_Board]:
    """The boards of these up cards (the same tuple as last time: the same boards)."""
    global _last_boards
    seen, boards = _last_boards
    if seen is not ups:
        boards = [_board(up) for up in ups]
        _last_boards = (ups, boards)
    return boards


class _Table(Protocol):
    """What the street methods read of the table (a HandView or a SeatWindow)."""

    @property
    def pot(self) -> int: ...

    @property
    def current_bet(self) -> int: ...


class RuleBasedBot:
    """A sensible fixed-limit Stud Hi/Lo player built from rules (see the module doc).

    It decides from a :class:`~stud8.core.views.HandView` (:meth:`act`) or, the same
    way but faster, from a :class:`~stud8.tools.bots.window.SeatWindow` (:meth:`decide`),
    working out its cards' worth once a street (again only if someone folds).
    """

    name = "rules"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        # decide(): what was worked out for this window's hand, on this street
        self._window: SeatWindow | None = None
        self._street = 0
        self._mine: list[Card] = []
        self._dead: list[int] = []
        self._tier = 0.0
        self._pair = 0
        self._live: tuple[int, ...] | None = None  # the live seats the value was for
        self._value = 0.0
        self._draw = False
        self._opponents = 0

    # ------------------------------------------------------------------ act
    def act(self, view: HandView) -> Action:
        seat = view.viewer
        legal = {a.kind: a for a in view.legal_actions}
        if seat is None or not legal:
            raise ValueError("a bot acts only on its own turn, with its seat's view")
        me: SeatView | None = None
        dead = [0] * 15  # up cards of the other seats, by rank (ace 14)
        boards: list[_Board] = []
        for s in view.seats:
            if s.seat == seat:
                me = s
                continue
            for c in s.up_cards:
                dead[c.rank] += 1
            if not s.folded:
                boards.append(_board(s.up_cards))
        assert me is not None
        mine = [c for c in me.down_cards if c is not None]
        mine.extend(me.up_cards)
        if view.community_card is not None:
            mine.append(view.community_card)
        if view.street == 3 and len(mine) == 3:

            def raised_over(pair: int) -> bool:
                return any(
                    s.bet == view.current_bet and s.up_cards and s.up_cards[0].rank > pair
                    for s in view.seats
                    if s.seat != seat and not s.folded
                )

            tier = starting_tier(mine, dead)
            action = self._third_street(legal, tier, mine, view, raised_over)
        else:
            value, draw = _later_value(mine, dead, boards)
            action = self._later_street(legal, value, draw, len(boards), view, view.street)
        if action.kind is _FOLD and _CHECK in legal:
            return legal[_CHECK].action()  # never fold for free
        return action

    def decide(self, window: SeatWindow) -> Action:
        """The same choice as :meth:`act`, from a window, reusing this street's work."""
        seat = window.seat
        legal = {a.kind: a for a in window.legal_actions}
        if not legal:
            raise ValueError("a bot acts only on its own turn")
        street = window.street
        if window is not self._window or street != self._street:
            self._window = window
            self._street = street
            self._live = None
            up = window.up_cards(seat)
            dead = list(window.up_rank_counts())  # every up card, less our own
            for c in up:
                dead[c.rank] -= 1
            mine = list(window.down_cards)
            mine.extend(up)
            community = window.community_card
            if community is not None:
                mine.append(community)
            self._mine = mine
            self._dead = dead
            if street == 3 and len(mine) == 3:
                self._tier = starting_tier(mine, dead)
                self._pair = _pair_rank(mine)
        mine = self._mine
        if street == 3 and len(mine) == 3:
            current = window.current_bet

            def raised_over(pair: int) -> bool:
                return any(
                    window.street_bet(s) == current and window.up_cards(s)[0].rank > pair
                    for s in window.live_seats()
                    if s != seat and window.up_cards(s)
                )

            action = self._third_street(legal, self._tier, mine, window, raised_over, self._pair)
        else:
            live = window.live_seats()
            if live is not self._live:
                self._live = live
                every = _boards_of(window.all_up_cards())
                boards = [
                    b for s, b in zip(window.seats, every, strict=True) if s != seat and s in live
                ]
                self._value, self._draw = _later_value(mine, self._dead, boards)
                self._opponents = len(boards)
            action = self._later_street(
                legal, self._value, self._draw, self._opponents, window, street
            )
        if action.kind is _FOLD and _CHECK in legal:
            return legal[_CHECK].action()  # never fold for free
        return action

    # ------------------------------------------------------------ 3rd street
    def _third_street(
        self,
        legal: dict[ActionKind, LegalAction],
        tier: float,
        mine: list[Card],
        table: _Table,
        raised_over: Callable[[int], bool],
        pair: int | None = None,
    ) -> Action:
        """``raised_over(rank)``: whether a live opponent who has completed or raised to
        the current bet shows a card above ``rank``."""
        current_bet = table.current_bet
        to_call = legal[_CALL].adds if _CALL in legal else 0
        if _BRING_IN in legal or _COMPLETE in legal:
            level = 0  # nobody has completed yet
        elif _RAISE in legal:
            size = legal[_RAISE].min_to or 0
            size -= current_bet
            level = current_bet // size if size > 0 else 4
        else:
            level = 4  # capped
        if level and tier < 3.5:
            # Scare card: somebody completed or raised showing a card above our pair.
            if pair is None:
                pair = _pair_rank(mine)
            if pair and raised_over(pair):
                tier -= 1.0
        aggressive = aggressive_action(legal)
        if tier >= 3.5:  # rolled-up trips, aces: build the pot
            return aggressive or passive_action(legal)
        if tier >= 3.0:
            if level <= 1 and aggressive is not None:
                return aggressive
            return passive_action(legal)
        if tier >= 2.0:
            if level == 0 and aggressive is not None and self.rng.random() < 0.85:
                return aggressive
            if level <= 1 or (level == 2 and tier >= 2.5):
                return passive_action(legal)
            return give_up(legal)
        if _BRING_IN in legal:
            return legal[_BRING_IN].action()  # the forced bet: never complete with junk
        if tier >= 1.5:
            if level <= 1:
                return passive_action(legal)
            return give_up(legal)
        if tier >= 1.0 and level == 0 and to_call <= table.pot // 3:
            return passive_action(legal)  # a cheap look for the bring-in only
        return give_up(legal)

    # ------------------------------------------------------- 4th to 7th street
    def _later_street(
        self,
        legal: dict[ActionKind, LegalAction],
        value: float,
        draw: bool,
        opponents: int,
        table: _Table,
        street: int,
    ) -> Action:
        to_call = legal[_CALL].adds if _CALL in legal else 0
        aggressive = aggressive_action(legal)
        if value >= 3.0:
            return aggressive or passive_action(legal)
        level = _bet_level(table.current_bet, legal, to_call)
        if value >= 2.0:
            if aggressive is not None and (level == 0 or (level == 1 and value >= 2.5)):
                return aggressive
            return passive_action(legal)
        if to_call == 0:
            heads_up_bet = aggressive is not None and value >= 1.5 and opponents == 1
            if heads_up_bet and self.rng.random() < 0.5:
                assert aggressive is not None
                return aggressive
            return give_up(legal)
        odds = table.pot / to_call
        if value >= 1.2 and (level <= 1 or odds >= 5):
            return passive_action(legal)
        if draw and odds >= 4:
            return passive_action(legal)
        if value >= 0.6 and odds >= 6 and (street < 7 or opponents == 1):
            return passive_action(legal)
        return give_up(legal)


def _later_value(
    mine: Sequence[Card], dead: Sequence[int], boards: Sequence[_Board]
) -> tuple[float, bool]:
    """The worth of the hand from 4th street on (high and low together), and whether
    it is drawing."""
    n = len(mine)
    left = max(0, 7 - n)  # cards still to come
    seen = n + sum(dead)
    hi, lo, draw = hand_points(mine, left, dead, seen, boards)
    value = max(hi, lo) + 0.5 * min(hi, lo)
    if len(boards) == 1:
        value += 0.2  # heads-up, hands go down in value less
    return value, draw


def _pair_rank(cards: Sequence[Card]) -> int:
    """The highest rank held twice or more, or 0."""
    best = 0
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            if a.rank == b.rank and a.rank > best:
                best = a.rank
    return best


def _bet_level(current_bet: int, legal: dict[ActionKind, LegalAction], to_call: int) -> int:
    """Bets and raises so far on the street (0 unopened, 1 one bet, 2 raised...)."""
    if current_bet == 0:
        return 0
    for kind in (_RAISE, _BET):
        a = legal.get(kind)
        if a is not None and a.min_to is not None and not a.all_in:
            size = a.min_to - current_bet
            if size > 0:
                return -(-current_bet // size)
    return 4 if to_call else 1


def starting_tier(cards: Sequence[Card], dead: Sequence[int]) -> float:
    """The worth of three 3rd-street cards: 0 (junk) to 4 (rolled-up trips).

    ``dead`` counts the up cards of the other seats by rank (ace 14).

    >>> from stud8.core.cards import parse_cards
    >>> no_dead = [0] * 15
    >>> starting_tier(parse_cards("Kd 9c 4s"), no_dead)
    0.0
    >>> starting_tier(parse_cards("7c 7d 7s"), no_dead)
    4.0
    >>> starting_tier(parse_cards("As 2d 3c"), no_dead)
    3.0
    """
    a, b, c = cards
    ra, rb, rc = a.rank, b.rank, c.rank
    if ra == rb == rc:
        return 4.0
    pair = ra if ra in (rb, rc) else (rb if rb == rc else 0)
    if pair:
        kicker = rc if ra == rb else (rb if ra == rc else ra)
        if pair == 14:
            return 3.5
        live = dead[pair] == 0
        if pair >= 11:
            return 3.0 if live else 2.0
        if pair <= 8 and _low(kicker) <= 8:
            # A low pair with a low card: two to a low; with an ace it is a real hand.
            return (2.0 if kicker == 14 else 1.5) if live else 1.0
        if pair >= 9:
            return 1.5 if live else 0.5
        return 1.0 if live else 0.0
    la = 1 if ra == 14 else ra
    lb = 1 if rb == 14 else rb
    lc = 1 if rc == 14 else rc
    lows = (la <= 8) + (lb <= 8) + (lc <= 8)  # how many low cards (an ace is one)
    if lows == 3:
        top = max(la, lb, lc)
        ace = la == 1 or lb == 1 or lc == 1
        dead_low = dead[14] + dead[2] + dead[3] + dead[4] + dead[5] + dead[6] + dead[7] + dead[8]
        if top <= 5:
            tier = 3.0
        elif top <= 7:
            tier = 3.0 if ace else 2.5
        else:
            tier = 2.0 if ace else 1.5
        if dead_low >= 5:  # many low cards already out: the draw is poorer
            tier -= 0.5
        return tier
    if lows >= 2 and a.suit == b.suit == c.suit:
        return 1.5
    if lows == 2 and (la == 1 or lb == 1 or lc == 1):
        return 1.0  # an ace and a low card
    return 0.0


def hand_points(
    cards: Sequence[Card],
    left: int,
    dead: Sequence[int],
    seen: int,
    boards: Sequence[_Board],
) -> tuple[float, float, bool]:
    """Points for the high hand and for the low (0 to about 4), and whether the hand
    is drawing (to a low or a flush), from four to seven cards."""
    n = len(cards)
    counts = [0] * 15
    suits = [0, 0, 0, 0]
    low_ranks = 0  # bit set of the distinct low ranks held (ace 1)
    low_bit = _LOW_BIT
    for c in cards:
        code = c.code
        counts[(code >> 2) + 2] += 1
        suits[code & 3] += 1
        low_ranks |= low_bit[code]
    pair_rank = 0
    if n >= 5:
        high, low = evaluate_hi_lo(cards)
        category = high.category
        if category == _ONE_PAIR:
            pair_rank = high.ranks[0]
            hi = _pair_points(pair_rank)
        else:
            hi = _HIGH_POINTS[category]
            if category == _TWO_PAIR and high.ranks[0] >= 11:
                hi += 0.3
            pair_rank = high.ranks[0] if category != _HIGH_CARD else 0
    else:
        low = None
        most = max(counts)
        pairs = [r for r in range(2, 15) if counts[r] >= 2]
        if most >= 3:
            category, hi = _THREE_OF_A_KIND, 3.0
        elif len(pairs) >= 2:
            category, hi = _TWO_PAIR, 2.0 + (0.3 if pairs[-1] >= 11 else 0.0)
        elif pairs:
            category, hi = _ONE_PAIR, _pair_points(pairs[0])
        else:
            category, hi = _HIGH_CARD, 0.0
        pair_rank = pairs[-1] if pairs else 0
    draw = False
    # A four-flush still drawing.
    if left and category < _STRAIGHT and max(suits) >= 4:
        hi = max(hi, 1.3 if left >= 2 else 0.9)
        draw = True
    # Scare cards against the high hand.
    threat = 0
    four_low = False
    best_low_top = 9
    for b in boards:
        if b.category >= 2 or (b.category == 1 and b.pair_rank > pair_rank):
            threat = max(threat, b.category)
        if b.low_count >= 4:
            four_low = True
            best_low_top = min(best_low_top, b.low_top)
    if category == _ONE_PAIR:
        if threat:
            hi *= 0.4
        elif four_low:
            hi *= 0.6
        if len(boards) >= 3:
            hi *= 0.8
    elif category == _TWO_PAIR and threat >= 2:
        hi *= 0.5
    elif category == _THREE_OF_A_KIND and threat >= 3:
        hi *= 0.6
    # The low.
    lo = 0.0
    if low is not None:
        top, second = low.ranks[0], low.ranks[1]
        lo = _LOW_POINTS[top] - (0.4 if top == 8 and second >= 7 else 0.0)
        if left and top >= 7:
            lo += 0.2  # may still improve
        if four_low and best_low_top < top:
            lo *= 0.5
    elif left:
        have = low_ranks.bit_count()
        need = 5 - have
        if need <= left:
            unseen = max(1, 52 - seen)
            outs = 0
            for r in range(1, 9):
                if not low_ranks >> r & 1:
                    outs += 4 - dead[14 if r == 1 else r] - counts[14 if r == 1 else r]
            if need == 1:
                miss = 1.0
                for k in range(left):
                    miss *= max(0.0, 1.0 - outs / (unseen - k))
                quality = 0.3 if (low_ranks >> 7) == 0 else 0.0  # drawing to a 6-low or better
                lo = 2.5 * (1.0 - miss) + quality
                draw = True
            elif need == 2:
                lo = 1.0 if left >= 3 else 0.4
                draw = left >= 3
            else:
                lo = 0.3
    return hi, lo, draw
