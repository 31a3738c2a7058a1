"""Hand evaluation for Seven Card Stud Hi/Lo (RULES.md sections 3, 5 and 8).

The best high hand and the best 8-or-better low of five to seven cards:

>>> from stud8.core.cards import parse_cards
>>> high, low = evaluate_hi_lo(parse_cards("Kd Ks 4c Kh 4s 2d 7c"))
>>> str(high), low
('Full house, kings full of fours', None)
>>> high, low = evaluate_hi_lo(parse_cards("As 2s 3s 4s 5s Kd Kc"))
>>> print(high, "/", low)
Straight flush, five high / 5-4-3-2-A low
>>> high
HighValue.from_ranks(HighCategory.STRAIGHT_FLUSH, (5, 4, 3, 2, 14))

Values compare by strength, higher is better, for the high and the low alike:

>>> best_low(parse_cards("8d 6c 4h 2s Ah")) < best_low(parse_cards("7s 6d 5c 4c 2h"))
True
>>> hi_lo_codes([c.code for c in parse_cards("As 2s 3s 4s 5s Kd Kc")])
(7453, 56)

Encodings (the batch evaluator reproduces these integers exactly): a high
``strength`` is the rank of the value among the 7,462 distinct five-card high
values, 1 (7-5-4-3-2 of mixed suits) to 7,462 (royal flush), sorted by category and
then by :attr:`HighValue.ranks`; it is 7,463 minus Cactus Kev's equivalence number. A
low ``strength`` is 1 (8-7-6-5-4) to 56 (5-4-3-2-A), and 0 in :func:`hi_lo_codes` for
"no qualifying low". A razz ``strength`` is 1 (K-K-K-K-Q) to 6,175 (5-4-3-2-A). How the
tables are keyed is described in :mod:`stud8.core._tables`.

The tables are built on first use (about a quarter of a second), not at import.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations

from stud8.core import _tables
from stud8.core.cards import RANK_NAMES, Card
from stud8.core.errors import CardError

__all__ = [
    "HighCategory",
    "HighValue",
    "LowValue",
    "RazzValue",
    "best_high",
    "best_high_cards",
    "best_low",
    "best_low_cards",
    "best_razz_low",
    "build_tables",
    "describe_up_cards",
    "evaluate_hi_lo",
    "hi_lo_codes",
    "rank_up_cards",
    "rank_up_cards_razz",
]


class HighCategory(IntEnum):
    """The category of a high hand, weakest first."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


_PLURALS = {r: n + ("es" if n == "six" else "s") for r, n in RANK_NAMES.items()}
_PLURALS[1] = "aces"


def _rank_char(rank: int) -> str:
    return "A" if rank in (1, 14) else "23456789TJQK"[rank - 2]


def _describe(category: HighCategory, ranks: tuple[int, ...]) -> str:
    """A high value (or a razz one, ace 1) as a player says it."""
    top = RANK_NAMES[14 if ranks[0] == 1 else ranks[0]]
    if category in (HighCategory.STRAIGHT, HighCategory.STRAIGHT_FLUSH):
        if category == HighCategory.STRAIGHT_FLUSH and ranks[0] == 14:
            return "Royal flush"
        kind = "Straight flush" if category == HighCategory.STRAIGHT_FLUSH else "Straight"
        return f"{kind}, {top} high"
    if category == HighCategory.FLUSH:
        return f"Flush, {top} high"
    if category == HighCategory.HIGH_CARD:
        return f"High card, {top}"
    first, second = _PLURALS[ranks[0]], _PLURALS[ranks[-1]]
    if category == HighCategory.FOUR_OF_A_KIND:
        return f"Four of a kind, {first}"
    if category == HighCategory.FULL_HOUSE:
        return f"Full house, {first} full of {second}"
    if category == HighCategory.THREE_OF_A_KIND:
        return f"Three of a kind, {first}"
    if category == HighCategory.TWO_PAIR:
        return f"Two pair, {first} and {_PLURALS[ranks[2]]}"
    return f"A pair of {first}"


