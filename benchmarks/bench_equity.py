"""Benchmark: Stud Hi/Lo equity, exact and Monte Carlo, with the peer in the same run.

Ours: :func:`stud8.tools.equity.equity`, one core, best of several runs after a
warm-up (the first use's cost, tables and compiling or loading the compiled code, is
measured in fresh processes and printed apart). Figures: exact heads-up 4th street
(141,181,040 outcomes), exact heads-up 3rd street with no dead cards (18,265,297,050
outcomes), the reference position of issue 4, an exact three-way count, and Monte Carlo
deals a second for three and four players.

Peer: PokerKit 0.7's ``calculate_equities`` (Monte Carlo only, pure Python, the same
split of the pot between the high and a qualifying low), on the reference position
and a four-way 3rd street. No exact Stud Hi/Lo counter is installed here (poker-eval's
``pokenum`` is a C program and not a Python package), so exact counts have no peer in
this run.

Run: ``python benchmarks/bench_equity.py [--repeat R] [--pokerkit-trials N]``.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import timeit
from collections.abc import Sequence
from importlib.metadata import version
from typing import Any

import pokerkit

from stud8.tools.equity import EquityResult, equity

REF = (["As 2d 3c 4h Kd", "Qh Qs 8c 9d Jc"], "5c 6d Tc 2h")
FOURTH = ["As 2d 3c 4h", "Qh Qs 8c 9d"]
THIRD = ["As 2d 3c", "Qh Qs 8c"]
THREE_WAY = ["As 2d 3c 4h Kd", "Qh Qs 8c 9d Jc", "7d 7h 6s Js 9c"]
MC3 = ["As 2d 3c", "Qh Qs 8c", "7d 7h 6s"]
MC4 = ["As 2d 3c", "Qh Qs 8c", "7d 7h 6s", "Kc 5d 4s"]

_FIRST_USE = """
import sys, time
t0 = time.perf_counter()
from stud8.tools.equity import equity
from stud8.tools.fasteval import tables
tables()
t1 = time.perf_counter()
equity(["As 2d 3c 4h Kd", "Qh Qs 8c 9d Jc"], dead="5c 6d Tc 2h", method="exact")
t2 = time.perf_counter()
equity(["As 2d 3c 4h Kd 9s", "Qh Qs 8c 9d Jc 7s", "Ac 2c 5h 6h Js 3s"], method="exact")
t3 = time.perf_counter()
equity(["As 2d 3c", "Qh Qs 8c", "7d 7h 6s"], trials=1000, seed=1)
t4 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, t4 - t3)
"""


def first_use(cache_dir: str) -> list[float]:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    out = subprocess.run(
        [sys.executable, "-c", _FIRST_USE], env=env, capture_output=True, text=True, check=True
    )
    return [float(x) for x in out.stdout.split()]


def timed(repeat: int, players: Sequence[str], **kw: object) -> tuple[float, EquityResult]:
    result = equity(players, **kw)  # type: ignore[arg-type]
    seconds = min(
        timeit.repeat(lambda: equity(players, **kw), number=1, repeat=repeat)  # type: ignore[arg-type]
    )
    return seconds, result


def pokerkit_equity(players: Sequence[str], dead: str, samples: int) -> tuple[float, list[float]]:
    """PokerKit's Monte Carlo: (seconds, equities) for stud hi/lo, each player's cards
    as his hole cards, seven in the end, no board, the dead cards out of the deck."""
    holes = [[tuple(pokerkit.Card.clean(p.replace(" ", "")))] for p in players]
    gone = {c for p in holes for c in p[0]} | set(pokerkit.Card.clean(dead.replace(" ", "")))
    # any sequence of cards serves as the deck (it is only made a set)
    deck: Any = tuple(c for c in pokerkit.Deck.STANDARD if c not in gone)
    hand_types = (pokerkit.StandardHighHand, pokerkit.EightOrBetterLowHand)

    def run() -> list[float]:
        return pokerkit.calculate_equities(holes, (), 7, 0, deck, hand_types, sample_count=samples)

    random.seed(1)
    run()
    start = timeit.default_timer()
    equities = run()
    return timeit.default_timer() - start, equities


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Stud Hi/Lo equity: stud8 and PokerKit")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs (the best counts)")
    parser.add_argument("--trials", type=int, default=2_000_000, help="our Monte Carlo deals")
    parser.add_argument("--pokerkit-trials", type=int, default=4_000)
    args = parser.parse_args(argv)

    print(f"Python {sys.version.split()[0]}, numba {version('numba')}, one core")
    with tempfile.TemporaryDirectory() as cache:
        cold = first_use(cache)
        warm = first_use(cache)
    print(
        "first use (fresh process): import + tables {:.2f} s; exact heads-up {:.2f} s, "
        "exact multi-way {:.2f} s, Monte Carlo {:.2f} s including the JIT compile; "
        "{:.2f} / {:.2f} / {:.2f} s when loaded from the compile cache".format(*cold, *warm[1:])
    )
    print("exact (every outcome counted):")
    rows = [
        ("heads-up 4th street", FOURTH, {}, 1.0),
        ("heads-up 3rd street, no dead cards", THIRD, {}, 90.0),
        ("reference: " + " vs ".join(REF[0]), REF[0], {"dead": REF[1]}, None),
        ("three-way 5th street", THREE_WAY, {}, None),
    ]
    for name, players, extra, target in rows:
        seconds, r = timed(args.repeat, players, method="exact", **extra)
        goal = ""
        if target is not None:
            goal = f"  (target < {target:g} s: {'met' if seconds < target else 'NOT met'})"
        print(f"  {name:<44} {r.outcomes:>16,} outcomes {seconds:>9.4f} s{goal}")
        if players is REF[0]:
            print(f"    first player's EV {r.players[0].ev:.9f} (issue 4: 0.479923909)")
    print("Monte Carlo:")
    for name, players in (("three players, 3rd street", MC3), ("four players, 3rd street", MC4)):
        seconds, r = timed(args.repeat, players, trials=args.trials, seed=7)
        rate = args.trials / seconds
        print(
            f"  {name:<44} {rate:>16,.0f} deals/s  (target 5,000,000: "
            f"{'met' if rate >= 5e6 else 'NOT met'}; stderr {r.stderr:.5f})"
        )
    print(f"peer: PokerKit {version('pokerkit')} calculate_equities (Monte Carlo, pure Python):")
    for name, players, dead in (("reference position", REF[0], REF[1]), ("four players", MC4, "")):
        seconds, equities = pokerkit_equity(players, dead, args.pokerkit_trials)
        ours = equity(players, dead=dead, trials=args.trials, seed=3)
        print(
            f"  {name:<44} {args.pokerkit_trials / seconds:>16,.0f} deals/s  EVs "
            + " ".join(f"{e:.3f}" for e in equities)
            + "  (ours: "
            + " ".join(f"{p.ev:.3f}" for p in ours.players)
            + ")"
        )
    print("  exact counts: no peer installed (pokenum, C, is not available here)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
