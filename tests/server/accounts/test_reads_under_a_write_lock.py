"""A request that only reads (the websocket's token lookup, the private tables an
account was admitted to, the bank balance, the hand histories, the chat, the
tournaments) and ``stud8 admin audit`` are answered while another connection holds
SQLite's write lock (the room's writer in the middle of a batch, a registration,
another request). In WAL
mode a reader needs no lock; a read that began ``BEGIN IMMEDIATE`` waited for the
write lock like a writer, and with the requests' one-second busy timeout a few of a
thousand players connecting at once were closed with 1013 "the database is busy"
(bench_room: they never got their ``welcome``)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

from argon2 import PasswordHasher
from sqlalchemy import text

from stud8.server.accounts.accounts import Accounts
from stud8.server.books.chat import ChatStore
from stud8.server.books.hands import HandStore
from stud8.server.books.invitations import StoredInvitations
from stud8.server.books.ledger import Ledger, bank
from stud8.server.books.tournaments import TournamentStore
from stud8.server.storage import create_engine_for, upgrade
from stud8.server.table.books import ChatLine
from stud8.tournament.director import Phase

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
        ledger = Ledger(engine)
        ledger.buy_in("ann", "t9", 10, "seat 1")
        ledger.refund_hand("h1", "t9", {"ann": 10})
        hand_store = HandStore(engine)
        hand_store.begin("h1", "t9", {1: ("ann", 10)})
        hand_store.close_unfinished(hand_store.in_progress()[0], cancelled=True, note="")
        with engine.begin() as conn:
            tournament = TournamentStore.create_in(
                conn, "Sunday", {"name": "Sunday"}, Phase.REGISTERING
            )
            ChatStore.say_in(
                conn,
                ChatLine(
                    table_id="t9",
                    hand_id=None,
                    player="ann",
                    text="hello",
                    said_at=datetime.now(UTC),
                ),
            )
        starting = ledger.balance(bank("ann"))
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
            # the bank balance, the hand histories, the chat: read as the room writes
            books = Ledger(requests, attempts=1)
            assert books.balance(bank("ann")) == starting
            assert books.balances("bank:") == {bank("ann"): starting}
            assert books.hand_transaction("h1") is not None
            hands = HandStore(requests)
            assert hands.latest() == ["h1"] and hands.count() == 1
            assert hands.fetch("h1") is not None and hands.ids_for("ann") == [("h1", "t9", False)]
            chat = ChatStore(requests)
            assert [line.text for line in chat.lines("t9")] == ["hello"]
            assert chat.silenced() == []
            tournaments = TournamentStore(requests, books)
            assert [t.name for t in tournaments.tournaments()] == ["Sunday"]
            assert tournaments.open_ids() == [tournament]
            found_tournament = tournaments.tournament(tournament)
            assert found_tournament is not None and found_tournament.phase == Phase.REGISTERING
            assert tournaments.entries(tournament) == [] and tournaments.bot_names() == []
            # stud8 admin audit, against a room that is writing
            report = books.audit()
            assert report.ok and report.banks == starting, report
            assert hands.in_progress() == []
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
