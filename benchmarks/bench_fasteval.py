"""Benchmark: the batch hi/lo evaluator against the per-call peers, in one run.

Ours: :func:`stud8.tools.fasteval.batch_hi_lo` on a C-contiguous ``uint8`` array of
random seven-card hands, one core (the kernel is single-threaded), best of several
runs after a warm-up; the first call's cost (building the tables, compiling or loading
the compiled code) is measured separately, in fresh processes. Peers, per call, on the
same hands: PokerKit 0.7 (high and 8-or-better low, as its stud hi/lo game evaluates
at showdown), phevaluator (high only: a C library with no low) and the engine's own
pure-Python ``hi_lo_codes``. The results are checked to agree: phevaluator's rank is
7,463 minus our high strength, and ours equal ``hi_lo_codes``.

Run: ``python benchmarks/bench_fasteval.py [--hands N] [--repeat R] [--seed S]``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

import numpy as np
import pokerkit

from stud8.core.cards import Card
from stud8.core.evaluate import hi_lo_codes
from stud8.tools.fasteval import batch_hi_lo

_FIRST_CALL = """
import time
t0 = time.perf_counter()
import numpy as np
from stud8.tools.fasteval import batch_hi_lo, tables
t1 = time.perf_counter()
tables()
t2 = time.perf_counter()
batch_hi_lo(np.arange(7, dtype=np.uint8)[None, :])
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def first_call(cache_dir: str) -> tuple[float, float, float]:
    """(import, tables, first call) seconds in a fresh process with this numba cache."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    out = subprocess.run(
        [sys.executable, "-c", _FIRST_CALL], env=env, capture_output=True, text=True, check=True
    )
    a, b, c = (float(x) for x in out.stdout.split())
    return a, b, c


def best(run: Callable[[], object], repeat: int) -> float:
    """The best of ``repeat`` timings, in seconds."""
    return min(timeit.repeat(run, number=1, repeat=repeat))


def random_hands(n: int, seed: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.uint8)


def pokerkit_hi_lo(hole: tuple[Any, ...]) -> tuple[Any, Any]:
    high = pokerkit.StandardHighHand.from_game(hole, ())
    try:
        low = pokerkit.EightOrBetterLowHand.from_game(hole, ())
    except ValueError:
        low = None
    return high, low


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="batch hi/lo evaluation vs per-call peers")
    parser.add_argument("--hands", type=int, default=2_000_000, help="hands per batch call")
    parser.add_argument("--repeat", type=int, default=15, help="timed runs (the best counts)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--peer-hands", type=int, default=20_000, help="hands per peer run")
    parser.add_argument("--pokerkit-hands", type=int, default=300)
    args = parser.parse_args(argv)

    print(f"Python {sys.version.split()[0]}, numpy {np.__version__}, numba {version('numba')}")
    with tempfile.TemporaryDirectory() as cache:
        imp, build, compile_s = first_call(cache)
        _, _, load_s = first_call(cache)
    print(
        f"first use: import {imp:.2f} s, tables {build:.2f} s, "
        f"JIT compile {compile_s:.2f} s (later runs load it from the cache: {load_s:.2f} s)"
    )

    hands = random_hands(args.hands, args.seed)
    high, low = batch_hi_lo(hands)  # warm-up
    seconds = best(lambda: batch_hi_lo(hands), args.repeat)
    ours = args.hands / seconds
    wide = hands.astype(np.int64)
    batch_hi_lo(wide)
    ours_wide = args.hands / best(lambda: batch_hi_lo(wide), max(3, args.repeat // 3))

    sample = hands[: args.peer_hands]
    sample_lists = sample.tolist()
    want = [hi_lo_codes(h) for h in sample_lists]
    if [(int(a), int(b)) for a, b in zip(high[: len(want)], low[: len(want)], strict=True)] != (
        want
    ):
        raise SystemExit("batch_hi_lo disagrees with hi_lo_codes")
    engine = len(sample_lists) / best(lambda: [hi_lo_codes(h) for h in sample_lists], 3)
    one_hand = [sample[i : i + 1] for i in range(2000)]
    single = len(one_hand) / best(lambda: [batch_hi_lo(h) for h in one_hand], 3)

    pk_hands = [
        tuple(pokerkit.Card.clean("".join(str(Card.from_code(c)) for c in h)))
        for h in sample_lists[: args.pokerkit_hands]
    ]
    for h in pk_hands[:20]:
        pokerkit_hi_lo(h)
    pk = len(pk_hands) / best(lambda: [pokerkit_hi_lo(h) for h in pk_hands], 3)

    rows = [
        ("stud8 batch_hi_lo, uint8 (n, 7), hi+lo", ours, "batch"),
        ("stud8 batch_hi_lo, int64 (n, 7), hi+lo", ours_wide, "batch"),
        ("stud8 batch_hi_lo, one hand per call", single, "per call"),
        ("stud8 hi_lo_codes (pure Python), hi+lo", engine, "per call"),
        (f"PokerKit {version('pokerkit')}, hi+lo", pk, "per call"),
    ]
    try:
        phe: Any = importlib.import_module("phevaluator")
    except ImportError:
        phe = None
    if phe is not None:
        evaluate = phe.evaluate_cards
        ranks = [evaluate(*h) for h in sample_lists]
        if any(r != 7463 - int(h) for r, h in zip(ranks, high, strict=False)):
            raise SystemExit("phevaluator's ranks disagree with our high strengths")
        phe_rate = len(sample_lists) / best(lambda: [evaluate(*h) for h in sample_lists], 3)
        rows.append((f"phevaluator {version('phevaluator')}, high only", phe_rate, "per call"))
    print(f"random 7-card hands (seed {args.seed}), one core, best of the timed runs:")
    for name, rate, how in rows:
        print(f"  {name:<42} {rate:>14,.0f} hands/s  ({how})")
    if phe is None:
        print("  phevaluator: not installed (pip install phevaluator)")
    print(
        f"stud8's batch is {ours / pk:,.0f} times PokerKit"
        + (f" and {ours / phe_rate:,.0f} times phevaluator (high only)" if phe else "")
        + f"; target 60 M hands/s: {'reached' if ours >= 60e6 else 'NOT reached'}"
    )
    print(f"(timed {args.hands:,} hands per batch call; {time.strftime('%Y-%m-%d %H:%M')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
