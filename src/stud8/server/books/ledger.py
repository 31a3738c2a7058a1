"""The chip ledger: double-entry accounting of every chip in the room.

Accounts (money is whole chips, ``int`` only):

``issuance``
    The source of every chip ever issued; its balance is minus the chips issued.
``bank:<player>``
    A player's play chips away from the tables.
``table:<table>:<player>``
    The chips a player has in play at a table (his stack between hands).
``pot:<table>``
    The table's pot, a pass-through account: a hand's settlement moves every
    contribution into it and every payout and the rake out of it, in one
    transaction, so it is zero between transactions.
``rake:<table>``
    The rake collected at a table. One account per table, not one for the room:
    every hand's end locks the rows it writes until it commits, so a row shared by
    every table would make the writers of every node wait for each other.
``rake``
    The room-wide rake account of before: an older database keeps it and what it
    holds (the audit still counts it with the tables' rake); nothing writes it now.
``prizes:<tournament>``, ``fees:<tournament>``
    A tournament's prize pool (the buy-ins, until the prizes are paid) and the
    fees it took for the house (:mod:`stud8.server.books.tournaments`).

Every movement is a transaction whose entries sum to zero, written in one
database transaction together with the accounts' cached balances. A hand is
settled (or refunded, if cancelled) by exactly one transaction keyed by its hand
id. Refused movements raise a :class:`LedgerError` (a ``ValueError``) and write
nothing. :meth:`Ledger.audit` checks the books.

The stacks of a hand in progress stay in the players' table accounts: the ledger
learns of a hand only when it ends, so a hand cut short by a crash has moved no
chip, and its refund records the contributions going back (each player's net is
zero) and closes the hand id.

>>> from stud8.server.storage import create_engine_for, upgrade
>>> engine = create_engine_for("sqlite://")
>>> upgrade(engine)
>>> ledger = Ledger(engine)
>>> _ = ledger.grant("ann", 1000)
>>> _ = ledger.buy_in("ann", "t1", 300)
>>> ledger.balance(bank("ann")), ledger.balance(table_account("t1", "ann"))
(700, 300)
>>> ledger.audit().ok
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection, CursorResult, Engine, bindparam, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from stud8.core.events import Event, HandCancelled
from stud8.core.showdown import HandResult
from stud8.server.books.audit import AuditReport as AuditReport  # (its home before)
from stud8.server.books.audit import audit_in
from stud8.server.storage.db import is_sqlite, reads_of, session_factory
from stud8.server.storage.models import Account, Entry, Transaction
from stud8.server.table.books import HandEnd, gross_amounts

ISSUANCE = "issuance"
RAKE = "rake"  # the room-wide rake account of before (see the module): read, never written
# Database errors worth another try: PostgreSQL's serialization failure and
# deadlock, and SQLite's "database is locked" after the busy timeout.
_RETRY_PGCODES = frozenset({"40001", "40P01"})

T = TypeVar("T")


# The ledger's hot statements, built once (building one costs more than running it).
_HAND_DONE = select(Transaction.id, Transaction.kind).where(
    Transaction.hand_id == bindparam("hand_id")
)
_ACCOUNTS = (
    select(Account.id, Account.name, Account.kind, Account.balance)
    .where(Account.name.in_(bindparam("names", expanding=True)))
    .order_by(Account.name)
)
_ACCOUNTS_LOCKED = _ACCOUNTS.with_for_update()
_NEW_ACCOUNT = insert(Account)
_NEW_TRANSACTION = insert(Transaction)
_NEW_ENTRY = insert(Entry)
_SET_BALANCE = (
    update(Account)
    .where(Account.id == bindparam("account"))
    .values(balance=bindparam("new_balance"))
)


# ----------------------------------------------------------------- errors
class LedgerError(ValueError):
    """A refused movement of chips; nothing was written."""


class UnbalancedTransactionError(LedgerError):
    """The entries do not sum to zero (or a hand's payouts and rake do not
    equal its contributions)."""


class OverdraftError(LedgerError):
    """An account would pay out more chips than it holds."""


class UnknownAccountError(LedgerError):
    """The transaction names an account that does not exist."""


class DuplicateHandError(LedgerError):
    """The hand was already settled or refunded."""

    def __init__(self, hand_id: str, transaction_id: int, kind: str) -> None:
        super().__init__(f"hand {hand_id!r} already has its {kind} (transaction {transaction_id})")
        self.hand_id = hand_id
        self.transaction_id = transaction_id
        self.kind = kind


# ---------------------------------------------------------- account names
def bank(player: str) -> str:
    """The name of a player's bank account."""
    return f"bank:{_part(player)}"


