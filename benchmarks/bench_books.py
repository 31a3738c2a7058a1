"""What a hand costs the room's books: its note before the deal and its end (the
settlement, the record, the note removed), written through the room's writer
(:class:`~stud8.server.books.writer.RoomWriter`) as the tables write them.

Plays ``--hands`` eight-handed hands with the engine first (not measured), then
writes them as ``--tables`` tables would, each hand's note and end one job each,
the tables' jobs released together turn by turn, and prints the CPU time of the
whole process per hand (all threads: the loop's side and the writer's) and the
writer thread's alone. ``--database URL`` writes to that database (a PostgreSQL
one is wiped first: a scratch database only); by default a fresh SQLite file.

On PostgreSQL it also counts the round trips of each hand's end on the wire (a
second, shorter run through :class:`RoundTripRelay`, whose own delay is kept out
of the times) and prints the wall time a hand and the hands a second.

``--against PYTHON`` runs the same measurement under another checkout's
interpreter (its ``stud8``) in the same run, one after the other, alternating
``--rounds`` times, and prints both; ``--against-src DIR`` puts another checkout's
``src`` first on that interpreter's path instead (the relay is always this
checkout's file)::

    python benchmarks/bench_books.py
    python benchmarks/bench_books.py --against ../old/.venv/bin/python --rounds 3
    python benchmarks/bench_books.py --database postgresql://... --against-src ../old/src
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

from stud8.core.cards import Deck
from stud8.core.hand import Hand
from stud8.core.rules import TableRules
from stud8.formats.record import HandRecord
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger
from stud8.server.books.room import RoomBooks
from stud8.server.books.writer import RoomWriter
from stud8.server.storage import create_engine_for, upgrade
from stud8.server.table.books import HandEnd, HandNote

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, rake_percent=Fraction(5))
SEATS = 8
BUY_IN = 400


def played(hand_id: str, seed: int) -> Hand:
    """A hand played to its end by players who call or check mostly."""
    rng = random.Random(seed)
    hand = Hand.start(
        rules=RULES,
        stacks=dict.fromkeys(range(1, SEATS + 1), BUY_IN),
        deck=Deck.seeded(seed),
        hand_id=hand_id,
    )
    while not hand.is_over:
        legal = hand.legal_actions()
        weights = [{"fold": 1, "check": 6, "call": 6}.get(a.kind.value, 1) for a in legal]
        action = rng.choices(legal, weights)[0]
        hand.apply(action.action())
    return hand


def thread_cpu(tid: int) -> float:
    """A thread's user + system CPU seconds (Linux)."""
    fields = Path(f"/proc/{os.getpid()}/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def relay_class() -> Any:
    """This checkout's RoundTripRelay, loaded from its file (an older checkout run
    with ``--against-src`` has none)."""
    path = Path(__file__).resolve().parent.parent / "src/stud8/server/storage/roundtrips.py"
    spec = importlib.util.spec_from_file_location("_bench_roundtrips", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclass looks itself up there)
    spec.loader.exec_module(module)
    return module.RoundTripRelay


def measure(url: str | None, hands: int, tables: int, *, relay: Any = None) -> dict[str, Any]:
    workdir = tempfile.mkdtemp(prefix="stud8-bench-books-")
    engine = create_engine_for(relay.url(url) if relay else url or f"sqlite:///{workdir}/books.db")
    if url is not None and url.startswith("postgresql"):
        from sqlalchemy import text

        with engine.begin() as conn:
            conn.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    upgrade(engine)
    ledger = Ledger(engine)
    names = {n: f"player{n}" for n in range(1, SEATS + 1)}
    for t in range(tables):
        for n in names.values():
            ledger.grant(f"{n}_{t}", 10**9)
    ends: list[tuple[HandNote, HandEnd]] = []
    for i in range(hands):
        table = f"t{i % tables}"
        seat_names = {n: f"{p}_{i % tables}" for n, p in names.items()}
        hand = played(f"h{i}", i)
        record = HandRecord.from_hand(hand, names=seat_names, table=table)
        note = HandNote(
            hand_id=f"h{i}",
            table_id=table,
            seats=tuple((n, seat_names[n], BUY_IN) for n in range(1, SEATS + 1)),
            started_at=datetime.now(UTC),
        )
        ends.append((note, HandEnd.of(hand, seat_names, record)))
    writer = RoomWriter(engine)

    async def main() -> dict[str, Any]:
        books = RoomBooks(ledger, writer)
        for t in range(tables):
            for n in range(1, SEATS + 1):
                await books.sit(f"t{t}", n, f"player{n}_{t}", 10**8)
        writer_tid = writer._thread.native_id if writer._thread else None
        assert writer_tid is not None
        cpu0, wcpu0, t0 = time.process_time(), thread_cpu(writer_tid), time.perf_counter()
        trips = 0
        for start in range(0, hands, tables):  # each table its next hand, at once
            batch = ends[start : start + tables]
            await asyncio.gather(*(books.hand_dealt(note) for note, _ in batch))
            before = relay.count if relay else 0
            await asyncio.gather(*(books.hand_ended(end) for _, end in batch))
            trips += relay.count - before if relay else 0
        cpu, wcpu = time.process_time() - cpu0, thread_cpu(writer_tid) - wcpu0
        wall = time.perf_counter() - t0
        return {
            "cpu_ms_per_hand": 1000 * cpu / hands,
            "writer_ms_per_hand": 1000 * wcpu / hands,
            "wall_ms_per_hand": 1000 * wall / hands,
            "hands_per_s": hands / wall,
            "wall_s": wall,
            "round_trips_per_end": trips / hands,
        }

    try:
        figures = asyncio.run(main())
    finally:
        writer.close()
    stored = sum(1 for _, end in ends if HandStore(engine).fetch(end.hand_id) is not None)
    engine.dispose()
    figures["stored"] = stored
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=4, help="hands written at once")
    parser.add_argument("--database", default=None)
    parser.add_argument("--against", default=None, help="another checkout's python")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print one JSON line only")
    parser.add_argument("--against-src", default=None, help="another checkout's src")
    args = parser.parse_args(argv)
    if args.json or (args.against is None and args.against_src is None):
        figures = both(args.database, args.hands, args.tables)
        print(json.dumps(figures) if args.json else line(figures, args))
        return 0
    here = Path(__file__).resolve()
    command = ["--json", "--hands", str(args.hands), "--tables", str(args.tables)]
    if args.database:
        command += ["--database", args.database]
    other = args.against or sys.executable
    old_env = {**os.environ}
    if args.against_src:
        old_env["PYTHONPATH"] = str(Path(args.against_src).resolve())
    runs = (("this", sys.executable, {**os.environ}), ("against", other, old_env))
    for r in range(args.rounds):
        for who, python, env in runs:
            done = subprocess.run(
                [python, str(here), *command], capture_output=True, text=True, check=False, env=env
            )
            if done.returncode != 0:
                print(f"{who} ({python}) failed:\n{done.stderr.strip()[-2000:]}")
                return 1
            f = json.loads(done.stdout.strip().splitlines()[-1])
            print(f"round {r + 1} {who:8} {line(f, args)}")
    return 0


def both(url: str | None, hands: int, tables: int) -> dict[str, Any]:
    """The times (directly), and on PostgreSQL the round trips (through the relay)."""
    figures = measure(url, hands, tables)
    if url is not None and url.startswith("postgresql"):
        with relay_class().to(url) as relay:
            counted = measure(url, max(tables * 20, min(hands, 200)), tables, relay=relay)
        figures["round_trips_per_end"] = counted["round_trips_per_end"]
    return figures


def line(f: dict[str, Any], args: argparse.Namespace) -> str:
    trips = f.get("round_trips_per_end") or 0
    return (
        f"{f['wall_ms_per_hand']:.3f} ms a hand ({f['hands_per_s']:.0f} hands/s), "
        f"{f['cpu_ms_per_hand']:.3f} ms CPU (writer thread {f['writer_ms_per_hand']:.3f} ms)"
        + (f", {trips:.2f} round trips a hand's end" if trips else "")
        + f"; {args.hands} hands by {args.tables} table(s)"
    )


if __name__ == "__main__":
    sys.exit(main())
