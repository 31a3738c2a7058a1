"""The room's database: engines from URLs and the Alembic migrations.

Each test runs on a fresh SQLite file, and on PostgreSQL too when
``STUD8_TEST_POSTGRES_URL`` names a database the tests may wipe.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sqlalchemy import Engine, inspect, text

from stud8.server.storage import Base, create_engine_for, normalize_url, upgrade
from stud8.server.storage.db import current_revision

POSTGRES_URL = os.environ.get("STUD8_TEST_POSTGRES_URL", "")
NO_POSTGRES = "STUD8_TEST_POSTGRES_URL is not set (the CI script sets it to a scratch database)"

HEAD = "0012"  # the newest migration


def wipe(engine: Engine) -> None:
    """Drop the stud8 tables and Alembic's version table (PostgreSQL scratch DB)."""
    with engine.begin() as connection:
        Base.metadata.drop_all(connection)
        connection.execute(text("DROP TABLE IF EXISTS alembic_version"))


def test_migrations_create_the_ledger_tables(url: str) -> None:
    engine = create_engine_for(url)
    try:
        assert current_revision(engine) is None
        upgrade(url)
        assert current_revision(engine) == HEAD
        inspector = inspect(engine)
        tables = set(inspector.get_table_names())
        assert {"accounts", "transactions", "entries", "alembic_version"} <= tables
        columns = {c["name"] for c in inspector.get_columns("entries")}
        assert columns == {"id", "transaction_id", "account_id", "amount"}
        uniques = inspector.get_unique_constraints("transactions")
        assert any(u["column_names"] == ["hand_id"] for u in uniques)
    finally:
        engine.dispose()


def test_migrations_are_idempotent(url: str) -> None:
    upgrade(url)
    engine = create_engine_for(url)
    try:
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO accounts (name, kind, balance, created_at)"
                    " VALUES ('rake', 'rake', 0, CURRENT_TIMESTAMP)"
                )
            )
        upgrade(url)  # again: nothing to do, nothing lost
        upgrade(engine)
        assert current_revision(engine) == HEAD
        with engine.connect() as connection:
            names = connection.execute(text("SELECT name FROM accounts")).scalars().all()
        assert names == ["rake"]
    finally:
        engine.dispose()


def test_the_schema_matches_the_models(url: str) -> None:
    """The first revision builds what the ORM models describe (no autogenerate diff)."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    upgrade(url)
    engine = create_engine_for(url)
    try:
        with engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        assert diff == []
    finally:
        engine.dispose()


def test_sqlite_transactions_begin_immediate(tmp_path: Path) -> None:
    """A second writer cannot start while a transaction is open (the write lock is
    taken at BEGIN, not at the first write)."""
    url = f"sqlite:///{tmp_path / 'lock.db'}"
    upgrade(url)
    first = create_engine_for(url)
    second = create_engine_for(url, connect_args={"timeout": 0.05})
    try:
        with first.begin() as connection:
            connection.execute(text("SELECT 1"))  # a read only: still holds the lock
            with pytest.raises(Exception, match="locked"), second.begin() as other:
                other.execute(text("SELECT 1"))
        with second.begin() as other:  # released at commit
            assert other.execute(text("SELECT 1")).scalar() == 1
    finally:
        first.dispose()
        second.dispose()


def test_sqlite_file_uses_wal_and_foreign_keys(tmp_path: Path) -> None:
    engine = create_engine_for(f"sqlite:///{tmp_path / 'w.db'}")
    try:
        with engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        engine.dispose()


def test_postgresql_urls_use_psycopg_3() -> None:
    assert normalize_url("postgresql://u:p%40ss@db:5432/room") == (
        "postgresql+psycopg://u:p%40ss@db:5432/room"
    )
    assert normalize_url("postgresql+psycopg2://u@db/room") == "postgresql+psycopg2://u@db/room"
    engine = create_engine_for("postgresql://u@127.0.0.1:1/room")  # no connection made
    try:
        assert engine.dialect.name == "postgresql"
        assert engine.dialect.driver == "psycopg"
    finally:
        engine.dispose()


def test_the_alembic_command_line_path_upgrades_and_downgrades(url: str) -> None:
    """Without a connection handed over, env.py connects from ``sqlalchemy.url``."""
    from alembic import command

    from stud8.server.storage.db import alembic_config

    engine = create_engine_for(url)
    try:
        command.upgrade(alembic_config(url), "head")
        assert current_revision(engine) == HEAD
        command.downgrade(alembic_config(url), "base")
        assert current_revision(engine) is None
        assert "accounts" not in inspect(engine).get_table_names()
    finally:
        engine.dispose()
