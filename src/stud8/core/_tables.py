"""Lookup tables behind :mod:`stud8.core.evaluate` (internal; plain integers only).

Everything here is built on demand by :func:`build_tables` and :func:`build_razz_tables`,
never at import. The encodings, which a batch evaluator must reproduce:

Card key
    Card ``code`` (``(rank - 2) * 4 + suit``) has the key
    ``5 ** (code >> 2) + (1 << (31 + 3 * (code & 3))) + (1 << (43 + code))``. A rank
    appears at most four times, so the low 31 bits of the sum of the keys of up to seven
    distinct cards, the *rank key* ``sum(5 ** rank_index)``, identify the rank multiset
    (base-5 digits, ``7 * 5 ** 12 < 2 ** 31``); bits 31 to 42 hold a 3-bit count per suit
    (the *suit key*); from bit 43 up there is one bit per card, and fewer set bits than
    cards means that a card was given twice (adding a bit twice carries).

High strength
    The rank, from 1 (7-5-4-3-2 of mixed suits) to 7,462 (royal flush), of the hand among
    the 7,462 distinct five-card high values, sorted by category and then by the ranks in
    order of significance (the wheel straight's ranks are ``(5, 4, 3, 2, 14)``, below the
    six-high straight). It equals 7,463 minus Cactus Kev's classic equivalence number.

Low strength
    0 when there is no 8-or-better low, else 1 (8-7-6-5-4) to 56 (5-4-3-2-A): the rank of
    the low among the 56 sets of five distinct ranks from A (1) to 8, compared from the
    highest card down.

Razz strength
    1 (four kings with a queen) to 6,175 (5-4-3-2-A): the rank of the five-card ace-to-five
    low among the 6,175 rank multisets, no-pair hands best, then one pair, two pair, three
    of a kind, full house, four of a kind, each compared from the most significant rank
    down (the ace counts 1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import combinations, combinations_with_replacement

SUIT_SHIFT = 31
RANK_MASK = (1 << SUIT_SHIFT) - 1
POW5: tuple[int, ...] = tuple(5**i for i in range(13))
CARD_SHIFT = SUIT_SHIFT + 12
CARD_KEYS: tuple[int, ...] = tuple(
    POW5[code >> 2] + (1 << (SUIT_SHIFT + 3 * (code & 3))) + (1 << (CARD_SHIFT + code))
    for code in range(52)
)

# Category numbers, the values of evaluate.HighCategory.
HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

_DESC = tuple(range(14, 1, -1))  # ranks, ace high, highest first
# (ranks in order of significance, 13-bit mask with bit rank-2) of the ten straights.
STRAIGHTS: tuple[tuple[tuple[int, ...], int], ...] = (
    *((tuple(range(top, top - 5, -1)), 0b11111 << (top - 6)) for top in range(14, 5, -1)),
    ((5, 4, 3, 2, 14), (1 << 12) | 0b1111),
)
_STRAIGHT_RANKS = frozenset(frozenset(r) for r, _ in STRAIGHTS)

HighClass = tuple[int, tuple[int, ...]]  # (category, ranks in order of significance)


def _unpaired() -> Iterator[tuple[int, ...]]:
    for ranks in combinations(_DESC, 5):
        if frozenset(ranks) not in _STRAIGHT_RANKS:
            yield ranks


def high_classes() -> list[HighClass]:
    """The 7,462 distinct five-card high values, weakest first (strength = index + 1)."""
    out: list[HighClass] = []
    for ranks in _unpaired():
        out.append((HIGH_CARD, ranks))
        out.append((FLUSH, ranks))
    for p in _DESC:
        rest = [r for r in _DESC if r != p]
        out.extend((ONE_PAIR, (p, p, *k)) for k in combinations(rest, 3))
        out.extend((TRIPS, (p, p, p, *k)) for k in combinations(rest, 2))
        out.extend((FULL_HOUSE, (p, p, p, q, q)) for q in rest)
        out.extend((QUADS, (p, p, p, p, q)) for q in rest)
    for hi, lo in combinations(_DESC, 2):
        out.extend((TWO_PAIR, (hi, hi, lo, lo, k)) for k in _DESC if k not in (hi, lo))
    for ranks, _ in STRAIGHTS:
        out.append((STRAIGHT, ranks))
        out.append((STRAIGHT_FLUSH, ranks))
    out.sort()
    return out


def low_classes() -> list[tuple[int, ...]]:
    """The 56 lows (ranks highest first, ace 1), weakest first (strength = index + 1)."""
    return sorted(combinations(range(8, 0, -1), 5), reverse=True)


def _grouped(ranks: Iterable[int]) -> tuple[list[int], tuple[int, ...]]:
    """(group sizes, ranks in order of significance): biggest group first, then highest."""
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return [counts[r] for r in order], tuple(r for r in order for _ in range(counts[r]))


_PATTERN_CATEGORY = {
    (4, 1): QUADS,
    (3, 2): FULL_HOUSE,
    (3, 1, 1): TRIPS,
    (2, 2, 1): TWO_PAIR,
    (2, 1, 1, 1): ONE_PAIR,
    (1, 1, 1, 1, 1): HIGH_CARD,
}


def unsuited_class(ranks: Iterable[int]) -> HighClass:
    """The high value of five cards of these ranks when they are not a flush."""
    sizes, ordered = _grouped(ranks)
    category = _PATTERN_CATEGORY[tuple(sizes)]
    if category == HIGH_CARD:
        for straight, _ in STRAIGHTS:
            if set(straight) == set(ordered):
                return STRAIGHT, straight
    return category, ordered


def flush_class(mask: int) -> HighClass:
    """The best five-card high value among suited cards with these ranks (bit rank - 2)."""
    for ranks, smask in STRAIGHTS:
        if mask & smask == smask:
            return STRAIGHT_FLUSH, ranks
    return FLUSH, tuple(r for r in _DESC if mask >> (r - 2) & 1)[:5]


def _multisets(size: int) -> Iterator[tuple[int, ...]]:
    """Rank-index multisets (indexes 0..12, ascending) with no index more than 4 times."""
    for combo in combinations_with_replacement(range(13), size):
        if size < 5 or all(combo[i] != combo[i + 4] for i in range(size - 4)):
            yield combo


def _extend(high: dict[int, int], low: dict[int, int]) -> tuple[dict[int, int], dict[int, int]]:
    """From the best values of every n-card rank multiset, those of every (n+1)-card one.

    The best of n+1 cards is the best over the n-card multisets it contains, i.e. over
    the multisets of the tables that reach it by adding one rank.
    """
    out_high: dict[int, int] = {}
    out_low: dict[int, int] = {}
    get_high, get_low = out_high.get, out_low.get
    for key, h in high.items():
        lo = low[key]
        for p in POW5:
            if key // p % 5 != 4:
                k = key + p
                if get_high(k, 0) < h:
                    out_high[k] = h
                if get_low(k, -1) < lo:
                    out_low[k] = lo
    return out_high, out_low


class Tables:
    """The stud high/low tables, as plain integers (see the module docstring)."""

    __slots__ = ("flush", "flush_suit", "high", "high_classes", "low", "low_classes")

    def __init__(self) -> None:
        self.high_classes = high_classes()
        self.low_classes = low_classes()
        strength_of = {c: i + 1 for i, c in enumerate(self.high_classes)}
        low_of = {c: i + 1 for i, c in enumerate(self.low_classes)}
        high5: dict[int, int] = {}
        low5: dict[int, int] = {}
        for combo in _multisets(5):
            key = sum(POW5[i] for i in combo)
            high5[key] = strength_of[unsuited_class(i + 2 for i in combo)]
            lows = sorted({1 if i == 12 else i + 2 for i in combo}, reverse=True)
            low5[key] = low_of.get(tuple(lows), 0) if lows[0] <= 8 else 0
        high6, low6 = _extend(high5, low5)
        high7, low7 = _extend(high6, low6)
        #: rank key of 5, 6 or 7 cards -> best high strength when not using a flush
        self.high: dict[int, int] = {**high5, **high6, **high7}
        #: rank key -> low strength (0: no 8-or-better low)
        self.low: dict[int, int] = {**low5, **low6, **low7}
        #: suit key -> the suit index holding five or more cards, else -1
        self.flush_suit: list[int] = [-1] * 4096
        for skey in range(4096):
            for s in range(4):
                if skey >> (3 * s) & 7 >= 5:
                    self.flush_suit[skey] = s
                    break
        #: 13-bit rank mask of one suit's cards -> best flush strength (0: fewer than 5)
        self.flush: list[int] = [0] * 8192
        for mask in range(8192):
            if mask.bit_count() >= 5:
                self.flush[mask] = strength_of[flush_class(mask)]


def razz_class(ranks: Iterable[int]) -> HighClass:
    """(category, ranks in order of significance) of five ace-low ranks (ace 1), razz."""
    sizes, ordered = _grouped(ranks)
    return _PATTERN_CATEGORY[tuple(sizes)], ordered


def razz_classes() -> list[HighClass]:
    """The 6,175 ace-to-five lows, weakest first (strength = index + 1)."""
    classes = {razz_class(i + 1 for i in combo) for combo in _multisets(5)}
    # Weakest = highest category, then highest ranks: sort descending.
    return sorted(classes, reverse=True)


class RazzTables:
    """Razz lookups: rank key (ace index 12 as for the high tables) -> razz strength."""

    __slots__ = ("classes", "strength")

    def __init__(self) -> None:
        self.classes = razz_classes()
        strength_of = {c: i + 1 for i, c in enumerate(self.classes)}
        table5: dict[int, int] = {}
        for combo in _multisets(5):
            key = sum(POW5[i] for i in combo)
            table5[key] = strength_of[razz_class(1 if i == 12 else i + 2 for i in combo)]
        table6, _ = _extend(table5, table5)
        table7, _ = _extend(table6, table6)
        self.strength: dict[int, int] = {**table5, **table6, **table7}


def up_cards_key(ranks: Iterable[int]) -> tuple[int, ...]:
    """(category, ranks by group size then rank, each once) of up to five up cards.

    Categories are the high ones: 0 high card, 1 pair, 2 two pair, 3 trips, 7 quads.
    """
    sizes, ordered = _grouped(ranks)
    if sizes[0] == 4:
        category = QUADS
    elif sizes[0] == 3:
        # five cards (four up and a community card) can show a full house
        category = FULL_HOUSE if len(sizes) > 1 and sizes[1] >= 2 else TRIPS
    elif sizes[0] == 2:
        category = TWO_PAIR if len(sizes) > 1 and sizes[1] == 2 else ONE_PAIR
    else:
        category = HIGH_CARD
    distinct: list[int] = []
    for r in ordered:
        if r not in distinct:
            distinct.append(r)
    return (category, *distinct)
