"""The books against the hands and the seats: what ``stud8 admin audit`` adds to the
ledger's own audit (:meth:`~stud8.server.books.ledger.Ledger.audit`, which checks
that the ledger balances with itself).

:func:`hands_and_seats` reads, in one consistent snapshot (it only reads, so it
runs beside a live room), and returns the problems found:

- every finished hand of a cash table (a row of ``hands``) has exactly one
  settlement or one refund in the ledger (keyed by the hand id), and every
  settlement or refund belongs to a hand that is stored or still in progress (a
  hand no history holds is a problem);
- a hand whose record says it was played out was settled, not refunded (a
  cancelled one refunded), and each settlement's amounts equal its record's: each
  player's table account changed by his final stack less his starting stack, and
  the rake (its entries on rake accounts) is the record's;
- after each settled hand, each player's table account holds exactly his final
  stack in the record (the running balance at that transaction): a table that
  played on stacks the ledger does not hold is caught at its first hand;
- every seat the room stored (``table_seats``, at a table still open) has its
  table account, and every table account holding chips has its seat.

Tournaments' hands move no chip through the ledger (their director counts them)
and are left out: only the hands of the room's cash tables (``room_tables``) are checked.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, Engine, select

from stud8.server.books.ledger import table_account
from stud8.server.storage.db import is_sqlite, reads_of
from stud8.server.storage.models import (
    Account,
    Entry,
    HandInProgress,
    RoomTable,
    StoredHand,
    TableSeat,
    Transaction,
)

__all__ = ["hands_and_seats"]

MAX_LISTED = 50  # problems listed of each kind; the rest are counted
BATCH = 500  # rows read at a time from the big tables


def hands_and_seats(engine: Engine) -> list[str]:
    """The problems found (see the module); empty: the books agree with the hands
    and the seats."""
    with reads_of(engine).connect() as conn:
        if not is_sqlite(engine):
            conn.execution_options(isolation_level="REPEATABLE READ")
        with conn.begin():
            found = _Problems()
            _hands(conn, found)
            _seats(conn, found)
            return found.listed()


class _Problems:
    def __init__(self) -> None:
        self.by_kind: dict[str, list[str]] = {}

    def add(self, kind: str, text: str) -> None:
        self.by_kind.setdefault(kind, []).append(text)

    def listed(self) -> list[str]:
        out: list[str] = []
        for texts in self.by_kind.values():
            out += texts[:MAX_LISTED]
            if len(texts) > MAX_LISTED:
                out.append(f"... and {len(texts) - MAX_LISTED} more like it")
        return out


def _hands(conn: Connection, found: _Problems) -> None:
    cash = set(conn.scalars(select(RoomTable.table_id)))
    closed: dict[str, tuple[int, str]] = {
        str(hand_id): (txn, kind)
        for txn, kind, hand_id in conn.execute(
            select(Transaction.id, Transaction.kind, Transaction.hand_id).where(
                Transaction.hand_id.is_not(None)
            )
        )
    }
    noted = set(conn.scalars(select(HandInProgress.hand_id)))
    stored: dict[str, tuple[str, bool, bool]] = {
        hand_id: (table, cancelled, has_record)
        for hand_id, table, cancelled, has_record in conn.execute(
            select(
                StoredHand.hand_id,
                StoredHand.table_id,
                StoredHand.cancelled,
                StoredHand.record.is_not(None),
            )
        )
    }
    for hand_id, (table, _cancelled, _record) in stored.items():
        if table in cash and hand_id not in closed:
            found.add("unclosed", f"hand {hand_id} at {table}: stored, but no settlement or refund")
    for hand_id, (txn, kind) in closed.items():
        if hand_id not in stored and hand_id not in noted:
            found.add("lost", f"hand {hand_id}: its {kind} (transaction {txn}) is in no history")
    for hand_id, (table, cancelled, has_record) in stored.items():
        done = closed.get(hand_id)
        if done is None or table not in cash or not has_record:
            continue
        kind = done[1]
        if cancelled and kind != "refund":
            found.add("kind", f"hand {hand_id}: cancelled, but the ledger has its {kind}")
        elif not cancelled and kind != "hand_settlement":
            found.add("kind", f"hand {hand_id}: played out, but the ledger has its {kind}")
    _settlements(conn, found, cash)


def _settlements(conn: Connection, found: _Problems, cash: set[str]) -> None:
    """Each settlement against its record: its amounts, and the running balances.
    Two streams merged in transaction order (PostgreSQL: server-side cursors, closed
    however it ends): the settled hands' records and the table accounts' entries."""
    records = conn.execute(
        select(Transaction.id, StoredHand.hand_id, StoredHand.table_id, StoredHand.record)
        .join(StoredHand, StoredHand.hand_id == Transaction.hand_id)
        .where(Transaction.kind == "hand_settlement", StoredHand.record.is_not(None))
        .order_by(Transaction.id)
        .execution_options(yield_per=BATCH)
    )
    entries = conn.execute(
        select(Entry.transaction_id, Account.name, Entry.amount, Account.kind)
        .join(Account, Account.id == Entry.account_id)
        .where(Account.kind.in_(("table", "rake")))
        .order_by(Entry.transaction_id, Entry.id)
        .execution_options(yield_per=BATCH)
    )
    try:
        balances: dict[str, int] = {}
        stream = iter(entries)
        pending = next(stream, None)
        for txn, hand_id, table, text in records:
            if table not in cash:
                continue
            nets: dict[str, int] = {}
            rake = 0
            while pending is not None and pending[0] <= txn:
                at, name, amount = int(pending[0]), str(pending[1]), int(pending[2])
                balances[name] = balances.get(name, 0) + amount
                if at == txn:
                    nets[name] = nets.get(name, 0) + amount
                    if pending[3] == "rake":  # the table's account, or the room's of before
                        rake += amount
                pending = next(stream, None)
            record = json.loads(text or "{}")
            _check_settlement(found, hand_id, table, record, nets, balances, rake)
    finally:
        records.close()
        entries.close()


def _check_settlement(
    found: _Problems,
    hand_id: str,
    table: str,
    record: dict[str, Any],
    nets: dict[str, int],
    balances: dict[str, int],
    rake: int,
) -> None:
    names = {int(seat): str(name) for seat, name, _stack in record["seats"]}
    starts = {int(seat): int(stack) for seat, _name, stack in record["seats"]}
    finals = {int(seat): int(stack) for seat, stack in record["final_stacks"]}
    for seat, name in sorted(names.items()):
        account = table_account(table, name)
        moved, final = nets.get(account, 0), finals.get(seat, starts[seat])
        if moved != final - starts[seat]:
            found.add(
                "amounts",
                f"hand {hand_id}: {name}'s settlement moved {moved:+d}, "
                f"the record says {final - starts[seat]:+d}",
            )
        held = balances.get(account, 0)
        if held != final:
            found.add(
                "drift",
                f"hand {hand_id} at {table}: after it the ledger holds {held} for {name}, "
                f"the record's final stack is {final}",
            )
    if rake != int(record.get("rake", 0)):
        found.add(
            "amounts", f"hand {hand_id}: rake {rake} in the ledger, {record['rake']} recorded"
        )


def _seats(conn: Connection, found: _Problems) -> None:
    open_tables = set(conn.scalars(select(RoomTable.table_id).where(RoomTable.closed_at.is_(None))))
    seats = {
        (table, player)
        for table, player in conn.execute(select(TableSeat.table_id, TableSeat.player))
        if table in open_tables
    }
    accounts = {
        str(name): int(balance)
        for name, balance in conn.execute(
            select(Account.name, Account.balance).where(Account.kind == "table")
        )
    }
    for table, player in sorted(seats):
        if table_account(table, player) not in accounts:
            found.add("seats", f"{player}'s seat at {table} has no table account")
    for name, chips in sorted(accounts.items()):
        _, table, player = name.split(":", 2)
        if chips and (table, player) not in seats:
            found.add("seats", f"{name} holds {chips} chips, but {player} has no seat at {table}")
