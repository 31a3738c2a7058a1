"""One room per database (issue 26): a second ``stud8 serve`` on a live room's
database is refused before it changes anything, and the audit proves the books.

Before the hold, the second process migrated and ran the crash recovery before it
bound its port: it refunded the live room's hand in progress, then died on "address
already in use"; the live room's settlement of that hand was refused as a duplicate.
Run on that old order (the hold skipped, the port bound after the recovery), this
test fails where the room is to play on: the books alarm stops the live table (so
the audit itself still balances); and the refund the second wrote is counted, and
its exit code and line are not the refusal's. (The hand noted before the second
starts is mostly settled by the time its recovery would run: the refunds are
counted over every hand, not that one's alone.)
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select

from server.roomdb import fresh_database
from server.roomprocess import audit, play_until, running_server, settlements
from stud8.server.storage import Transaction, create_engine_for
from stud8.server.storage.models import HandInProgress

PLAYING = {"STUD8_DEFAULT_TABLES": "1", "STUD8_BOT_DELAY": "0.05"}


def _serve(url: str, port: int, workdir: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "stud8", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--database", url]
    return subprocess.run(command, cwd=workdir, capture_output=True, text=True, timeout=60)


def _hand_in_play(engine: Engine) -> str:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with engine.connect() as conn:
            noted = conn.scalars(select(HandInProgress.hand_id)).first()
        if noted is not None:
            return noted
        time.sleep(0.01)
    raise AssertionError("no hand was dealt")


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_second_serve_on_a_live_rooms_database_is_refused_and_changes_nothing(
    kind: str, tmp_path: Path
) -> None:
    url = fresh_database(kind, tmp_path)
    engine = create_engine_for(url)
    try:
        with running_server(url, tmp_path, **PLAYING) as server:
            live_hand = _hand_in_play(engine)
            second = _serve(url, server.port, tmp_path)  # the same database, the same port
            play_until(engine, server, settlements(engine) + 20)  # the room plays on
        books = audit(url, tmp_path)
        assert books.returncode == 0, books.stdout
        assert books.stdout.rstrip().endswith("OK"), books.stdout
        lines = [line for line in (second.stdout + second.stderr).splitlines() if line.strip()]
        assert second.returncode == 3, lines
        assert len(lines) == 1, lines
        assert "in use by stud8 room" in lines[0] and f"pid {server.process.pid}" in lines[0]
        with engine.connect() as conn:
            closed = conn.execute(
                select(Transaction.kind, Transaction.memo).where(Transaction.hand_id == live_hand)
            ).one()
            refunds = conn.scalar(
                select(func.count()).where(Transaction.memo.like("cancelled at restart%"))
            )
        assert closed.kind == "hand_settlement"  # the live room's, not a refund by the second
        assert refunds == 0  # of any hand (a recovery's refund; the stop's own have no memo)
    finally:
        engine.dispose()


def test_a_serve_whose_port_is_taken_exits_before_it_touches_its_database(
    tmp_path: Path,
) -> None:
    """The port is bound before the migrations and the recovery: a room that cannot
    listen changes nothing (here: never even makes its database)."""
    url = fresh_database("sqlite", tmp_path)
    with running_server(url, tmp_path) as server:
        other = tmp_path / "other.db"
        taken = _serve(f"sqlite:///{other}", server.port, tmp_path)
    lines = [line for line in (taken.stdout + taken.stderr).splitlines() if line.strip()]
    assert taken.returncode == 4, lines
    assert len(lines) == 1 and f"cannot listen on 127.0.0.1:{server.port}" in lines[0], lines
    assert not other.exists()
