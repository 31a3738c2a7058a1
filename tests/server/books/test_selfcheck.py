"""The books check themselves (:mod:`stud8.server.books.selfcheck`): a hand's end
refused as closed otherwise, or after which the ledger's table accounts differ from
the table's stacks, is :class:`BooksDiverged` with an alarm (never dropped), the same
end again is a harmless repeat; and ``stud8 admin audit`` finds a drift injected
behind a table's back (:mod:`stud8.server.books.consistency`). SQLite and PostgreSQL.
"""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from server.books.test_room_books import NAMES, on_books, played_hand
from stud8.formats.record import HandRecord
from stud8.server.books.consistency import hands_and_seats
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger, table_account
from stud8.server.books.room import RoomBooks
from stud8.server.books.seats import TableStore
from stud8.server.storage import Transaction
from stud8.server.table.books import BooksDiverged, HandEnd
from stud8.server.table.spec import TableSpec


def _seated(ledger: Ledger) -> None:
    ledger.grant("ann", 1000)
    ledger.grant("bob", 1000)
    TableStore(ledger.engine).save("t1", "Table 1", TableSpec())


def _end(hand_id: str) -> HandEnd:
    hand = played_hand(hand_id, 3, {1: 200, 2: 200})
    assert hand.result is not None
    after = {NAMES[n]: chips for n, chips in hand.result.stacks.items()}
    record = HandRecord.from_hand(hand, names=NAMES, table="t1")
    return HandEnd.of(hand, NAMES, record, stacks=after)


def _transactions(ledger: Ledger) -> int:
    with ledger.engine.connect() as conn:
        return int(conn.scalar(select(func.count()).select_from(Transaction)) or 0)


def test_the_same_end_twice_is_a_repeat_and_raises_no_alarm(ledger: Ledger) -> None:
    _seated(ledger)
    end = _end("h1")

    async def body(books: RoomBooks) -> None:
        await books.sit("t1", 1, "ann", 200)
        await books.sit("t1", 2, "bob", 200)
        await books.hand_ended(end)
        await books.hand_ended(end)  # (a retry after a commit whose answer was lost)
        assert books.alarms.count == 0

    on_books(ledger, body)
    assert end.stacks is not None
    assert {p: ledger.balance(table_account("t1", p)) for p in end.stacks} == end.stacks
    assert hands_and_seats(ledger.engine) == []


def test_an_end_after_another_process_refunded_the_hand_is_refused_with_an_alarm(
    ledger: Ledger,
) -> None:
    _seated(ledger)
    end = _end("h1")

    async def body(books: RoomBooks) -> None:
        await books.sit("t1", 1, "ann", 200)
        await books.sit("t1", 2, "bob", 200)
        # a second room's recovery closes the live room's hand in play
        ledger.refund_hand("h1", "t1", {"ann": 0, "bob": 0}, memo="cancelled at restart")
        before = _transactions(ledger)
        with pytest.raises(BooksDiverged) as diverged:
            await books.hand_ended(end)
        assert not diverged.value.written
        assert diverged.value.ledger == {"ann": 200, "bob": 200}  # as dealt: take these
        assert "closed otherwise" in diverged.value.reason and "refund" in diverged.value.reason
        assert books.alarms.count == 1 and books.alarms.by_table == {"t1": 1}
        assert _transactions(ledger) == before  # nothing of it written
        assert HandStore(ledger.engine).record("h1") is None

    on_books(ledger, body)


def test_a_drift_behind_the_tables_back_stops_it_at_its_next_hand_and_the_audit_says_so(
    ledger: Ledger,
) -> None:
    _seated(ledger)
    end = _end("h1")
    assert end.stacks is not None
    after = dict(end.stacks)

    async def body(books: RoomBooks) -> None:
        await books.sit("t1", 1, "ann", 200)
        await books.sit("t1", 2, "bob", 200)
        ledger.top_up("ann", "t1", 14)  # 14 chips the table never heard of
        with pytest.raises(BooksDiverged) as diverged:
            await books.hand_ended(end)
        assert diverged.value.written  # the hand is kept; the ledger's chips are handed over
        assert diverged.value.ledger == {**after, "ann": after["ann"] + 14}
        assert f"ann: the table holds {after['ann']}, the ledger" in diverged.value.reason
        assert books.alarms.count == 1

    on_books(ledger, body)
    assert HandStore(ledger.engine).record("h1") is not None
    problems = hands_and_seats(ledger.engine)
    assert problems == [
        f"hand h1 at t1: after it the ledger holds {after['ann'] + 14} for ann, "
        f"the record's final stack is {after['ann']}"
    ]
    assert ledger.audit().ok  # the ledger balances with itself: only the hands show it


def test_the_audit_finds_a_hand_without_its_settlement_and_a_settlement_without_its_hand(
    ledger: Ledger,
) -> None:
    _seated(ledger)
    end = _end("h1")
    on_books(ledger, lambda books: books.sit("t1", 1, "ann", 200))
    on_books(ledger, lambda books: books.sit("t1", 2, "bob", 200))
    HandStore(ledger.engine).store(end.record)  # a history, and nothing in the ledger
    ledger.refund_hand("h2", "t1", {"ann": 0, "bob": 0})  # a refund of no hand
    assert hands_and_seats(ledger.engine) == [
        "hand h1 at t1: stored, but no settlement or refund",
        "hand h2: its refund (transaction 5) is in no history",
    ]
