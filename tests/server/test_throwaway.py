"""``stud8 serve --memory``'s directory: one killed with SIGKILL is left behind (it
cannot clean up), and the next throwaway room deletes it at its start; it never
deletes a live room's directory, another user's, a name it did not make, or one
holding anything but a room's database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from server.roomdb import free_port
from stud8.server.throwaway import PREFIX, sweep_stale, throwaway_directory


def _dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


def _room_dir(parent: Path, pid: int, tail: str = "abc_123", files: tuple[str, ...] = ()) -> Path:
    made = parent / f"{PREFIX}{pid}-{tail}"
    made.mkdir()
    for name in files:
        (made / name).write_bytes(b"x")
    return made


@pytest.mark.skipif(os.name != "posix", reason="process ids are checked with os.kill(pid, 0)")
def test_only_the_directories_of_dead_throwaway_rooms_are_swept(tmp_path: Path) -> None:
    dead = _dead_pid()
    stale = _room_dir(tmp_path, dead, files=("room.db", "room.db-wal", "room.db-shm"))
    empty = _room_dir(tmp_path, dead, tail="zz9")  # killed before its database was made
    held = _room_dir(tmp_path, dead, tail="h0", files=("room.db.lock",))  # after its hold
    live = _room_dir(tmp_path, os.getppid(), files=("room.db",))  # a room running
    mine = _room_dir(tmp_path, os.getpid(), tail="me", files=("room.db",))
    foreign = _room_dir(tmp_path, dead, tail="x1", files=("room.db", "notes.txt"))
    unlike = tmp_path / f"{PREFIX}abc-{dead}"  # not a name the room makes
    unlike.mkdir()
    plain = tmp_path / f"{PREFIX}{dead}-file"  # a file, not a directory
    plain.write_text("x")
    target = _room_dir(tmp_path, os.getppid(), tail="t")
    link = tmp_path / f"{PREFIX}{dead}-link"
    link.symlink_to(target)

    swept = sweep_stale(tmp_path)

    assert sorted(swept) == sorted([stale, empty, held])
    assert not stale.exists() and not empty.exists() and not held.exists()
    for kept in (live, mine, foreign, unlike, plain, link, target):
        assert kept.exists() or kept.is_symlink(), kept
    assert (live / "room.db").exists() and (foreign / "notes.txt").exists()
    assert sweep_stale(tmp_path / "no such directory") == []


def test_a_throwaway_directory_names_its_process_and_is_deleted_at_exit(tmp_path: Path) -> None:
    stale = _room_dir(tmp_path, _dead_pid(), files=("room.db",))
    with throwaway_directory(tmp_path) as made:
        assert made.parent == tmp_path and made.name.startswith(f"{PREFIX}{os.getpid()}-")
        assert not stale.exists()  # swept at the start
        (made / "room.db").write_bytes(b"x")
    assert list(tmp_path.iterdir()) == []


def _serve(port: int, scratch: Path, log: Path) -> subprocess.Popen[bytes]:
    environ = {**os.environ, "TMPDIR": str(scratch), "STUD8_DEFAULT_TABLES": "0"}
    command = [sys.executable, "-m", "stud8", "serve", "--memory", "--host", "127.0.0.1"]
    with log.open("ab") as out:
        return subprocess.Popen(
            [*command, "--port", str(port)],
            cwd=scratch.parent,
            env=environ,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def _wait_up(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    end = time.monotonic() + 60
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5, trust_env=False) as http:
        while True:
            assert process.poll() is None, log.read_text()
            try:
                if http.get("/api/v1/tables").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < end, f"the room did not start:\n{log.read_text()}"
            time.sleep(0.1)


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_stud8_serve_memory_sweeps_the_directory_of_one_killed_before(tmp_path: Path) -> None:
    scratch, log = tmp_path / "tmp", tmp_path / "server.log"
    scratch.mkdir()
    first = _serve(free_port(), scratch, log)
    second: subprocess.Popen[bytes] | None = None
    try:
        port = free_port()
        first.kill()  # before it is up: a throwaway room killed at any moment
        first.wait(10)
        first = _serve(port, scratch, log)
        _wait_up(first, port, log)
        left = list(scratch.iterdir())
        assert [p.name.split("-")[2] for p in left] == [str(first.pid)], left
        first.send_signal(signal.SIGKILL)  # it cannot clean up
        first.wait(10)
        assert list(scratch.iterdir()) == left, "the killed room's directory is left"
        port = free_port()
        second = _serve(port, scratch, log)
        _wait_up(second, port, log)
        now = list(scratch.iterdir())
        assert [p.name.split("-")[2] for p in now] == [str(second.pid)], now
        assert f"deleted {left[0]}" in log.read_text()
        second.send_signal(signal.SIGINT)
        assert second.wait(30) == 0, log.read_text()
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(10)
    assert list(scratch.iterdir()) == [], "the throwaway database is left behind"
