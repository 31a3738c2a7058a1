"""The statistics of the fairness report: chi-square goodness of fit (with the cells
too rare to count pooled), the exact null distributions the tests compare with, the
family-wise correction, and what a sample can see.

>>> round(chi_square([10, 10, 10, 10], [10, 10, 10, 10]).p_value, 6)
1.0
>>> [round(p, 4) for p in rencontres(4)]
[0.375, 0.3333, 0.25, 0.0, 0.0417]
>>> holm([0.01, 0.04, 0.03])
[0.03, 0.06, 0.06]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize, stats

MIN_EXPECTED = 5.0  # the usual rule for the chi-square approximation: every cell >= 5


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """A goodness-of-fit chi-square: the statistic, its degrees of freedom, the
    p-value, and how many cells were pooled because too few were expected in them."""

    statistic: float
    df: int
    p_value: float
    pooled: int = 0


def chi_square(
    observed: ArrayLike, expected: ArrayLike, *, min_expected: float = MIN_EXPECTED
) -> ChiSquare | None:
    """Pearson's chi-square of ``observed`` counts against ``expected`` ones.

    Cells whose expectation is under ``min_expected`` are pooled into one (into the
    smallest other cell if the pool is still under it), so the approximation holds;
    None when fewer than two cells are left (too small a sample to test). A count in
    a cell that cannot happen (expected 0) is a p-value of 0.
    """
    obs = np.asarray(observed, dtype=np.float64).ravel()
    exp = np.asarray(expected, dtype=np.float64).ravel()
    if np.any((exp == 0) & (obs > 0)):
        return ChiSquare(math.inf, max(int(np.count_nonzero(exp)) - 1, 1), 0.0)
    small = exp < min_expected
    pooled = int(np.count_nonzero(small & (exp > 0)))
    o, e = obs[~small], exp[~small]
    rest_o, rest_e = float(obs[small].sum()), float(exp[small].sum())
    if rest_e > 0:
        if rest_e >= min_expected or len(e) == 0:
            o, e = np.append(o, rest_o), np.append(e, rest_e)
        else:
            k = int(np.argmin(e))
            o[k] += rest_o
            e[k] += rest_e
    if len(e) < 2:
        return None
    statistic = float(((o - e) ** 2 / e).sum())
    df = len(e) - 1
    return ChiSquare(statistic, df, float(stats.chi2.sf(statistic, df)), pooled)


def rencontres(n: int) -> list[float]:
    """P(k cards in the same place in two independent uniform shuffles of ``n``): the
    number of fixed points of a uniform permutation, k = 0..n (exact, then rounded)."""
    out = []
    for k in range(n + 1):
        tail = sum(Fraction((-1) ** j, math.factorial(j)) for j in range(n - k + 1))
        out.append(float(tail / math.factorial(k)))
    return out


def two_sided_normal(z: float) -> float:
    return float(2 * stats.norm.sf(abs(z)))


def two_sided_binomial(k: int, n: int) -> float:
    """The exact two-sided p-value of k successes in n fair coin tosses."""
    low = float(stats.binom.cdf(k, n, 0.5))
    high = float(stats.binom.sf(k - 1, n, 0.5))
    return min(1.0, 2 * min(low, high))


def poisson_at_least(k: int, mean: float) -> float:
    """P(X >= k) for X Poisson with this mean."""
    return 1.0 if k <= 0 else float(stats.poisson.sf(k - 1, mean))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment: the smallest p-value times m, the next times m - 1,
    ..., each at least the one before, at most 1. A test fails when its adjusted
    p-value is under the significance: the chance that a fair shuffle fails any of
    the m tests is then at most the significance (whatever their dependence)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return [round(a, 15) for a in adjusted]


def detectable_noncentrality(df: int, level: float, power: float = 0.5) -> float:
    """The noncentrality a chi-square test of ``df`` degrees of freedom at ``level``
    detects with probability ``power``: ``n * sum((p - p0)**2 / p0)`` of the bias."""
    critical = float(stats.chi2.isf(level, df))

    def miss(lam: float) -> float:
        return float(stats.ncx2.sf(critical, df, lam)) - power

    return float(optimize.brentq(miss, 1e-9, 100 * (critical + df)))


def detectable_position_bias(deals: int, level: float, cells: int = 52) -> float:
    """The smallest relative bias the position test of one card catches half the time
    at ``level``: the card ``1 + b`` times as likely at one place of the deck (and the
    other places sharing the difference). ``inf`` without deals."""
    if deals <= 0:
        return math.inf
    lam = detectable_noncentrality(cells - 1, level)
    p0 = 1 / cells
    return math.sqrt(lam / (deals * p0 * (1 + 1 / (cells - 1))))
