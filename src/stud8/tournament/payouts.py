"""Who is paid, and how much: payout shares, the prizes, and prizes shared by a tie.

Shares are in basis points (1/100 of a percent), integers summing to 10000. Prizes
are integers summing exactly to the pool.

The default by number of entries, as the big rooms pay:

* 2 to 4 entries: the winner takes all;
* 5 to 7: 65/35;
* 8 to 10: 50/30/20;
* 11 and more: about the top 15% (at least 3 places), each place's share in proportion
  to 1/place (first twice second, three times third...), rounded down to the basis
  point (but at least 1), the leftover basis points to first place.

>>> default_payouts(6), default_payouts(9)
((6500, 3500), (5000, 3000, 2000))
>>> len(default_payouts(180)), sum(default_payouts(180))
(27, 10000)
>>> prizes(1000, (5000, 3000, 2000))
(500, 300, 200)
>>> prizes(1001, (5000, 3000, 2000))  # the odd chip to first place
(501, 300, 200)
>>> share_prizes((300, 200), 2)  # two players tied for 2nd and 3rd share 300+200
(250, 250)
>>> share_prizes((200, 101), 2)  # the odd chip to the first of the tied players
(151, 150)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

from stud8.core.errors import Stud8Error

__all__ = ["WHOLE", "PayoutError", "check_payouts", "default_payouts", "prizes", "share_prizes"]

#: 100% in basis points.
WHOLE = 10_000


class PayoutError(Stud8Error):
    """Payout shares that are not valid."""


def check_payouts(shares: Sequence[int]) -> None:
    """Refuse shares that are not whole basis points, positive, never rising and
    summing to 10000."""
    if not shares:
        raise PayoutError("payouts: at least one place is paid")
    for i, s in enumerate(shares, 1):
        if not isinstance(s, int) or isinstance(s, bool) or s < 1:
            raise PayoutError(
                f"payouts: place {i}'s share must be a whole number of basis "
                f"points, 1 or more, got {s!r}"
            )
    for i, (a, b) in enumerate(pairwise(shares), 2):
        if b > a:
            raise PayoutError(f"payouts: place {i} ({b}) is paid more than place {i - 1} ({a})")
    if sum(shares) != WHOLE:
        raise PayoutError(f"payouts: the shares sum to {sum(shares)} basis points, not {WHOLE}")


def paid_places(entries: int) -> int:
    """How many places the default pays for ``entries`` entries."""
    if entries <= 4:
        return 1
    if entries <= 7:
        return 2
    if entries <= 10:
        return 3
    return max(3, (entries * 15 + 50) // 100)  # 15%, rounded half up


def default_payouts(entries: int) -> tuple[int, ...]:
    """The default shares for ``entries`` entries (see the module docstring)."""
    if not isinstance(entries, int) or entries < 1:
        raise PayoutError(f"payouts: the number of entries must be 1 or more, got {entries!r}")
    places = paid_places(entries)
    if places == 1:
        return (WHOLE,)
    if places == 2:
        return (6500, 3500)
    if places == 3 and entries <= 10:
        return (5000, 3000, 2000)
    # the weights 1/k exactly, over their common denominator (integers throughout)
    common = math.lcm(*range(1, places + 1))
    weights = [common // k for k in range(1, places + 1)]
    total = sum(weights)
    shares = [max(1, WHOLE * w // total) for w in weights]  # every paid place gets something
    shares[0] += WHOLE - sum(shares)
    return tuple(shares)


def prizes(pool: int, shares: Sequence[int]) -> tuple[int, ...]:
    """Each paid place's prize: ``pool * share / 10000`` rounded down, the chips left
    by the rounding to first place, so that they sum to the pool exactly."""
    check_payouts(shares)
    if not isinstance(pool, int) or isinstance(pool, bool) or pool < 0:
        raise PayoutError(f"the prize pool must be a whole number of chips, got {pool!r}")
    out = [pool * s // WHOLE for s in shares]
    out[0] += pool - sum(out)
    return tuple(out)


def share_prizes(place_prizes: Sequence[int], tied: int) -> tuple[int, ...]:
    """``tied`` players sharing the places whose prizes are ``place_prizes`` (zero for
    unpaid places) each get an equal part of their sum; the odd chips go one each to
    the first of them, in the order given (the caller's stated order)."""
    if tied < 1:
        raise PayoutError(f"a share needs at least one player, got {tied}")
    total = sum(place_prizes)
    each, odd = divmod(total, tied)
    return tuple(each + (1 if i < odd else 0) for i in range(tied))