class _ByStrength:
    """Values that compare by ``strength`` (higher is better), only with their own kind."""

    __slots__ = ()
    strength: int

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.strength == other.strength

    def __hash__(self) -> int:
        return hash(self.strength)

    def __lt__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.strength < other.strength

    def __le__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.strength <= other.strength

    def __gt__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.strength > other.strength

    def __ge__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.strength >= other.strength


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class HighValue(_ByStrength):
    """The value of a five-card high hand. Compares by ``strength`` only (higher wins).

    ``ranks`` are the five ranks in order of significance (ace 14): full house KKK44 is
    ``(13, 13, 13, 4, 4)``; a two pair ``(13, 13, 4, 4, 9)``; the wheel (the straight
    A-2-3-4-5) is ``(5, 4, 3, 2, 14)``. Get values from the evaluator or
    :meth:`from_ranks`: there is one shared instance per value.
    """

    strength: int
    category: HighCategory
    ranks: tuple[int, ...]

    @classmethod
    def from_ranks(cls, category: HighCategory, ranks: Sequence[int]) -> HighValue:
        """The value of this category with these ranks (in order of significance).

        >>> str(HighValue.from_ranks(HighCategory.TWO_PAIR, (13, 13, 4, 4, 9)))
        'Two pair, kings and fours'
        """
        value = _high_by_class().get((int(category), tuple(ranks)))
        if value is None:
            raise CardError(f"no {HighCategory(category).name} hand has ranks {tuple(ranks)}")
        return value

    @classmethod
    def from_strength(cls, strength: int) -> HighValue:
        """The value with this strength, 1 to 7,462."""
        if not 1 <= strength <= 7462:
            raise CardError(f"a high strength is from 1 to 7462, got {strength!r}")
        return _tables_ready().high_values[strength]

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return HighValue.from_strength, (self.strength,)  # copies and pickles: the shared one

    def __repr__(self) -> str:
        return f"HighValue.from_ranks(HighCategory.{self.category.name}, {self.ranks!r})"

    def __str__(self) -> str:
        return _describe(self.category, self.ranks)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class LowValue(_ByStrength):
    """An 8-or-better low: five distinct ranks, highest first, ace 1, e.g. ``(8, 6, 4, 2, 1)``.

    ``strength`` is higher for a better low (5-4-3-2-A is 56, 8-7-6-5-4 is 1) so that,
    as for :class:`HighValue`, ``a < b`` means that ``a`` loses to ``b``.
    """

    strength: int
    ranks: tuple[int, ...]

    @classmethod
    def from_ranks(cls, ranks: Iterable[int]) -> LowValue:
        """The low of these five ranks (any order, ace 1).

        >>> LowValue.from_ranks((1, 2, 4, 6, 8))
        LowValue.from_ranks((8, 6, 4, 2, 1))
        """
        key = tuple(sorted(ranks, reverse=True))
        value = _tables_ready().low_by_ranks.get(key)
        if value is None:
            raise CardError(f"{key} is not an 8-or-better low (five distinct ranks 1 to 8)")
        return value

    @classmethod
    def from_strength(cls, strength: int) -> LowValue:
        """The low with this strength, 1 to 56."""
        if not 1 <= strength <= 56:
            raise CardError(f"a low strength is from 1 to 56, got {strength!r}")
        return _tables_ready().low_values[strength]

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return LowValue.from_strength, (self.strength,)

    def __repr__(self) -> str:
        return f"LowValue.from_ranks({self.ranks!r})"

    def __str__(self) -> str:
        return "-".join(_rank_char(r) for r in self.ranks) + " low"


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class RazzValue(_ByStrength):
    """A razz (ace-to-five) low of five cards; higher ``strength`` is better (1 to 6,175).

    ``category`` says how the hand is paired (``HIGH_CARD`` for no pair, ``ONE_PAIR`` ...
    ``FOUR_OF_A_KIND``; never a straight or a flush) and ``ranks`` are the ranks in
    order of significance, ace 1: ``(7, 5, 4, 2, 1)``, or ``(3, 3, 7, 5, 1)`` for a pair
    of threes. ``str()`` reads ``"7-5-4-2-A low"`` or ``"A pair of threes, 7-5-3-3-A"``.
    """

    strength: int
    category: HighCategory
    ranks: tuple[int, ...]

    @classmethod
    def from_ranks(cls, ranks: Iterable[int]) -> RazzValue:
        """The razz low of five cards of these ranks (any order, ace 1).

        >>> str(RazzValue.from_ranks((1, 5, 3, 7, 3)))
        'A pair of threes, 7-5-3-3-A'
        """
        given = tuple(ranks)
        if len(given) != 5 or not all(isinstance(r, int) and 1 <= r <= 13 for r in given):
            raise CardError(f"a razz low is five ranks from 1 (ace) to 13, got {given}")
        if max(Counter(given).values()) > 4:
            raise CardError(f"no five cards have the ranks {given}")
        value = _razz_ready().by_class.get(_tables.razz_class(given))
        if value is None:  # pragma: no cover - every multiset of five ranks has a value
            raise CardError(f"no five cards have the ranks {given}")
        return value

    @classmethod
    def from_strength(cls, strength: int) -> RazzValue:
        """The razz low with this strength, 1 to 6,175."""
        if not 1 <= strength <= 6175:
            raise CardError(f"a razz strength is from 1 to 6175, got {strength!r}")
        return _razz_ready().values[strength - 1]

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return RazzValue.from_strength, (self.strength,)

    def __repr__(self) -> str:
        return f"RazzValue.from_ranks({tuple(sorted(self.ranks, reverse=True))!r})"

    def __str__(self) -> str:
        spelled = "-".join(_rank_char(r) for r in sorted(self.ranks, reverse=True))
        if self.category == HighCategory.HIGH_CARD:
            return spelled + " low"
        return f"{_describe(self.category, self.ranks)}, {spelled}"


