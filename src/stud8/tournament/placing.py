"""Places and prizes at the end of a tournament.

* The winner is 1st; the others are placed in the reverse order of elimination: the
  last out is 2nd, and so on, down to the first out, last of N entries.
* Players busted in the same hand are placed by the chips they started that hand
  with: more chips, better place (the usual house rule, as the WSOP's and Robert's
  Rules of Poker's: the TDA rules leave it to the house). Those who started it with
  equal chips tie: they share the places they cover, and the prizes of those places
  (:func:`~stud8.tournament.payouts.share_prizes`), split equally in whole chips; the
  odd chips go one each to the tied players in the order of their seat numbers at that
  hand's table, lowest first.
* The prizes: the payout shares (given, or the default by number of entries) of the
  prize pool, in whole chips, the rounding's leftover to first place
  (:func:`~stud8.tournament.payouts.prizes`). If fewer entries than paid places
  finish (a given payout for a small field), the unawarded places' prizes go to first.

>>> r = results_of(winner=3, eliminations=[(1,), (2, 4)], players={1: "a", 2: "b", 3: "c",
...                4: "d"}, pool=100, shares=(5000, 3000, 2000))
>>> [(x.player, x.place, x.shared, x.prize) for x in r]
[('c', 1, 1, 50), ('b', 2, 2, 25), ('d', 2, 2, 25), ('a', 4, 1, 0)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from stud8.tournament.events import Result
from stud8.tournament.payouts import default_payouts, prizes, share_prizes

__all__ = ["results_of"]


def results_of(
    *,
    winner: int,
    eliminations: Sequence[tuple[int, ...]],
    players: Mapping[int, str],
    pool: int,
    shares: Sequence[int] | None,
) -> tuple[Result, ...]:
    """Every entry's result, best first. ``eliminations``: the tie groups of entries in
    the order they went out (within a hand, worst first), each in seat order."""
    n = 1 + sum(len(g) for g in eliminations)
    table = tuple(shares) if shares is not None else default_payouts(n)
    paid = list(prizes(pool, table))
    if len(paid) > n:  # more paid places than entries: the rest to first place
        paid[0] += sum(paid[n:])
        del paid[n:]
    paid += [0] * (n - len(paid))
    out = [Result(entry=winner, player=players[winner], place=1, shared=1, prize=paid[0])]
    place = 2
    for group in reversed(eliminations):
        split = share_prizes(paid[place - 1 : place - 1 + len(group)], len(group))
        for e, prize in zip(group, split, strict=True):
            out.append(
                Result(entry=e, player=players[e], place=place, shared=len(group), prize=prize)
            )
        place += len(group)
    return tuple(out)
