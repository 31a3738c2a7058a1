"""Each table's rake in its own account (``rake:<table>``): a hand's end touches its
table's rows only (the room-wide ``rake`` row, shared by every table, made the
writers of every node wait on each other), and every reader of the rake sums every
account of kind ``rake``: the audit, the audit against the hands, the journal's rake
by day, table and stakes, the self-check of a repeated end. An older database's
room-wide ``rake`` account, holding chips, still audits and still counts.

SQLite and PostgreSQL (``STUD8_TEST_POSTGRES_URL``). The locks themselves, on
PostgreSQL: ``test_round_trips.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Engine, delete, event, insert, select, update

from server.books.test_room_books import NAMES, on_books, played_hand
from server.books.test_writer import finished_hand
from stud8.formats.record import HandRecord
from stud8.server.books.consistency import hands_and_seats
from stud8.server.books.journal import Journal, RakeLine
from stud8.server.books.ledger import RAKE, HandMoney, Ledger, pot, rake_account, table_account
from stud8.server.books.room import RoomBooks
from stud8.server.books.seats import TableStore
from stud8.server.storage import Account, Entry
from stud8.server.table.books import HandEnd
from stud8.server.table.spec import TableSpec
from stud8.server.wire.admin import RakeBy

_READS_ACCOUNTS = re.compile(r"^\s*SELECT\b.*\bFROM accounts\b", re.DOTALL | re.IGNORECASE)


def accounts_read(engine: Engine) -> list[str]:
    """A list that grows by every name each SELECT on ``accounts`` is given, as run
    (the ledger's locked read of a movement's accounts among them)."""
    named: list[str] = []

    @event.listens_for(engine, "before_cursor_execute")
    def _read(
        _conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool
    ) -> None:
        if _READS_ACCOUNTS.match(statement):
            named.extend(_strings(parameters))

    return named


def _strings(parameters: Any) -> Iterator[str]:
    if isinstance(parameters, str):
        yield parameters
    elif isinstance(parameters, dict):
        for value in parameters.values():
            yield from _strings(value)
    elif isinstance(parameters, list | tuple):
        for value in parameters:
            yield from _strings(value)


def raked_end(hand_id: str, table: str, stacks: dict[str, int]) -> HandEnd:
    """ann and bob's hand at ``table`` from ``stacks`` (updated to after it), raked."""
    by_seat = {seat: stacks[name] for seat, name in NAMES.items()}
    hand = next(
        h
        for seed in range(1, 100)
        if (h := played_hand(hand_id, seed, by_seat)).result is not None and h.result.rake > 0
    )
    assert hand.result is not None
    for seat, name in NAMES.items():
        stacks[name] = hand.result.stacks[seat]
    record = HandRecord.from_hand(hand, names=NAMES, table=table)
    return HandEnd.of(hand, NAMES, record, stacks=dict(stacks))


def unraked_end(hand_id: str, table: str) -> HandEnd:
    """ann and bob's hand at ``table``, 100 chips each, under rules without rake."""
    hand = finished_hand(hand_id, 1)
    assert hand.result is not None and hand.result.rake == 0
    after = {name: hand.result.stacks[seat] for seat, name in NAMES.items()}
    record = HandRecord.from_hand(hand, names=NAMES, table=table)
    return HandEnd.of(hand, NAMES, record, stacks=after)


def opened(ledger: Ledger, *tables: str) -> None:
    for name in NAMES.values():
        ledger.grant(name, 1_000)
    for table in tables:
        TableStore(ledger.engine).save(table, f"Table {table}", TableSpec())


def rake_accounts(ledger: Ledger) -> dict[str, int]:
    with ledger.engine.connect() as conn:
        rows = conn.execute(select(Account.name, Account.balance).where(Account.kind == "rake"))
        return {str(name): int(balance) for name, balance in rows}


def test_a_settlement_without_rake_writes_no_rake_and_reads_its_table_s_rows_only(
    ledger: Ledger,
) -> None:
    ledger.grant("ann", 1_000)
    ledger.grant("bob", 1_000)
    ledger.buy_in("ann", "t1", 100)
    ledger.buy_in("bob", "t1", 100)
    read = accounts_read(ledger.engine)
    settled = ledger.settle_hand("h1", "t1", HandMoney({"ann": 10, "bob": 10}, {"bob": 20}))
    assert set(read) <= {pot("t1"), table_account("t1", "ann"), table_account("t1", "bob")}
    assert {name for name, _ in ledger.entries(settled)} == {
        pot("t1"),
        table_account("t1", "ann"),
        table_account("t1", "bob"),
    }
    assert rake_accounts(ledger) == {}  # none made either
    report = ledger.audit()
    assert report.ok and report.rake == 0, str(report)


