"""What a hand's end costs on PostgreSQL, in round trips counted on the wire
(:class:`~stud8.server.storage.roundtrips.RoundTripRelay`), pinned so it cannot grow
unseen. Each figure is what the code does now; one more is a regression to explain.

A hand's end alone in its batch (a table's hand, the usual case) is, on the writer's
kept connection (no ping): BEGIN; the hand's state (its transaction? its record?:
one read); its accounts and the self-check's, locked in one read; the transaction;
its entries; the balances (one executemany: psycopg pipelines it); the record;
its players; the note removed; COMMIT: 10, raked or not (the table's rake account is
one more row of the same statements). A table of a room on several nodes checks
its epoch first: 11. Hands ended in the same turn of the loop share one
transaction, without savepoints: 8 each, and BEGIN and COMMIT once; on several nodes,
one more for the epochs of all their tables (not one a hand).

A hand's end locks its own table's rows only: it waits for no lock another table's
writer holds, nor for one on the room-wide ``rake`` of an older database.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``); skips without it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from server.books.test_room_books import played_hand
from server.books.test_writer import finished_hand
from server.roomdb import fresh_database
from stud8.formats.record import HandRecord
from stud8.server.books.fencing import TableEpochs
from stud8.server.books.ledger import RAKE, Ledger, rake_account, table_account
from stud8.server.books.room import RoomBooks
from stud8.server.books.seats import TableStore
from stud8.server.books.writer import RoomWriter
from stud8.server.storage import Account, create_engine_for, upgrade
from stud8.server.storage.roundtrips import RoundTripRelay
from stud8.server.table.books import BooksDiverged, HandEnd, HandNote
from stud8.server.table.spec import TableSpec

ALONE = 10  # a hand's end alone in its batch
FENCED = 11  # the same, its table's epoch checked (a room on several nodes)
EACH_IN_A_BATCH = 8  # a hand's end among others of the same turn


@pytest.fixture
def relayed(tmp_path: Path) -> Iterator[tuple[Engine, RoundTripRelay]]:
    url = fresh_database("postgresql", tmp_path)
    upgrade(url)
    with RoundTripRelay.to(url) as relay:
        engine = create_engine_for(relay.url(url))
        yield engine, relay
        engine.dispose()


def end_of(
    hand_id: str, seed: int, table: str, stacks: dict[str, int], *, raked: bool = False
) -> HandEnd:
    """ann and bob's hand at ``table``, ``stacks`` (their chips before it) moved on:
    the first from ``seed`` on that one of them wins (a pot split evenly changes no
    balance, and its end has no UPDATE: a round trip fewer); ``raked``: under rules
    with a rake, and raked."""
    while True:
        if raked:
            hand = played_hand(hand_id, seed, {1: 100, 2: 100})
        else:
            hand = finished_hand(hand_id, seed)
        result = hand.result
        assert result is not None
        if result.stacks[1] != 100 and (result.rake > 0 or not raked):
            break
        seed += 1000
    names = {1: "ann", 2: "bob"}
    for seat, name in names.items():
        stacks[name] += result.stacks[seat] - 100
    record = HandRecord.from_hand(hand, names=names, table=table)
    return HandEnd.of(hand, names, record, stacks=dict(stacks))


def note_of(end: HandEnd) -> HandNote:
    seats = ((1, "ann", 100), (2, "bob", 100))
    return HandNote(
        hand_id=end.hand_id, table_id=end.table_id, seats=seats, started_at=datetime.now(UTC)
    )


@pytest.mark.parametrize(
    ("fenced", "raked"),
    [(False, False), (True, False), (False, True)],
    ids=["one-process", "fenced", "raked"],
)
def test_a_hand_s_end_alone_costs_its_pinned_round_trips(
    relayed: tuple[Engine, RoundTripRelay], fenced: bool, raked: bool
) -> None:
    engine, relay = relayed
    ledger = Ledger(engine)
    epochs = TableEpochs(engine, "n1") if fenced else None
    if epochs is not None:
        TableStore(engine).save("t1", "Table 1", TableSpec())
        epochs.take_over("t1")
    writer = RoomWriter(engine)
    books = RoomBooks(ledger, writer, epochs=epochs)
    for name in ("ann", "bob"):
        ledger.grant(name, 10_000)
    stacks = {"ann": 1_000, "bob": 1_000}
    counted: list[int] = []

    async def body() -> None:
        for name, chips in stacks.items():
            await books.sit("t1", 1 if name == "ann" else 2, name, chips)
        for i in range(12):  # psycopg prepares a statement at its 5th run: a round trip
            end = end_of(f"h{i}", i, "t1", stacks, raked=raked)
            await books.hand_dealt(note_of(end))
            before = relay.count
            await books.hand_ended(end)
            counted.append(relay.count - before)

    try:
        asyncio.run(body())
    finally:
        writer.close()
    expected = FENCED if fenced else ALONE
    # (psycopg prepares each statement at its 5th run on the connection: a round
    # trip more, once; the steady state is what every later hand costs)
    assert counted[-4:] == [expected] * 4, counted
    assert ledger.audit().ok
    assert ledger.balances("table:t1:") == {f"table:t1:{p}": c for p, c in stacks.items()}
    assert bool(ledger.balances("rake")) is raked  # no rake account of an unraked table


@pytest.mark.parametrize("fenced", [False, True], ids=["one-process", "fenced"])
def test_hands_ended_together_share_one_transaction_without_savepoints(
    relayed: tuple[Engine, RoundTripRelay], fenced: bool
) -> None:
    engine, relay = relayed
    ledger = Ledger(engine)
    writer = RoomWriter(engine)
    tables = [f"t{n}" for n in range(4)]
    epochs = TableEpochs(engine, "n1") if fenced else None
    if epochs is not None:
        for t in tables:
            TableStore(engine).save(t, f"Table {t}", TableSpec())
            epochs.take_over(t)
    books = RoomBooks(ledger, writer, epochs=epochs)
    stacks = {t: {"ann": 1_000, "bob": 1_000} for t in tables}
    counted: list[int] = []

    async def body() -> None:
        for name in ("ann", "bob"):
            ledger.grant(name, 10_000)
        for t in tables:
            await books.sit(t, 1, "ann", 1_000)
            await books.sit(t, 2, "bob", 1_000)
        for i in range(12):
            ends = [end_of(f"h{i}{t}", i, t, stacks[t]) for t in tables]
            await asyncio.gather(*(books.hand_dealt(note_of(e)) for e in ends))
            before = relay.count
            await asyncio.gather(*(books.hand_ended(e) for e in ends))
            counted.append(relay.count - before)

    try:
        asyncio.run(body())
    finally:
        writer.close()
    assert writer.stats.largest == len(tables)
    # BEGIN, COMMIT, and on a node one read of the four tables' epochs
    together = 2 + (1 if fenced else 0) + EACH_IN_A_BATCH * len(tables)
    assert counted[-4:] == [together] * 4, counted
    assert ledger.audit().ok


def test_the_self_check_still_sees_a_drift_read_in_the_same_locked_read(
    relayed: tuple[Engine, RoundTripRelay],
) -> None:
    """The self-check's accounts come with the hand's own read: a seated player not
    in the hand whose chips the ledger holds otherwise is still a divergence."""
    engine, _relay = relayed
    ledger = Ledger(engine)
    writer = RoomWriter(engine)
    books = RoomBooks(ledger, writer)
    for name in ("ann", "bob", "cat"):
        ledger.grant(name, 10_000)
    stacks = {"ann": 1_000, "bob": 1_000}

    async def body() -> None:
        await books.sit("t1", 1, "ann", 1_000)
        await books.sit("t1", 2, "bob", 1_000)
        await books.sit("t1", 3, "cat", 500)  # sitting out: not dealt in
        end = end_of("h1", 1, "t1", stacks)
        told = HandEnd(
            hand_id=end.hand_id,
            table_id=end.table_id,
            cancelled=end.cancelled,
            contributions=end.contributions,
            payouts=end.payouts,
            rake=end.rake,
            record=end.record,
            stacks={**stacks, "cat": 400},  # the ledger holds 500
        )
        await books.hand_dealt(note_of(told))
        with pytest.raises(BooksDiverged) as refused:
            await books.hand_ended(told)
        assert refused.value.written
        assert refused.value.ledger == {**stacks, "cat": 500}
        assert "cat: the table holds 400, the ledger 500" in refused.value.reason

    try:
        asyncio.run(body())
    finally:
        writer.close()
    assert books.alarms.count == 1


def test_a_hand_s_end_waits_for_no_lock_outside_its_table(
    relayed: tuple[Engine, RoundTripRelay],
) -> None:
    """Another writer holds the rows of another table's rake account and of an older
    database's room-wide ``rake`` (both holding chips) locked: a hand's end at t1,
    unraked and then raked, does not wait for it (every hand once locked ``rake``, so
    the writers of two nodes took turns)."""
    engine, _relay = relayed
    ledger = Ledger(engine)
    for name in ("ann", "bob", "cat"):
        ledger.grant(name, 10_000)
    ledger.buy_in("cat", "t2", 100)
    ledger.take_rake("cat", "t2", 2)  # rake:t2
    # a time charge to the room-wide account, as take_rake wrote it before
    ledger.transfer("rake", [(table_account("t2", "cat"), -3), (RAKE, 3)], create=(RAKE,))
    writer = RoomWriter(engine)
    books = RoomBooks(ledger, writer)
    stacks = {"ann": 1_000, "bob": 1_000}
    others = [RAKE, rake_account("t2")]
    raked_at_t1: list[int] = []

    async def body() -> None:
        for seat, name in ((1, "ann"), (2, "bob")):
            await books.sit("t1", seat, name, 1_000)
        with engine.connect() as other, other.begin():
            locked = other.execute(
                select(Account.name).where(Account.name.in_(others)).with_for_update()
            )
            assert sorted(locked.scalars()) == sorted(others)
            for i, raked in enumerate((False, True)):
                end = end_of(f"h{i}", i, "t1", stacks, raked=raked)
                await books.hand_dealt(note_of(end))
                try:
                    await asyncio.wait_for(books.hand_ended(end), 10)
                except TimeoutError:
                    pytest.fail(f"the hand's end (raked: {raked}) waited for another's lock")
                raked_at_t1.append(end.rake)

    try:
        asyncio.run(body())
    finally:
        writer.close()
    assert raked_at_t1[0] == 0 < raked_at_t1[1]
    assert ledger.balances("rake") == {
        RAKE: 3,
        rake_account("t1"): raked_at_t1[1],
        rake_account("t2"): 2,
    }
    assert ledger.audit().ok
