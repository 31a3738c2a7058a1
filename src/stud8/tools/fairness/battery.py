"""The tests of the report, each from a :class:`~stud8.tools.fairness.tally.Tally`: its
statistic, its p-value against the exact distribution of a fair shuffle, and what
its sample was. ``docs/fairness.md`` says what each one looks for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import numpy as np
from numpy.typing import ArrayLike

from stud8.core.cards import CARDS, RANK_CHARS
from stud8.tools.fairness.starting import PROBABILITIES, StartingKind
from stud8.tools.fairness.stats import (
    chi_square,
    poisson_at_least,
    rencontres,
    two_sided_binomial,
    two_sided_normal,
)
from stud8.tools.fairness.tally import KEY_CARDS, SEATS, STREETS, Tally

__all__ = ["Family", "Finding", "findings"]

_LAG_VARIANCE = 901  # the variance of 2x - 51 for x uniform on 0..51: (52**2 - 1) / 3
_RENCONTRES = np.array(rencontres(52))


class Family(Enum):
    """What a test looks at."""

    POSITION = "position"
    ORDER = "order"
    STARTING = "starting hands"
    SERIAL = "serial"
    REPEATS = "repeats"
    DEALT = "dealt"

    @property
    def question(self) -> str:
        return _QUESTIONS[self]


_QUESTIONS = {
    Family.POSITION: "is every card equally likely at every place of the deck?",
    Family.ORDER: "is every order of a few cards equally likely (the short decks)?",
    Family.STARTING: "are the 3rd-street starting hands as frequent as the odds say, seat by seat?",
    Family.SERIAL: "is each deal independent of the one before?",
    Family.REPEATS: "does the shuffle make as many different decks as a fair one?",
    Family.DEALT: "are the cards dealt the deck's, in order, each uniform among those left?",
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One test: ``p_value`` None when the sample is too small to run it (``note``)."""

    key: str
    family: Family
    title: str
    statistic: float
    df: int | None
    p_value: float | None
    sample: int
    note: str = ""
    check: bool = False  # an exact check (fails on any exception), not in the correction


def _chi(
    key: str,
    family: Family,
    title: str,
    observed: ArrayLike,
    expected: ArrayLike,
    sample: int,
) -> Finding:
    found = chi_square(observed, expected)
    if found is None:
        return Finding(key, family, title, math.nan, None, None, sample, "too few to test")
    note = f"{found.pooled} rare cells pooled" if found.pooled else ""
    return Finding(key, family, title, found.statistic, found.df, found.p_value, sample, note)


def findings(tally: Tally) -> list[Finding]:
    """Every test the tally can answer, in the report's order."""
    out: list[Finding] = []
    n = tally.deals
    if n:
        out += _position(tally)
        out += _orders(tally)
    out += _starting(tally)
    if tally.pairs:
        out += _serial(tally)
    if n:
        out.append(_repeats(tally))
    if tally.next_observed is not None:
        out += _dealt(tally)
    return out


def _position(tally: Tally) -> list[Finding]:
    n = tally.deals
    uniform = np.full(52, n / 52)
    out = [
        _chi(
            f"position.{card}",
            Family.POSITION,
            f"{card}: its place in the deck (52 places)",
            tally.positions[card.code],
            uniform,
            n,
        )
        for card in CARDS
    ]
    # The whole table: with both margins fixed at n per card and per place, Pearson's
    # sum over the 52 x 52 cells is 52/51 times a chi-square of 51**2 degrees of freedom
    # (the covariance of a uniform permutation's matrix is 1/51 on that subspace).
    table = tally.positions.astype(np.float64)
    x2 = float(((table - n / 52) ** 2).sum() / (n / 52))
    if n / 52 >= 5:
        from scipy import stats

        scaled = x2 * 51 / 52
        p = float(stats.chi2.sf(scaled, 51 * 51))
        out.append(
            Finding(
                "position.all",
                Family.POSITION,
                "every card at every place (the 52 x 52 table)",
                scaled,
                51 * 51,
                p,
                n,
            )
        )
    return out


