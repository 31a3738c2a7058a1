"""``GET /api/v1/me``: the player's name, role and bank balance, kept current after a
buy-in, a top-up and a cash-out (the header of the browser client shows it), on a
database (SQLite and PostgreSQL) and in memory."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from server.dbroom import OPERATOR, OPERATOR_PASSWORD, db_room, memory_room
from server.schemacheck import SCHEMAS, conforms
from stud8.server.settings import Settings

SETTINGS = Settings(default_tables=1, bots_per_table=0, starting_chips=1000, signups=100)


async def account(http: httpx.AsyncClient, name: str) -> str:
    r = await http.post("/api/v1/register", json={"name": name, "password": "secret-" + name})
    assert r.status_code == 201, r.text
    r = await http.post("/api/v1/login", json={"name": name, "password": "secret-" + name})
    token = r.json()["token"]
    assert isinstance(token, str)
    return token


async def me(http: httpx.AsyncClient, token: str) -> dict[str, Any]:
    r = await http.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    assert conforms(body, SCHEMAS["rest"]["GET /api/v1/me"]["answer"]), body
    return body


async def command(ws: Any, t: str, n: int, **d: Any) -> None:
    """Send a command and wait for its answer (an ack)."""
    cid = f"c{n}"
    await ws.send(json.dumps({"t": t, "d": {**d, "id": cid}}))
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if msg["t"] in ("ack", "reject") and msg["d"].get("id") == cid:
            assert msg["t"] == "ack", msg
            return


async def balance_follows_the_money(http: httpx.AsyncClient, port: int) -> None:
    token = await account(http, "ann")
    assert await me(http, token) == {"name": "ann", "operator": False, "balance": 1000}
    table = (await http.get("/api/v1/tables")).json()["tables"][0]["table_id"]
    url = f"ws://127.0.0.1:{port}/ws/v1/tables/{table}?token={token}"
    async with websockets.connect(url) as ws:
        await command(ws, "sit", 1, seat=1, amount=150)
        assert (await me(http, token))["balance"] == 850
        await command(ws, "top_up", 2, amount=50)
        assert (await me(http, token))["balance"] == 800
        await command(ws, "leave", 3)
        assert (await me(http, token))["balance"] == 1000  # alone: no hand, all back
    r = await http.post("/api/v1/login", json={"name": OPERATOR, "password": OPERATOR_PASSWORD})
    boss = await me(http, r.json()["token"])
    assert boss["name"] == OPERATOR and boss["operator"] is True
    # no token, a wrong one: 401, and nothing else said
    assert (await http.get("/api/v1/me")).status_code == 401
    r = await http.get("/api/v1/me", headers={"Authorization": "Bearer nope"})
    assert r.status_code == 401 and set(r.json()) == {"error"}


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_bank_balance_on_a_database(kind: str, tmp_path: Path) -> None:
    from server.roomdb import fresh_database

    url = fresh_database(kind, tmp_path)

    async def main() -> None:
        async with db_room(tmp_path, SETTINGS, url=url) as (http, room, port):
            await balance_follows_the_money(http, port)
            assert room.ledger.audit().ok

    asyncio.run(asyncio.wait_for(main(), 60))


def test_the_bank_balance_in_memory(tmp_path: Path) -> None:
    async def main() -> None:
        async with memory_room(tmp_path, SETTINGS) as http:
            port = int(str(http.base_url).rstrip("/").rsplit(":", 1)[1])
            await balance_follows_the_money(http, port)

    asyncio.run(asyncio.wait_for(main(), 60))
