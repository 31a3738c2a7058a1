"""One account, one address: their connections share a rate limit, and there is a
cap on how many sockets each may hold (4429 past it); another player, from another
address, is served as if nothing happened. (The addresses are a trusted proxy's
``X-Forwarded-For``: uvicorn trusts 127.0.0.1.)"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter

import httpx
import websockets

from server.roomdb import serving
from stud8.server.runtime import memory_app
from stud8.server.settings import Settings
from stud8.server.table.spec import TableSpec

GOOD = "Tr1cky-Ostrich-7"
SETTINGS = Settings(
    default_tables=1,
    bots_per_table=0,
    rate_per_second=20,
    rate_burst=40,
    account_rate=30,
    account_burst=60,
    account_sockets=4,
    address_sockets=6,
)


def test_an_account_s_connections_share_a_limit_and_are_capped() -> None:
    async def body() -> None:
        app = memory_app(SETTINGS, spec=TableSpec())
        async with (
            serving(app) as port,
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
        ):
            tokens = {}
            for name, address in (("flood", "10.9.9.9"), ("calm", "10.1.1.1")):
                headers = {"X-Forwarded-For": address}
                body = {"name": name, "password": GOOD}
                assert (await http.post("/api/v1/register", json=body)).status_code == 201
                r = await http.post("/api/v1/login", json=body, headers=headers)
                tokens[name] = r.json()["token"]

            def url(name: str | None) -> str:
                query = f"?token={tokens[name]}" if name else ""
                return f"ws://127.0.0.1:{port}/ws/v1/tables/t1{query}"

            async def connect(name: str | None, address: str) -> websockets.ClientConnection:
                ws = await websockets.connect(
                    url(name), additional_headers={"X-Forwarded-For": address}, max_queue=None
                )
                with contextlib.suppress(websockets.ConnectionClosed):
                    await ws.recv()  # the welcome, or the close
                return ws

            flood = [await connect("flood", "10.9.9.9") for _ in range(4)]
            extra = await connect("flood", "10.9.9.8")  # one more, from anywhere: refused
            await asyncio.wait_for(extra.wait_closed(), 2)
            assert extra.close_code == 4429, extra.close_reason
            # the address's cap counts everyone from there (observers too)
            watchers = [await connect(None, "10.9.9.9") for _ in range(3)]
            await asyncio.wait_for(watchers[2].wait_closed(), 2)
            assert watchers[2].close_code == 4429
            assert watchers[0].close_code is None and watchers[1].close_code is None

            calm = await connect("calm", "10.1.1.1")
            # the flood: 4 connections, 100 pings each, at once
            started = time.monotonic()
            for ws in flood:
                for i in range(100):
                    await ws.send(json.dumps({"t": "ping", "d": {"id": f"f{i}"}}))
            answers: Counter[str] = Counter()

            async def drain(ws: websockets.ClientConnection) -> None:
                seen = 0
                while seen < 100:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    if msg["t"] in ("pong", "reject"):
                        seen += 1
                        key = "pong" if msg["t"] == "pong" else msg["d"]["reason"][:10]
                        answers[key] += 1

            async def timed_pings() -> list[float]:
                waits = []
                for i in range(10):
                    t0 = time.monotonic()
                    await calm.send(json.dumps({"t": "ping", "d": {"id": f"c{i}"}}))
                    while json.loads(await asyncio.wait_for(calm.recv(), 5))["t"] != "pong":
                        pass
                    waits.append(time.monotonic() - t0)
                return waits

            results = await asyncio.gather(*(drain(ws) for ws in flood), timed_pings())
            elapsed = time.monotonic() - started
            waits = results[-1]
            assert isinstance(waits, list)
            # the account's 60 saved plus 30 a second, not 4 x 40 (each connection's own)
            assert answers["pong"] <= 60 + 30 * elapsed + 2, (answers, elapsed)
            assert answers["rate limit"] == 400 - answers["pong"]
            assert max(waits) < 0.5, waits  # the other player is answered at once
            for ws in [*flood, *watchers, calm]:
                await ws.close()

    asyncio.run(asyncio.wait_for(body(), 60))


def test_a_connection_that_keeps_flooding_is_closed() -> None:
    async def body() -> None:
        app = memory_app(SETTINGS, spec=TableSpec())
        async with serving(app) as port:
            url = f"ws://127.0.0.1:{port}/ws/v1/tables/t1"
            async with websockets.connect(url, max_queue=None) as ws:
                await ws.recv()
                sent = 0
                with contextlib.suppress(websockets.ConnectionClosed):
                    for sent in range(1, 2001):
                        await ws.send(json.dumps({"t": "ping", "d": {"id": f"f{sent}"}}))
                        if sent % 100 == 0:
                            await asyncio.sleep(0.01)
                await asyncio.wait_for(ws.wait_closed(), 5)
                assert ws.close_code == 1008 and "flooding" in (ws.close_reason or "")
                assert sent < 2000

    asyncio.run(asyncio.wait_for(body(), 60))
