"""The floor under the room's CPU per action: what any Python server on this event loop
spends to take one message in and write it out to the eight seats of a table.

The room's own figure (``bench_room.py``: server CPU per action) includes the kernel's
work for the socket writes, one per seat per action, and the event loop's. This
benchmark measures that part alone: a server with no room in it (uvloop, as
``stud8 serve`` runs, and a plain TCP protocol: no websocket, no JSON, no table), and
the same shape of load as ``bench_room.py`` (tables of 8 in another process; one
player of each table sends a short line, the server writes a 250-byte frame to each
of the 8, and when all 8 have it the next player sends). ``--pace`` gives each
player 0.2 to 1 s to act, as ``bench_room.py`` without ``--instant`` does.

It prints the server's CPU per message (user and system time, all threads, over the
window) beside the room's figures when given them (``--room-ms``): the room's CPU
per action minus this floor is what the room's own Python costs. Loopback TCP puts
the receiving side's network work on the sender's system time too, so the floor is
higher here than it would be over a real network card.

    python benchmarks/bench_fanout_floor.py                    # 125 tables, instant, 20 s
    python benchmarks/bench_fanout_floor.py --pace --seconds 40
    python benchmarks/bench_fanout_floor.py --room-ms 0.345 --room-ms 0.92

Everything it starts it stops.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import resource
import socket
import subprocess
import sys
import time
from typing import ClassVar, cast

import uvloop

SEATS = 8
FRAME = b"\x81\x7e\x00\xfa" + b"x" * 250 + b"\n"  # a 250-byte text frame, and the client's line end


class _Seat(asyncio.Protocol):
    """One player's connection: the first line names his table, each next line is an action."""

    tables: ClassVar[dict[int, list[asyncio.Transport]]] = {}
    actions: ClassVar[int] = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's: not a subclass
        self.table: int | None = None
        self.buffer = b""

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            if self.table is None:
                self.table = int(line)
                _Seat.tables.setdefault(self.table, []).append(self.transport)
                continue
            _Seat.actions += 1
            for seat in _Seat.tables[self.table]:
                seat.write(FRAME)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _serve(port: int, warmup: float, seconds: float) -> None:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(_Seat, "127.0.0.1", port)
    print("ready", flush=True)
    await asyncio.sleep(warmup)
    actions, cpu, started = _Seat.actions, _cpu(), time.perf_counter()
    await asyncio.sleep(seconds)
    actions, cpu = _Seat.actions - actions, _cpu() - cpu
    window = time.perf_counter() - started
    print(f"RESULT {actions} {cpu:.4f} {window:.3f}", flush=True)
    server.close()


async def _table(port: int, table: int, pace: bool) -> None:
    seats = []
    for _ in range(SEATS):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"{table}\n".encode())
        seats.append((reader, writer))
    await asyncio.sleep(1)
    turn = 0
    while True:
        seats[turn % SEATS][1].write(b"act\n")
        for reader, _ in seats:
            await reader.readline()
        turn += 1
        if pace:
            await asyncio.sleep(random.uniform(0.2, 1.0))


async def _play(port: int, tables: int, pace: bool) -> None:
    with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
        await asyncio.gather(*(_table(port, t, pace) for t in range(tables)))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=125, help="tables of 8 (125)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measuring window (20)")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--pace", action="store_true", help="0.2 to 1 s to act")
    parser.add_argument(
        "--room-ms", type=float, action="append", default=[], help="a room's CPU ms per action"
    )
    parser.add_argument("--role", choices=["server", "clients"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role == "server":
        uvloop.run(_serve(args.port, args.warmup, args.seconds))
        return
    if args.role == "clients":
        uvloop.run(_play(args.port, args.tables, args.pace))
        return
    port = _free_port()
    common = [f"--tables={args.tables}", f"--port={port}"]
    server = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--role=server",
            *common,
            f"--warmup={args.warmup}",
            f"--seconds={args.seconds}",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    clients = None
    try:
        assert server.stdout is not None
        if server.stdout.readline().strip() != "ready":
            raise SystemExit("the floor's server did not start")
        clients = subprocess.Popen(
            [sys.executable, __file__, "--role=clients", *common]
            + (["--pace"] if args.pace else [])
        )
        line = server.stdout.readline().split()
        server.wait(timeout=30)
    finally:
        for process in (clients, server):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=10)
    if len(line) != 4 or line[0] != "RESULT" or int(line[1]) == 0:
        raise SystemExit(f"no measurement: {line}")
    actions, cpu, window = int(line[1]), float(line[2]), float(line[3])
    floor = 1000 * cpu / actions
    load = "0.2 to 1 s to act" if args.pace else "instant"
    print(f"== the floor: {args.tables} tables of {SEATS}, {load}, {args.seconds:.0f} s ==")
    print(f"messages a second: {actions / window:.0f}; server CPU {cpu / window:.0%} of a core")
    print(f"server CPU per message (one in, {SEATS} frames out): {floor:.4f} ms")
    for room in args.room_ms:
        print(
            f"a room at {room:.3f} ms per action: {room - floor:.3f} ms above the floor "
            f"({100 * floor / room:.0f}% of it is the floor)"
        )
    print(f'RESULT {{"floor_ms": {floor:.4f}, "messages_per_s": {actions / window:.1f}}}')


if __name__ == "__main__":
    main()
