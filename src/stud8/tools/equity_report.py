"""The ``stud8 equity`` command's work: read the options, run :func:`equity`, print.

>>> import io
>>> out = io.StringIO()
>>> run_equity(["As 2d 3c 4h Kd", "Qh Qs 8c 9d Jc"], dead="5c 6d Tc 2h", stdout=out)
0
>>> print(out.getvalue())  # doctest: +NORMALIZE_WHITESPACE
Stud Hi/Lo equity, exact: 442,890 outcomes (dead: 5c 6d Tc 2h)
   Cards               EV   High win  High tie   Low win   Low tie     Scoop
1  As 2d 3c 4h Kd  47.99%    26.94%     0.00%    57.33%     0.00%    26.94%
2  Qh Qs 8c 9d Jc  52.01%    73.06%     0.00%     0.00%     0.00%    30.96%
No qualifying low: 42.67% of outcomes
<BLANKLINE>
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TextIO

from stud8.tools.equity import EquityResult, Method, equity, warm_up

__all__ = ["ProgressBar", "compile_notice", "format_result", "run_equity", "run_warm_up"]

COMPILING = (
    "stud8 equity: compiling the equity kernels (numba: 10 to 40 s, once after each "
    "install; cached for the next runs; `stud8 equity --warm-up` does it ahead)...\n"
)


@contextmanager
def compile_notice(stream: TextIO, *, after: float = 1.0) -> Iterator[None]:
    """Say once on ``stream`` that the kernels are being compiled, if numba has been
    compiling for ``after`` seconds in the block (its compile events, which loading
    from the cache does not send: a cached run, or a long count, says nothing)."""
    from numba.core import event

    class Compiling(event.Listener):
        def __init__(self) -> None:
            self.depth = 0

        def on_start(self, _event: object) -> None:
            self.depth += 1

        def on_end(self, _event: object) -> None:
            self.depth -= 1

    compiling = Compiling()
    done = threading.Event()

    def watch() -> None:
        since: float | None = None
        while not done.wait(0.1):
            if compiling.depth <= 0:
                since = None
                continue
            now = time.monotonic()
            since = since or now
            if now - since >= after:
                stream.write(COMPILING)
                stream.flush()
                return

    watcher = threading.Thread(target=watch, name="stud8-compile-notice", daemon=True)
    with event.install_listener("numba:compile", compiling):
        watcher.start()
        try:
            yield
        finally:
            done.set()
            watcher.join()


def run_warm_up(stderr: TextIO | None = None) -> int:
    """``stud8 equity --warm-up``: compile the kernels (or check they are cached)."""
    err = stderr if stderr is not None else sys.stderr
    with compile_notice(err, after=0.0):
        seconds = warm_up()
    err.write(f"stud8 equity: the equity kernels are ready ({seconds:.1f} s)\n")
    return 0


class ProgressBar:
    """A one-line progress bar on a terminal, drawn once a run has lasted ``delay``
    seconds and at most ten times a second; :meth:`close` clears it."""

    def __init__(self, stream: TextIO, *, delay: float = 0.4, width: int = 30) -> None:
        self.stream, self.delay, self.width = stream, delay, width
        self.start = time.monotonic()
        self.last = 0.0
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.start < self.delay or (now - self.last < 0.1 and done < total):
            return
        self.last = now
        fraction = min(1.0, done / total) if total else 1.0
        filled = int(fraction * self.width)
        bar = "#" * filled + "-" * (self.width - filled)
        elapsed = now - self.start
        eta = f", {elapsed / fraction - elapsed:.0f}s left" if 0 < fraction < 1 else ""
        self.stream.write(f"\r[{bar}] {fraction:6.1%}{eta}   ")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r" + " " * (self.width + 30) + "\r")
            self.stream.flush()


def _pct(x: float) -> str:
    return f"{x:.2%}"


def format_result(result: EquityResult) -> str:
    """The result as a table for people."""
    if result.method == "exact":
        head = f"Stud Hi/Lo equity, exact: {result.outcomes:,} outcomes"
    else:
        head = (
            f"Stud Hi/Lo equity, Monte Carlo: {result.trials:,} trials, "
            f"standard error of the EVs {result.stderr or 0:.3%} or less"
        )
    notes = []
    if result.dead:
        notes.append(f"dead: {result.dead}")
    if result.community == "??":
        notes.append("7th street is a community card")
    elif result.community:
        notes.append(f"community card: {result.community}")
    if notes:
        head += f" ({'; '.join(notes)})"
    width = max(5, *(len(p.cards) for p in result.players))
    cols = ("EV", "High win", "High tie", "Low win", "Low tie", "Scoop")
    lines = [head, f"   {'Cards':<{width}} " + " ".join(f"{c:>9}" for c in cols)]
    for i, p in enumerate(result.players, 1):
        figures = (p.ev, p.high_win, p.high_tie, p.low_win, p.low_tie, p.scoop)
        lines.append(f"{i:<2} {p.cards:<{width}} " + " ".join(f"{_pct(x):>9}" for x in figures))
    lines.append(f"No qualifying low: {_pct(result.no_low)} of outcomes")
    return "\n".join(lines)


def run_equity(
    players: Sequence[str],
    *,
    dead: str = "",
    exact: bool = False,
    trials: int | None = None,
    seed: int | None = None,
    community: str | None = None,
    as_json: bool = False,
    progress: bool | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``stud8 equity``; returns the exit code (2 for bad input, said on stderr).

    ``community``: None (decide from the cards left), ``"yes"``, ``"no"`` or a card.
    ``progress``: draw a progress bar on ``stderr`` (default: when it is a terminal).
    """
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    if exact and trials is not None:
        err.write("stud8 equity: error: --exact and --trials exclude each other\n")
        return 2
    shared: bool | str | None = community
    if isinstance(community, str) and community.lower() in ("yes", "no"):
        shared = community.lower() == "yes"
    method: Method = "exact" if exact else "monte-carlo" if trials is not None else "auto"
    show = err.isatty() if progress is None else progress
    bar = ProgressBar(err) if show else None
    try:
        with compile_notice(err):
            result = equity(
                list(players),
                dead,
                method=method,
                trials=trials,
                seed=seed,
                community=shared,
                progress=bar,
            )
    except ValueError as e:
        err.write(f"stud8 equity: error: {e}\n")
        return 2
    finally:
        if bar is not None:
            bar.close()
    if as_json:
        out.write(json.dumps(result.to_json(), indent=2) + "\n")
    else:
        out.write(format_result(result) + "\n")
    return 0
