"""The room's writer: the writes of a turn of the event loop in one transaction,
a refused job undone alone, in order, and the crash guarantees with it (a hand
whose batch was never written is refunded at the restart).

Runs on a fresh SQLite file, and on PostgreSQL too when
``STUD8_TEST_POSTGRES_URL`` names a database the tests may wipe.
"""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, func, select

from server.roomdb import fresh_database
from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.hand import Hand
from stud8.core.rules import TableRules
from stud8.formats.record import HandRecord
from stud8.server.books.bank import BankError
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger, bank, table_account
from stud8.server.books.ledger_bank import LedgerBank
from stud8.server.books.recovery import CANCELLED_NOTE, recover
from stud8.server.books.writer import RoomWriter
from stud8.server.clock import ManualClock
from stud8.server.storage import create_engine_for
from stud8.server.storage.models import Transaction
from stud8.server.table.commands import SeatBot, TableConfig
from stud8.server.table.owner import Table

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


async def close_hand(chips: LedgerBank, store: HandStore, hand: Hand) -> None:
    """What the table does at a hand's end: settle, then hand the record over."""
    result = hand.result
    assert result is not None
    names = {1: "ann", 2: "bob"}
    start = dict(hand.setup.stacks)
    deltas = {names[s]: result.stacks[s] - start[s] for s in start}
    await chips.settle_hand(hand.hand_id, "t1", deltas, result.rake)
    store(HandRecord.from_hand(hand, names=names, table="t1"))


def test_the_hands_of_one_turn_of_the_loop_land_in_one_transaction(engine: Engine) -> None:
    ledger = Ledger(engine)
    seated(ledger)
    writer = RoomWriter(engine)
    store = HandStore(engine, writer)
    chips = LedgerBank(ledger, store, writer)
    hands = [finished_hand(f"h{n}", n) for n in range(1, 6)]
    for hand in hands:
        store.begin(hand.hand_id, "t1", {1: ("ann", 100), 2: ("bob", 100)})
    seen = commits(engine)

    async def body() -> None:
        for hand in hands:  # no await suspends in between: one turn of the loop
            await close_hand(chips, store, hand)
        await writer.drain()

    try:
        asyncio.run(body())
    finally:
        writer.close()
    assert len(seen) == 1  # five settlements, five records, five notes closed: one commit
    assert writer.stats.batches == 1 and writer.stats.jobs == 6  # the hands and the drain
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
    chips = LedgerBank(ledger, None, writer)
    hand = finished_hand("h1", 7)
    result = hand.result
    assert result is not None
    ann_after = result.stacks[1]

    async def body() -> None:
        deltas = {"ann": ann_after - 100, "bob": result.stacks[2] - 100}
        await chips.settle_hand("h1", "t1", deltas, result.rake)  # handed over, not awaited
        # in the same batch: a cash-out of more than she has is refused alone ...
        too_much = asyncio.ensure_future(chips.cash_out("ann", "t1", 1, ann_after + 1))
        # ... and one of all she has after the hand sees the settlement before it
        cash_all = asyncio.ensure_future(chips.cash_out("ann", "t1", 1, ann_after))
        with pytest.raises(BankError):
            await too_much
        await cash_all

    try:
        asyncio.run(body())
    finally:
        writer.close()
    assert writer.stats.failed == 1
    assert ledger.balance(table_account("t1", "ann")) == 0
    assert ledger.balance(bank("ann")) == 900 + ann_after
    assert ledger.hand_transaction("h1") is not None
    assert ledger.audit().ok


def test_a_settlement_applied_twice_is_applied_once(engine: Engine) -> None:
    ledger = Ledger(engine)
    seated(ledger)
    writer = RoomWriter(engine)
    chips = LedgerBank(ledger, None, writer)

    async def body() -> None:
        await chips.settle_hand("h1", "t1", {"ann": -3, "bob": 3}, 0)
        await writer.drain()
        await chips.settle_hand("h1", "t1", {"ann": -3, "bob": 3}, 0)
        await writer.drain()

    try:
        asyncio.run(body())
    finally:
        writer.close()
    assert ledger.balance(table_account("t1", "ann")) == 97
    with engine.connect() as conn:
        keyed = select(func.count()).select_from(Transaction).where(Transaction.hand_id == "h1")
        assert conn.execute(keyed).scalar() == 1


