"""A database's bad days in one line: what ``stud8 serve`` and ``stud8 admin ...``
say (never a traceback) when the database cannot be reached or written.

:func:`database_trouble` reads an exception (and what caused it) and gives one line
and the exit code:

=====  ==================================================================
5      the database cannot be reached or opened (PostgreSQL down or refusing,
       a wrong host, an SQLite file that cannot be opened)
6      it cannot be written: a full disk, a read-only file or database
=====  ==================================================================

(3 is a database held by another room, :mod:`stud8.server.storage.hold`.)

>>> import sqlite3
>>> database_trouble(sqlite3.OperationalError("database or disk is full"), "sqlite:///r.db")
('cannot write the database sqlite:///r.db: the disk is full (database or disk is full)', 6)
"""

from __future__ import annotations

import errno
import sqlite3

from sqlalchemy.exc import DBAPIError

from stud8.server.storage.db import shown_url

__all__ = ["EXIT_UNREACHABLE", "EXIT_UNWRITABLE", "database_trouble"]

EXIT_UNREACHABLE = 5
EXIT_UNWRITABLE = 6

_FULL = ("disk is full", "no space left", "could not extend file", "disk quota")
_READ_ONLY = ("readonly database", "read-only", "read only", "permission denied")
_UNREACHABLE = (
    "connection refused",
    "could not connect",
    "connection failed",
    "could not translate host name",
    "name or service not known",
    "timeout expired",
    "no route to host",
    "unable to open database file",
    "does not exist",
    "password authentication failed",
    "server closed the connection",
    "terminating connection",
)


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        if isinstance(current, DBAPIError) and current.orig is not None:
            seen.append(current.orig)
        current = current.__cause__ or current.__context__
    return seen


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0].strip() if text else type(exc).__name__


def database_trouble(exc: BaseException, url: str) -> tuple[str, int] | None:
    """One line and the exit code for a database that cannot be reached or written
    (see the module); None: not such a trouble (a bug: let it be seen)."""
    where = shown_url(url)
    for cause in _chain(exc):
        if isinstance(cause, DBAPIError) and cause.orig is not None:
            continue  # (its driver's error, next, says it without SQLAlchemy's wrapping)
        if isinstance(cause, OSError) and not isinstance(cause, ConnectionError):
            if cause.errno in (errno.ENOENT, errno.ENOTDIR):
                return (
                    f"cannot open the database {where}: {cause.strerror} ({cause.filename})",
                    EXIT_UNREACHABLE,
                )
            if cause.errno in (errno.ENOSPC, errno.EDQUOT):
                return (
                    f"cannot write the database {where}: the disk is full ({cause})",
                    EXIT_UNWRITABLE,
                )
            if cause.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                return (
                    f"cannot write the database {where}: {cause.strerror or cause}",
                    EXIT_UNWRITABLE,
                )
        if not isinstance(cause, (sqlite3.Error, DBAPIError)) and not _is_driver_error(cause):
            continue
        line = _first_line(cause)
        lowered = line.lower()
        if any(word in lowered for word in _FULL):
            return f"cannot write the database {where}: the disk is full ({line})", EXIT_UNWRITABLE
        if any(word in lowered for word in _READ_ONLY):
            return f"cannot write the database {where}: it is read-only ({line})", EXIT_UNWRITABLE
        if isinstance(cause, ConnectionError) or any(w in lowered for w in _UNREACHABLE):
            return f"cannot reach the database {where}: {line}", EXIT_UNREACHABLE
    return None


def _is_driver_error(exc: BaseException) -> bool:
    """psycopg's errors (without importing psycopg: SQLite rooms need none)."""
    return type(exc).__module__.startswith("psycopg")