def table_account(table: str, player: str) -> str:
    """The name of the account of a player's chips in play at a table."""
    return f"table:{_part(table)}:{_part(player)}"


def pot(table: str) -> str:
    """The name of a table's pot account."""
    return f"pot:{_part(table)}"


def rake_account(table: str) -> str:
    """The name of a table's rake account (its kind is ``rake``, as the old
    room-wide ``rake``'s: every reader of the rake sums the accounts of that kind)."""
    return f"rake:{_part(table)}"


def _part(name: str) -> str:
    if not name or ":" in name:
        raise LedgerError(f"an account name part must be non-empty without ':': {name!r}")
    return name


def _kind_of(name: str) -> str:
    if name in (ISSUANCE, RAKE):
        return name
    return name.split(":", 1)[0]


def _positive(amount: int, what: str) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise LedgerError(f"{what} must be a positive whole number of chips, not {amount!r}")
    return amount


def _chips(amount: int, what: str) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise LedgerError(f"{what} must be a whole number of chips >= 0, not {amount!r}")
    return amount


def _balanced(kind: str, legs: Sequence[tuple[str, int]]) -> None:
    for name, amount in legs:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise LedgerError(f"the amount for {name} is not a whole number: {amount!r}")
    total = sum(amount for _, amount in legs)
    if total != 0:
        raise UnbalancedTransactionError(f"{kind}: the entries sum to {total}, not 0")


@dataclass(frozen=True, slots=True)
class Written:
    """A transaction written, and balances after it (by account name or player)."""

    transaction_id: int
    balances: dict[str, int]


# ------------------------------------------------------------- hand money
@dataclass(frozen=True)
class HandMoney:
    """What each player put into a hand and took out of it, and the rake.

    Balanced when the contributions equal the payouts plus the rake.
    """

    contributions: Mapping[str, int]
    payouts: Mapping[str, int]
    rake: int = 0

    @classmethod
    def of(cls, end: HandEnd) -> HandMoney:
        """The money of a finished hand as the table's books hand it over."""
        return cls(dict(end.contributions), dict(end.payouts), end.rake)

    @classmethod
    def from_result(cls, result: HandResult, players: Mapping[int, str]) -> HandMoney:
        """From a finished hand's result (:func:`~stud8.server.table.books.gross_amounts`);
        ``players`` names the player in each seat."""
        contributions, payouts = gross_amounts(result, players)
        return cls(contributions, payouts, result.rake)

    @staticmethod
    def refunds(events: Iterable[Event], players: Mapping[int, str]) -> dict[str, int]:
        """A cancelled hand's contributions by player, from its ``HandCancelled`` event."""
        for event in events:
            if isinstance(event, HandCancelled):
                return {players[seat]: chips for seat, chips in event.refunds}
        raise LedgerError("the hand was not cancelled (no HandCancelled event)")


