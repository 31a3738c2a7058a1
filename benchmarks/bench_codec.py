"""The room's codecs, old and new in one run: microseconds per item to write a table's
real events for the websocket (the edge's texts), to read a client's ``act``, to
write the server's most sent messages, and to encode and decode the bus's messages.

A real table plays hands in each build (:func:`bench_bus_codec.play`: 8 players, a
manual clock) and every event it numbers is kept; then each codec runs over them
(the best round of each 50 items; the machine is shared). The same script measures
both builds, each in its own process: this checkout's ``src`` and another's
(``--old``: a checkout of the code before, e.g. ``git worktree add /tmp/old
8146efb``), and prints each figure with its ratio (old / new: above 1, the new code
is faster).

    python benchmarks/bench_codec.py --old /tmp/old [--seconds 0.5] [--hands 20] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"

ACTS = [
    '{"t":"act","d":{"kind":"call","id":"c17"}}',
    '{"t":"act","d":{"kind":"raise","amount":8,"id":"c18"}}',
    '{"t":"act","d":{"kind":"fold","id":"c19"}}',
    '{"t":"act","d":{"kind":"bring_in","id":"c20","amount":null}}',
]


def _each(work: Callable[[Any], Any]) -> Callable[[Sequence[Any]], None]:
    def run(chunk: Sequence[Any]) -> None:
        for x in chunk:
            work(x)

    return run


def measure_here(seconds: float, hands: int) -> dict[str, float]:
    """Every figure of the build this process imports (microseconds per item)."""
    sys.path.insert(0, str(HERE))
    from bench_bus_codec import best_us, play

    from stud8.server.bus.codec import (
        decode_catch_up,
        decode_numbered,
        encode_catch_up,
        encode_numbered,
    )
    from stud8.server.edge.projection import encode, snapshot_for
    from stud8.server.table.events import TimerStarted
    from stud8.server.wire.client import parse_command
    from stud8.server.wire.server import AckMessage, TurnMessage

    _, events, snapshots = asyncio.run(play(hands))
    blobs = [encode_numbered(e) for e in events]
    assert [decode_numbered(b) for b in blobs] == events
    ups = [encode_catch_up(c) for c in snapshots[:100]]
    turns = [e for e in events if type(e.event) is TimerStarted and e.legal]
    acts = ACTS * 50
    out = {
        "events": float(len(events)),
        "edge: an event's texts": best_us(_each(encode), events, seconds),
        "wire: parse an act": best_us(_each(parse_command), acts, seconds),
        "wire: a turn message": best_us(
            _each(lambda e: TurnMessage(e.event.seat, e.legal).encode(e.seq)), turns, seconds
        ),
        "wire: an ack": best_us(_each(lambda e: AckMessage("c17").encode(e.seq)), events, seconds),
        "wire: a snapshot for a player": best_us(
            _each(lambda c: snapshot_for(c.snapshot, "p1", False).encode(c.snapshot.seq)),
            [c for c in snapshots[:100] if c.snapshot is not None],
            seconds,
        ),
        "bus: encode a numbered event": best_us(_each(encode_numbered), events, seconds),
        "bus: decode a numbered event": best_us(_each(decode_numbered), blobs, seconds),
        "bus: encode a catch-up": best_us(_each(encode_catch_up), snapshots[:100], seconds),
        "bus: decode a catch-up": best_us(_each(decode_catch_up), ups, seconds),
    }
    return out


def run_build(src: Path, seconds: float, hands: int) -> tuple[str, dict[str, float]]:
    """Where the build's ``stud8`` was imported from, and its figures."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    args = [sys.executable, __file__, "--one", "--seconds", str(seconds), "--hands", str(hands)]
    done = subprocess.run(args, env=env, check=True, capture_output=True, text=True)
    *_, where, figures = done.stdout.splitlines()
    result: dict[str, float] = json.loads(figures)
    return where, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, help="a checkout of the code before")
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3, help="runs of each build, in turns")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        import stud8

        where = str(Path(stud8.__file__).resolve().parents[1])
        figures = measure_here(args.seconds, args.hands)
        print(where)
        print(json.dumps(figures))
        return 0
    if args.old is None:
        parser.error("--old: a checkout of the code before (git worktree add /tmp/old REV)")
    # old and new in turns, the best of each figure kept: a shared machine's load
    # comes and goes, and each build gets its share of both
    old: dict[str, float] = {}
    new: dict[str, float] = {}
    imported: dict[str, set[str]] = {"old": set(), "new": set()}
    for _ in range(args.rounds):
        for name, build, src in (("old", old, args.old / "src"), ("new", new, SRC)):
            where, figures = run_build(src, args.seconds, args.hands)
            imported[name].add(where)
            for what, value in figures.items():
                build[what] = min(build.get(what, value), value)
    assert not imported["old"] & imported["new"], "both runs imported the same code"
    print(f"{old.pop('events'):.0f} real events (old), {new.pop('events'):.0f} (new)")
    print(f"{'us per item':<34}{'old':>9}{'new':>9}{'old/new':>9}")
    for name, before in old.items():
        after = new[name]
        print(f"{name:<34}{before:>9.2f}{after:>9.2f}{before / after:>8.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
