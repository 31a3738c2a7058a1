"""A database's bad days in one line and a documented exit code, never a traceback
(:mod:`stud8.server.storage.trouble`): ``stud8 serve`` and ``stud8 admin ...`` on a
PostgreSQL nobody answers, an SQLite directory that does not exist; a full disk and a
read-only database as the drivers report them."""

from __future__ import annotations

import errno
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from server.roomdb import free_port
from stud8.server.storage.trouble import EXIT_UNREACHABLE, EXIT_UNWRITABLE, database_trouble

NOBODY = "postgresql://postgres@127.0.0.1:{port}/stud8"  # a port nobody listens on


def _stud8(*words: str, cwd: Path) -> tuple[int, list[str]]:
    done = subprocess.run(
        [sys.executable, "-m", "stud8", *words], cwd=cwd, capture_output=True, text=True, timeout=60
    )
    return done.returncode, [line for line in (done.stdout + done.stderr).splitlines() if line]


@pytest.mark.parametrize(
    "words",
    [
        ("admin", "audit"),
        ("admin", "credit", "ann", "5", "--reason", "r"),
        ("admin", "migrate"),
        ("serve", "--port", "0"),
    ],
)
def test_an_unreachable_postgresql_is_one_line_and_exit_5(
    words: tuple[str, ...], tmp_path: Path
) -> None:
    url = NOBODY.format(port=free_port())
    code, lines = _stud8(*words, "--database", url, cwd=tmp_path)
    assert code == EXIT_UNREACHABLE, lines
    assert len(lines) == 1, lines
    assert "cannot reach the database postgresql://postgres@127.0.0.1" in lines[0]
    assert "Traceback" not in lines[0]


def test_an_sqlite_database_that_cannot_be_opened_is_one_line_and_exit_5(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'no' / 'such' / 'room.db'}"
    code, lines = _stud8("serve", "--port", "0", "--database", url, cwd=tmp_path)
    assert code == EXIT_UNREACHABLE and len(lines) == 1, lines
    assert "cannot open the database" in lines[0]


def test_a_full_disk_and_a_read_only_database_are_exit_6() -> None:
    url = "sqlite:///room.db"
    full = OperationalError("INSERT ...", {}, sqlite3.OperationalError("database or disk is full"))
    line, code = database_trouble(full, url) or ("", 0)
    assert code == EXIT_UNWRITABLE and "the disk is full" in line
    read_only = sqlite3.OperationalError("attempt to write a readonly database")
    line, code = database_trouble(read_only, url) or ("", 0)
    assert code == EXIT_UNWRITABLE and "it is read-only" in line
    no_space = OSError(errno.ENOSPC, "No space left on device")
    assert (database_trouble(no_space, url) or ("", 0))[1] == EXIT_UNWRITABLE
    assert database_trouble(KeyError("a bug"), url) is None  # a bug is not hidden
