"""``GET /api/v1/tables`` gives each table's ``observers``: the websockets open on it
of viewers without a seat (logged in or not), up as they open the table and down as
they close it, through a real server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import time

import httpx

from server.roomclient import run, serve, sit

WAIT = 10.0  # seconds a count may take to reach the lobby (it is told within a second)


async def observers_reach(http: httpx.AsyncClient, wanted: int, table_id: str = "t1") -> None:
    """Wait until the lobby lists ``wanted`` observers at ``table_id``."""
    deadline = time.monotonic() + WAIT
    while True:
        tables = (await http.get("/api/v1/tables")).json()["tables"]
        got = next(t["observers"] for t in tables if t["table_id"] == table_id)
        if got == wanted:
            return
        assert time.monotonic() < deadline, f"{got} observers at {table_id}, not {wanted}"
        await asyncio.sleep(0.05)


def test_the_lobby_counts_those_watching_a_table_without_a_seat() -> None:
    async def body() -> None:
        async with serve() as room:
            await observers_reach(room.http, 0)
            ann = await room.player("ann")
            async with room.connect() as nobody, room.connect(ann) as c_ann:
                await observers_reach(room.http, 2)  # one not logged in, and ann
                async with room.connect(ann, ids="d"):
                    await observers_reach(room.http, 3)  # ann's second window
                await observers_reach(room.http, 2)
                await sit(room, c_ann, 1)
                await observers_reach(room.http, 1)  # seated, ann is a player
                await nobody.until(lambda m: m["t"] == "event" and m["d"]["k"] == "sit")
            await observers_reach(room.http, 0)
            assert room.table().status().players == ("ann",)

    run(body)