# ---------------------------------------------------------------------------------------
# Tables, built on first use.

HiLo = tuple[HighValue, LowValue | None]


class _Built:
    """The stud tables of :mod:`stud8.core._tables`, with the interned value objects."""

    __slots__ = (
        "flush_ints",
        "flush_suit",
        "flush_values",
        "high_values",
        "hilo",
        "hilo_ints",
        "low_by_ranks",
        "low_values",
    )

    def __init__(self) -> None:
        raw = _tables.Tables()
        self.high_values: list[HighValue] = [HighValue(0, HighCategory.HIGH_CARD, ())]
        self.high_values += [
            HighValue(i, HighCategory(cat), ranks)
            for i, (cat, ranks) in enumerate(raw.high_classes, 1)
        ]
        self.low_values: list[LowValue] = [LowValue(0, ())]
        self.low_values += [LowValue(i, ranks) for i, ranks in enumerate(raw.low_classes, 1)]
        self.low_by_ranks = {v.ranks: v for v in self.low_values[1:]}
        highs, lows = self.high_values, self.low_values
        # Shared result tuples, one per (high, low) pair that occurs.
        shared: dict[int, tuple[HiLo, tuple[int, int]]] = {}
        self.hilo: dict[int, HiLo] = {}
        self.hilo_ints: dict[int, tuple[int, int]] = {}
        low_of = raw.low
        for key, h in raw.high.items():
            lo = low_of[key]
            both = shared.get(h << 6 | lo)
            if both is None:
                both = shared[h << 6 | lo] = ((highs[h], lows[lo] if lo else None), (h, lo))
            self.hilo[key], self.hilo_ints[key] = both
        self.flush_suit: list[int] = raw.flush_suit
        self.flush_ints: list[int] = raw.flush
        self.flush_values: list[HighValue] = [highs[s] for s in raw.flush]


class _RazzBuilt:
    __slots__ = ("by_class", "by_key", "values")

    def __init__(self) -> None:
        raw = _tables.RazzTables()
        self.values = values = [
            RazzValue(i, HighCategory(cat), ranks) for i, (cat, ranks) in enumerate(raw.classes, 1)
        ]
        self.by_class = {(int(v.category), v.ranks): v for v in values}
        self.by_key: dict[int, RazzValue] = {k: values[s - 1] for k, s in raw.strength.items()}


