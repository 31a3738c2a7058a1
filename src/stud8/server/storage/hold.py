"""One room per database: the exclusive hold a room takes before it touches its books.

A room migrates its schema, closes the hands a dead process left (crash recovery)
and then plays its tables as if it alone wrote the ledger. Two rooms on one
database would refund each other's hands in play, so :func:`hold_database` is the
first thing ``stud8 serve`` does, before any migration or recovery, and a second
room on a held database is refused (:class:`DatabaseHeld`, naming the holder) with
nothing changed:

- **SQLite**: ``fcntl.flock`` on a sidecar file next to the database
  (``room.db.lock``), which holds who holds it (pid, host, since when). The kernel
  releases the lock when its process dies, however it dies, so a crash never
  leaves a stale hold;
- **PostgreSQL**: a session advisory lock held on a connection of its own (not in
  any pool) for the room's life; the server releases it when that session ends (the
  process died, the connection dropped). A room in one process takes
  ``(ROOM_LOCK, 0)`` exclusively; a node of a room on several nodes takes it
  shared (nodes coexist, a single-process room does not run beside them) and
  ``(NODE_LOCK, crc32(name))`` exclusively: two nodes with different names share
  the database, the same name twice is refused. The holder is named from
  ``pg_stat_activity`` (the hold's session sets its ``application_name``).

Commands that only read (``stud8 admin audit``) or that move chips through the
ledger's own transactions (``credit``, ``ban``...) take no hold: they run beside
a room. ``stud8 admin restore`` takes the exclusive hold (no room may run on the
database it fills); ``stud8 admin migrate`` too on SQLite, and on PostgreSQL the
shared one (beside the nodes of a rolling upgrade, never under a single room).
"""

from __future__ import annotations

import contextlib
import enum
import fcntl
import os
import socket
import zlib
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from sqlalchemy import Connection, Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from stud8.server.storage.db import normalize_url, shown_url

__all__ = [
    "EXIT_HELD",
    "NODE_LOCK",
    "ROOM_LOCK",
    "DatabaseHeld",
    "Hold",
    "HoldKind",
    "hold_database",
]

ROOM_LOCK = 0x5737D9  # (ROOM_LOCK, 0): the room (exclusive) or its nodes (shared)
NODE_LOCK = 0x5737DA  # (NODE_LOCK, crc32 of the node's name): one node of that name
EXIT_HELD = 3  # the exit code of a command refused because the database is held


class HoldKind(enum.Enum):
    """What takes the hold: a room in one process, one node of several, or an
    operator's command that changes the schema or the whole database."""

    ROOM = "room"
    NODE = "node"
    MIGRATE = "migrate"
    RESTORE = "restore"


class DatabaseHeld(RuntimeError):
    """The database is held by another room (or node of that name): nothing was done.
    ``holder`` says who (pid, host, since when), as far as it is known."""

    def __init__(self, where: str, holder: str) -> None:
        super().__init__(f"{where} is in use by {holder}: one room per database")
        self.where = where
        self.holder = holder


def _whoami(kind: HoldKind, node: str | None) -> str:
    since = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    who = f"node {node}" if node is not None else f"stud8 {kind.value}"
    return f"{who} (pid {os.getpid()} on {socket.gethostname()}, since {since})"


class Hold:
    """A hold on a database; :meth:`release` (or the process's end) gives it up."""

    def __init__(self, description: str, release: Any) -> None:
        self.description = description
        self._release = release

    def release(self) -> None:
        release, self._release = self._release, None
        if release is not None:
            release()

    def __enter__(self) -> Hold:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()


def hold_database(url: str, kind: HoldKind = HoldKind.ROOM, *, node: str | None = None) -> Hold:
    """Take the hold of ``kind`` on the database at ``url`` (a node: ``node`` is its
    name), or :class:`DatabaseHeld` at once (never waits). An SQLite database in
    memory needs none (no other process can open it)."""
    parsed = make_url(normalize_url(url))
    if parsed.get_backend_name() == "sqlite":
        file = parsed.database
        if file in (None, "", ":memory:"):
            return Hold("an SQLite database in memory", None)
        return _hold_sqlite(Path(str(file)), kind, node)
    return _hold_postgresql(parsed.render_as_string(hide_password=False), kind, node)


# ------------------------------------------------------------------ SQLite
def lock_file(database: Path) -> Path:
    """The sidecar lock file of an SQLite database file."""
    return database.with_name(database.name + ".lock")


def _hold_sqlite(database: Path, kind: HoldKind, node: str | None) -> Hold:
    path = lock_file(database)
    # "a+": open without truncating, so a refused opener never blanks the holder's line
    handle: IO[str] = path.open("a+", encoding="utf-8")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise DatabaseHeld(str(database), holder) from None
    except BaseException:
        handle.close()
        raise
    me = _whoami(kind, node)
    handle.seek(0)
    handle.truncate()
    handle.write(me + "\n")
    handle.flush()

    def release() -> None:
        with contextlib.suppress(OSError):
            handle.seek(0)
            handle.truncate()
        handle.close()  # (closing it releases the lock)

    return Hold(f"{path} held by {me}", release)


# -------------------------------------------------------------- PostgreSQL
def _node_key(name: str) -> int:
    """A node's name as the second key of its advisory lock (a signed 32-bit int)."""
    value = zlib.crc32(name.encode("utf-8"))
    return value - (1 << 32) if value >= 1 << 31 else value


def _try(conn: Connection, key: tuple[int, int], *, shared: bool = False) -> bool:
    function = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
    got = conn.execute(text(f"SELECT {function}(:a, :b)"), {"a": key[0], "b": key[1]}).scalar()
    return bool(got)


def holders(conn: Connection, key: tuple[int, int]) -> list[str]:
    """Who holds the advisory lock ``key`` (from ``pg_stat_activity``)."""
    rows = conn.execute(
        text(
            "SELECT a.application_name, a.client_addr, a.pid, a.backend_start "
            "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.classid = :a "
            "AND l.objid = :b AND l.objsubid = 2 AND l.pid <> pg_backend_pid()"
        ),
        {"a": key[0], "b": key[1] & 0xFFFFFFFF},
    ).all()
    out = []
    for name, address, pid, started in rows:
        where = f"from {address}" if address is not None else "over a local socket"
        out.append(f"{name or 'a session'} [server pid {pid} {where}, since {started:%H:%M:%S}]")
    return out


def _hold_postgresql(url: str, kind: HoldKind, node: str | None) -> Hold:
    me = _whoami(kind, node)
    # a connection of its own, out of any pool: the hold lasts as long as it does
    engine: Engine = create_engine(
        url, poolclass=NullPool, connect_args={"application_name": me[:63]}
    )
    conn = engine.connect()
    try:
        conn = conn.execution_options(isolation_level="AUTOCOMMIT")
        room = (ROOM_LOCK, 0)
        exclusive = kind in (HoldKind.ROOM, HoldKind.RESTORE)
        if not _try(conn, room, shared=not exclusive):
            found = holders(conn, room)
            raise DatabaseHeld(shown_url(url), "; ".join(found) or "another room")
        if kind is HoldKind.NODE:
            key = (NODE_LOCK, _node_key(node or ""))
            if not _try(conn, key):
                found = holders(conn, key)
                raise DatabaseHeld(shown_url(url), "; ".join(found) or f"another node {node}")
    except BaseException:
        conn.close()
        engine.dispose()
        raise

    def release() -> None:
        try:
            conn.close()  # (the session ends: its advisory locks go with it)
        finally:
            engine.dispose()

    return Hold(f"{shown_url(url)} held by {me}", release)
