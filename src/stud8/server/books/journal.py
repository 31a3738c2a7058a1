"""The books as an operator reads them: the ledger's journal, the rake, a player's
seats and sessions (``/api/v1/admin/...``, :mod:`stud8.server.http.admin`).

:class:`Journal` only reads (with no lock: :func:`~stud8.server.storage.db.reads_of`):

- :meth:`Journal.transactions`: every transaction with its entries and memo, newest
  first, filtered by account (its entries touch it), kind and day (UTC), paged by id;
- :meth:`Journal.rake`: the rake taken, by day, by table or by stakes (the table's
  small and big bet), with how many hands (or other rake transactions) it came from;
- :meth:`Journal.seats_of` and :meth:`Journal.sessions_of`: where a player sits,
  with his chips there, and his log-in sessions (each with its last address).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import Engine, select

from stud8.server.books.ledger import table_account
from stud8.server.storage.db import reads_of
from stud8.server.storage.models import (
    TRANSACTION_KINDS,
    Account,
    Entry,
    LoginSession,
    Player,
    RoomTable,
    TableSeat,
    Transaction,
    as_utc,
)
from stud8.server.wire.admin import RakeBy

__all__ = [
    "MAX_TRANSACTIONS",
    "TRANSACTION_KINDS",
    "Journal",
    "JournalTransaction",
    "PlayerSeat",
    "PlayerSession",
    "RakeBy",
    "RakeLine",
]

MAX_TRANSACTIONS = 1000  # read back at once


@dataclass(frozen=True, slots=True)
class JournalTransaction:
    id: int
    at: datetime
    kind: str
    hand_id: str | None
    memo: str
    entries: tuple[tuple[str, int], ...]  # (account, amount), summing to zero


@dataclass(frozen=True, slots=True)
class RakeLine:
    key: str  # the day (YYYY-MM-DD), the table's id, or the stakes (small/big bet)
    transactions: int
    rake: int


@dataclass(frozen=True, slots=True)
class PlayerSeat:
    table_id: str
    seat: int
    chips: int
    bot: bool


@dataclass(frozen=True, slots=True)
class PlayerSession:
    """A live log-in session: when it began and ends, where it was last seen from."""

    started_at: datetime
    expires_at: datetime
    address: str | None
    seen_at: datetime | None


def _table_of(accounts: list[str]) -> str | None:
    """The table of a transaction, from its entries' accounts (``pot:T``,
    ``table:T:P``, ``rake:T``; the old room-wide ``rake`` names none)."""
    for name in accounts:
        kind, _, rest = name.partition(":")
        if kind in ("pot", "table", "rake") and rest:
            return rest.split(":", 1)[0]
    return None


class Journal:
    """The ledger and the room's tables, read for the operator (see the module)."""

    def __init__(self, engine: Engine) -> None:
        self._reads = reads_of(engine)

    def transactions(
        self,
        *,
        account: str | None = None,
        kind: str | None = None,
        day: date | None = None,
        before: int | None = None,
        limit: int = 100,
    ) -> list[JournalTransaction]:
        """The latest ``limit`` transactions (with an id under ``before``, if given)
        that match every filter given, newest first."""
        txn = Transaction.__table__.c
        query = select(txn.id, txn.created_at, txn.kind, txn.hand_id, txn.memo)
        if account is not None:
            touching = (
                select(Entry.transaction_id)
                .join(Account, Account.id == Entry.account_id)
                .where(Account.name == account)
            )
            query = query.where(txn.id.in_(touching))
        if kind is not None:
            query = query.where(txn.kind == kind)
        if day is not None:
            start = datetime(day.year, day.month, day.day, tzinfo=UTC)
            query = query.where(txn.created_at >= start, txn.created_at < start + timedelta(1))
        if before is not None:
            query = query.where(txn.id < before)
        query = query.order_by(txn.id.desc()).limit(max(0, min(limit, MAX_TRANSACTIONS)))
        with self._reads.connect() as conn:
            rows = conn.execute(query).all()
            ids = [row.id for row in rows]
            legs: dict[int, list[tuple[str, int]]] = defaultdict(list)
            if ids:
                for entry in conn.execute(
                    select(Entry.transaction_id, Account.name, Entry.amount)
                    .join(Account, Account.id == Entry.account_id)
                    .where(Entry.transaction_id.in_(ids))
                    .order_by(Entry.id)
                ):
                    legs[entry[0]].append((entry[1], int(entry[2])))
        return [
            JournalTransaction(
                row.id,
                as_utc(row.created_at),
                row.kind,
                row.hand_id,
                row.memo,
                tuple(legs[row.id]),
            )
            for row in rows
        ]

    def rake(self, by: RakeBy, *, day: date | None = None) -> list[RakeLine]:
        """The rake taken (on ``day`` only, UTC, if given), summed by day, table or
        stakes (largest key first for a day, else by key), each with how many
        transactions it came from."""
        query = (
            select(Transaction.id, Transaction.created_at, Entry.amount)
            .join(Entry, Entry.transaction_id == Transaction.id)
            .join(Account, Account.id == Entry.account_id)
            # every rake account: each table's, and the room-wide one of before
            .where(Account.kind == "rake", Entry.amount != 0)
        )
        if day is not None:
            start = datetime(day.year, day.month, day.day, tzinfo=UTC)
            query = query.where(
                Transaction.created_at >= start, Transaction.created_at < start + timedelta(1)
            )
        with self._reads.connect() as conn:
            raked = conn.execute(query).all()
            tables: dict[int, str | None] = {}
            stakes: dict[str, str] = {}
            if by is not RakeBy.DAY and raked:
                ids = [row[0] for row in raked]
                names: dict[int, list[str]] = defaultdict(list)
                for txn_id, name in conn.execute(
                    select(Entry.transaction_id, Account.name)
                    .join(Account, Account.id == Entry.account_id)
                    .where(Entry.transaction_id.in_(ids))
                ):
                    names[txn_id].append(name)
                tables = {txn_id: _table_of(found) for txn_id, found in names.items()}
            if by is RakeBy.STAKES:
                for table_id, spec in conn.execute(select(RoomTable.table_id, RoomTable.spec)):
                    rules = json.loads(spec)
                    stakes[table_id] = f"{rules.get('small_bet')}/{rules.get('big_bet')}"
        sums: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for txn_id, at, amount in raked:
            if by is RakeBy.DAY:
                key = as_utc(at).date().isoformat()
            else:
                table = tables.get(txn_id) or "(no table)"
                key = table if by is RakeBy.TABLE else stakes.get(table, "(unknown stakes)")
            sums[key][0] += 1
            sums[key][1] += int(amount)
        keys = sorted(sums, reverse=by is RakeBy.DAY)
        return [RakeLine(key, sums[key][0], sums[key][1]) for key in keys]

    def seats_of(self, player: str) -> list[PlayerSeat]:
        """The seats the player holds at open tables, with his chips at each."""
        with self._reads.connect() as conn:
            seats = conn.execute(
                select(TableSeat.table_id, TableSeat.seat, TableSeat.bot)
                .where(TableSeat.player == player)
                .order_by(TableSeat.table_id, TableSeat.seat)
            ).all()
            names = [table_account(table_id, player) for table_id, _, _ in seats]
            chips = dict(
                conn.execute(
                    select(Account.name, Account.balance).where(Account.name.in_(names))
                ).all()
            )
        return [
            PlayerSeat(table_id, seat, int(chips.get(table_account(table_id, player), 0)), bot)
            for table_id, seat, bot in seats
        ]

    def sessions_of(self, player: str) -> list[PlayerSession]:
        """The player's live log-in sessions, newest first, each with the address it
        was last seen from (null: a session of before r0011) and when."""
        now = datetime.now(UTC)
        with self._reads.connect() as conn:
            rows = conn.execute(
                select(
                    LoginSession.created_at,
                    LoginSession.expires_at,
                    LoginSession.address,
                    LoginSession.seen_at,
                )
                .join(Player, Player.id == LoginSession.player_id)
                .where(Player.name_key == player.casefold(), LoginSession.expires_at > now)
                .order_by(LoginSession.id.desc())
            ).all()
        return [
            PlayerSession(as_utc(began), as_utc(ends), address, None if at is None else as_utc(at))
            for began, ends, address, at in rows
        ]

    def role_of(self, player: str) -> tuple[str, str] | None:
        """(name as registered, role) of the account, if there is one."""
        with self._reads.connect() as conn:
            row = conn.execute(
                select(Player.name, Player.role).where(Player.name_key == player.casefold())
            ).first()
        return None if row is None else (row[0], row[1])
