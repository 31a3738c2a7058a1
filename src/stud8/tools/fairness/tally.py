"""What the tests count, from batches of deals: one :class:`Tally`, added up across
processes and batches (:meth:`Tally.merge`).

A deal is a row of 52 card codes in dealing order (0 = 2c ... 51 = As). Consecutive
rows of one :meth:`Tally.add_decks` call, and the calls after it until
:meth:`Tally.break_chain`, are consecutive deals (of one process, or of one table).

>>> from stud8.tools.fairness import Shuffle
>>> from stud8.tools.fairness.shuffles import decks
>>> t = Tally.empty()
>>> t.add_decks(decks(Shuffle.NAIVE, 100, seed=2))
>>> t.deals, int(t.positions.sum()), t.pairs, int(t.matches.sum())
(100, 5200, 99, 99)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from stud8.tools.fairness.starting import KIND_OF, StartingKind

__all__ = ["KEY_CARDS", "OFFLINE_SEATS", "SEATS", "STREETS", "Tally"]

SEATS = 8  # the most a Stud table deals to (seats 1 to 8)
OFFLINE_SEATS = 8  # the shuffle's own decks are dealt to a full table
KEY_CARDS = 20  # repeats are found among the decks' first 20 cards
STREETS = (3, 4, 5, 6, 7)
NEXT_BINS = 10  # a dealt card's place among the cards not yet dealt, in tenths
_FACTORIALS = {k: [math.factorial(k - 1 - i) for i in range(k)] for k in (4, 5)}
_Int = NDArray[np.int64]


def _orders(values: NDArray[np.int64]) -> NDArray[np.int64]:
    """The index (0 to k! - 1, Lehmer code) of the order of each row's k distinct values."""
    k = values.shape[1]
    index = np.zeros(values.shape[0], dtype=np.int64)
    for i in range(k - 1):
        smaller_after = (values[:, i + 1 :] < values[:, i : i + 1]).sum(axis=1)
        index += smaller_after * _FACTORIALS[k][i]
    return index


