"""Fencing (a room on several nodes): once another node has taken a table over,
the node that lost it can write nothing of it (no buy-in, no cash-out, no hand's
note or end), and a table whose books say so stops without announcing anything.

Each database test runs on a fresh SQLite file and on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from sqlalchemy import Engine

from server.tableharness import Harness, run, seat_players
from stud8.core.events import HandEnded
from stud8.server.books.fencing import TableEpochs
from stud8.server.books.ledger import Ledger, table_account
from stud8.server.books.memory import MemoryBooks
from stud8.server.books.room import RoomBooks
from stud8.server.books.seats import TableStore
from stud8.server.books.writer import RoomWriter
from stud8.server.table.books import BooksFenced, HandEnd
from stud8.server.table.events import HandFinished, Numbered
from stud8.server.table.spec import TableSpec


def _room(engine: Engine) -> Ledger:
    TableStore(engine).save("t1", "Table 1", TableSpec())
    ledger = Ledger(engine)
    ledger.grant("ann", 500)
    ledger.grant("bob", 500)
    return ledger


def test_each_takeover_raises_the_epoch_and_names_the_owner(engine: Engine) -> None:
    _room(engine)
    first, second = TableEpochs(engine, "n1"), TableEpochs(engine, "n2")
    assert first.take_over("t1") == 1
    assert second.take_over("t1") == 2
    assert first.take_over("t1") == 3  # taken back
    assert (first.held("t1"), second.held("t1")) == (3, 2)
    with pytest.raises(LookupError, match="no table t9"):
        first.take_over("t9")


def test_the_node_that_lost_a_table_writes_nothing_of_it(engine: Engine, ledger: Ledger) -> None:
    _room(engine)
    old, new = TableEpochs(engine, "n1"), TableEpochs(engine, "n2")
    old.take_over("t1")

    async def main() -> None:
        writer = RoomWriter(engine)
        old_books = RoomBooks(ledger, writer, epochs=old)
        new_books = RoomBooks(ledger, writer, epochs=new)
        try:
            await old_books.sit("t1", 1, "ann", 100)  # n1 owns it: the buy-in lands
            new.take_over("t1")  # n2 takes it over (n1 paused past its lease)
            with pytest.raises(BooksFenced, match="belongs to another node"):
                await old_books.sit("t1", 2, "bob", 100)
            with pytest.raises(BooksFenced):
                await old_books.stand("t1", 1, "ann", 100)
            await new_books.stand("t1", 1, "ann", 100)  # the new owner may
            # a table that is not ours at all (never taken) is refused too
            with pytest.raises(BooksFenced):
                await new_books.sit("t2", 1, "bob", 100)
        finally:
            writer.close()

    asyncio.run(main())
    balances = ledger.balances()
    assert balances["bank:ann"] == 500 and balances["bank:bob"] == 500
    assert balances.get(table_account("t1", "bob"), 0) == 0
    assert TableStore(engine).seats("t1") == []
    assert ledger.audit().ok


def test_a_batch_s_fences_are_checked_together_and_a_lost_table_s_job_alone_is_refused(
    engine: Engine, ledger: Ledger
) -> None:
    """One turn's writes of two tables, one of them taken by another node: that one's
    buy-in is refused and writes nothing; the other table's, before and after it in
    the same batch, land (the check is one read for the batch, and a refusal undoes
    nothing else)."""
    _room(engine)
    TableStore(engine).save("t2", "Table 2", TableSpec())
    ours, theirs = TableEpochs(engine, "n1"), TableEpochs(engine, "n2")
    ours.take_over("t1")
    ours.take_over("t2")
    theirs.take_over("t2")  # n2 took t2 over: n1 does not know yet

    async def main() -> list[BaseException | None]:
        writer = RoomWriter(engine)
        books = RoomBooks(ledger, writer, epochs=ours)
        try:
            outcomes = await asyncio.gather(
                books.sit("t1", 1, "ann", 100),
                books.sit("t2", 1, "bob", 100),
                books.sit("t1", 2, "bob", 50),
                return_exceptions=True,
            )
        finally:
            writer.close()
        assert writer.stats.largest == 3  # the three in one batch
        return [o if isinstance(o, BaseException) else None for o in outcomes]

    first, lost, last = asyncio.run(main())
    assert first is None and last is None
    assert isinstance(lost, BooksFenced) and "table t2 belongs to another node" in str(lost)
    balances = ledger.balances()
    assert balances[table_account("t1", "ann")] == 100
    assert balances[table_account("t1", "bob")] == 50
    assert balances.get(table_account("t2", "bob"), 0) == 0
    assert [s.player for s in TableStore(engine).seats("t1")] == ["ann", "bob"]
    assert TableStore(engine).seats("t2") == []
    assert ledger.audit().ok


def test_a_takeover_waits_for_a_write_in_flight_and_the_next_write_is_refused(
    engine: Engine, ledger: Ledger
) -> None:
    """The check locks the table's row: a takeover during a write of the old owner
    lands after it (never both, never a write after the takeover)."""
    _room(engine)
    old, new = TableEpochs(engine, "n1"), TableEpochs(engine, "n2")
    old.take_over("t1")
    checked, taken = threading.Event(), threading.Event()
    order: list[str] = []

    def take_over() -> None:
        checked.wait(10)
        new.take_over("t1")
        order.append("takeover")
        taken.set()

    taker = threading.Thread(target=take_over)
    taker.start()
    with engine.begin() as conn:
        old.check(conn, "t1")
        checked.set()
        taken.wait(0.5)  # on PostgreSQL the takeover waits on our lock
        ledger.buy_in("ann", "t1", 50, "seat 1", conn=conn)
        order.append("write")
    taker.join(10)
    if engine.dialect.name == "postgresql":
        assert order == ["write", "takeover"]
    assert ledger.balances()[table_account("t1", "ann")] == 50
    with engine.begin() as conn, pytest.raises(BooksFenced):
        old.check(conn, "t1")


class FencedBooks(MemoryBooks):
    """Books that another node's takeover has fenced off from the next hand end."""

    def __init__(self) -> None:
        super().__init__({"ann": 1000, "bob": 1000, "cat": 1000})
        self.fenced = False

    async def hand_ended(self, end: HandEnd) -> None:
        if self.fenced:
            raise BooksFenced("table t1 belongs to another node now")
        await super().hand_ended(end)


def test_a_fenced_table_stops_without_announcing_its_hand() -> None:
    books = FencedBooks()

    async def body(h: Harness) -> None:
        seen: list[Numbered] = h.watch()
        await seat_players(h, 2)
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None and hand.to_act is not None
        await h.send(h.act(h.table.seats[hand.to_act].player, "bring_in"))
        assert hand.to_act is not None
        books.fenced = True
        fold = h.act(h.table.seats[hand.to_act].player, "fold")
        reply = await asyncio.wait_for(h.table.post(fold), 10)
        assert not reply.ok and "moved" in reply.reason
        assert h.table.fenced is not None and not h.table.running
        kinds = {type(item.event) for item in seen}
        assert HandEnded not in kinds and HandFinished not in kinds
        assert not books.ended  # nothing of the hand kept here: the new owner's

    run(body, books=books)
