"""The room on a database (a new SQLite file), served in this event loop on 127.0.0.1:
:func:`db_room` yields an HTTP client on it and the :class:`~stud8.server.runtime.Room`;
the server is stopped and the room closed at the end."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from server.roomdb import serving
from stud8.server.runtime import Room, open_room
from stud8.server.settings import Settings

FAST = {"STUD8_BETWEEN_HANDS": "0.05", "STUD8_BOT_DELAY": "0"}


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
        async with (
            serving(room.app) as port,
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http,
        ):
            yield http, room, port
    finally:
        room.close()
