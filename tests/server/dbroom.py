"""Rooms served in this event loop on 127.0.0.1, stopped at the end: :func:`db_room`
on a database (a new SQLite file), yielding an HTTP client on it and the
:class:`~stud8.server.runtime.Room`; :func:`memory_room` and :func:`database_room`
yield only the HTTP client (for tests that run on both kinds, :data:`ROOMS`). Each
room has an operator, :data:`OPERATOR` (password :data:`OPERATOR_PASSWORD`), made
with it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from server.roomdb import serving
from stud8.server.accounts.accounts import Accounts
from stud8.server.runtime import Room, memory_app, open_room
from stud8.server.settings import Settings
from stud8.server.table.spec import TableSpec

FAST = {"STUD8_BETWEEN_HANDS": "0.05", "STUD8_BOT_DELAY": "0"}
OPERATOR, OPERATOR_PASSWORD = "boss", "Boss-Password-1"


@asynccontextmanager
async def db_room(
    tmp_path: Path, settings: Settings | None = None, *, url: str | None = None
) -> AsyncIterator[tuple[httpx.AsyncClient, Room, int]]:
    """A room on ``url`` (default: a new SQLite file in ``tmp_path``), no ready tables
    unless ``settings`` say so; (its HTTP client, the room, the port)."""
    base = settings or Settings(default_tables=0)
    settings = base.with_overrides(database_url=url or f"sqlite:///{tmp_path / 'room.db'}")
    room = open_room(settings, FAST)
    try:
        accounts = Accounts(room.engine, room.ledger, opening_chips=settings.starting_chips)
        if accounts.get(OPERATOR) is None:
            accounts.register(OPERATOR, OPERATOR_PASSWORD, role="operator")
        async with (
            serving(room.app) as port,
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http,
        ):
            yield http, room, port
    finally:
        room.close()


@asynccontextmanager
async def memory_room(
    tmp_path: Path, settings: Settings | None = None
) -> AsyncIterator[httpx.AsyncClient]:
    """The room in memory (``memory_app``); an HTTP client on it."""
    app = memory_app(
        settings or Settings(default_tables=0),
        spec=TableSpec(),
        operators={OPERATOR: OPERATOR_PASSWORD},
    )
    async with (
        serving(app) as port,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http,
    ):
        yield http


@asynccontextmanager
async def database_room(
    tmp_path: Path, settings: Settings | None = None
) -> AsyncIterator[httpx.AsyncClient]:
    """:func:`db_room`'s HTTP client only."""
    async with db_room(tmp_path, settings) as (http, _, _):
        yield http


ROOMS = {"memory": memory_room, "database": database_room}
