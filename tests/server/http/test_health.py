"""A locked database (another process holding SQLite's write lock): the requests are
answered promptly with the documented JSON error (503, Retry-After), not after a 30 s
hang with a plain-text 500; ``/health`` stays 200 and ``/ready`` says 503 until the
lock is gone. A room in memory is always ready."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Awaitable
from pathlib import Path

import httpx

from server.dbroom import ROOMS, db_room
from stud8.server.settings import Settings

GOOD = "Tr1cky-Ostrich-7"


async def timed(call: Awaitable[httpx.Response]) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = await call
    return response, time.monotonic() - started


def test_a_locked_database_is_a_prompt_503(tmp_path: Path) -> None:
    async def body() -> None:
        settings = Settings(default_tables=1, bots_per_table=0)
        async with db_room(tmp_path, settings) as (http, _, _):
            creds = {"name": "ann", "password": GOOD}
            assert (await http.post("/api/v1/register", json=creds)).status_code == 201
            r = await http.post("/api/v1/login", json=creds)
            token = r.json()["token"]
            assert (await http.get("/ready")).json()["ok"] is True
            holder = sqlite3.connect(tmp_path / "room.db", timeout=0)
            holder.execute("BEGIN EXCLUSIVE")  # another process's write lock
            try:
                for call in (
                    http.post("/api/v1/login", json=creds),
                    http.post("/api/v1/register", json={"name": "bob", "password": GOOD}),
                    http.get("/api/v1/hands", headers={"Authorization": f"Bearer {token}"}),
                ):
                    r, took = await timed(call)
                    assert r.status_code == 503, r.text
                    assert r.headers["content-type"] == "application/json"
                    assert "database is busy" in r.json()["error"]
                    assert int(r.headers["Retry-After"]) >= 1
                    assert took < 5, took
                r, took = await timed(http.get("/health"))
                assert r.status_code == 200 and took < 1
                r, took = await timed(http.get("/ready"))
                assert r.status_code == 503 and r.json()["ok"] is False, r.text
                assert "Retry-After" in r.headers and took < 5
            finally:
                holder.rollback()
                holder.close()
            # the lock gone: all is well, and the attempts made meanwhile did not count
            deadline = time.monotonic() + 30
            while (await http.get("/ready")).status_code != 200:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.2)
            assert (await http.post("/api/v1/login", json=creds)).status_code == 200
            r = await http.post("/api/v1/register", json={"name": "bob", "password": GOOD})
            assert r.status_code == 201

    asyncio.run(asyncio.wait_for(body(), 120))


def test_a_room_in_memory_is_alive_and_ready(tmp_path: Path) -> None:
    async def body() -> None:
        async with ROOMS["memory"](tmp_path) as http:
            assert (await http.get("/health")).json() == {"ok": True}
            r = await http.get("/ready")
            assert r.status_code == 200 and r.json()["ok"] is True

    asyncio.run(asyncio.wait_for(body(), 60))