_SHIFT = _tables.SUIT_SHIFT
_RANK_MASK = _tables.RANK_MASK
_LOCK = threading.Lock()
# Filled in place by build_tables(); _KEYS, filled last, says the tables are ready.
_KEYS: list[int] = []
_FLUSH_SUIT: list[int] = []
_HILO: dict[int, HiLo] = {}
_HILO_INTS: dict[int, tuple[int, int]] = {}
_FLUSH_VALUES: list[HighValue] = []
_FLUSH_INTS: list[int] = []
_BUILT: list[_Built] = []
_RAZZ: list[_RazzBuilt] = []
_HIGH_BY_CLASS: dict[tuple[int, tuple[int, ...]], HighValue] = {}


def build_tables() -> None:
    """Build the high and 8-or-better low tables now instead of at the first
    evaluation (Razz's are built at their own first use).

    Building them takes about a third of a second, once per process. A server calls
    this before it serves, so that no table's first showdown holds up every other
    table while they are built. Calling it again does nothing.

    >>> from stud8.core.cards import parse_cards
    >>> build_tables()
    >>> evaluate_hi_lo(parse_cards("As 2s 3d 4c 5h Kd Kc"))[1]
    LowValue.from_ranks((5, 4, 3, 2, 1))
    """
    with _LOCK:
        if _KEYS:
            return
        built = _Built()
        _BUILT.append(built)
        _HILO.update(built.hilo)
        _HILO_INTS.update(built.hilo_ints)
        _FLUSH_VALUES[:] = built.flush_values
        _FLUSH_INTS[:] = built.flush_ints
        _FLUSH_SUIT[:] = built.flush_suit
        _KEYS[:] = _tables.CARD_KEYS


def _tables_ready() -> _Built:
    if not _KEYS:
        build_tables()
    return _BUILT[0]


def _high_by_class() -> dict[tuple[int, tuple[int, ...]], HighValue]:
    if not _HIGH_BY_CLASS:
        values = _tables_ready().high_values[1:]
        _HIGH_BY_CLASS.update({(int(v.category), v.ranks): v for v in values})
    return _HIGH_BY_CLASS


def _razz_ready() -> _RazzBuilt:
    if not _RAZZ:
        with _LOCK:
            if not _RAZZ:
                _RAZZ.append(_RazzBuilt())
    return _RAZZ[0]


# ---------------------------------------------------------------------------------------
# Evaluation.


def _bad_cards(cards: Iterable[object]) -> CardError:
    try:
        shown = " ".join(str(c) for c in cards)
    except Exception:  # pragma: no cover - whatever it was, say so below
        shown = repr(cards)
    return CardError(f"a hand to evaluate is 5 to 7 distinct cards, got [{shown}]")


def evaluate_hi_lo(cards: Sequence[Card]) -> tuple[HighValue, LowValue | None]:
    """The best high and the best 8-or-better low (or None) of 5 to 7 distinct cards.

    The fast path of every showdown: it returns shared, interned values, one per value
    (the result tuple too, except when there is a flush). Raises :class:`CardError` for
    fewer than 5 or more than 7 cards, or a card given twice.
    """
    keys = _KEYS
    if not keys:
        build_tables()
    k = 0
    try:
        for c in cards:
            k += keys[c.code]
        n = len(cards)
        if n > 7 or (k >> 43).bit_count() != n:
            raise KeyError  # too many cards, or a card given twice
        suit = _FLUSH_SUIT[k >> 31 & 4095]
        if suit < 0:
            return _HILO[k & 0x7FFFFFFF]
        mask = 0
        for c in cards:
            code = c.code
            if code & 3 == suit:
                mask |= 1 << (code >> 2)
        high, low = _HILO[k & 0x7FFFFFFF]
        flush = _FLUSH_VALUES[mask]
        return (flush if flush.strength > high.strength else high), low
    except (KeyError, IndexError, AttributeError, TypeError):
        raise _bad_cards(cards) from None