def _next_bin_probabilities() -> NDArray[np.float64]:
    """For m cards left (row m), the chance that a uniform one falls in each tenth."""
    table = np.zeros((53, NEXT_BINS))
    for m in range(1, 53):
        for r in range(m):
            table[m, NEXT_BINS * r // m] += 1 / m
    return table


_NEXT_PROBABILITIES = _next_bin_probabilities()


@dataclass(slots=True)
class Tally:
    """The counts of every test (see :mod:`stud8.tools.fairness.battery`)."""

    deals: int
    positions: _Int  # [card, place in the deck]
    suit_orders: _Int  # [rank - 2, order in which its four suits come out (24)]
    first_five: _Int  # the order of the first five cards dealt (120)
    starting: _Int  # [seat (1 to 8), StartingKind]
    matches: _Int  # consecutive deals with k cards at the same place (k = 0..52)
    pairs: int = 0  # consecutive deals compared
    lag_products: int = 0  # sum over them of (2x - 51)(2x' - 51), x the first card's code
    changes: int = 0  # how often the first card went from the lower half to the upper, or back
    keys: list[NDArray[np.uint64]] = field(default_factory=list)  # each deck's first cards
    # Stored hands only: the cards as dealt, by street.
    next_observed: NDArray[np.float64] | None = None  # [street, tenth]
    next_expected: NDArray[np.float64] | None = None
    dealt_hands: int = 0  # hands whose dealt cards were checked against their deck
    misdealt: list[str] = field(default_factory=list)  # hands dealt otherwise than shuffled
    _last: NDArray[np.uint8] | None = None  # the chain's last deck

    @classmethod
    def empty(cls) -> Tally:
        return cls(
            deals=0,
            positions=np.zeros((52, 52), dtype=np.int64),
            suit_orders=np.zeros((13, 24), dtype=np.int64),
            first_five=np.zeros(120, dtype=np.int64),
            starting=np.zeros((SEATS + 1, len(StartingKind)), dtype=np.int64),
            matches=np.zeros(53, dtype=np.int64),
        )

    # ---------------------------------------------------------------- decks
    def add_decks(self, decks: NDArray[np.uint8], *, deal_seats: bool = True) -> None:
        """Count a batch of consecutive deals (after the chain's last one).
        ``deal_seats``: count 3rd street as dealt to a full table of eight (the
        shuffle's own decks); the stored hands count their seats themselves."""
        b = decks.shape[0]
        if b == 0:
            return
        d = decks.astype(np.int64)
        self.deals += b
        self.positions += np.bincount((d * 52 + np.arange(52)).ravel(), minlength=2704).reshape(
            52, 52
        )
        place = np.empty_like(d)
        place[np.arange(b)[:, None], d] = np.arange(52)
        for rank in range(13):
            self.suit_orders[rank] += np.bincount(
                _orders(place[:, 4 * rank : 4 * rank + 4]), minlength=24
            )
        self.first_five += np.bincount(_orders(d[:, :5]), minlength=120)
        if deal_seats:
            n = OFFLINE_SEATS
            for seat in range(n):
                kinds = KIND_OF[d[:, seat] * 2704 + d[:, n + seat] * 52 + d[:, 2 * n + seat]]
                self.starting[seat + 1] += np.bincount(kinds, minlength=len(StartingKind))
        chain = d if self._last is None else np.vstack([self._last.astype(np.int64), d])
        if chain.shape[0] > 1:
            self.pairs += chain.shape[0] - 1
            same = (chain[1:] == chain[:-1]).sum(axis=1)
            self.matches += np.bincount(same, minlength=53)
            y = 2 * chain[:, 0] - 51
            self.lag_products += int((y[1:] * y[:-1]).sum())
            upper = chain[:, 0] >= 26
            self.changes += int((upper[1:] != upper[:-1]).sum())
        self._last = decks[-1].copy()
        shifts = np.arange(10, dtype=np.uint64) * np.uint64(6)
        key = np.empty((b, 2), dtype=np.uint64)
        for half in range(2):
            cards = decks[:, 10 * half : 10 * half + 10].astype(np.uint64)
            key[:, half] = (cards << shifts).sum(axis=1, dtype=np.uint64)
        self.keys.append(key)

    def break_chain(self) -> None:
        """The next deals do not follow the last ones (another table, another process)."""
        self._last = None

    # ---------------------------------------------------------- stored hands
    def add_dealt(self, hand_id: str, deck: bytes, dealt: list[tuple[int, int, int]]) -> None:
        """One stored hand's cards as dealt, in order: (seat, card code, street), the
        community card at seat 0. Its 3rd street is counted by seat; each card's place
        among the cards not yet dealt, by street; a card that is not the deck's next
        makes the hand misdealt."""
        if self.next_observed is None or self.next_expected is None:
            self.next_observed = np.zeros((8, NEXT_BINS))
            self.next_expected = np.zeros((8, NEXT_BINS))
        self.dealt_hands += 1
        if len(dealt) > 52 or any(deck[k] != card for k, (_, card, _) in enumerate(dealt)):
            self.misdealt.append(hand_id)
            return
        third: dict[int, list[int]] = {}
        seen: list[int] = []
        for k, (seat, card, street) in enumerate(dealt):
            below = card - sum(1 for c in seen if c < card)  # undealt cards below it
            left = 52 - k
            self.next_observed[street, NEXT_BINS * below // left] += 1
            self.next_expected[street] += _NEXT_PROBABILITIES[left]
            seen.append(card)
            if street == 3 and seat > 0:
                third.setdefault(seat, []).append(card)
        for seat, cards in third.items():
            if len(cards) == 3 and 1 <= seat <= SEATS:
                a, b, c = cards
                self.starting[seat, KIND_OF[a * 2704 + b * 52 + c]] += 1

    # ---------------------------------------------------------------- merge
    def merge(self, other: Tally) -> None:
        """Add another tally's counts (another process's, another batch's)."""
        self.deals += other.deals
        self.positions += other.positions
        self.suit_orders += other.suit_orders
        self.first_five += other.first_five
        self.starting += other.starting
        self.matches += other.matches
        self.pairs += other.pairs
        self.lag_products += other.lag_products
        self.changes += other.changes
        self.keys.extend(other.keys)
        if other.next_observed is not None and other.next_expected is not None:
            if self.next_observed is None or self.next_expected is None:
                self.next_observed = np.zeros_like(other.next_observed)
                self.next_expected = np.zeros_like(other.next_expected)
            self.next_observed += other.next_observed
            self.next_expected += other.next_expected
        self.dealt_hands += other.dealt_hands
        self.misdealt.extend(other.misdealt)

    def repeated_pairs(self) -> int:
        """How many pairs of deals began with the same :data:`KEY_CARDS` cards."""
        if not self.keys:
            return 0
        keys = np.concatenate(self.keys)
        order = np.lexsort((keys[:, 1], keys[:, 0]))
        keys = keys[order]
        same = np.all(keys[1:] == keys[:-1], axis=1)
        if not same.any():
            return 0
        # runs of equal keys: a run of g equal keys is g(g-1)/2 pairs
        edges = np.flatnonzero(np.diff(np.concatenate(([0], same.astype(np.int8), [0]))))
        runs = (edges[1::2] - edges[::2]) + 1
        return int((runs * (runs - 1) // 2).sum())
