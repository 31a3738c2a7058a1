"""What a hand costs the room's books: its note before the deal and its end (the
settlement, the record, the note removed), written through the room's writer
(:class:`~stud8.server.books.writer.RoomWriter`) as the tables write them.

Plays ``--hands`` eight-handed hands with the engine first (not measured), then
writes them as ``--tables`` tables would, each hand's note and end one job each,
the tables' jobs released together turn by turn, and prints the CPU time of the
whole process per hand (all threads: the loop's side and the writer's) and the
writer thread's alone. ``--database URL`` writes to that database (a PostgreSQL
one is wiped first: a scratch database only); by default a fresh SQLite file.

``--against PYTHON`` runs the same measurement under another checkout's
interpreter (its ``stud8``) in the same run, one after the other, alternating
``--rounds`` times, and prints both::

    python benchmarks/bench_books.py
    python benchmarks/bench_books.py --against ../old/.venv/bin/python --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
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
        rules=RULES, stacks=dict.fromkeys(range(1, SEATS + 1), BUY_IN),
        deck=Deck.seeded(seed), hand_id=hand_id,
    )  # fmt: skip
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


def measure(url: str | None, hands: int, tables: int) -> dict[str, Any]:
    workdir = tempfile.mkdtemp(prefix="stud8-bench-books-")
    engine = create_engine_for(url or f"sqlite:///{workdir}/books.db")
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
            hand_id=f"h{i}", table_id=table,
            seats=tuple((n, seat_names[n], BUY_IN) for n in range(1, SEATS + 1)),
            started_at=datetime.now(UTC),
        )  # fmt: skip
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
        for start in range(0, hands, tables):  # each table its next hand, at once
            batch = ends[start : start + tables]
            await asyncio.gather(*(books.hand_dealt(note) for note, _ in batch))
            await asyncio.gather(*(books.hand_ended(end) for _, end in batch))
        cpu, wcpu = time.process_time() - cpu0, thread_cpu(writer_tid) - wcpu0
        wall = time.perf_counter() - t0
        return {"cpu_ms_per_hand": 1000 * cpu / hands, "writer_ms_per_hand": 1000 * wcpu / hands,
                "wall_s": wall}  # fmt: skip

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
    args = parser.parse_args(argv)
    if args.json or args.against is None:
        figures = measure(args.database, args.hands, args.tables)
        if args.json:
            print(json.dumps(figures))
        else:
            print(f"{figures['cpu_ms_per_hand']:.3f} ms CPU a hand (writer thread "
                  f"{figures['writer_ms_per_hand']:.3f} ms), {args.hands} hands by "
                  f"{args.tables} tables in {figures['wall_s']:.1f} s")  # fmt: skip
        return 0
    here = Path(__file__).resolve()
    command = [here.name, "--json", "--hands", str(args.hands), "--tables", str(args.tables)]
    if args.database:
        command += ["--database", args.database]
    for r in range(args.rounds):
        for who, python in (("this", sys.executable), ("against", args.against)):
            done = subprocess.run(
                [python, str(here), *command[1:]], capture_output=True, text=True, check=False
            )
            if done.returncode != 0:
                print(f"{who} ({python}) failed:\n{done.stderr.strip()[-2000:]}")
                return 1
            f = json.loads(done.stdout.strip().splitlines()[-1])
            print(f"round {r + 1} {who:8} {f['cpu_ms_per_hand']:.3f} ms CPU a hand, writer "
                  f"{f['writer_ms_per_hand']:.3f} ms  ({python})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
