"""3rd-street starting hands, in kinds a Stud Hi/Lo player names, and their exact odds.

Each hand of three cards is of the first kind it fits, in this order: rolled-up trips,
a pair, three to a flush (three-card straight flushes too), three to a straight
(A-2-3 up to Q-K-A), three low cards (distinct ranks, 8 or lower, the ace low), and
any other. Of the C(52, 3) = 22,100 hands equally likely from a fair deck:

>>> {k.value: n for k, n in zip(StartingKind, HANDS, strict=True)}  # doctest: +NORMALIZE_WHITESPACE
{'trips': 52, 'pair': 3744, 'flush draw': 1144, 'straight draw': 720, 'three low': 3000,
 'other': 13440}
>>> list(StartingKind)[KIND_OF[code("As") * 2704 + code("2d") * 52 + code("3h")]].value
'straight draw'
>>> classify(code("Qs"), code("Ks"), code("As")).value
'flush draw'
>>> classify(code("4d"), code("7h"), code("As")).value
'three low'
"""

from __future__ import annotations

import itertools
from enum import Enum

import numpy as np
from numpy.typing import NDArray

from stud8.core.cards import Card

__all__ = ["HANDS", "KIND_OF", "PROBABILITIES", "StartingKind", "classify", "code"]


class StartingKind(Enum):
    TRIPS = "trips"
    PAIR = "pair"
    FLUSH_DRAW = "flush draw"
    STRAIGHT_DRAW = "straight draw"
    THREE_LOW = "three low"
    OTHER = "other"

    @property
    def index(self) -> int:
        return _INDEX[self]


_INDEX = {kind: i for i, kind in enumerate(StartingKind)}


def code(text: str) -> int:
    return Card.parse(text).code


def classify(a: int, b: int, c: int) -> StartingKind:
    """The kind of the three cards with these codes (0 = 2c ... 51 = As)."""
    ranks = sorted({a // 4 + 2, b // 4 + 2, c // 4 + 2})
    if len(ranks) == 1:
        return StartingKind.TRIPS
    if len(ranks) == 2:
        return StartingKind.PAIR
    if a % 4 == b % 4 == c % 4:
        return StartingKind.FLUSH_DRAW
    low = sorted(1 if r == 14 else r for r in ranks)  # the ace counted low
    if ranks[2] - ranks[0] == 2 or low[2] - low[0] == 2:
        return StartingKind.STRAIGHT_DRAW
    if low[2] <= 8:
        return StartingKind.THREE_LOW
    return StartingKind.OTHER


def _tables() -> tuple[NDArray[np.uint8], tuple[int, ...]]:
    kind_of = np.full(52**3, 255, dtype=np.uint8)  # 255: not three different cards
    hands = [0] * len(StartingKind)
    for a, b, c in itertools.combinations(range(52), 3):
        k = classify(a, b, c).index
        hands[k] += 1
        for x, y, z in itertools.permutations((a, b, c)):
            kind_of[x * 2704 + y * 52 + z] = k
    return kind_of, tuple(hands)


KIND_OF, HANDS = _tables()
"""The kind of every three cards in any order (index ``a * 2704 + b * 52 + c``), and
how many of the 22,100 hands are of each kind."""
PROBABILITIES = tuple(n / sum(HANDS) for n in HANDS)
