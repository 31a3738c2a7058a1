"""The first ``stud8 equity`` compiles numba kernels: it says so, and the compiled code is
cached for the next runs; ``stud8 equity --warm-up`` compiles them ahead.

Each test runs the command as its own process with a fresh numba cache
(``NUMBA_CACHE_DIR``), as after an install.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from stud8.tools.equity_report import COMPILING

CHECK_CACHED = """
from stud8.tools import _equity_kernels as K, _equity_multi as M
from stud8.tools.equity import equity
equity(["As 2s 3s 4s", "Kd Kh Qc Qd"], method="exact")
equity(["As 2s 3s 4s 5s 6s", "Kd Kh Qc Qd Jc Jd", "7h 8h 9h Th Td 9d"], method="exact")
equity(["As 2s 3s", "Kd Kh Qc", "7h 8h 9h"], method="monte-carlo", trials=100, seed=3)
entry = (K.completions, K.pair_level, M.multi_level, M.monte_carlo)
print(sum(sum(d.stats.cache_misses.values()) for d in entry),
      sum(sum(d.stats.cache_hits.values()) for d in entry))
"""


def stud8(cache: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run(
        [sys.executable, "-m", "stud8", *argv],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        stdin=subprocess.DEVNULL,
    )


def test_the_first_count_says_it_compiles_and_the_next_runs_use_the_cache(tmp_path: Path) -> None:
    first = stud8(tmp_path, "equity", "--exact", "As 2s 3s", "Kd Kh Qc")
    assert first.returncode == 0, first.stderr
    assert first.stderr.count(COMPILING) == 1, first.stderr
    assert "As 2s 3s" in first.stdout
    assert list(tmp_path.rglob("*.nbi")), "nothing cached"
    again = stud8(tmp_path, "equity", "--exact", "As 2s 3s", "Kd Kh Qc")
    assert again.returncode == 0 and again.stdout == first.stdout


def test_warm_up_compiles_every_kernel_ahead(tmp_path: Path) -> None:
    warm = stud8(tmp_path, "equity", "--warm-up")
    assert warm.returncode == 0, warm.stderr
    assert COMPILING in warm.stderr  # a fresh cache: it compiles, and says so
    assert "the equity kernels are ready" in warm.stderr
    # After it, counts of every kind load their kernels from the cache: no compiling.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", CHECK_CACHED], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr
    misses, hits = map(int, done.stdout.split())
    assert (misses, hits) == (0, 4)


def test_warm_up_takes_no_cards(tmp_path: Path) -> None:
    done = stud8(tmp_path, "equity", "--warm-up", "As 2s 3s")
    assert done.returncode == 2
    assert "--warm-up takes no cards" in done.stderr and "Traceback" not in done.stderr
