"""The room tests' shared fixtures: each database test runs on SQLite and on
PostgreSQL (the scratch database ``STUD8_TEST_POSTGRES_URL`` names; without it the
PostgreSQL cases skip, saying why).

``url``: an empty database. ``migrated_url``: the same, brought to the current
schema. ``engine``: an engine on it, disposed after the test. ``ledger``: the chip
ledger on that engine.

The folders below mirror ``src/stud8/server``; the shared helpers are here, in the
package ``server`` (``tests/`` is on ``sys.path``): ``server.roomdb`` (databases,
ports, a server in the test's event loop), ``server.roomclient`` (a room and its
websocket clients), ``server.tableharness`` and ``server.manualtable`` (a table on a
manual clock), ``server.schemacheck`` (the protocol's schemas) and
``server.handplay``; ``server.redisserver`` (a throwaway Redis: the ``redis_url``
fixture).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from sqlalchemy import Engine

from server.redisserver import redis_server
from server.roomdb import fresh_database
from stud8.server.books.ledger import Ledger
from stud8.server.storage import create_engine_for, upgrade


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a new SQLite file, or the scratch PostgreSQL wiped."""
    return fresh_database(request.param, tmp_path)


@pytest.fixture
def migrated_url(url: str) -> str:
    upgrade(url)
    return url


@pytest.fixture
def engine(migrated_url: str) -> Iterator[Engine]:
    engine = create_engine_for(migrated_url)
    yield engine
    engine.dispose()


@pytest.fixture
def ledger(engine: Engine) -> Ledger:
    return Ledger(engine)


@pytest.fixture(scope="session")
def redis_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One throwaway redis-server for the session (``server.redisserver``)."""
    with redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


@pytest.fixture
def redis_url(redis_server_url: str) -> Iterator[str]:
    """The session's Redis, emptied before the test."""
    client = redis.Redis.from_url(redis_server_url)
    try:
        client.flushall()
    finally:
        client.close()
    yield redis_server_url