# ----------------------------------------------------------------- ledger
class Ledger:
    """The chip ledger on a migrated database (see ``storage.upgrade``)."""

    def __init__(self, engine: Engine, *, attempts: int = 8) -> None:
        self.engine = engine
        self.attempts = attempts
        self._sessions = session_factory(engine)
        # lookups: they take no lock (a balance is read while the room's writer writes)
        self._reads = session_factory(reads_of(engine))
        self._lock_rows = not is_sqlite(engine)  # SQLite locks the whole file instead

    # -------------------------------------------------------- movements
    def grant(
        self, player: str, amount: int, memo: str = "", *, conn: Connection | None = None
    ) -> int:
        """Issue new play chips to a player's bank (a new account, a free top-up).
        Creates the bank account. Returns the transaction id."""
        _positive(amount, "a grant")
        name = bank(player)
        return self.transfer(
            "grant",
            [(ISSUANCE, -amount), (name, amount)],
            memo=memo,
            create=(ISSUANCE, name),
            conn=conn,
        )

    def credit(self, player: str, amount: int, reason: str) -> int:
        """An operator issues chips to a player's bank (sold, a prize, a correction),
        for ``reason``. Creates the bank account. Returns the transaction id."""
        _positive(amount, "a credit")
        name = bank(player)
        legs = [(ISSUANCE, -amount), (name, amount)]
        return self.transfer("credit", legs, memo=reason, create=(ISSUANCE, name))

    def debit(self, player: str, amount: int, reason: str) -> int:
        """An operator takes chips back from a player's bank (cashed out, a
        correction), for ``reason``: they return to the issuance, so the books still
        balance. :class:`OverdraftError` if the bank holds fewer."""
        _positive(amount, "a debit")
        return self.transfer("debit", [(bank(player), -amount), (ISSUANCE, amount)], memo=reason)

    def buy_in(
        self,
        player: str,
        table: str,
        amount: int,
        memo: str = "",
        *,
        conn: Connection | None = None,
    ) -> int:
        """Move chips from the player's bank to his stack at a table."""
        _positive(amount, "a buy-in")
        seat = table_account(table, player)
        legs = [(bank(player), -amount), (seat, amount)]
        return self.transfer("buy_in", legs, memo=memo, create=(seat,), conn=conn)

    def top_up(
        self,
        player: str,
        table: str,
        amount: int,
        memo: str = "",
        *,
        conn: Connection | None = None,
    ) -> int:
        """Add chips from the bank to a stack already at the table. Only between
        hands (table stakes): the caller enforces that."""
        _positive(amount, "a top-up")
        legs = [(bank(player), -amount), (table_account(table, player), amount)]
        return self.transfer("top_up", legs, memo=memo, conn=conn)

    def cash_out(
        self,
        player: str,
        table: str,
        amount: int | None = None,
        memo: str = "",
        *,
        conn: Connection | None = None,
    ) -> int:
        """Move chips from the table back to the bank (all of them by default)."""
        seat = table_account(table, player)
        if amount is None:
            amount = self.balance(seat) if conn is None else _balance_in(conn, seat)
            if amount == 0:
                raise LedgerError(f"{seat} holds no chips to cash out")
        _positive(amount, "a cash-out")
        legs = [(seat, -amount), (bank(player), amount)]
        return self.transfer("cash_out", legs, memo=memo, conn=conn)

    def take_rake(self, player: str, table: str, amount: int, memo: str = "") -> int:
        """A rake or fee taken outside a hand settlement, from a player's table stack."""
        _positive(amount, "a rake")
        house = rake_account(table)
        legs = [(table_account(table, player), -amount), (house, amount)]
        return self.transfer("rake", legs, memo=memo, create=(house,))

    def settle_hand(
        self,
        hand_id: str,
        table: str,
        money: HandMoney,
        memo: str = "",
        *,
        conn: Connection | None = None,
    ) -> int:
        """Settle a finished hand in one transaction keyed by its id: every
        contribution into the table's pot, every payout and the rake out of it."""
        legs, create = self._settlement_legs(hand_id, table, money)
        return self.transfer(
            "hand_settlement", legs, hand_id=hand_id, memo=memo, create=create, conn=conn
        )

    @staticmethod
    def _settlement_legs(
        hand_id: str, table: str, money: HandMoney
    ) -> tuple[list[tuple[str, int]], frozenset[str]]:
        """A settlement's legs and the accounts it may create (refused: LedgerError)."""
        _part(hand_id)
        for player, chips in money.contributions.items():
            _chips(chips, f"the contribution of {player}")
        for player, chips in money.payouts.items():
            _chips(chips, f"the payout to {player}")
        _chips(money.rake, "the rake")
        put_in = sum(money.contributions.values())
        taken = sum(money.payouts.values()) + money.rake
        if put_in != taken:
            raise UnbalancedTransactionError(
                f"hand {hand_id}: contributions {put_in} != payouts and rake {taken}"
            )
        the_pot = pot(table)
        legs: list[tuple[str, int]] = []
        for player, chips in sorted(money.contributions.items()):
            legs += [(table_account(table, player), -chips), (the_pot, chips)]
        for player, chips in sorted(money.payouts.items()):
            legs += [(the_pot, -chips), (table_account(table, player), chips)]
        if not money.rake:
            # no rake leg at all: a hand's end reads and locks its table's rows only
            return legs, frozenset((the_pot,))
        house = rake_account(table)
        legs += [(the_pot, -money.rake), (house, money.rake)]
        return legs, frozenset((the_pot, house))

    def refund_hand(
        self,
        hand_id: str,
        table: str,
        contributions: Mapping[str, int],
        memo: str = "",
        *,
        conn: Connection | None = None,
    ) -> int:
        """Record a cancelled hand: every contribution goes back to who made it.
        Keyed by the hand id, like a settlement (a hand gets one or the other)."""
        legs, create = self._refund_legs(hand_id, table, contributions)
        return self.transfer("refund", legs, hand_id=hand_id, memo=memo, create=create, conn=conn)

    @staticmethod
    def _refund_legs(
        hand_id: str, table: str, contributions: Mapping[str, int]
    ) -> tuple[list[tuple[str, int]], frozenset[str]]:
        """A refund's legs and the accounts it may create (refused: LedgerError)."""
        _part(hand_id)
        the_pot = pot(table)
        legs: list[tuple[str, int]] = []
        for player, chips in sorted(contributions.items()):
            _chips(chips, f"the contribution of {player}")
            if not chips:
                continue  # nothing moves (a tournament's seat has no table account)
            seat = table_account(table, player)
            legs += [(seat, -chips), (the_pot, chips), (the_pot, -chips), (seat, chips)]
        return legs, frozenset((the_pot,))

    def transfer(
        self,
        kind: str,
        legs: Sequence[tuple[str, int]],
        *,
        hand_id: str | None = None,
        memo: str = "",
        create: Iterable[str] = (),
        conn: Connection | None = None,
    ) -> int:
        """The primitive: write one balanced transaction of ``legs`` (account name,
        amount), creating the accounts named in ``create`` if missing. Returns its id.
        With ``conn``, written in that connection's open transaction (the caller
        commits, and retries); otherwise in a transaction of its own.

        Every account but ``issuance`` must cover its outflows in this transaction
        from the balance it had before it (a pot account may pass on what flows in).
        """
        _balanced(kind, legs)
        creatable = frozenset(create)
        if conn is not None:
            return self._write(conn, kind, legs, hand_id, memo, creatable).transaction_id
        return self._retrying(
            lambda c: self._write(c, kind, legs, hand_id, memo, creatable).transaction_id
        )

    def close_hand_in(self, conn: Connection, end: HandEnd, watched: Iterable[str]) -> Written:
        """A hand's end (its settlement, or its refund if cancelled) in the
        connection's open transaction, the caller having read that the hand has no
        transaction yet (:class:`DuplicateHandError` is not looked for again); with the
        balances after it of the table accounts of ``watched`` players (0: no
        account), read in the same locked read as the hand's own accounts: the
        self-check costs no statement of its own."""
        if end.cancelled:
            kind, legs, create = (
                "refund",
                *self._refund_legs(end.hand_id, end.table_id, end.contributions),
            )
        else:
            kind, legs, create = (
                "hand_settlement",
                *self._settlement_legs(end.hand_id, end.table_id, HandMoney.of(end)),
            )
        _balanced(kind, legs)
        watch = {table_account(end.table_id, p): p for p in watched}
        written = self._write(
            conn, kind, legs, end.hand_id, "", create, known_new=True, watched=frozenset(watch)
        )
        after = written.balances
        return Written(written.transaction_id, {p: after.get(n, 0) for n, p in watch.items()})

    def _write(
        self,
        conn: Connection,
        kind: str,
        legs: Sequence[tuple[str, int]],
        hand_id: str | None,
        memo: str,
        creatable: frozenset[str],
        *,
        known_new: bool = False,
        watched: frozenset[str] = frozenset(),
    ) -> Written:
        """Write the transaction; ``known_new``: its hand's transaction was looked for
        already; the balances after it of its accounts and of ``watched`` (by name,
        those that exist)."""
        # Statements built once (below), not ORM objects: this runs for every hand.
        if hand_id is not None and not known_new:
            done = conn.execute(_HAND_DONE, {"hand_id": hand_id}).first()
            if done is not None:
                raise DuplicateHandError(hand_id, done.id, done.kind)
        names = sorted({name for name, _ in legs})
        query = _ACCOUNTS_LOCKED if self._lock_rows else _ACCOUNTS
        found = {
            row.name: (row.id, row.kind, row.balance)
            for row in conn.execute(query, {"names": sorted(watched.union(names))})
        }
        for name in names:
            if name not in found and name not in creatable:
                raise UnknownAccountError(f"{kind}: no account {name!r}")
        outflow: dict[str, int] = {}
        net: dict[str, int] = {}
        for name, amount in legs:
            net[name] = net.get(name, 0) + amount
            if amount < 0:
                outflow[name] = outflow.get(name, 0) - amount
        for name in names:
            _, account_kind, balance = found.get(name, (0, _kind_of(name), 0))
            after = balance + net.get(name, 0)
            if account_kind == "issuance":
                if after > 0:
                    raise OverdraftError(f"{kind}: more chips returned than ever issued")
            elif account_kind == "pot":
                if after < 0:
                    raise OverdraftError(f"{kind}: {name} would hold {after}")
            elif outflow.get(name, 0) > balance:
                raise OverdraftError(f"{kind}: {name} holds {balance}, cannot pay {outflow[name]}")
        ids: dict[str, int] = {name: row[0] for name, row in found.items()}
        for name in names:
            if name not in found:
                created = conn.execute(
                    _NEW_ACCOUNT, {"name": name, "kind": _kind_of(name), "balance": 0}
                )
                ids[name] = _new_id(created)
        txn = conn.execute(_NEW_TRANSACTION, {"kind": kind, "hand_id": hand_id, "memo": memo})
        txn_id = _new_id(txn)
        rows = [
            {"transaction_id": txn_id, "account_id": ids[name], "amount": amount}
            for name, amount in legs
            if amount != 0
        ]
        if rows:
            conn.execute(_NEW_ENTRY, rows)
        balances = [
            {"account": ids[name], "new_balance": (found[name][2] if name in found else 0) + change}
            for name in names
            if (change := net.get(name, 0))
        ]
        if balances:
            conn.execute(_SET_BALANCE, balances)  # one executemany for every account
        # what the accounts hold now: read under the lock above (or SQLite's write
        # lock, held since BEGIN IMMEDIATE) and changed by this transaction alone
        after = {name: row[2] for name, row in found.items()}
        for name in names:
            after[name] = after.get(name, 0) + net.get(name, 0)
        return Written(txn_id, after)

    def _retrying(self, work: Callable[[Connection], T]) -> T:
        for attempt in range(self.attempts):
            try:
                with self.engine.begin() as conn:
                    return work(conn)
            except IntegrityError:
                # A concurrent writer created the same account or keyed the same
                # hand first; the next attempt sees its row.
                if attempt == self.attempts - 1:
                    raise
            except DBAPIError as error:
                if attempt == self.attempts - 1 or not retryable(error):
                    raise
            time.sleep(0.005 * (attempt + 1))
        raise AssertionError("unreachable")

    # ------------------------------------------------------------ reading
    def balance(self, name: str) -> int:
        """An account's balance (``UnknownAccountError`` if it does not exist)."""
        with self._reads() as session:
            value = session.scalar(select(Account.balance).where(Account.name == name))
        if value is None:
            raise UnknownAccountError(f"no account {name!r}")
        return value

    def balance_in(self, conn: Connection, name: str) -> int:
        """An account's balance read in ``conn``'s transaction, for a movement that
        depends on it (an auto top-up takes what the bank holds): its row locked, as
        :meth:`_write` locks it (another process's debit between the read and the write
        would otherwise refuse the movement on PostgreSQL)."""
        return _balance_in(conn, name, locked=self._lock_rows)

    def balances(self, prefix: str = "") -> dict[str, int]:
        """Every account's balance whose name starts with ``prefix``."""
        with self._reads() as session:
            rows = session.execute(
                select(Account.name, Account.balance)
                .where(Account.name.startswith(prefix, autoescape=True))
                .order_by(Account.name)
            )
            return {name: balance for name, balance in rows}

    def hand_transaction(self, hand_id: str) -> tuple[int, str] | None:
        """The (transaction id, kind) that settled or refunded a hand, if any."""
        with self._reads() as session:
            row = session.execute(
                select(Transaction.id, Transaction.kind).where(Transaction.hand_id == hand_id)
            ).first()
        return None if row is None else (row.id, row.kind)

    def entries(self, transaction_id: int) -> list[tuple[str, int]]:
        """A transaction's legs as (account name, amount), in the order written."""
        with self._reads() as session:
            rows = session.execute(
                select(Account.name, Entry.amount)
                .join(Account, Account.id == Entry.account_id)
                .where(Entry.transaction_id == transaction_id)
                .order_by(Entry.id)
            )
            return [(name, amount) for name, amount in rows]

    # -------------------------------------------------------------- audit
    def audit(self) -> AuditReport:
        """Check the books in one consistent read: every transaction sums to zero,
        every cached balance equals the sum of its entries, no account is
        negative (issuance is never positive), every pot is empty, and the chips
        issued equal the chips held. It only reads: on SQLite it takes no write lock
        (a WAL reader's snapshot is consistent), so it never waits for a running room."""
        with self._reads.begin() as session:
            if not is_sqlite(self.engine):
                session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            return audit_in(session)


def _balance_in(conn: Connection, name: str, *, locked: bool = False) -> int:
    query = select(Account.balance).where(Account.name == name)
    value = conn.execute(query.with_for_update() if locked else query).scalar()
    if value is None:
        raise UnknownAccountError(f"no account {name!r}")
    return int(value)


def retryable(error: DBAPIError) -> bool:
    """A database error worth another try (a lock or a serialization conflict)."""
    code = getattr(error.orig, "pgcode", None) or getattr(error.orig, "sqlstate", None)
    if code in _RETRY_PGCODES:
        return True
    return "database is locked" in str(error.orig)


def _new_id(inserted: CursorResult[Any]) -> int:
    """The primary key of the row a Core insert just made."""
    key = inserted.inserted_primary_key
    assert key is not None
    return int(key[0])
