"""Ending a session ends its websockets: a logout closes the sockets opened with that
token, a change of password and a ban every socket of the account, within a second
or two; a ban by ``stud8 admin ban`` in another process too (the room's sweep). A
socket closed so acts no more."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
import websockets
from websockets.asyncio.client import ClientConnection

from server.dbroom import OPERATOR, OPERATOR_PASSWORD, ROOMS, db_room
from stud8.cli import main
from stud8.server.settings import Settings

GOOD = "Tr1cky-Ostrich-7"
ONE_TABLE = Settings(default_tables=1, bots_per_table=0)


async def token_of(http: httpx.AsyncClient, name: str, password: str = GOOD) -> str:
    r = await http.post("/api/v1/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


async def sign_up(http: httpx.AsyncClient, name: str) -> None:
    r = await http.post("/api/v1/register", json={"name": name, "password": GOOD})
    assert r.status_code == 201, r.text


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@asynccontextmanager
async def socket(http: httpx.AsyncClient, token: str) -> AsyncIterator[ClientConnection]:
    url = (
        str(http.base_url).replace("http", "ws", 1).rstrip("/") + f"/ws/v1/tables/t1?token={token}"
    )
    async with websockets.connect(url, max_queue=None) as ws:
        welcome = json.loads(await ws.recv())
        assert welcome["t"] == "welcome" and welcome["d"]["player"] is not None
        yield ws


async def closed_within(ws: ClientConnection, seconds: float) -> tuple[int | None, float]:
    started = time.monotonic()
    await asyncio.wait_for(ws.wait_closed(), seconds)
    return ws.close_code, time.monotonic() - started


async def answers_ping(ws: ClientConnection) -> bool:
    await ws.send(json.dumps({"t": "ping", "d": {"id": "still-there"}}))
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if msg["t"] == "pong":
            return True


@pytest.mark.parametrize("kind", ROOMS)
def test_logout_password_change_and_ban_close_the_websockets(kind: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with ROOMS[kind](tmp_path, ONE_TABLE) as http:
            await sign_up(http, "ann")
            await sign_up(http, "bob")
            first, second = await token_of(http, "ann"), await token_of(http, "ann")
            async with (
                socket(http, first) as a1,
                socket(http, first) as a2,
                socket(http, second) as b1,
            ):
                # a logout closes the sockets of that session only
                r = await http.post("/api/v1/logout", headers=bearer(first))
                assert r.status_code == 200
                for ws in (a1, a2):
                    code, took = await closed_within(ws, 2)
                    assert code == 4401 and took < 2
                    assert ws.close_reason == "logged out"
                assert await answers_ping(b1)
                # a change of password closes every socket of the account
                r = await http.post(
                    "/api/v1/password",
                    json={"old": GOOD, "new": "password"},
                    headers=bearer(second),
                )
                assert r.status_code == 400  # a weak one: nothing changed
                assert await answers_ping(b1)
                new = "Another-Fine-Pass-9"
                r = await http.post(
                    "/api/v1/password", json={"old": GOOD, "new": new}, headers=bearer(second)
                )
                assert r.status_code == 200, r.text
                code, _ = await closed_within(b1, 2)
                assert code == 4401
                r = await http.get("/api/v1/hands", headers=bearer(second))
                assert r.status_code == 401
                assert (
                    await http.post("/api/v1/login", json={"name": "ann", "password": GOOD})
                ).status_code == 401
                await token_of(http, "ann", new)
            # an operator's ban closes every socket of the account, and he stays out
            bob = await token_of(http, "bob")
            boss = await token_of(http, OPERATOR, OPERATOR_PASSWORD)
            async with socket(http, bob) as b1, socket(http, await token_of(http, "bob")) as b2:
                r = await http.post("/api/v1/accounts/bob/ban", headers=bearer(bob))
                assert r.status_code == 403
                r = await http.post("/api/v1/accounts/nobody/ban", headers=bearer(boss))
                assert r.status_code == 404
                r = await http.post("/api/v1/accounts/BOB/ban", headers=bearer(boss))
                assert r.status_code == 200, r.text
                for ws in (b1, b2):
                    code, _ = await closed_within(ws, 2)
                    assert code == 4403 and ws.close_reason == "banned by an operator"
            r = await http.post("/api/v1/login", json={"name": "bob", "password": GOOD})
            assert r.status_code == 401 and "banned" in r.json()["error"]
            if kind == "database":  # one way to ban: written to the moderation log
                r = await http.get("/api/v1/admin/log?player=bob", headers=bearer(boss))
                assert [(a["act"], a["player"], a["operator"]) for a in r.json()["log"]] == [
                    ("ban", "bob", OPERATOR)
                ]
            url = str(http.base_url).replace("http", "ws", 1).rstrip("/")
            async with websockets.connect(f"{url}/ws/v1/tables/t1?token={bob}") as ws:
                await asyncio.wait_for(ws.wait_closed(), 2)
                assert ws.close_code == 4401

    asyncio.run(asyncio.wait_for(body(), 60))


def test_a_ban_from_the_command_line_closes_the_websockets_of_a_running_room(
    url: str, tmp_path: Path
) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE, url=url) as (http, _, _):
            await sign_up(http, "eve")
            async with socket(http, await token_of(http, "eve")) as ws:
                assert await answers_ping(ws)
                started = time.monotonic()
                code = await asyncio.to_thread(
                    main, ["admin", "ban", "eve", "--reason", "cheating", "--database", url]
                )
                assert code == 0
                closed, _ = await closed_within(ws, 3)
                assert closed == 4403 and ws.close_reason == "banned by an operator"
                assert time.monotonic() - started < 3

    asyncio.run(asyncio.wait_for(body(), 60))