def test_a_hand_s_end_reads_its_table_s_rows_only_raked_or_not(ledger: Ledger) -> None:
    """The room's path (the writer, the settlement and the self-check's accounts in
    one locked read): no row of another table, nor the room-wide ``rake``."""
    opened(ledger, "t1", "t2")
    read = accounts_read(ledger.engine)
    own = {pot("t1"), table_account("t1", "ann"), table_account("t1", "bob")}
    stacks = {"ann": 100, "bob": 100}
    plain, raked = unraked_end("h1", "t1"), raked_end("h2", "t1", stacks)
    assert plain.stacks is not None
    after_plain = plain.stacks

    async def body(books: RoomBooks) -> None:
        for seat, name in NAMES.items():
            await books.sit("t1", seat, name, 100)
        read.clear()
        await books.hand_ended(plain)
        assert read and set(read) <= own, read
        for name in NAMES.values():  # back to 100 each, for the raked hand
            moved = 100 - after_plain[name]
            if moved > 0:
                ledger.top_up(name, "t1", moved)
            elif moved < 0:
                ledger.cash_out(name, "t1", -moved)
        read.clear()
        await books.hand_ended(raked)
        assert rake_account("t1") in read and set(read) <= own | {rake_account("t1")}, read
        assert books.alarms.count == 0

    on_books(ledger, body)
    settled = ledger.hand_transaction("h1")
    assert settled is not None
    assert not [name for name, _ in ledger.entries(settled[0]) if name.startswith("rake")]
    assert rake_accounts(ledger) == {rake_account("t1"): raked.rake}


def test_two_tables_rake_into_two_accounts_and_every_reader_sums_them(ledger: Ledger) -> None:
    opened(ledger, "t1", "t2")
    ends = [raked_end("h1", "t1", {"ann": 100, "bob": 100})]
    ends.append(raked_end("h2", "t2", {"ann": 100, "bob": 100}))
    ends.append(raked_end("h3", "t1", dict(ends[0].stacks or {})))

    async def body(books: RoomBooks) -> None:
        for table in ("t1", "t2"):
            for seat, name in NAMES.items():
                await books.sit(table, seat, name, 100)
        for end in ends:
            await books.hand_ended(end)
        assert books.alarms.count == 0

    on_books(ledger, body)
    at_t1, at_t2 = ends[0].rake + ends[2].rake, ends[1].rake
    assert rake_accounts(ledger) == {rake_account("t1"): at_t1, rake_account("t2"): at_t2}
    report = ledger.audit()
    assert report.ok, str(report)
    assert report.rake == at_t1 + at_t2
    assert hands_and_seats(ledger.engine) == []
    journal = Journal(ledger.engine)
    assert journal.rake(RakeBy.TABLE) == [RakeLine("t1", 2, at_t1), RakeLine("t2", 1, at_t2)]
    by_day = journal.rake(RakeBy.DAY)
    assert [(line.transactions, line.rake) for line in by_day] == [(3, at_t1 + at_t2)]
    spec = TableSpec()
    stakes = f"{spec.small_bet}/{spec.big_bet}"
    assert journal.rake(RakeBy.STAKES) == [RakeLine(stakes, 3, at_t1 + at_t2)]


def _as_before_per_table_rake(ledger: Ledger) -> None:
    """The database as the room wrote it before each table had its rake account:
    every rake entry on the one room-wide ``rake``, no ``rake:<table>`` account."""
    with ledger.engine.begin() as conn:
        tables = dict(
            conn.execute(
                select(Account.id, Account.balance).where(Account.name.startswith("rake:"))
            ).all()
        )
        old = conn.execute(
            insert(Account).values(name=RAKE, kind="rake", balance=sum(tables.values()))
        ).inserted_primary_key
        assert old is not None
        conn.execute(update(Entry).where(Entry.account_id.in_(tables)).values(account_id=old[0]))
        conn.execute(delete(Account).where(Account.id.in_(tables)))


def test_an_older_database_s_room_wide_rake_still_audits_and_counts(ledger: Ledger) -> None:
    opened(ledger, "t1", "t2")
    ledger.grant("cat", 1_000)
    stacks = {"ann": 100, "bob": 100}
    before = raked_end("h1", "t1", stacks)
    after = raked_end("h2", "t1", stacks)

    async def played_before(books: RoomBooks) -> None:
        for seat, name in NAMES.items():
            await books.sit("t1", seat, name, 100)
        await books.sit("t2", 1, "cat", 50)
        await books.hand_ended(before)

    on_books(ledger, played_before)
    _as_before_per_table_rake(ledger)
    # a time charge as take_rake wrote it then
    ledger.transfer("rake", [(table_account("t2", "cat"), -2), (RAKE, 2)], create=(RAKE,))
    assert rake_accounts(ledger) == {RAKE: before.rake + 2}
    assert ledger.audit().ok and hands_and_seats(ledger.engine) == []

    async def played_now(books: RoomBooks) -> None:
        await books.hand_ended(before)  # its end again (an answer lost): the same end
        await books.hand_ended(after)
        assert books.alarms.count == 0

    on_books(ledger, played_now)
    assert rake_accounts(ledger) == {RAKE: before.rake + 2, rake_account("t1"): after.rake}
    report = ledger.audit()
    assert report.ok, str(report)
    total = before.rake + 2 + after.rake
    assert report.rake == total and report.issued == report.held
    assert hands_and_seats(ledger.engine) == []
    journal = Journal(ledger.engine)
    assert journal.rake(RakeBy.TABLE) == [
        RakeLine("t1", 2, before.rake + after.rake),
        RakeLine("t2", 1, 2),
    ]
    assert sum(line.rake for line in journal.rake(RakeBy.DAY)) == total
