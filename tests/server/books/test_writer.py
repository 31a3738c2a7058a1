"""The room's writer: the jobs of a turn of the event loop in one transaction,
a refused job undone alone, in order, and the crash guarantees with it (a hand
whose batch was never written is refunded at the restart).

Each test runs on a fresh SQLite file and on PostgreSQL (the shared fixtures).
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event

from server.roomdb import fresh_database
from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.hand import Hand
from stud8.core.rules import TableRules
from stud8.formats.record import HandRecord
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger, LedgerError, bank, table_account
from stud8.server.books.recovery import CANCELLED_NOTE, recover
from stud8.server.books.room import RoomBooks
from stud8.server.books.writer import RoomWriter
from stud8.server.storage import create_engine_for
from stud8.server.table.books import BooksRefused, HandEnd, HandNote

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)


def commits(engine: Engine) -> list[int]:
    """A list that grows by one at each commit on ``engine``."""
    seen: list[int] = []

    @event.listens_for(engine, "commit")
    def _commit(_conn: Any) -> None:
        seen.append(1)

    return seen


def finished_hand(hand_id: str, seed: int) -> Hand:
    """A hand between ann (seat 1) and bob (seat 2), 100 chips each, played to
    its end by checking and calling (the bring-in folds nothing)."""
    hand = Hand.start(rules=RULES, stacks={1: 100, 2: 100}, deck=Deck.seeded(seed), hand_id=hand_id)
    while not hand.is_over:
        kinds = {ActionKind(a.kind).value for a in hand.legal_actions()}
        kind = next(k for k in ("bring_in", "check", "call") if k in kinds)
        hand.apply(make_action(kind))
    return hand


def seated(ledger: Ledger, table: str = "t1") -> None:
    for name in ("ann", "bob"):
        ledger.grant(name, 1_000)
        ledger.buy_in(name, table, 100)


def ended(hand: Hand) -> HandEnd:
    names = {1: "ann", 2: "bob"}
    return HandEnd.of(hand, names, HandRecord.from_hand(hand, names=names, table="t1"))


def test_the_hands_of_one_turn_of_the_loop_land_in_one_transaction(engine: Engine) -> None:
    ledger = Ledger(engine)
    seated(ledger)
    writer = RoomWriter(engine)
    store = HandStore(engine)
    books = RoomBooks(ledger, writer)
    hands = [finished_hand(f"h{n}", n) for n in range(1, 6)]
    for hand in hands:
        store.begin(hand.hand_id, "t1", {1: ("ann", 100), 2: ("bob", 100)})
    seen = commits(engine)

    async def body() -> None:
        # five tables end a hand in the same turn of the loop
        await asyncio.gather(*(books.hand_ended(ended(hand)) for hand in hands))

    try:
        asyncio.run(body())
    finally:
        writer.close()
    assert len(seen) == 1  # five settlements, five records, five notes closed: one commit
    assert writer.stats.batches == 1 and writer.stats.jobs == 5
    assert store.in_progress() == []
    for hand in hands:
        assert ledger.hand_transaction(hand.hand_id) is not None
        found = store.fetch(hand.hand_id)
        assert found is not None and found.record is not None and not found.cancelled
    stacks = {n: ledger.balance(table_account("t1", n)) for n in ("ann", "bob")}
    assert sum(stacks.values()) + ledger.audit().rake == 200
    assert ledger.audit().ok


def test_a_refused_job_is_undone_alone_and_the_jobs_run_in_order(engine: Engine) -> None:
    ledger = Ledger(engine)
    seated(ledger)
    writer = RoomWriter(engine)
    books = RoomBooks(ledger, writer)
    hand = finished_hand("h1", 7)
    result = hand.result
    assert result is not None
    ann_after = result.stacks[1]

    async def body() -> None:
        # in one batch: the hand's end, then a cash-out of more than she has (refused
        # alone), then one of all she has after the hand (it sees the settlement)
        end = asyncio.ensure_future(books.hand_ended(ended(hand)))
        too_much = asyncio.ensure_future(books.stand("t1", 1, "ann", ann_after + 1))
        cash_all = asyncio.ensure_future(books.stand("t1", 1, "ann", ann_after))
        await end
        with pytest.raises(BooksRefused):
            await too_much
        await cash_all

    try:
        asyncio.run(body())
    finally:
        writer.close()
    assert writer.stats.failed == 1 and writer.stats.batches == 1
    assert ledger.balance(table_account("t1", "ann")) == 0
    assert ledger.balance(bank("ann")) == 900 + ann_after
    assert ledger.hand_transaction("h1") is not None
    assert ledger.audit().ok


def test_a_write_asked_again_after_a_database_error_is_counted_a_retry(engine: Engine) -> None:
    # the tables write a hand's end until it lands: each ask after a database error
    # is a retry (GET /metrics' stud8_database_retries); a refusal is not retried
    writer = RoomWriter(engine)
    tries: list[int] = []

    def flaky(conn: Any) -> int:
        tries.append(1)
        if len(tries) < 3:
            raise OSError("disk I/O error")  # (as the driver says a full disk)
        return len(tries)

    def refused(conn: Any) -> None:
        raise LedgerError("not enough chips")

    async def body() -> None:
        for _ in range(2):
            with pytest.raises(OSError):
                await writer.call(flaky, what="the end of hand h1")
        assert await writer.call(flaky, what="the end of hand h1") == 3
        assert await writer.call(lambda _conn: 0, what="the end of hand h1") == 0  # landed
        for _ in range(2):
            with pytest.raises(LedgerError):
                await writer.call(refused, what="ann sitting at t1 seat 1")

    try:
        asyncio.run(body())
    finally:
        writer.close()
    assert writer.stats.retries == 2
    assert writer.stats.failed == 4  # two errors, two refusals


def test_a_batch_of_one_job_is_its_own_transaction_without_a_savepoint(engine: Engine) -> None:
    """Most batches are one job (one table's hand at a time): its transaction is its
    savepoint. Refused, it writes nothing and the next job goes on. Several jobs of
    one turn are written without savepoints (two round trips more a job on
    PostgreSQL), and only when one of them is refused are they written again each in
    a savepoint, the refused one undone alone."""
    ledger = Ledger(engine)
    seated(ledger)
    writer = RoomWriter(engine)
    books = RoomBooks(ledger, writer)
    statements: list[str] = []

    @event.listens_for(engine, "before_cursor_execute")
    def _seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        statements.append(statement.split()[0].upper())

    hand = finished_hand("h1", 7)
    result = hand.result
    assert result is not None

    async def body() -> None:
        with pytest.raises(BooksRefused):  # alone in its batch, and refused
            await books.stand("t1", 1, "ann", 101)
        assert ledger.balance(table_account("t1", "ann")) == 100  # nothing written
        await books.hand_ended(ended(hand))  # alone in its batch
        assert "SAVEPOINT" not in statements
        await asyncio.gather(books.top_up("t1", 1, "ann", 5), books.top_up("t1", 2, "bob", 5))
        assert "SAVEPOINT" not in statements
        refused = books.top_up("t1", 2, "bob", 10**6)  # more than his bank holds
        together = await asyncio.gather(
            books.top_up("t1", 1, "ann", 1), refused, return_exceptions=True
        )
        assert together[0] == 1 and isinstance(together[1], BooksRefused)
        assert statements.count("SAVEPOINT") == 2  # written again, each in its own

    try:
        asyncio.run(body())
    finally:
        writer.close()
    assert writer.stats.batches == 4 and writer.stats.failed == 2
    assert writer.stats.sizes == [1, 1, 2, 2]
    assert ledger.balance(table_account("t1", "ann")) == result.stacks[1] + 6
    assert ledger.hand_transaction("h1") is not None
    assert ledger.audit().ok


def test_a_crash_before_the_batch_is_written_refunds_those_hands(engine: Engine) -> None:
    """The notes are written before the deal; the hands' ends are handed over, and
    the process dies before the writer writes them (so no table announced them): the
    restart refunds every one of those hands and the stacks are the ledger's from
    before them."""
    ledger = Ledger(engine)
    seated(ledger)
    writer = RoomWriter(engine)
    books = RoomBooks(ledger, writer)
    store = HandStore(engine)
    hands = [finished_hand(f"h{n}", n) for n in range(1, 4)]

    async def body() -> None:
        for hand in hands:
            note = HandNote(
                hand_id=hand.hand_id,
                table_id="t1",
                seats=((1, "ann", 100), (2, "bob", 100)),
                started_at=_now(),
            )
            await books.hand_dealt(note)
        assert {h.hand_id for h in store.in_progress()} == {"h1", "h2", "h3"}
        # the process dies before the writer's next batch: nothing more is written
        writer._write = lambda jobs: None  # type: ignore[method-assign]
        ends = [asyncio.ensure_future(books.hand_ended(ended(hand))) for hand in hands]
        await asyncio.sleep(0.05)
        assert not any(end.done() for end in ends)  # never durable: never announced
        for end in ends:
            end.cancel()

    try:
        asyncio.run(body())
    finally:
        writer.close()
    for hand in hands:
        assert ledger.hand_transaction(hand.hand_id) is None
    restarted = Ledger(engine)
    report = recover(engine, restarted, HandStore(engine))
    assert report.ok, report
    assert sorted(report.cancelled) == ["h1", "h2", "h3"]
    assert report.tables == {"t1": {"ann": 100, "bob": 100}}
    for hand in hands:
        assert restarted.hand_transaction(hand.hand_id)[1] == "refund"  # type: ignore[index]
        found = HandStore(engine).fetch(hand.hand_id)
        assert found is not None and found.cancelled and found.note == CANCELLED_NOTE
    assert HandStore(engine).in_progress() == []


def _now() -> datetime:
    return datetime.now(UTC)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_hand_noted_at_the_shutdown_but_never_dealt_is_closed_with_the_room(
    kind: str, tmp_path: Path
) -> None:
    """A table stopped at the shutdown while it was noting a new hand (written by the
    writer, no card dealt yet) leaves the note behind; closing the room closes it as a
    restart would: nothing is refunded but the stacks stay, and the books balance."""
    from stud8.server.runtime import open_room
    from stud8.server.settings import Settings

    url = fresh_database(kind, tmp_path)
    settings = Settings(database_url=url, default_tables=0, bots_per_table=0)
    room = open_room(settings, {})
    room.ledger.grant("ann", 1000)
    room.ledger.grant("bob", 1000)
    room.ledger.buy_in("ann", "t9", 300)
    room.ledger.buy_in("bob", "t9", 200)
    noted = {1: ("ann", 300), 2: ("bob", 200)}
    room.hands.begin("h-never-dealt", "t9", noted, datetime.now(UTC))
    assert [h.hand_id for h in room.hands.in_progress()] == ["h-never-dealt"]
    room.close()

    engine = create_engine_for(url)
    try:
        ledger, store = Ledger(engine), HandStore(engine)
        assert store.in_progress() == []
        assert ledger.hand_transaction("h-never-dealt") is not None  # closed as a refund
        assert ledger.balance(table_account("t9", "ann")) == 300
        assert ledger.balance(table_account("t9", "bob")) == 200
        assert ledger.audit().ok
    finally:
        engine.dispose()


def test_the_writer_describes_where_it_stands(engine: Engine) -> None:
    """What a log says when something waits on the writer too long (the cluster
    tests' hung stop): its thread, the jobs not handed to it yet, what it wrote."""
    writer = RoomWriter(engine)
    assert writer.describe().startswith("thread none; 0 job(s) not handed over yet")

    async def body() -> None:
        job = asyncio.ensure_future(writer.call(lambda _conn: None, what="a job"))
        await asyncio.sleep(0)  # added; its turn of the loop not over yet
        assert "1 job(s) not handed over yet (release scheduled)" in writer.describe()
        await job

    try:
        asyncio.run(body())
        assert "thread alive; 0 job(s)" in writer.describe()
        assert "1 batch(es), 1 job(s) written, 0 failed" in writer.describe()
    finally:
        writer.close()
    assert writer.describe().startswith("thread dead") and writer.describe().endswith("closed")