def test_a_crash_before_the_batch_is_written_refunds_those_hands(engine: Engine) -> None:
    """The notes are written (awaited) before the deal; the settlements and the
    records are handed over, and the process dies before the writer writes them:
    the restart refunds every one of those hands and the stacks are the ledger's
    from before them."""
    ledger = Ledger(engine)
    seated(ledger)
    writer = RoomWriter(engine)
    store = HandStore(engine, writer)
    chips = LedgerBank(ledger, store, writer)
    hands = [finished_hand(f"h{n}", n) for n in range(1, 4)]

    async def body() -> None:
        for hand in hands:
            await chips.note_hand(hand.hand_id, "t1", {1: ("ann", 100), 2: ("bob", 100)}, _now())
        assert {h.hand_id for h in store.in_progress()} == {"h1", "h2", "h3"}
        # the process dies before the writer's next batch: nothing more is written
        writer._write = lambda jobs: None  # type: ignore[method-assign]
        for hand in hands:
            await close_hand(chips, store, hand)
        await asyncio.sleep(0.05)

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


def test_a_table_on_the_writer_notes_each_hand_before_dealing_it(engine: Engine) -> None:
    """Bots play at a table whose bank and record sink write through the writer:
    each hand is noted when dealt, and closed with its settlement and record;
    between hands the table's stacks are the ledger's once the writer drained."""
    ledger = Ledger(engine)
    names = ("b1", "b2", "b3")
    for name in names:
        ledger.grant(name, 10_000)
    writer = RoomWriter(engine)
    store = HandStore(engine, writer)
    chips = LedgerBank(ledger, store, writer)
    seeds = itertools.count(1)
    noted: list[set[str]] = []

    async def body() -> None:
        clock = ManualClock()
        table = Table(
            TableConfig(
                table_id="t1",
                rules=RULES,
                min_buy_in=20,
                max_buy_in=200,
                between_hands=1.0,
                bot_delay=0.0,
            ),
            bank=chips,
            clock=clock,
            deck_source=lambda: Deck.seeded(next(seeds)),
            record_sink=store,
            bot_seed=3,
        )

        def deliver(item: Any) -> None:
            if item.event.kind == "hand_start":  # the note is there before the deal
                noted.append({h.hand_id for h in store.in_progress()})
                assert item.event.hand_id in noted[-1]

        table.subscribe(None, deliver)
        table.start()
        try:
            for seat, name in enumerate(names, start=1):
                assert (await table.submit(SeatBot(player=name, seat=seat, amount=200))).ok
            while table.hands_played < 6:
                await table.settled()
                clock.advance(1.0)
                await table.settled()
                if table.hand is None:
                    await writer.drain()
                    for sitting in table.seats.values():
                        at_table = ledger.balance(table_account("t1", sitting.player))
                        assert sitting.chips == at_table
                for number in range(1, 4):
                    if number not in table.seats:
                        name = names[number - 1]
                        await table.submit(SeatBot(player=name, seat=number, amount=200))
        finally:
            await table.stop()
            await writer.drain()

    try:
        asyncio.run(asyncio.wait_for(body(), timeout=120))
    finally:
        writer.close()
    assert len(noted) >= 6
    report = ledger.audit()
    assert report.ok, report
    assert store.count() >= 6
    assert store.in_progress() == []
    for hand_id in store.hands_of("b1", limit=3):
        assert ledger.hand_transaction(hand_id) is not None


def _now() -> datetime:
    return datetime.now(UTC)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_hand_noted_at_the_shutdown_but_never_dealt_is_closed_with_the_room(
    kind: str, tmp_path: Path
) -> None:
    """A table stopped at the shutdown while it was noting a new hand (written by the
    writer, no card dealt yet) leaves the note behind; closing the room closes it as a
    restart would: nothing is refunded but the stacks stay, and the books balance."""
    from stud8.server.room.runtime import open_room
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
