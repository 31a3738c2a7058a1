"""Benchmark: hi+lo evaluation of random seven-card stud hands, stud8 against PokerKit.

For stud8 one call is ``evaluate_hi_lo(cards)``. For PokerKit 0.7 it is what its stud
hi/lo game does at showdown (``State.get_hand`` with the ``hand_types`` of
``FixedLimitSevenCardStudHighLowSplitEightOrBetter``): the seven cards are the "hole
cards", there is no board, and the high and the low are
``StandardHighHand.from_game(hole, ())`` and ``EightOrBetterLowHand.from_game(hole, ())``
(``ValueError`` meaning no low, as ``get_hand`` treats it). Both get their own card
objects made in advance, and both are warmed up first. The two are also checked to
agree (same winner of every pair of consecutive hands, high and low).

Run: ``python benchmarks/bench_evaluate.py [--hands N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import timeit
from collections.abc import Callable, Sequence
from typing import Any

import pokerkit

from stud8.core.cards import CARDS, Card
from stud8.core.evaluate import HighValue, LowValue, evaluate_hi_lo

StudHand = tuple[Card, ...]
PkHand = tuple[Any, ...]


def pokerkit_hi_lo(hole: PkHand) -> tuple[Any, Any]:
    high = pokerkit.StandardHighHand.from_game(hole, ())
    try:
        low = pokerkit.EightOrBetterLowHand.from_game(hole, ())
    except ValueError:
        low = None
    return high, low


def per_call(run: Callable[[], object], calls: int, repeat: int) -> float:
    """Best of ``repeat`` runs, in microseconds per call."""
    return min(timeit.repeat(run, number=1, repeat=repeat)) / calls * 1e6


def check_agreement(ours: Sequence[StudHand], theirs: Sequence[PkHand]) -> None:
    def sign(a: Any, b: Any) -> int:
        return int(a > b) - int(a < b)

    def low_sign(a: LowValue | None, b: LowValue | None) -> int:
        if a is None or b is None:
            return (a is not None) - (b is not None)
        return sign(a, b)

    def pk_low_sign(a: Any, b: Any) -> int:
        if a is None or b is None:
            return (a is not None) - (b is not None)
        return sign(a, b)

    mine = [evaluate_hi_lo(h) for h in ours]
    pk = [pokerkit_hi_lo(h) for h in theirs]
    for i in range(len(mine) - 1):
        h1: HighValue = mine[i][0]
        h2: HighValue = mine[i + 1][0]
        if sign(h1, h2) != sign(pk[i][0], pk[i + 1][0]):
            raise SystemExit(f"high disagrees: {ours[i]} / {ours[i + 1]}")
        if low_sign(mine[i][1], mine[i + 1][1]) != pk_low_sign(pk[i][1], pk[i + 1][1]):
            raise SystemExit(f"low disagrees: {ours[i]} / {ours[i + 1]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="stud8 vs PokerKit, 7-card hi/lo evaluation")
    parser.add_argument("--hands", type=int, default=20_000, help="stud8 hands per run")
    parser.add_argument("--pokerkit-hands", type=int, default=300, help="PokerKit hands per run")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    hands: list[StudHand] = [tuple(rng.sample(CARDS, 7)) for _ in range(args.hands)]
    pk_hands: list[PkHand] = [
        tuple(pokerkit.Card.clean("".join(map(str, h)))) for h in hands[: args.pokerkit_hands]
    ]
    check_agreement(hands[: len(pk_hands)], pk_hands)

    def run_stud8() -> None:
        for h in hands:
            evaluate_hi_lo(h)

    def run_pokerkit() -> None:
        for h in pk_hands:
            pokerkit_hi_lo(h)

    run_stud8()  # warm-up (builds the tables)
    run_pokerkit()
    ours = per_call(run_stud8, len(hands), repeat=7)
    theirs = per_call(run_pokerkit, len(pk_hands), repeat=3)
    print(f"Python {sys.version.split()[0]}, pokerkit {pokerkit_version()}")
    print(f"random 7-card hands, high + 8-or-better low per call (seed {args.seed})")
    print(f"  {'':<10} {'us/call':>10} {'calls/s':>12} {'hands':>8}")
    print(f"  {'stud8':<10} {ours:>10.2f} {1e6 / ours:>12,.0f} {len(hands):>8}")
    print(f"  {'PokerKit':<10} {theirs:>10.2f} {1e6 / theirs:>12,.0f} {len(pk_hands):>8}")
    print(f"  stud8 is {theirs / ours:,.0f} times faster (results agree on all compared hands)")
    return 0


def pokerkit_version() -> str:
    from importlib.metadata import version

    return version("pokerkit")


if __name__ == "__main__":
    sys.exit(main())