def hi_lo_codes(codes: Sequence[int]) -> tuple[int, int]:
    """:func:`evaluate_hi_lo` on card codes (0 = 2c ... 51 = As), as integer strengths.

    Returns ``(high strength, low strength)``: high 1 to 7,462, low 1 to 56 or 0 for no
    qualifying low; higher is better for both (see the module docstring).
    """
    keys = _KEYS
    if not keys:
        build_tables()
    k = 0
    try:
        for c in codes:
            k += keys[c]
        n = len(codes)
        if n > 7 or (k >> 43).bit_count() != n:
            raise KeyError  # too many cards, or a card given twice
        suit = _FLUSH_SUIT[k >> 31 & 4095]
        if suit < 0:
            return _HILO_INTS[k & 0x7FFFFFFF]
        mask = 0
        for c in codes:
            if c & 3 == suit:
                mask |= 1 << (c >> 2)
        high, low = _HILO_INTS[k & 0x7FFFFFFF]
        flush = _FLUSH_INTS[mask]
        return (flush if flush > high else high), low
    except (KeyError, IndexError, TypeError):
        raise CardError(
            f"a hand to evaluate is 5 to 7 distinct card codes, got {codes!r}"
        ) from None


assert (_SHIFT, _RANK_MASK, _tables.CARD_SHIFT) == (31, 0x7FFFFFFF, 43)  # fast-path literals


def _checked(cards: Iterable[Card], low: int = 5, high: int = 7) -> tuple[Card, ...]:
    given = tuple(cards)
    if not all(isinstance(c, Card) for c in given):
        raise CardError(f"expected cards, got {given!r}")
    if not low <= len(given) <= high or len({c.code for c in given}) != len(given):
        what = f"{low} to {high}" if low != high else str(low)
        raise CardError(f"expected {what} distinct cards, got [{' '.join(map(str, given))}]")
    return given


def best_high(cards: Iterable[Card]) -> HighValue:
    """The best five-card high hand of 5, 6 or 7 cards.

    >>> from stud8.core.cards import parse_cards
    >>> str(best_high(parse_cards("2h 8h Ah Jh 5h 5c")))
    'Flush, ace high'
    """
    return evaluate_hi_lo(_checked(cards))[0]


def best_low(cards: Iterable[Card]) -> LowValue | None:
    """The best 8-or-better low of 5, 6 or 7 cards, or None if they hold none.

    >>> from stud8.core.cards import parse_cards
    >>> print(best_low(parse_cards("Ac 2c 4d 6h 8s Kd 8c")))
    8-6-4-2-A low
    """
    return evaluate_hi_lo(_checked(cards))[1]


def _tie_break(cards: Iterable[Card]) -> tuple[int, ...]:
    """Among equal values, prefer the highest cards by rank then suit (the highest suits)."""
    return tuple(sorted((c.code for c in cards), reverse=True))


def _in_order(cards: Sequence[Card], ranks: Sequence[int]) -> tuple[Card, ...]:
    """The cards in the order of ``ranks`` (ace as 1 or 14); within a rank, highest suit first."""
    pool = sorted(cards, reverse=True)
    out: list[Card] = []
    for r in ranks:
        card = next(c for c in pool if c.rank == (14 if r == 1 else r))
        pool.remove(card)
        out.append(card)
    return tuple(out)


