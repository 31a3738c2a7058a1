"""Pots: building the main and side pots, the rake, and the hi/lo split.

>>> build_pots({1: 10, 2: 30, 3: 30, 4: 5}, live={1, 2, 3})
(Pot(amount=35, eligible=(1, 2, 3)), Pot(amount=40, eligible=(2, 3)))
>>> split_evenly(11, [(3, (0,)), (5, (1,))])
{3: 6, 5: 5}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from stud8.core.evaluate import HighValue, LowValue, RazzValue

# The __init__ methods are written out (init=False): compiled (mypyc), a dataclass's
# generated __init__ stays interpreted Python, several times slower than this one.
_set: Final = object.__setattr__  # frozen: the fields are set past the refusing __setattr__


@dataclass(frozen=True, slots=True, init=False)
class Pot:
    """A pot (main or side) and the seats that may win it."""

    amount: int
    eligible: tuple[int, ...]

    def __init__(self, amount: int, eligible: tuple[int, ...]) -> None:
        _set(self, "amount", amount)
        _set(self, "eligible", eligible)

    # Pickle and copy by the constructor: compiled (mypyc), a frozen class's fields
    # cannot be set again from a pickled state.
    def __reduce__(self) -> tuple[type[Pot], tuple[int, tuple[int, ...]]]:
        return Pot, (self.amount, self.eligible)


def build_pots(
    contributions: Mapping[int, int], live: set[int] | frozenset[int]
) -> tuple[Pot, ...]:
    """The main pot first, then the side pots, from each seat's total contribution.

    ``live`` are the seats still in the hand (not folded). An all-in player can
    win from each opponent no more than he put in: every distinct contribution
    of a live player closes a pot. Chips of folded players above the highest
    live contribution go to the last pot.
    """
    levels = sorted({contributions[s] for s in live if contributions[s] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions.values())
        eligible = tuple(sorted(s for s in live if contributions[s] >= level))
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        previous = level
    dead = sum(c - previous for c in contributions.values() if c > previous)
    if dead:
        if pots:
            pots[-1] = Pot(pots[-1].amount + dead, pots[-1].eligible)
        else:
            pots.append(Pot(dead, tuple(sorted(live))))
    return tuple(pots)


def take_rake(pots: Sequence[Pot], rake: int) -> tuple[Pot, ...]:
    """The pots after the rake, taken from the main pot first."""
    left = rake
    out = []
    for pot in pots:
        taken = min(left, pot.amount)
        left -= taken
        out.append(Pot(pot.amount - taken, pot.eligible))
    return tuple(out)


def split_evenly(amount: int, shares: Sequence[tuple[int, tuple[int, ...]]]) -> dict[int, int]:
    """Share ``amount`` among seats as evenly as possible.

    ``shares`` are ``(seat, odd_chip_key)``; each odd chip goes, one at a time,
    to the seat with the smallest key not yet given one (so nobody gets two).
    """
    n = len(shares)
    each, odd = divmod(amount, n)
    out = {seat: each for seat, _ in shares}
    for seat, _ in sorted(shares, key=lambda s: s[1])[:odd]:
        out[seat] += 1
    return out


@dataclass(frozen=True, slots=True, init=False)
class PotResult:
    """How one pot was won. ``index`` 0 is the main pot, 1 the first side pot."""

    index: int
    amount: int
    eligible: tuple[int, ...]
    high: tuple[tuple[int, int], ...]  # (seat, chips) for the high half (or the whole pot)
    low: tuple[tuple[int, int], ...]  # (seat, chips) for the low half; () if no low
    high_value: HighValue | None = None
    # the best low; in Razz the best ace-to-five low, which takes the whole pot (``high``)
    low_value: LowValue | RazzValue | None = None

    def __init__(
        self,
        index: int,
        amount: int,
        eligible: tuple[int, ...],
        high: tuple[tuple[int, int], ...],
        low: tuple[tuple[int, int], ...],
        high_value: HighValue | None = None,
        low_value: LowValue | RazzValue | None = None,
    ) -> None:
        _set(self, "index", index)
        _set(self, "amount", amount)
        _set(self, "eligible", eligible)
        _set(self, "high", high)
        _set(self, "low", low)
        _set(self, "high_value", high_value)
        _set(self, "low_value", low_value)

    def __reduce__(self) -> tuple[type[PotResult], tuple[object, ...]]:
        # by the constructor, as Pot (compiled, a frozen class's state cannot be set)
        return PotResult, (
            self.index,
            self.amount,
            self.eligible,
            self.high,
            self.low,
            self.high_value,
            self.low_value,
        )

    @property
    def has_low(self) -> bool:
        return bool(self.low)

    def won_by(self) -> dict[int, int]:
        """Chips each seat takes from this pot."""
        out: dict[int, int] = {}
        for seat, chips in (*self.high, *self.low):
            out[seat] = out.get(seat, 0) + chips
        return out


OddChipKey = Callable[[int], tuple[int, ...]]


def settle_pot(
    index: int,
    pot: Pot,
    values: Mapping[int, tuple[HighValue, LowValue | None]],
    high_odd_chip_key: OddChipKey,
    low_odd_chip_key: OddChipKey,
    *,
    odd_chip_to_low: bool = False,
) -> PotResult:
    """Split one pot hi/lo among its eligible seats (RULES.md section 5).

    The odd-chip keys order tied seats: the smallest key gets the first odd chip.
    The high half takes the pot's odd chip, or the low half when
    ``odd_chip_to_low`` (a site's rule: :class:`~stud8.core.rules.OddChipHalf`).
    """
    seats = pot.eligible
    if len(seats) == 1:  # uncontested: everything to the one player, no split
        return PotResult(index, pot.amount, seats, ((seats[0], pot.amount),), ())
    best_high = max(values[s][0] for s in seats)
    high_winners = [s for s in seats if values[s][0] == best_high]
    lows = [values[s][1] for s in seats]
    qualifying = [v for v in lows if v is not None]
    if not qualifying:
        won = split_evenly(pot.amount, [(s, high_odd_chip_key(s)) for s in high_winners])
        return PotResult(index, pot.amount, seats, tuple(won.items()), (), best_high, None)
    best_low = max(qualifying)
    low_winners = [s for s in seats if values[s][1] == best_low]
    if high_winners == low_winners and len(high_winners) > 1:
        # The very same players tie both ways: split the pot as evenly as
        # possible rather than half by half (RRoP).
        won = split_evenly(pot.amount, [(s, high_odd_chip_key(s)) for s in high_winners])
        high_share, low_share = _divide_even_split(won)
        return PotResult(index, pot.amount, seats, high_share, low_share, best_high, best_low)
    high_half = (pot.amount + 1) // 2  # the high half takes the odd chip
    low_half = pot.amount // 2
    if odd_chip_to_low:
        high_half, low_half = low_half, high_half
    high = split_evenly(high_half, [(s, high_odd_chip_key(s)) for s in high_winners])
    low = split_evenly(low_half, [(s, low_odd_chip_key(s)) for s in low_winners])
    return PotResult(
        index, pot.amount, seats, tuple(high.items()), tuple(low.items()), best_high, best_low
    )


def settle_razz_pot(
    index: int,
    pot: Pot,
    values: Mapping[int, RazzValue],
    low_odd_chip_key: OddChipKey,
) -> PotResult:
    """Razz (RULES.md 8): the best ace-to-five low takes the whole pot, no qualifier.

    Tied lows share it; the odd chips go by the low rule (``low_odd_chip_key``). The
    winners are in ``high`` (the whole pot) and their low in ``low_value``.
    """
    seats = pot.eligible
    if len(seats) == 1:
        return PotResult(index, pot.amount, seats, ((seats[0], pot.amount),), ())
    best = max(values[s] for s in seats)
    winners = [s for s in seats if values[s] == best]
    won = split_evenly(pot.amount, [(s, low_odd_chip_key(s)) for s in winners])
    return PotResult(index, pot.amount, seats, tuple(won.items()), (), None, best)


def _divide_even_split(
    won: dict[int, int],
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """Label each seat's share of an even split as half high, half low (for the records)."""
    high = tuple((seat, (chips + 1) // 2) for seat, chips in won.items())
    low = tuple((seat, chips // 2) for seat, chips in won.items())
    return high, low
