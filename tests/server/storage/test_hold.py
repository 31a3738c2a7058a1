"""One room per database: the hold (:mod:`stud8.server.storage.hold`), on SQLite (a
sidecar lock file that dies with its process) and on PostgreSQL (session advisory
locks: one room alone, nodes of different names together)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from server.roomdb import fresh_database
from stud8.server.storage.hold import DatabaseHeld, HoldKind, hold_database, lock_file


def test_a_second_hold_is_refused_naming_the_holder_until_the_first_is_released(
    url: str,
) -> None:
    first = hold_database(url)
    try:
        with pytest.raises(DatabaseHeld) as refused:
            hold_database(url)
        assert f"pid {os.getpid()} on {socket.gethostname()}" in refused.value.holder
        assert "stud8 room" in str(refused.value) and "one room per database" in str(refused.value)
        with pytest.raises(DatabaseHeld):  # nor a node beside a room in one process
            hold_database(url, HoldKind.NODE, node="n1")
    finally:
        first.release()
    again = hold_database(url)  # released: free again
    again.release()


def test_nodes_of_different_names_share_the_database_the_same_name_twice_is_refused(
    tmp_path: Path,
) -> None:
    url = fresh_database("postgresql", tmp_path)
    one = hold_database(url, HoldKind.NODE, node="n1")
    two = hold_database(url, HoldKind.NODE, node="n2")
    try:
        with pytest.raises(DatabaseHeld) as same:
            hold_database(url, HoldKind.NODE, node="n1")
        assert "node n1" in same.value.holder and f"pid {os.getpid()}" in same.value.holder
        with pytest.raises(DatabaseHeld) as room:  # a room alone: not beside nodes
            hold_database(url)
        assert "node n1" in room.value.holder and "node n2" in room.value.holder
        migrate = hold_database(url, HoldKind.MIGRATE)  # a migration runs beside the nodes
        migrate.release()
    finally:
        one.release()
        two.release()
    hold_database(url).release()


def test_the_hold_dies_with_its_process(url: str, tmp_path: Path) -> None:
    """A process killed while it holds the database leaves no stale hold."""
    code = (
        "import sys, time\n"
        "from stud8.server.storage.hold import hold_database\n"
        "hold = hold_database(sys.argv[1])\n"
        "print('held', flush=True)\n"
        "time.sleep(60)\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, url], stdout=subprocess.PIPE, text=True, cwd=tmp_path
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(DatabaseHeld) as refused:
            hold_database(url)
        assert f"pid {holder.pid}" in refused.value.holder
    finally:
        holder.kill()
        holder.wait(10)
        if holder.stdout is not None:
            holder.stdout.close()
    deadline = time.monotonic() + 10  # (PostgreSQL ends the session once it sees it gone)
    while True:
        try:
            hold_database(url).release()
            break
        except DatabaseHeld:
            assert time.monotonic() < deadline, "the dead process's hold stayed"
            time.sleep(0.1)


def test_the_sqlite_lock_file_names_the_holder_and_is_blanked_at_release(tmp_path: Path) -> None:
    database = tmp_path / "room.db"
    hold = hold_database(f"sqlite:///{database}")
    assert f"pid {os.getpid()}" in lock_file(database).read_text()
    hold.release()
    assert lock_file(database).read_text() == ""
    assert not database.exists()  # the hold never makes the database itself


@pytest.mark.parametrize("step", ["recover", "prepare_restore", "operators"])
def test_a_room_that_fails_to_open_releases_its_hold(
    step: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whichever database step of :func:`open_room` fails, the error goes on and the
    database is free again (the next ``stud8 serve`` is not refused as held)."""
    from stud8.server import runtime
    from stud8.server.accounts.accounts import Accounts
    from stud8.server.settings import Settings

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError(f"{step} broke")

    if step == "operators":
        monkeypatch.setattr(Accounts, "ensure_operators", broken)
    else:
        monkeypatch.setattr(runtime, step, broken)
    url = f"sqlite:///{tmp_path / 'room.db'}"
    hold = hold_database(url)  # (kept here: its end is the room's release, not the collector's)
    with pytest.raises(RuntimeError, match=f"{step} broke"):
        runtime.open_room(Settings(default_tables=0).with_overrides(database_url=url), hold=hold)
    hold_database(url).release()  # free: not DatabaseHeld
    hold.release()
