"""A node is the room of one process wired with its cluster parts
(:mod:`stud8.server.runtime.node`), and a node that fails to open closes all it
opened: its engines, its Redis client, its writer and its hold on the database.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``); no Redis (a node that
fails to open has not connected to it yet).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis
from sqlalchemy import Engine

from server.roomdb import fresh_database
from stud8.server import runtime
from stud8.server.accounts.accounts import Accounts
from stud8.server.books.writer import RoomWriter
from stud8.server.runtime.node import NodeWiring
from stud8.server.settings import Settings
from stud8.server.storage import create_engine_for as real_engine_for
from stud8.server.storage.hold import HoldKind, hold_database

UNUSED_REDIS = "redis://127.0.0.1:1/0"  # never reached: nothing connects before the app runs


class Spies:
    """What the node opened and what it closed again."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.engines: list[Engine] = []
        self.disposed: list[Engine] = []
        self.redis_closed = 0
        self.writers_closed = 0
        made = real_engine_for

        def create_engine_for(url: str, **kwargs: Any) -> Engine:
            engine = made(url, **kwargs)
            self.engines.append(engine)
            return engine

        dispose = Engine.dispose

        def disposing(engine: Engine, close: bool = True) -> None:
            self.disposed.append(engine)
            dispose(engine, close)

        aclose = Redis.aclose

        async def closing(redis: Redis, close_connection_pool: bool | None = None) -> None:
            self.redis_closed += 1
            await aclose(redis, close_connection_pool)

        close = RoomWriter.close

        def closing_writer(writer: RoomWriter) -> None:
            self.writers_closed += 1
            close(writer)

        monkeypatch.setattr(runtime, "create_engine_for", create_engine_for)
        monkeypatch.setattr(Engine, "dispose", disposing)
        monkeypatch.setattr(Redis, "aclose", closing)
        monkeypatch.setattr(RoomWriter, "close", closing_writer)


def broken(*_args: object, **_kwargs: object) -> None:
    raise RuntimeError("it broke")


@pytest.mark.parametrize("step", ["operators", "wiring"])
def test_a_node_that_fails_to_open_closes_all_it_opened(
    step: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pg = fresh_database("postgresql", tmp_path)
    spies = Spies(monkeypatch)
    if step == "operators":  # the database steps: before Redis and the writer
        monkeypatch.setattr(Accounts, "ensure_operators", broken)
    else:  # the room wired: Redis and the writer made already
        monkeypatch.setattr(NodeWiring, "serve", broken)
    settings = Settings(database_url=pg, redis_url=UNUSED_REDIS, node="a", default_tables=0)
    with pytest.raises(RuntimeError, match="it broke"):
        runtime.open_cluster_room(settings, {})
    assert len(spies.engines) == 2  # the tables' and the requests'
    assert all(engine in spies.disposed for engine in spies.engines)
    opened_later = 1 if step == "wiring" else 0
    assert spies.redis_closed == opened_later
    assert spies.writers_closed == opened_later
    hold_database(pg, HoldKind.NODE, node="a").release()  # its hold released: free again


def test_a_node_serves_the_room_of_one_process_with_its_cluster_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opened side by side on one database, a process's room and a node's have the
    same services, but for the parts a node adds (or shares with the other nodes)."""
    pg = fresh_database("postgresql", tmp_path)
    one = runtime.open_room(Settings(database_url=pg, default_tables=0), {})
    try:
        alone = one.app.state.room
        kinds = {name: type(getattr(alone, name)) for name in alone.__slots__}
    finally:
        one.close()
    settings = Settings(database_url=pg, redis_url=UNUSED_REDIS, node="a", default_tables=0)
    node = runtime.open_cluster_room(settings, {})
    try:
        room = node.app.state.room
        differ = {name for name, kind in kinds.items() if type(getattr(room, name)) is not kind}
        assert differ == {"guard_for", "guard", "nodes"}  # the shared limits, the console
        assert node.app.state.node is not None and one.app.state.node is None
        assert room.lobby.room_bus is not room.lobby.bus  # the bus across the nodes
        assert room.edge.bus is room.lobby.room_bus
        assert node.requests_engine is not None  # the requests fail fast there too
    finally:
        node.close()
        runtime._close_unused(node.app.state.node.bus.redis)
