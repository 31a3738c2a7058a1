"""Engines and sessions from a database URL, and the schema migrations.

SQLite (the default, a file) and PostgreSQL are supported. A plain
``postgresql://`` URL uses the psycopg 3 driver. On SQLite every transaction
starts with ``BEGIN IMMEDIATE`` (it takes the write lock at once, so two writers
never interleave a read and a write), but those of an engine made by :func:`reads_of`,
which only read: they begin deferred and take no lock (in WAL mode a reader never
waits for a writer), in WAL mode (``synchronous=NORMAL``) with a busy timeout; on
PostgreSQL the ledger locks the account rows it changes (``SELECT ... FOR
UPDATE``) and retries on a deadlock or serialization failure.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import Session, sessionmaker

DEFAULT_URL = "sqlite:///stud8.db"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_SECONDS = 30.0
READS_ONLY = "stud8_reads_only"  # the execution option of :func:`reads_of`'s engines
MIGRATION_LOCK = 0x5737D8  # the PostgreSQL advisory lock every migration takes


SUPPORTED = "sqlite:///FILE or postgresql://USER@HOST/NAME"


class DatabaseUrlError(ValueError):
    """A database URL the room cannot use: not a URL, or not SQLite or PostgreSQL."""


def shown_url(url: str) -> str:
    """The URL as a message or a log may show it: its password hidden (and only its
    scheme if it is no URL at all).

    >>> shown_url("postgresql://stud8:secret@db/stud8")
    'postgresql://stud8:***@db/stud8'
    >>> shown_url("not a url at all")
    'not a url at all://...'
    """
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url.split("://", 1)[0] + "://..."


def normalize_url(url: str) -> str:
    """The URL with its driver made explicit (``postgresql://`` -> psycopg 3);
    :class:`DatabaseUrlError` for a URL that is not SQLite's or PostgreSQL's.

    >>> normalize_url("postgresql://u@localhost/stud8")
    'postgresql+psycopg://u@localhost/stud8'
    >>> normalize_url("sqlite:///room.db")
    'sqlite:///room.db'
    >>> normalize_url("mysql://u:secret@localhost/stud8")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    stud8.server.storage.db.DatabaseUrlError: mysql://u:***@localhost/stud8: the room ...
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        # (not the whole of it: it may hold a password)
        shown = url.split("://", 1)[0] + "://..." if "://" in url else url[:40]
        raise DatabaseUrlError(f"{shown!r} is not a database URL: give {SUPPORTED}") from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise DatabaseUrlError(
            f"{parsed.render_as_string(hide_password=True)}: the room keeps its books in SQLite "
            f"or PostgreSQL, not {backend}: give {SUPPORTED}"
        )
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def create_engine_for(
    url: str = DEFAULT_URL, *, busy_seconds: float | None = None, **kwargs: Any
) -> Engine:
    """An engine for ``url`` set up for the ledger's transactions. ``busy_seconds``:
    how long a statement waits for a lock before it fails (SQLite's busy timeout,
    default :data:`BUSY_TIMEOUT_SECONDS`; PostgreSQL's ``lock_timeout``, default
    none), for the engines that answer requests and must not hang."""
    url = normalize_url(url)
    if make_url(url).get_backend_name() == "sqlite":
        connect_args = dict(kwargs.pop("connect_args", {}))
        connect_args.setdefault("timeout", busy_seconds or BUSY_TIMEOUT_SECONDS)
        connect_args.setdefault("check_same_thread", False)
        engine = create_engine(url, connect_args=connect_args, **kwargs)
        _sqlite_immediate(engine, memory=make_url(url).database in (None, "", ":memory:"))
        return engine
    if busy_seconds is not None:
        connect_args = dict(kwargs.pop("connect_args", {}))
        connect_args.setdefault("options", f"-c lock_timeout={int(busy_seconds * 1000)}")
        connect_args.setdefault("connect_timeout", max(1, round(busy_seconds)))
        kwargs["connect_args"] = connect_args
    return create_engine(url, pool_pre_ping=True, **kwargs)


def _sqlite_immediate(engine: Engine, *, memory: bool) -> None:
    """The pysqlite recipe: let SQLAlchemy, not the driver, begin transactions,
    and begin them IMMEDIATE."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # no implicit BEGIN by the driver
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        if not memory:
            # WAL with synchronous=NORMAL: a commit is a write to the log, not an
            # fsync; it survives the process being killed (only an OS crash or a
            # power cut may lose the last commits, never the file's consistency).
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        reads_only = connection.get_execution_options().get(READS_ONLY, False)
        connection.exec_driver_sql("BEGIN" if reads_only else "BEGIN IMMEDIATE")


def reads_of(engine: Engine) -> Engine:
    """``engine`` (its pool and its busy timeout) for transactions that only read.
    On SQLite they begin deferred: a reader in WAL mode takes no lock, so a lookup
    (a websocket's token) never waits for the write lock, nor fails when another
    holds it past the busy timeout. A write through it is a mistake (it could fail
    at once with SQLITE_BUSY). The same engine on PostgreSQL."""
    return engine.execution_options(**{READS_ONLY: True})


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def alembic_config(url: str | None = None) -> Config:
    """The Alembic configuration of the stud8 migrations (no ini file needed)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        config.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return config


def upgrade(url_or_engine: str | Engine = DEFAULT_URL, revision: str = "head") -> None:
    """Bring the database's schema to ``revision`` (idempotent)."""
    engine = create_engine_for(url_or_engine) if isinstance(url_or_engine, str) else url_or_engine
    try:
        with engine.begin() as connection:
            config = alembic_config()
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
    finally:
        if isinstance(url_or_engine, str):
            engine.dispose()


def upgrade_once(engine: Engine) -> None:
    """Bring the schema up to date, one process at a time (PostgreSQL: an advisory
    lock held for the migration, so nodes started together on an old schema wait
    for each other and the later ones find it done; SQLite: its write lock)."""
    if is_sqlite(engine):
        upgrade(engine)
        return
    with engine.connect() as conn:
        conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        try:
            upgrade(engine)
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            conn.commit()


def current_revision(engine: Engine) -> str | None:
    """The schema revision the database is at (``None``: never migrated)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
