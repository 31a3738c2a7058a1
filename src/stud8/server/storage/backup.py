"""Backups of the room's database, taken while it serves, and their restore.

- **SQLite**: the online backup API (``sqlite3.Connection.backup``): a consistent
  copy of the database as of one moment, taken through a read transaction that
  blocks no writer (WAL), written to a temporary file renamed into place, so a
  backup file is whole or absent. Copying the ``.db`` file of a live room is not
  safe (its last commits are in the ``-wal`` file).
- **PostgreSQL**: ``pg_dump`` in its custom format (``-Fc``), which reads one
  snapshot; restored with ``pg_restore``. Without the client tools installed,
  :class:`BackupError` names the command to run.

A restore goes into an **empty** database only (no table at all): it never
overwrites a room's books. It takes the room's exclusive hold, so no room starts on
the database while it is filled.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy import inspect
from sqlalchemy.engine import make_url

from stud8.server.storage.db import create_engine_for, normalize_url, shown_url
from stud8.server.storage.hold import HoldKind, hold_database

__all__ = ["BackupError", "backup", "restore"]

SQLITE_MAGIC = b"SQLite format 3\x00"
PGDUMP_MAGIC = b"PGDMP"


class BackupError(RuntimeError):
    """A backup or a restore that could not be done; nothing was changed."""


def _sqlite_file(url: str) -> Path | None:
    parsed = make_url(normalize_url(url))
    if parsed.get_backend_name() != "sqlite":
        return None
    if parsed.database in (None, "", ":memory:"):
        raise BackupError("an SQLite database in memory has nothing to back up")
    return Path(str(parsed.database))


def _libpq_url(url: str) -> str:
    """The URL as libpq's tools take it (no SQLAlchemy driver name)."""
    return (
        make_url(normalize_url(url))
        .set(drivername="postgresql")
        .render_as_string(hide_password=False)
    )


def _tool(name: str) -> str | None:
    found = shutil.which(name)
    if found is not None:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return versions[-1] if versions else None


def backup(url: str, file: Path) -> str:
    """Back the database at ``url`` up into ``file`` (which must not exist); what was done."""
    if file.exists():
        raise BackupError(f"{file} exists: give a new file (a backup never overwrites)")
    database = _sqlite_file(url)
    if database is not None:
        if not database.exists():
            raise BackupError(f"there is no database file {database}")
        partial = file.with_name(file.name + ".partial")
        source = sqlite3.connect(database, timeout=30)  # (it only reads)
        try:
            target = sqlite3.connect(partial)
            try:
                source.backup(target)  # one step: one consistent snapshot
            finally:
                target.close()
        except sqlite3.Error as exc:
            partial.unlink(missing_ok=True)
            raise BackupError(f"the backup of {database} failed: {exc}") from None
        finally:
            source.close()
        os.replace(partial, file)
        return f"{database} backed up into {file} ({file.stat().st_size} bytes)"
    pg_dump = _tool("pg_dump")
    shown = shown_url(normalize_url(url))
    if pg_dump is None:
        raise BackupError(
            "pg_dump is not installed (Debian: apt-get install postgresql-client); "
            f"run it yourself: pg_dump -Fc --no-owner -f {file} '{shown}'"
        )
    partial = file.with_name(file.name + ".partial")
    done = subprocess.run(
        [pg_dump, "-Fc", "--no-owner", "-f", str(partial), "--dbname", _libpq_url(url)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        why = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise BackupError(f"pg_dump of {shown} failed: {why}")
    os.replace(partial, file)
    return f"{shown} backed up into {file} ({file.stat().st_size} bytes, pg_dump -Fc)"


def restore(file: Path, url: str) -> str:
    """Restore the backup ``file`` into the empty database at ``url``; what was done."""
    if not file.is_file():
        raise BackupError(f"there is no backup file {file}")
    head = file.read_bytes()[:16]
    database = _sqlite_file(url)
    with hold_database(url, HoldKind.RESTORE):
        if database is not None:
            if not head.startswith(SQLITE_MAGIC):
                raise BackupError(f"{file} is not an SQLite backup (stud8 admin backup's)")
            _empty(url)
            source = sqlite3.connect(file)
            try:
                target = sqlite3.connect(database)
                try:
                    source.backup(target)
                finally:
                    target.close()
            finally:
                source.close()
            return f"{file} restored into {database}"
        if not head.startswith(PGDUMP_MAGIC):
            raise BackupError(f"{file} is not a PostgreSQL backup (pg_dump -Fc)")
        _empty(url)
        shown = shown_url(normalize_url(url))
        pg_restore = _tool("pg_restore")
        if pg_restore is None:
            raise BackupError(
                "pg_restore is not installed (Debian: apt-get install postgresql-client); "
                f"run it yourself: pg_restore --no-owner --exit-on-error -d '{shown}' {file}"
            )
        done = subprocess.run(
            [pg_restore, "--no-owner", "--exit-on-error", "--dbname", _libpq_url(url), str(file)],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            why = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
            raise BackupError(f"pg_restore into {shown} failed: {why}")
        return f"{file} restored into {shown}"


def _empty(url: str) -> None:
    """BackupError unless the database at ``url`` has no table at all."""
    engine = create_engine_for(url)
    try:
        tables = inspect(engine).get_table_names()
    finally:
        engine.dispose()
    if tables:
        raise BackupError(
            f"the database is not empty ({len(tables)} tables): a restore goes into an "
            "empty database only, never over a room's books"
        )
