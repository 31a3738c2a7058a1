"""A room on a database with its tournaments, served on 127.0.0.1 in this event loop,
its tables at a test's pace (no pause between hands, bots act at once)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import httpx

from server.dbroom import OPERATOR, OPERATOR_PASSWORD
from server.roomdb import serving
from stud8.server.accounts.accounts import Accounts
from stud8.server.runtime import Room, open_room
from stud8.server.settings import Settings
from stud8.server.tournaments.manager import Tournaments

PACE = {
    "STUD8_BETWEEN_HANDS": "0",
    "STUD8_BOT_DELAY": "0",
    "STUD8_SHOWDOWN_SECONDS": "0",
}


@asynccontextmanager
async def tournament_room(
    url: str, *, players: dict[str, int] | None = None
) -> AsyncIterator[tuple[httpx.AsyncClient, Room, Tournaments]]:
    """A room on ``url`` with an operator and ``players`` (name: opening chips); its
    HTTP client, the room and its tournaments. The room is closed after."""
    settings = Settings(default_tables=0, starting_chips=1000).with_overrides(database_url=url)
    room = open_room(settings, PACE)
    try:
        accounts = Accounts(room.engine, room.ledger, opening_chips=0)
        if accounts.get(OPERATOR) is None:
            accounts.register(OPERATOR, OPERATOR_PASSWORD, role="operator")
        for name, chips in (players or {}).items():
            if accounts.get(name) is None:
                accounts.register(name, f"{name}-Password-9")
                if chips:
                    room.ledger.grant(name, chips)
        async with (
            serving(room.app) as port,
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http,
        ):
            tournaments = room.app.state.tournaments
            assert isinstance(tournaments, Tournaments)
            yield http, room, tournaments
    finally:
        room.close()


async def login(http: httpx.AsyncClient, name: str, password: str) -> dict[str, str]:
    r = await http.post("/api/v1/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def operator(http: httpx.AsyncClient) -> dict[str, str]:
    return await login(http, OPERATOR, OPERATOR_PASSWORD)


async def until(check: Callable[[], bool], seconds: float = 60.0, what: str = "") -> None:
    """Wait (polling) until ``check()`` holds; fail after ``seconds``."""
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or check}")
        await asyncio.sleep(0.02)
