"""What a node's background work costs in a big room (``docs/scaling.md``, "Where it
breaks first"): the once-a-second scan for tables without an owner and the read of
the room's directory, the old way beside the new one, in the same run, on the same
PostgreSQL and Redis, with ``--tables`` open tables (default 10,000).

- **The scan, old**: every open table's id from PostgreSQL, then every one of their
  lease keys (``MGET``), each second, on every node (what ``ClusterNode`` did).
- **The scan, new**: the leases' sorted set read for the tables whose lease ran out
  (``Leases.due``: one ``ZRANGEBYSCORE``); when some are due (a dead node's), their
  lease keys and their rows only. Measured quiet (none due) and with ``--due``
  tables due (a node of 25 tables died).
- **The directory, old**: the whole hash read and decoded (``HGETALL``), every 5 s.
- **The directory, new**: what changed since the last read (``RedisBus._read_changes``):
  nothing, or ``--changes`` entries (a 100,000-player room changes about 210 entries
  a second: about 1,000 in 5 s).

Each is run ``--rounds`` times; printed per round: the wall time (the node waits for
it), this process's CPU (the node's), and Redis's CPU (from ``INFO``), the best and
the median; then what each costs a room of ``--nodes`` nodes a second.

    python benchmarks/bench_cluster_scan.py --database postgresql://postgres@127.0.0.1:54329/scratch
    python benchmarks/bench_cluster_scan.py --database ... --tables 12500 --rounds 20

The database is wiped first and migrated (``DROP SCHEMA public CASCADE``: give it a
scratch database only). A throwaway redis-server (Debian's) runs on 127.0.0.1 on a
free port and is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from redis.asyncio import Redis
from sqlalchemy import insert, text

from stud8.server.books.seats import TableStore, spec_json
from stud8.server.bus import Listed
from stud8.server.bus.channels import DIRECTORY_LOG, DIRECTORY_VERSION, TABLES
from stud8.server.bus.codec import encode_listed
from stud8.server.bus.local import LocalBus
from stud8.server.bus.redis import RedisBus
from stud8.server.cluster.leases import LEASES, Leases, lease_key
from stud8.server.storage import create_engine_for, upgrade
from stud8.server.storage.models import RoomTable
from stud8.server.table.spec import TableSpec
from stud8.server.table.status import TableStatus


@dataclass
class Cost:
    wall: list[float]
    cpu: list[float]
    redis: list[float]

    def line(self, what: str) -> str:
        def ms(values: list[float]) -> str:
            return f"{min(values) * 1000:8.2f} {statistics.median(values) * 1000:8.2f}"

        return f"{what:<46} {ms(self.wall)}   {ms(self.cpu)}   {ms(self.redis)}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def redis_cpu(redis: Redis) -> float:
    info = await redis.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


async def measure(
    redis: Redis,
    rounds: int,
    work: Callable[[], Awaitable[object]],
    between: Callable[[], Awaitable[object]] | None = None,
) -> Cost:
    cost = Cost([], [], [])
    for _ in range(rounds):
        if between is not None:
            await between()
        r0 = await redis_cpu(redis)
        w0, c0 = time.perf_counter(), time.process_time()
        await work()
        w1, c1 = time.perf_counter(), time.process_time()
        r1 = await redis_cpu(redis)
        cost.wall.append(w1 - w0)
        cost.cpu.append(c1 - c0)
        cost.redis.append(max(0.0, r1 - r0))
    return cost


def fill_database(url: str, table_ids: list[str]) -> TableStore:
    engine = create_engine_for(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    upgrade(engine)
    spec = spec_json(TableSpec())
    with engine.begin() as conn:
        conn.execute(
            insert(RoomTable),
            [{"table_id": t, "name": f"Table {t}", "spec": spec} for t in table_ids],
        )
    return TableStore(engine)


async def fill_redis(redis: Redis, table_ids: list[str], nodes: int) -> bytes:
    """Every table held by one of ``nodes`` nodes, listed in the directory; an entry."""
    spec = TableSpec()
    entry = b""
    for start in range(0, len(table_ids), 1000):
        async with redis.pipeline(transaction=False) as pipe:
            for n, table_id in enumerate(table_ids[start : start + 1000], start):
                node = f"n{n % nodes}"
                players = tuple(f"player{n}-{s}" for s in range(8))
                listed = Listed(
                    table_id,
                    f"Table {table_id}",
                    spec,
                    TableStatus(table_id, players, 0, 40, 27.5, 60.0),
                )
                entry = f"{node}\n{n:016x}\n".encode() + encode_listed(listed)
                pipe.set(lease_key(table_id), node, px=3_600_000)
                pipe.hset(TABLES, table_id, entry)
                pipe.zadd(DIRECTORY_LOG, {table_id: n + 1})
            await pipe.execute()
    await redis.zadd(LEASES, dict.fromkeys(table_ids, int(time.time() * 1000) + 3_600_000))
    await redis.set(DIRECTORY_VERSION, len(table_ids))
    return entry


async def run(args: argparse.Namespace, redis_url: str) -> None:
    table_ids = [f"t{n}" for n in range(1, args.tables + 1)]
    store = await asyncio.to_thread(fill_database, args.database, table_ids)
    async with Redis.from_url(redis_url) as redis:
        entry = await fill_redis(redis, table_ids, args.nodes)
        leases = Leases(redis, "bench")
        rows: list[tuple[str, Cost]] = []

        # ---------------------------------------------------------------- the scan
        async def old_scan() -> None:
            open_ids = await asyncio.to_thread(store.open_ids)
            owners = await leases.owners(open_ids)
            assert not [t for t, o in owners.items() if o is None]

        async def new_scan() -> None:
            due = await leases.due()
            if due:
                owners = await leases.owners(due)
                free = [t for t in due if owners[t] is None]
                still_open = await asyncio.to_thread(store.open_among, free)
                assert len(still_open) == len(free) == args.due

        rows.append(
            (
                "scan, old: every open id + MGET every lease",
                await measure(redis, args.rounds, old_scan),
            )
        )
        rows.append(
            ("scan, new: none due (ZRANGEBYSCORE)", await measure(redis, args.rounds, new_scan))
        )
        dead = table_ids[: args.due]  # a dead node's tables: leases gone, due
        await redis.delete(*(lease_key(t) for t in dead))
        await redis.zadd(LEASES, dict.fromkeys(dead, 0))
        rows.append(
            (
                f"scan, new: {args.due} due (+ their keys, rows)",
                await measure(redis, args.rounds, new_scan),
            )
        )

        # ---------------------------------------------------------------- the directory
        bus = RedisBus(redis, "bench", LocalBus(), url=redis_url)
        rows.append(
            (
                "directory, old: HGETALL + decode all",
                await measure(redis, args.rounds, bus._read_directory),
            )
        )
        await bus._read_directory()
        rows.append(
            (
                "directory, new: nothing changed",
                await measure(redis, args.rounds, bus._read_changes),
            )
        )
        version = [args.tables]

        async def change() -> None:
            async with redis.pipeline(transaction=False) as pipe:
                for _ in range(args.changes):
                    version[0] += 1
                    table_id = table_ids[(version[0] * 7919) % len(table_ids)]
                    pipe.hset(TABLES, table_id, entry)
                    pipe.zadd(DIRECTORY_LOG, {table_id: version[0]})
                pipe.set(DIRECTORY_VERSION, version[0])
                await pipe.execute()

        rows.append(
            (
                f"directory, new: {args.changes} changed",
                await measure(redis, args.rounds, bus._read_changes, change),
            )
        )
        assert len(bus.directory()) == args.tables

    print(f"{args.tables:,} open tables, {args.rounds} rounds each; ms per round (best, median)\n")
    print(f"{'':<46} {'wall':>17}   {'node CPU':>17}   {'Redis CPU':>17}")
    for what, cost in rows:
        print(cost.line(what))
    by = dict(rows)
    n = args.nodes
    old_scan_s = statistics.median(by[rows[0][0]].wall)
    new_scan_s = statistics.median(by[rows[1][0]].wall)
    old_dir = statistics.median(by[rows[3][0]].cpu) + statistics.median(by[rows[3][0]].redis)
    new_dir = statistics.median(by[rows[5][0]].cpu) + statistics.median(by[rows[5][0]].redis)
    print(f"\n{n} nodes, each scanning every second and reading the directory every 5 s:")
    print(
        f"  scan: {n * old_scan_s:.3f} s of waiting a second (old: {n * args.tables:,} "
        f"rows and keys a second) vs {n * new_scan_s:.4f} s (new)"
    )
    print(
        f"  directory: {n * old_dir / 5:.3f} CPU-s a second, node + Redis (old) vs "
        f"{n * new_dir / 5:.4f} (new, {args.changes} changes a read)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database", required=True, help="a scratch PostgreSQL (wiped)")
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--due", type=int, default=25)
    parser.add_argument("--changes", type=int, default=1_000)
    parser.add_argument("--nodes", type=int, default=20)
    args = parser.parse_args()
    program = shutil.which("redis-server")
    if program is None:
        sys.exit("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    with tempfile.TemporaryDirectory() as workdir:
        process = subprocess.Popen(
            [
                program,
                "--bind",
                "127.0.0.1",
                "--port",
                str(port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                workdir,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            time.sleep(0.5)
            asyncio.run(run(args, f"redis://127.0.0.1:{port}/0"))
        finally:
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    main()
