"""A request that only reads (the websocket's token lookup, the private tables an
account was admitted to) is answered while another connection holds SQLite's write
lock (the room's writer in the middle of a batch, a registration, another request).
In WAL mode a reader needs no lock; a read that began ``BEGIN IMMEDIATE`` waited for
the write lock like a writer, and with the requests' one-second busy timeout a few of
a thousand players connecting at once were closed with 1013 "the database is busy"
(bench_room: they never got their ``welcome``)."""

from __future__ import annotations

import time
from pathlib import Path

from argon2 import PasswordHasher
from sqlalchemy import text

from stud8.server.accounts.accounts import Accounts
from stud8.server.books.invitations import StoredInvitations
from stud8.server.books.ledger import Ledger
from stud8.server.storage import create_engine_for, upgrade

FAST = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
BUSY = 0.3  # the requests' busy timeout here (the room's is REQUEST_BUSY_SECONDS)


def test_reads_are_answered_while_another_connection_holds_the_write_lock(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    upgrade(url)
    engine = create_engine_for(url)
    requests = create_engine_for(url, busy_seconds=BUSY)
    try:
        accounts = Accounts(engine, Ledger(engine), hasher=FAST)
        accounts.register("ann", "pw-alpha-1")
        token = accounts.login("ann", "pw-alpha-1")
        invitations = StoredInvitations(engine)
        invitations.invite("t9", "ann")
        reads = Accounts(requests, Ledger(requests, attempts=1), hasher=FAST)
        stored = StoredInvitations(requests)
        with engine.connect() as writer:
            writer.begin()  # BEGIN IMMEDIATE: the write lock, held
            writer.execute(text("UPDATE players SET role = role"))
            started = time.monotonic()
            found = reads.player_for_token(token)
            assert found is not None and found.name == "ann"
            assert reads.live_tokens([token, "nope"]) == {token}
            ann = reads.get("ANN")
            assert ann is not None and ann.name == "ann"
            assert stored.admitted("ann") == frozenset({"t9"})
            invitation = stored.invitation("t9")
            assert invitation is not None and invitation.creator == "ann"
            assert time.monotonic() - started < BUSY  # none waited for the lock
            writer.rollback()
        # writes still take the write lock at once (BEGIN IMMEDIATE), as before
        with engine.connect() as writer:
            writer.begin()
            writer.execute(text("UPDATE players SET role = role"))
            started = time.monotonic()
            try:
                reads.logout(token)
            except Exception as exc:  # the requests' writer gave up after its timeout
                assert "locked" in str(exc)
                assert time.monotonic() - started >= BUSY * 0.9
            else:
                raise AssertionError("a write went through another's write lock")
            writer.rollback()
        assert reads.player_for_token(token) is not None
    finally:
        engine.dispose()
        requests.dispose()