def best_high_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The five cards that make the best high hand, in the order of ``HighValue.ranks``.

    When several choices give the same value, the one with the highest cards by suit.

    >>> from stud8.core.cards import format_cards, parse_cards
    >>> format_cards(best_high_cards(parse_cards("4c Kd 4s Kc 9h Kh 4d")))
    'Kh Kd Kc 4s 4d'
    """
    given = _checked(cards)
    best = max(
        combinations(given, 5),
        key=lambda five: (evaluate_hi_lo(five)[0].strength, _tie_break(five)),
    )
    return _in_order(best, evaluate_hi_lo(best)[0].ranks)


def best_low_cards(cards: Iterable[Card]) -> tuple[Card, ...] | None:
    """The five cards of the best 8-or-better low, highest first, or None.

    When several choices give the same low, the one with the highest suits.

    >>> from stud8.core.cards import format_cards, parse_cards
    >>> format_cards(best_low_cards(parse_cards("Ac 2c 4d 6h 8s Kd 8c")) or ())
    '8s 6h 4d 2c Ac'
    """
    given = _checked(cards)
    scored = []
    for five in combinations(given, 5):
        low = evaluate_hi_lo(five)[1]
        if low is not None:
            scored.append((low.strength, _tie_break(five), five, low))
    if not scored:
        return None
    _, _, best, low = max(scored, key=lambda s: (s[0], s[1]))
    return _in_order(best, low.ranks)


# ---------------------------------------------------------------------------------------
# Up cards (who acts first from 4th street on) and razz.


def rank_up_cards(cards: Sequence[Card]) -> tuple[int, ...]:
    """A key ranking 1 to 4 up cards for acting first in stud and stud 8 (RULES.md 3).

    Higher is better: four of a kind > three of a kind > two pair > one pair > high card,
    the other cards as kickers; straights and flushes do not count, the ace is high and
    suits are ignored (an exact tie is the caller's to break). The key is the category
    (the :class:`HighCategory` number) followed by the distinct ranks, the biggest group
    first, then the highest: a pair of kings with a 9 and a 4 is ``(1, 13, 9, 4)``.

    >>> from stud8.core.cards import parse_cards
    >>> rank_up_cards(parse_cards("2c 2d")) > rank_up_cards(parse_cards("5h 6h 7h 8h"))
    True
    """
    given = _checked(cards, 1, 4)
    return _tables.up_cards_key(c.rank for c in given)


def describe_up_cards(cards: Sequence[Card]) -> str:
    """The up cards as a player says them: ``"Pair of kings"``, ``"Ace high"``.

    >>> from stud8.core.cards import parse_cards
    >>> describe_up_cards(parse_cards("Kd 9c Ks"))
    'Pair of kings'
    """
    key = rank_up_cards(cards)
    category, ranks = key[0], key[1:]
    if category == HighCategory.FOUR_OF_A_KIND:
        return f"Four {_PLURALS[ranks[0]]}"
    if category == HighCategory.THREE_OF_A_KIND:
        return f"Three {_PLURALS[ranks[0]]}"
    if category == HighCategory.TWO_PAIR:
        return f"Two pair, {_PLURALS[ranks[0]]} and {_PLURALS[ranks[1]]}"
    if category == HighCategory.ONE_PAIR:
        return f"Pair of {_PLURALS[ranks[0]]}"
    return f"{RANK_NAMES[ranks[0]].capitalize()} high"


def best_razz_low(cards: Iterable[Card]) -> RazzValue:
    """The best ace-to-five low of 5, 6 or 7 cards, for razz (RULES.md 8).

    No qualifier; straights and flushes do not count; pairs only when forced.

    >>> from stud8.core.cards import parse_cards
    >>> print(best_razz_low(parse_cards("As 2s 3s 4s 5s Kd Kc")))
    5-4-3-2-A low
    >>> print(best_razz_low(parse_cards("Ac Ad 2c 2d 3c 3d Kh")))
    A pair of aces, K-3-2-A-A
    """
    given = _checked(cards)
    tables = _razz_ready()
    return tables.by_key[sum(_tables.POW5[c.code >> 2] for c in given)]


def rank_up_cards_razz(cards: Sequence[Card]) -> tuple[int, ...]:
    """A key ranking 1 to 4 up cards for acting first in razz: the lowest hand is best.

    Higher key = better (acts first): unpaired cards beat a pair, a pair beats two pair
    or trips; then the lowest cards, compared from the highest down, the ace low.
    The key is the negated ``(category, distinct ranks by group then rank)`` with ace 1.

    >>> from stud8.core.cards import parse_cards
    >>> rank_up_cards_razz(parse_cards("7c 4d")) > rank_up_cards_razz(parse_cards("7s 5h"))
    True
    >>> rank_up_cards_razz(parse_cards("Kc Qd")) > rank_up_cards_razz(parse_cards("2s 2h"))
    True
    """
    given = _checked(cards, 1, 4)
    return tuple(-x for x in _tables.up_cards_key(c.low_rank for c in given))
