"""Databases and ports for the tests that run the room on a real database.

``STUD8_TEST_POSTGRES_URL`` names a scratch PostgreSQL database the tests may wipe
(``.ci/run`` starts one); without it the PostgreSQL cases skip, saying why.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from sqlalchemy import text

from stud8.server.storage import Base, create_engine_for

POSTGRES_URL = os.environ.get("STUD8_TEST_POSTGRES_URL", "")
NO_POSTGRES = "STUD8_TEST_POSTGRES_URL is not set (the CI script sets it to a scratch database)"


def fresh_database(kind: str, tmp_path: Path, name: str = "room.db") -> str:
    """The URL of an empty database: a new SQLite file, or the scratch PostgreSQL
    database wiped (the test skips when there is none)."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / name}"
    if not POSTGRES_URL:
        pytest.skip(NO_POSTGRES)
    engine = create_engine_for(POSTGRES_URL)
    with engine.begin() as connection:
        Base.metadata.drop_all(connection)
        connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
    engine.dispose()
    return POSTGRES_URL


def free_port() -> int:
    """A port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port