def _orders(tally: Tally) -> list[Finding]:
    n = tally.deals
    out = [
        _chi(
            f"order.{RANK_CHARS[rank]}",
            Family.ORDER,
            f"the order of the four {RANK_CHARS[rank]}s (24 orders)",
            tally.suit_orders[rank],
            np.full(24, n / 24),
            n,
        )
        for rank in range(12, -1, -1)
    ]
    out.append(
        _chi(
            "order.first-five",
            Family.ORDER,
            "the order of the first five cards dealt (120 orders)",
            tally.first_five,
            np.full(120, n / 120),
            n,
        )
    )
    return out


def _starting(tally: Tally) -> list[Finding]:
    odds = np.array(PROBABILITIES)
    out = []
    for seat in range(1, SEATS + 1):
        row = tally.starting[seat]
        dealt = int(row.sum())
        if dealt:
            kinds = ", ".join(k.value for k in StartingKind)
            out.append(
                _chi(
                    f"starting.seat-{seat}",
                    Family.STARTING,
                    f"seat {seat}'s 3rd-street hands ({kinds})",
                    row,
                    odds * dealt,
                    dealt,
                )
            )
    return out


def _serial(tally: Tally) -> list[Finding]:
    pairs = tally.pairs
    z = tally.lag_products / (_LAG_VARIANCE * math.sqrt(pairs))
    return [
        _chi(
            "serial.same-place",
            Family.SERIAL,
            "cards at the same place in consecutive deals (against 52 rencontres)",
            tally.matches,
            _RENCONTRES * pairs,
            pairs,
        ),
        Finding(
            "serial.first-card",
            Family.SERIAL,
            "lag-1 correlation of the first card dealt (z)",
            z,
            None,
            two_sided_normal(z),
            pairs,
        ),
        Finding(
            "serial.runs",
            Family.SERIAL,
            "runs of the first card in the lower or upper half of the deck",
            tally.changes,
            None,
            two_sided_binomial(tally.changes, pairs),
            pairs,
            f"{tally.changes:,} changes in {pairs:,} (a fair coin's)",
        ),
    ]


def _repeats(tally: Tally) -> Finding:
    n = tally.deals
    found = tally.repeated_pairs()
    prefixes = math.perm(52, KEY_CARDS)  # the orders of the first 20 cards: about 1.6e33
    mean = n * (n - 1) / 2 / prefixes
    note = (
        f"{found:,} pairs of deals began alike; a shuffle with about "
        f"{n * (n - 1) / 2 / found:,.0f} equally likely decks makes that many"
        if found
        else f"no two deals began alike (a fair shuffle repeats with chance {mean:.1e})"
    )
    return Finding(
        "repeats.first-20",
        Family.REPEATS,
        f"pairs of deals whose first {KEY_CARDS} cards are the same",
        found,
        None,
        poisson_at_least(found, mean),
        n,
        note,
    )


def _dealt(tally: Tally) -> list[Finding]:
    assert tally.next_observed is not None and tally.next_expected is not None
    hands = tally.dealt_hands
    bad = len(tally.misdealt)
    out = [
        Finding(
            "dealt.as-shuffled",
            Family.DEALT,
            "every card dealt is the deck's next card (a check, not a statistic)",
            bad,
            None,
            0.0 if bad else 1.0,
            hands,
            f"misdealt: {', '.join(tally.misdealt[:5])}" if bad else "every hand as shuffled",
            check=True,
        )
    ]
    for street in STREETS:
        observed = tally.next_observed[street]
        out.append(
            _chi(
                f"dealt.street-{street}",
                Family.DEALT,
                f"{street}th street: each card's place among the cards not yet dealt (tenths)"
                if street > 3
                else "3rd street: each card's place among the cards not yet dealt (tenths)",
                observed,
                tally.next_expected[street],
                int(observed.sum()),
            )
        )
    return out
