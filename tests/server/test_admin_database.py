"""The operator's commands on the database as a whole: ``stud8 admin migrate`` (its
own step, one process at a time), ``backup`` while the room serves and ``restore``
into an empty database (issue 26, item 6)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from server.roomdb import POSTGRES_URL, free_port, fresh_database
from server.roomprocess import admin, audit, play_until, running_server, stop
from stud8.server.books.ledger import Ledger
from stud8.server.storage import create_engine_for
from stud8.server.storage.db import current_revision

PLAYING = {"STUD8_DEFAULT_TABLES": "2", "STUD8_BOT_DELAY": "0.02"}


def _elsewhere(kind: str, tmp_path: Path) -> str:
    """Another empty database of the same kind."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'restored.db'}"
    engine = create_engine_for(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text("DROP DATABASE IF EXISTS stud8_restored"))
            conn.execute(text("CREATE DATABASE stud8_restored"))
    finally:
        engine.dispose()
    return POSTGRES_URL.rsplit("/", 1)[0] + "/stud8_restored"


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_backup_mid_play_restores_elsewhere_with_the_books_balanced(
    kind: str, tmp_path: Path
) -> None:
    url = fresh_database(kind, tmp_path)
    engine = create_engine_for(url)
    backup = tmp_path / "room.backup"
    try:
        with running_server(url, tmp_path, **PLAYING) as server:
            play_until(engine, server, 10)
            made = admin("backup", str(backup), "--database", url, cwd=tmp_path)
            assert made.returncode == 0, made.stdout + made.stderr
            assert "backed up into" in made.stdout
            again = admin("backup", str(backup), "--database", url, cwd=tmp_path)
            assert again.returncode == 1 and "exists" in again.stdout  # never overwrites
            assert server.process.poll() is None  # the room served throughout
        banks = Ledger(engine).balances("bank:")
    finally:
        engine.dispose()
    assert banks  # (the operator's, the bots')
    other = _elsewhere(kind, tmp_path)
    restored = admin("restore", str(backup), "--database", other, cwd=tmp_path)
    assert restored.returncode == 0, restored.stdout + restored.stderr
    books = audit(other, tmp_path)
    assert books.returncode == 0 and "OK" in books.stdout, books.stdout
    engine = create_engine_for(other)
    try:
        assert Ledger(engine).balances("bank:") == banks  # every bank as it was
        assert current_revision(engine) is not None
    finally:
        engine.dispose()
    # not into a database that is not empty: refused, nothing changed
    refused = admin("restore", str(backup), "--database", other, cwd=tmp_path)
    assert refused.returncode == 1 and "not empty" in refused.stdout, refused.stdout
    # and a room serves on the restored database (its hand in play, if any, refunded)
    with running_server(other, tmp_path) as server:
        assert httpx.get(f"{server.base}/api/v1/tables", timeout=5).status_code == 200
    assert audit(other, tmp_path).returncode == 0


def test_migrate_is_its_own_step_and_is_refused_under_a_live_room(tmp_path: Path) -> None:
    url = fresh_database("sqlite", tmp_path)
    first = admin("migrate", "--database", url, cwd=tmp_path)
    assert first.returncode == 0 and "from nothing to" in first.stdout, first.stdout
    again = admin("migrate", "--database", url, cwd=tmp_path)
    assert again.returncode == 0 and "up to date" in again.stdout
    with running_server(url, tmp_path) as server:
        held = admin("migrate", "--database", url, cwd=tmp_path)
        assert held.returncode == 3, held.stdout
        assert f"pid {server.process.pid}" in held.stdout
        assert admin("audit", "--database", url, cwd=tmp_path).returncode == 0  # reads: runs


def test_three_nodes_started_at_once_on_an_empty_postgresql_migrate_once(
    tmp_path: Path, redis_url: str
) -> None:
    url = fresh_database("postgresql", tmp_path)
    ports = [free_port() for _ in range(3)]
    env = {**os.environ, "STUD8_DEFAULT_TABLES": "2", "STUD8_BOT_DELAY": "0.02"}
    logs = [tmp_path / f"node{i}.log" for i in range(3)]
    nodes = []
    for i, port in enumerate(ports):
        command = [sys.executable, "-m", "stud8", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(port), "--database", url, "--redis", redis_url]
        command += ["--node", f"n{i}"]
        with logs[i].open("wb") as out:
            nodes.append(
                subprocess.Popen(
                    command, cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT
                )
            )
    try:
        for node, port, log in zip(nodes, ports, logs, strict=True):
            deadline = time.monotonic() + 90
            while True:
                assert node.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/api/v1/tables", timeout=2).is_success:
                        break
                except httpx.TransportError:
                    pass
                time.sleep(0.1)
        engine = create_engine_for(url)
        try:
            with engine.connect() as conn:
                versions = conn.execute(text("SELECT version_num FROM alembic_version")).all()
            assert len(versions) == 1 and current_revision(engine) == versions[0][0]
        finally:
            engine.dispose()
        texts = [log.read_text() for log in logs]
        assert sum("Running upgrade  -> 0001" in t for t in texts) == 1, texts  # one migrated
    finally:
        for node in nodes:
            stop(node)
    assert audit(url, tmp_path).returncode == 0
