"""Reading a Stud Hi/Lo hand for the rule-based bot: what its own cards are worth, and
what each opponent's up cards threaten.

The worth of a hand is a score, 0 (nothing) to about 4 (a monster), for the high and
for the low; see :func:`hand_points`. It is worked out from the hand's rank multiset
through a table built on demand (there are few multisets of four to seven cards in
practice), so reading a hand costs a few dictionary look-ups rather than an evaluation:
only a hand with five cards of a suit is evaluated in full (a flush, or better).

>>> from stud8.core.cards import parse_cards
>>> no_dead = [0] * 15
>>> own = read_own(parse_cards("As 2d 3c 4h 5s Kd"), 1, no_dead, 6)
>>> own.lock, own.low_top, round(own.lo, 1)   # a made wheel: the nut low
(True, 5, 3.5)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from stud8.core.cards import Card
from stud8.core.evaluate import HighCategory, evaluate_hi_lo

__all__ = [
    "Board",
    "Holding",
    "OwnHand",
    "board_of",
    "hand_points",
    "mark_down",
    "pair_of_three",
    "pair_rank",
    "read_own",
    "starting_tier",
    "third_street_tier",
]

# The categories as plain ints (an IntEnum member's comparisons cost more than the test).
HIGH_CARD = int(HighCategory.HIGH_CARD)
ONE_PAIR = int(HighCategory.ONE_PAIR)
TWO_PAIR = int(HighCategory.TWO_PAIR)
THREE_OF_A_KIND = int(HighCategory.THREE_OF_A_KIND)
STRAIGHT = int(HighCategory.STRAIGHT)
FULL_HOUSE = int(HighCategory.FULL_HOUSE)
FOUR_OF_A_KIND = int(HighCategory.FOUR_OF_A_KIND)

#: High-hand points by category, from five or more cards (one pair is scored by rank).
_HIGH_POINTS = {
    int(HighCategory.HIGH_CARD): 0.0,
    int(HighCategory.TWO_PAIR): 2.0,
    int(HighCategory.THREE_OF_A_KIND): 3.0,
    int(HighCategory.STRAIGHT): 3.3,
    int(HighCategory.FLUSH): 3.5,
    int(HighCategory.FULL_HOUSE): 4.0,
    int(HighCategory.FOUR_OF_A_KIND): 4.5,
    int(HighCategory.STRAIGHT_FLUSH): 5.0,
}
#: Made-low points by the low's top card (8 with a second card of 7 scores less).
_LOW_POINTS = {5: 3.5, 6: 3.0, 7: 2.4, 8: 1.6}


def _low(rank: int) -> int:
    """The rank with the ace low (1)."""
    return 1 if rank == 14 else rank


def _pair_points(rank: int) -> float:
    """One pair: 0.6 (deuces) to 1.4 (aces)."""
    return 0.6 + (rank - 2) * (0.8 / 12)


#: A card's rank as a count in a 3-bit field, by card code: the sum over some up cards
#: is their multiset of ranks (no rank is held more than four times).
_RANK_FIELD = tuple(1 << 3 * (code >> 2) for code in range(52))
#: A card's suit as a count in a 3-bit field, by card code (a hand has 7 cards at most).
_SUIT_FIELD = tuple(1 << 3 * (code & 3) for code in range(52))
#: The most cards of one suit, by the sum of the suit fields.
_MOST_OF_A_SUIT = tuple(max(key >> 3 * s & 7 for s in range(4)) for key in range(1 << 12))
#: Flush-draw points, by the cards still to come.
_FLUSH_DRAW = (0.0, 0.9, 1.3, 1.3, 1.3)


# ---------------------------------------------------------------- opponents
class Board:
    """What one opponent shows: its up cards read for high and for low. ``category``:
    0 nothing, 1 a pair, 2 two pair, 3 trips or more."""

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


_BOARDS: dict[int, Board] = {}  # by the multiset of ranks: there are few


def board_of(up: Sequence[Card]) -> Board:
    """The board of these up cards (shared: boards of the same ranks are one object)."""
    key = 0
    for c in up:
        key += _RANK_FIELD[c.code]
    board = _BOARDS.get(key)
    if board is None:
        board = _BOARDS[key] = Board(sorted([c.rank for c in up]))
    return board


# -------------------------------------------------------------- 3rd street
def pair_rank(cards: Sequence[Card]) -> int:
    """The highest rank held twice or more, or 0."""
    best = 0
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            if a.rank == b.rank and a.rank > best:
                best = a.rank
    return best


def pair_of_three(cards: Sequence[Card]) -> int:
    """:func:`pair_rank` of three cards, quickly."""
    a, b, c = cards[0].rank, cards[1].rank, cards[2].rank
    if a in (b, c):
        return a
    return b if b == c else 0


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


#: A starting hand's tier by its ranks and whether its cards are suited (index: the
#: three ranks as digits in base 13, doubled, plus 1 if suited): (the tier, the rank
#: whose dead cards matter: the pair's, or 1 for the low cards, or 0 for none; the tier
#: when that rank is dead; the pair's rank). Filled as hands are dealt.
_TIERS: list[tuple[float, int, float, int] | None] = [None] * (2 * 13**3)
_NO_DEAD = (0,) * 15


def _tier_entry(cards: Sequence[Card]) -> tuple[float, int, float, int]:
    pair = pair_of_three(cards)
    tier = starting_tier(cards, _NO_DEAD)
    if pair:
        dead = [0] * 15
        dead[pair] = 1
        return tier, pair, starting_tier(cards, dead), pair
    if all(_low(c.rank) <= 8 for c in cards):
        dead = [0] * 15
        dead[2] = 5
        return tier, 1, starting_tier(cards, dead), 0
    return tier, 0, tier, 0


def third_street_tier(
    cards: Sequence[Card], counts_of: Callable[[], Sequence[int]]
) -> tuple[float, int]:
    """:func:`starting_tier` and the pair's rank (0: none) of three cards as dealt (two
    down, the up card last); ``counts_of()`` gives the counts by rank of every up card
    on the table (this one's included), asked only when they matter (a pair, or three
    low cards)."""
    a, b, up = cards
    ca, cb, cc = a.code, b.code, up.code
    key = ((ca >> 2) * 169 + (cb >> 2) * 13 + (cc >> 2)) * 2 + (ca & 3 == cb & 3 == cc & 3)
    entry = _TIERS[key]
    if entry is None:
        entry = _TIERS[key] = _tier_entry((a, b, up))
    tier, rank, dead_tier, pair = entry
    if rank > 1:  # a pair: live unless another seat shows one of its rank
        if counts_of()[rank] - (up.rank == rank):
            return dead_tier, pair
    elif rank:  # three low cards: poorer with five or more low cards out
        counts = counts_of()
        out = counts[14] + counts[2] + counts[3] + counts[4] + counts[5] + counts[6]
        if out + counts[7] + counts[8] - (up.rank <= 8 or up.rank == 14) >= 5:
            return dead_tier, pair
    return tier, pair


# ------------------------------------------------------ 4th to 7th street
def _best_low(low_ranks: int) -> tuple[int, int]:
    """The best low of a set of low ranks (bit 1 the ace, bits 2 to 8): its top card and
    second card, or (0, 0) with fewer than five."""
    ranks = [r for r in range(1, 9) if low_ranks >> r & 1][:5]
    return (ranks[4], ranks[3]) if len(ranks) == 5 else (0, 0)


#: The low ranks missing from a set of low ranks (bit 1 the ace, bits 2 to 8), as ranks
#: (the ace 14).
_MISSING_LOW = tuple(
    tuple(14 if r == 1 else r for r in range(1, 9) if not m >> r & 1) for m in range(512)
)
#: _best_low by the set of low ranks held. A hand's set of ranks (bit i the rank i + 2,
#: the ace bit 12) gives its low ranks as ``(ranks & 0x7F) << 2 | (ranks >> 12 & 1) << 1``.
_BEST_LOW = tuple(_best_low(m) for m in range(512))


class OwnHand(NamedTuple):
    """The bot's own cards read, before the opponents' boards are taken into account:
    high points and category, low points, whether it is drawing, whether it holds a lock
    or near-lock (the nut low, a wheel, or four of a kind or better)."""

    category: int
    hi: float
    pair_rank: int  # one pair: its rank (other categories: their top rank, or 0)
    lo: float
    low_top: int  # the made low's top card (ace 1), 0 if none
    draw: bool
    lock: bool


_new_own = tuple.__new__  # an OwnHand without the Python-level __new__ of a NamedTuple


class Holding:
    """A player's own cards, read as they come (one a street): the sets of ranks held
    once, twice, three and four times, and the count of each suit. Reading them is a
    few bit operations; only five or four cards of a suit (a flush, or a flush draw)
    and a low draw one card short (whose outs depend on the cards seen) take more."""

    __slots__ = ("cards", "community", "pairs", "present", "quads", "suits", "trips")

    def __init__(self) -> None:
        self.cards: list[Card] = []  # the cards read, the community card last
        self.community: Card | None = None
        self.present = 0  # bit (rank - 2) for every rank held
        self.pairs = 0  # ... held twice or more
        self.trips = 0  # ... three times or more
        self.quads = 0  # ... four times
        self.suits = 0  # sum of _SUIT_FIELD

    def update(self, cards: Sequence[Card], community: Card | None = None) -> None:
        """Read the cards dealt since last read: the player's cards in the order dealt
        (they only grow), and the community card once it is dealt."""
        held = self.cards
        new = cards[len(held) - (self.community is not None) :]
        if community is not None and self.community is None:
            self.community = community
            new = (*new, community)
        present, pairs, trips, suits = self.present, self.pairs, self.trips, self.suits
        for c in new:
            code = c.code
            bit = 1 << (code >> 2)
            if present & bit:
                if pairs & bit:
                    if trips & bit:
                        self.quads |= bit
                    else:
                        trips |= bit
                else:
                    pairs |= bit
            else:
                present |= bit
            suits += _SUIT_FIELD[code]
        self.present, self.pairs, self.trips, self.suits = present, pairs, trips, suits
        held.extend(new)

    def read(self, left: int, seen: Callable[[], tuple[Sequence[int], int]]) -> OwnHand:
        """The reading with ``left`` cards still to come. ``seen()`` gives the cards the
        player has seen, asked only for the outs of a low draw: the other seats' up
        cards counted by rank (only the low ranks the hand lacks are looked at), and how
        many cards he has seen, his own included."""
        present = self.present
        pairs = self.pairs
        trips = self.trips
        quads = self.quads
        top_pair = pairs.bit_length() + 1 if pairs else 0
        pair = top_pair
        category = -1  # not yet known: below, trips, two pair, a pair or none
        low_top = low_second = 0
        if len(self.cards) >= 5:
            if quads:
                category = FOUR_OF_A_KIND
                pair = quads.bit_length() + 1
            elif trips and (trips & (trips - 1) or pairs & ~trips):
                category = FULL_HOUSE
                pair = trips.bit_length() + 1
            else:
                # five ranks in a row, the ace also below the deuce
                run = present << 1 | present >> 12 & 1
                run &= run >> 1 & run >> 2 & run >> 3 & run >> 4
                if run:
                    category = STRAIGHT
                    pair = run.bit_length() + 4
            low_top, low_second = _BEST_LOW[(present & 0x7F) << 2 | (present >> 12 & 1) << 1]
        if category < 0:  # (with trips alone, the top pair is the trips: pair says it)
            if trips:
                category = THREE_OF_A_KIND
            elif pairs & (pairs - 1):
                category = TWO_PAIR
            elif pairs:
                category = ONE_PAIR
            else:
                category = HIGH_CARD
        if category == ONE_PAIR:
            hi = _pair_points(pair)
        elif category == TWO_PAIR:
            hi = 2.3 if top_pair >= 11 else 2.0
        else:
            hi = _HIGH_POINTS[category]
        lock = quads != 0 or low_top == 5
        draw = False
        lo = 0.0
        short = 0
        low_draw = False
        if low_top:
            lo = _LOW_POINTS[low_top] - (0.4 if low_top == 8 and low_second >= 7 else 0.0)
            if left and low_top >= 7:
                lo += 0.2  # may still improve
        elif left:
            low_ranks = (present & 0x7F) << 2 | (present >> 12 & 1) << 1
            need = 5 - low_ranks.bit_count()
            if need <= left:
                if need == 1:
                    short = low_ranks  # its outs are counted below
                elif need == 2:
                    lo = 1.0 if left >= 3 else 0.4
                    draw = left >= 3
                    low_draw = True
                else:
                    lo = 0.3
        most = _MOST_OF_A_SUIT[self.suits]
        if most < 4 and not short:
            return _new_own(OwnHand, (category, hi, pair, lo, low_top, draw, lock))
        return _read_suits_and_outs(
            _new_own(OwnHand, (category, hi, pair, lo, low_top, draw, lock)),
            short,
            low_draw,
            most,
            left,
            self.cards,
            seen,
        )


def _read_suits_and_outs(
    own: OwnHand,
    short: int,
    low_draw: bool,
    most: int,
    left: int,
    cards: Sequence[Card],
    seen: Callable[[], tuple[Sequence[int], int]],
) -> OwnHand:
    """A reading by ranks completed: a flush or better (five cards of a suit), a flush
    draw (four), the points of a low draw one card short (``short``: its low ranks).
    ``low_draw``: a low draw two cards short decides alone whether the hand draws."""
    category, hi, pair, lo, low_top, draw, lock = own
    if most >= 5:  # a flush, or better: evaluate the hand itself
        high, _ = evaluate_hi_lo(cards)
        category = int(high.category)
        hi = _HIGH_POINTS[category]
        pair = high.ranks[0]
        lock = lock or category >= FOUR_OF_A_KIND
    # A four-flush still drawing.
    if left and most >= 4 and category < STRAIGHT:
        flush_draw = _FLUSH_DRAW[left]
        if flush_draw > hi:
            hi = flush_draw
        if not low_draw:
            draw = True
    if short:  # a low draw one card short: its outs among the unseen cards
        dead, cards_seen = seen()
        unseen = max(1, 52 - cards_seen)
        missing = _MISSING_LOW[short]
        outs = 4 * len(missing) - sum(map(dead.__getitem__, missing))
        miss = 1.0
        for k in range(left):
            miss *= max(0.0, 1.0 - outs / (unseen - k))
        quality = 0.3 if (short >> 7) == 0 else 0.0  # drawing to a 6-low or better
        lo = 2.5 * (1.0 - miss) + quality
        draw = True
    return _new_own(OwnHand, (category, hi, pair, lo, low_top, draw, lock))


def read_own(cards: Sequence[Card], left: int, dead: Sequence[int], seen: int) -> OwnHand:
    """Read four to seven cards with ``left`` still to come (see :meth:`Holding.read`)."""
    holding = Holding()
    holding.update(cards)
    return holding.read(left, lambda: (dead, seen))


def mark_down(own: OwnHand, boards: Sequence[Board]) -> tuple[float, float]:
    """High and low points of the hand against what the live opponents show (their
    ``boards``): scare cards mark a hand down."""
    category, hi, pair, lo, low_top, _, _ = own
    threat = 0
    four_low = False
    best_low_top = 9
    for b in boards:
        c = b.category
        if (c >= 2 or (c == 1 and b.pair_rank > pair)) and c > threat:
            threat = c
        if b.low_count >= 4:
            four_low = True
            if b.low_top < best_low_top:
                best_low_top = b.low_top
    if category == ONE_PAIR:
        if threat:
            hi *= 0.4
        elif four_low:
            hi *= 0.6
        if len(boards) >= 3:
            hi *= 0.8
    elif category == TWO_PAIR and threat >= 2:
        hi *= 0.5
    elif category == THREE_OF_A_KIND and threat >= 3:
        hi *= 0.6
    if four_low and low_top and best_low_top < low_top:
        lo *= 0.5
    return hi, lo


def hand_points(
    cards: Sequence[Card],
    left: int,
    dead: Sequence[int],
    seen: int,
    boards: Sequence[Board],
) -> tuple[float, float, bool]:
    """Points for the high hand and for the low (0 to about 4), and whether the hand
    is drawing (to a low or a flush), from four to seven cards.

    >>> from stud8.core.cards import parse_cards
    >>> hand_points(parse_cards("9c 9d 4h 4s Kc"), 2, [0] * 15, 5, [])  # two pair
    (2.0, 0.0, False)
    """
    own = read_own(cards, left, dead, seen)
    hi, lo = mark_down(own, boards)
    return hi, lo, own.draw
