"""An attacker's scripts against a room: what each attack of issue 19 gets now.

    python scripts/attack_room.py ATTACK [--url http://127.0.0.1:8000]

Without ``--url`` the script starts its own room (``python -m stud8 serve`` on a new
SQLite file in a temporary folder, on 127.0.0.1 and a free port) and stops it at the
end. The attacks (each prints what it got, with numbers):

``logins``    wrong passwords for one account as fast as possible for 20 s, then
              from many addresses (a trusted proxy's ``X-Forwarded-For``)
``signups``   sign-ups from one address
``logout``    a websocket opened with a token keeps acting after the logout?
``nested``    ~990 levels of nested JSON (2 KB) on a websocket
``flood``     one account with 100 connections flooding, another player timed
``locked``    the database locked by another process during log-ins
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import websockets

PASSWORD = "Tr1cky-Ostrich-7"


# ------------------------------------------------------------------ the room
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def own_room(folder: Path, *, tables: int = 1) -> Iterator[str]:
    """``stud8 serve`` on a new SQLite file in ``folder``; its base URL."""
    port = free_port()
    env = {
        **os.environ,
        "STUD8_BETWEEN_HANDS": "0.5",
        "STUD8_BOT_DELAY": "0.2",
        "STUD8_BOTS_PER_TABLE": "3",
    }
    command = [sys.executable, "-m", "stud8", "serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--database", f"sqlite:///{folder / 'room.db'}", "--tables", str(tables)]
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the room did not start:\n{(folder / 'server.log').read_text()}")
            try:
                if httpx.get(f"{base}/api/v1/tables", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        yield base
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def ws_url(base: str, table: str = "t1", **query: str) -> str:
    q = "&".join(f"{k}={v}" for k, v in query.items())
    return base.replace("http", "ws", 1) + f"/ws/v1/tables/{table}" + (f"?{q}" if q else "")


async def account(http: httpx.AsyncClient, name: str, address: str) -> str:
    """Register ``name`` (from ``address``) and log in: the token."""
    headers = {"X-Forwarded-For": address}
    body = {"name": name, "password": PASSWORD}
    r = await http.post("/api/v1/register", json=body, headers=headers)
    assert r.status_code == 201, r.text
    r = await http.post("/api/v1/login", json=body, headers=headers)
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def tally(codes: list[Any]) -> str:
    return ", ".join(f"{n} x {code}" for code, n in sorted(Counter(codes).items(), key=str))


# ------------------------------------------------------------------ the attacks
async def logins(base: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        await account(http, "victim", "10.0.0.1")  # the owner logs in from home
        print("1. wrong passwords for 'victim', one address, as fast as possible, 20 s:")
        codes: list[int] = []
        retry: set[str] = set()
        first_429 = None
        start = time.monotonic()
        n = 0
        while time.monotonic() - start < 20:
            batch = [
                http.post(
                    "/api/v1/login",
                    json={"name": "victim", "password": f"guess-{n + i:06}"},
                    headers={"X-Forwarded-For": "10.6.6.6"},
                )
                for i in range(16)
            ]
            for r in await asyncio.gather(*batch):
                codes.append(r.status_code)
                if r.status_code == 429:
                    retry.add(r.headers.get("Retry-After", "none"))
                    if first_429 is None:
                        first_429 = len(codes)
            n += 16
        print(f"   {len(codes)} tries in 20 s: {tally(codes)}; the first 429 at try {first_429},")
        print(f"   Retry-After {sorted(retry, key=int)[:3]}..{sorted(retry, key=int)[-1:]} s")
        r = await http.post(
            "/api/v1/login",
            json={"name": "victim", "password": PASSWORD},
            headers={"X-Forwarded-For": "10.0.0.1"},
        )
        print(f"   the owner, from the address he logged in from before: {r.status_code}")
        r = await http.post(
            "/api/v1/login",
            json={"name": "victim", "password": PASSWORD},
            headers={"X-Forwarded-For": "10.0.0.99"},
        )
        print(
            f"   the owner from a new address: {r.status_code} "
            f"(Retry-After {r.headers.get('Retry-After')})"
        )
        print("2. one wrong password each for 200 names from one address:")
        codes = []
        for i in range(200):
            r = await http.post(
                "/api/v1/login",
                json={"name": f"user{i}", "password": "guess-0000"},
                headers={"X-Forwarded-For": "10.7.7.7"},
            )
            codes.append(r.status_code)
        print(f"   {tally(codes)}; Retry-After {r.headers.get('Retry-After')} s")


async def signups(base: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        codes: list[int] = []
        chips: list[int] = []
        for i in range(20):
            r = await http.post(
                "/api/v1/register",
                json={"name": f"farm{i:02}", "password": PASSWORD},
                headers={"X-Forwarded-For": "10.5.5.5"},
            )
            codes.append(r.status_code)
            if r.status_code == 429:
                after = r.headers.get("Retry-After")
        print(f"20 sign-ups from one address: {tally(codes)} (Retry-After {after} s)")
        del chips


async def logout(base: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        token = await account(http, "leaver", "10.0.0.3")
        async with websockets.connect(ws_url(base, token=token)) as ws:
            await ws.recv()  # welcome
            pongs: list[float] = []
            sent = [0]

            async def keep_sending() -> None:
                with contextlib.suppress(websockets.ConnectionClosed):
                    while True:
                        await ws.send(json.dumps({"t": "ping", "d": {"id": f"p{sent[0]}"}}))
                        sent[0] += 1
                        await asyncio.sleep(0.02)

            async def keep_reading() -> None:
                with contextlib.suppress(websockets.ConnectionClosed):
                    async for text in ws:
                        if json.loads(text)["t"] == "pong":
                            pongs.append(time.monotonic())

            tasks = [asyncio.ensure_future(keep_sending()), asyncio.ensure_future(keep_reading())]
            await asyncio.sleep(0.5)  # the socket is in use
            r = await http.post("/api/v1/logout", headers={"Authorization": f"Bearer {token}"})
            logged_out = time.monotonic()
            await asyncio.wait_for(ws.wait_closed(), 10)
            took = time.monotonic() - logged_out
            for task in tasks:
                task.cancel()
            after = sum(1 for t in pongs if t > logged_out)
            print(
                f"a socket sending a ping every 20 ms; logout: {r.status_code}. The socket was "
                f"closed {took * 1000:.0f} ms after the logout's answer, code {ws.close_code} "
                f"{ws.close_reason!r}; {len(pongs)} pings answered before the logout, {after} after"
            )


async def nested(base: str) -> None:
    text = "[" * 990 + "]" * 990
    print(f"a message of {len(text)} bytes, {text.count('[')} levels deep:")
    async with websockets.connect(ws_url(base)) as ws:
        await ws.recv()
        await ws.send(text)
        answer: Any = None
        while answer is None or json.loads(answer)["t"] != "reject":
            answer = await asyncio.wait_for(ws.recv(), 5)
        print(f"   answered {answer}")
        await ws.send(json.dumps({"t": "ping", "d": {"id": "after"}}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if msg["t"] == "pong":
                break
        print(f"   the socket is still open: a ping after it got {msg}")


async def flooder(base: str, token: str, seconds: float = 10.0) -> None:
    """100 connections of one account, each sending pings as fast as it can for
    ``seconds`` (run in a process of its own by :func:`flood`); prints its counts."""
    opened: list[Any] = []
    for _ in range(100):
        ws = await websockets.connect(ws_url(base, token=token), max_queue=None)
        opened.append(ws)
    await asyncio.sleep(0.5)
    counts: Counter[str] = Counter()
    for ws in opened:
        if ws.close_code is not None:
            counts[f"closed at once: {ws.close_code} {ws.close_reason}"] += 1
    live = [ws for ws in opened if ws.close_code is None]
    counts["open"] = len(live)
    stop = time.monotonic() + seconds

    async def spam(ws: Any) -> None:
        i = 0
        with contextlib.suppress(websockets.ConnectionClosed):
            while time.monotonic() < stop:
                await ws.send(json.dumps({"t": "ping", "d": {"id": f"s{i}"}}))
                i += 1
                counts["sent"] += 1
                if i % 20 == 0:
                    await asyncio.sleep(0)
        if ws.close_code is not None:
            counts[f"closed later: {ws.close_code} {ws.close_reason}"] += 1

    async def drain(ws: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in ws:
                kind = json.loads(text)["t"]
                if kind in ("pong", "reject"):
                    counts["answered" if kind == "pong" else "rejected"] += 1

    drains = [asyncio.ensure_future(drain(ws)) for ws in live]
    await asyncio.gather(*(spam(ws) for ws in live))
    await asyncio.sleep(0.5)
    for task in drains:
        task.cancel()
    print(json.dumps(counts))


async def flood(base: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        flooder_token = await account(http, "flooder", "10.9.9.9")
        player = await account(http, "player", "10.0.0.4")

        async def timed(n: int, pause: float) -> list[float]:
            waits: list[float] = []
            async with websockets.connect(ws_url(base, "t1", token=player)) as ws:
                await ws.recv()
                for i in range(n):
                    t0 = time.monotonic()
                    await ws.send(json.dumps({"t": "ping", "d": {"id": f"me{i}"}}))
                    while json.loads(await ws.recv())["t"] != "pong":
                        pass
                    waits.append(time.monotonic() - t0)
                    await asyncio.sleep(pause)
            return sorted(waits)

        quiet = await timed(20, 0.05)
        worker = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "flooder", "--url", base, "--token", flooder_token,
            stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        await asyncio.sleep(1.0)  # its connections are open and sending
        busy = await timed(40, 0.2)
        out, _ = await worker.communicate()
        counts = json.loads(out.decode().strip().splitlines()[-1])
        print(f"one account, 100 connections from another process, 10 s of pings: {counts}")
        for what, waits in (("quiet", quiet), ("during the flood", busy)):
            print(
                f"another player's ping, {what}: median {1000 * waits[len(waits) // 2]:.1f} ms, "
                f"max {1000 * waits[-1]:.1f} ms"
            )


async def locked(base: str, database: Path) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        await account(http, "locky", "10.0.0.5")
        holder = sqlite3.connect(database, timeout=0)
        holder.execute("BEGIN EXCLUSIVE")  # another process's write lock
        print("the database locked by another process (BEGIN EXCLUSIVE):")
        try:
            calls: tuple[tuple[str, Callable[[], Awaitable[httpx.Response]]], ...] = (
                ("log-in", lambda: http.post(
                    "/api/v1/login", json={"name": "locky", "password": PASSWORD})),
                ("sign-up", lambda: http.post(
                    "/api/v1/register", json={"name": "newbie", "password": PASSWORD})),
                ("GET /health", lambda: http.get("/health")),
                ("GET /ready", lambda: http.get("/ready")),
            )  # fmt: skip
            for what, call in calls:
                t0 = time.monotonic()
                r = await call()
                took = time.monotonic() - t0
                print(
                    f"   {what}: {r.status_code} in {took:.2f} s, Retry-After "
                    f"{r.headers.get('Retry-After')}, {r.headers.get('content-type')}: "
                    f"{r.text[:80]!r}"
                )
        finally:
            holder.rollback()
            holder.close()
        r = await http.post("/api/v1/login", json={"name": "locky", "password": PASSWORD})
        ready = (await http.get("/ready")).status_code
        print(f"   the lock released: log-in {r.status_code}; /ready {ready}")


ATTACKS: dict[str, Callable[[str], Coroutine[Any, Any, None]]] = {
    "logins": logins,
    "signups": signups,
    "logout": logout,
    "nested": nested,
    "flood": flood,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("attack", choices=[*ATTACKS, "locked", "flooder"])
    parser.add_argument("--url", default=None, help="a running room (default: start one)")
    parser.add_argument("--token", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.attack == "flooder":  # flood's other process
        asyncio.run(flooder(args.url, args.token))
        return 0
    if args.attack == "locked":
        if args.url:
            raise SystemExit("locked starts its own room (it needs the database file)")
        with tempfile.TemporaryDirectory() as folder, own_room(Path(folder)) as base:
            asyncio.run(locked(base, Path(folder) / "room.db"))
        return 0
    attack = ATTACKS[args.attack]
    if args.url:
        asyncio.run(attack(args.url))
        return 0
    with tempfile.TemporaryDirectory() as folder, own_room(Path(folder)) as base:
        asyncio.run(attack(base))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
