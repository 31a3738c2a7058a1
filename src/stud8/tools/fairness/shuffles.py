"""The shuffles the report can test: the room's own, and broken ones that show it fails.

:attr:`Shuffle.ROOM` is exactly what a table deals from: :meth:`Deck.shuffled` with no
argument (the operating system's cryptographic source, one 226-bit draw, Fisher-Yates).
The others exist so that the report can be seen to fail (``tests/tools``, and
``stud8 admin rng-report --shuffle``):

- :attr:`Shuffle.NAIVE`: the classic mistake, ``swap(i, randrange(52))`` for every i
  (52**52 equally likely paths onto 52! orders, which cannot be spread evenly): some
  cards favour some places;
- :attr:`Shuffle.WEAK_SEED`: the room's own Fisher-Yates fed by a generator reseeded
  every deal from 16 bits (as a seed from a clock or a short counter would be): only
  65,536 decks can ever come out, each as likely as the rest, so only repeats show it;
- :attr:`Shuffle.CUT`: each deck the one before cut at a random place: every deck on its
  own is uniform, but consecutive deals are not independent.

Each gives its decks as rows of card codes (0 = 2c ... 51 = As, in dealing order).

>>> from stud8.tools.fairness import Shuffle
>>> decks(Shuffle.NAIVE, 3, seed=1).shape
(3, 52)
>>> bool((decks(Shuffle.WEAK_SEED, 2, seed=5) == decks(Shuffle.WEAK_SEED, 2, seed=5)).all())
True
"""

from __future__ import annotations

import operator
import random

import numpy as np
from numpy.typing import NDArray

from stud8.core.cards import Deck
from stud8.tools.fairness import Shuffle

__all__ = ["Dealer", "decks"]

_CODE = operator.attrgetter("code")


class Dealer:
    """Consecutive deals of one shuffle (``seed`` makes the broken ones reproducible;
    the room's shuffle takes none: it is never reproducible)."""

    def __init__(self, shuffle: Shuffle, seed: int = 0) -> None:
        self.shuffle = shuffle
        self._rng = random.Random(seed)
        self._deck: list[int] = list(map(_CODE, Deck.shuffled(self._rng).cards))

    def deal(self, count: int) -> NDArray[np.uint8]:
        """The next ``count`` deals, one row each."""
        out = bytearray()
        rng = self._rng
        if self.shuffle is Shuffle.ROOM:
            shuffled = Deck.shuffled
            for _ in range(count):
                out += bytes(map(_CODE, shuffled().cards))
        elif self.shuffle is Shuffle.NAIVE:
            below = rng.randrange
            for _ in range(count):
                order = list(range(52))
                for i in range(52):
                    j = below(52)
                    order[i], order[j] = order[j], order[i]
                out += bytes(order)
        elif self.shuffle is Shuffle.WEAK_SEED:
            for _ in range(count):
                weak = random.Random(rng.getrandbits(16))
                out += bytes(map(_CODE, Deck.shuffled(weak).cards))
        else:
            deck = self._deck
            for _ in range(count):
                cut = rng.randrange(1, 52)
                deck = deck[cut:] + deck[:cut]
                out += bytes(deck)
            self._deck = deck
        return np.frombuffer(bytes(out), dtype=np.uint8).reshape(count, 52)


def decks(shuffle: Shuffle, count: int, seed: int = 0) -> NDArray[np.uint8]:
    """``count`` consecutive deals of ``shuffle``, from a new :class:`Dealer`."""
    return Dealer(shuffle, seed).deal(count)
