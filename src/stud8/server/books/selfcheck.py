"""The books check themselves as each hand's end is written, in its transaction.

:class:`~stud8.server.books.room.RoomBooks` writes a hand's settlement (or refund),
then, in the same transaction, reads the table's accounts of every player the table
says is seated and compares them with the stacks the table holds
(:func:`differences`): one indexed read of a few rows per hand. Any difference is
a drift nobody explains (a second process on the database, a bug, a hand edit by
hand): the table stops and the books raise an alarm
(:mod:`stud8.server.books.alarms`).

A hand already closed is not closed again. When its end comes a second time
(:class:`~stud8.server.books.ledger.DuplicateHandError`), :func:`same_end` tells
a repeat of the same end (the table tried again after a commit whose answer was
lost: nothing to do) from a different one (a refund where the table settled: the
hand was closed by someone else), which is refused to the table, never dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sqlalchemy import Connection, bindparam, func, select

from stud8.server.books.ledger import pot, rake_account, table_account
from stud8.server.storage.models import Account, Entry, Transaction
from stud8.server.table.books import HandEnd

__all__ = ["differences", "end_nets", "ledger_stacks", "same_end"]

_BALANCES = select(Account.name, Account.balance).where(
    Account.name.in_(bindparam("names", expanding=True))
)
_NETS = (
    select(Account.name, Account.kind, func.sum(Entry.amount))
    .join(Account, Account.id == Entry.account_id)
    .where(Entry.transaction_id == bindparam("txn"))
    .group_by(Account.name, Account.kind)
)
_KIND = select(Transaction.kind).where(Transaction.id == bindparam("txn"))


def ledger_stacks(conn: Connection, table_id: str, players: Iterable[str]) -> dict[str, int]:
    """Each player's chips at the table as the ledger holds them (0: no account)."""
    names = {table_account(table_id, p): p for p in players}
    found = {
        names[name]: int(balance)
        for name, balance in conn.execute(_BALANCES, {"names": sorted(names)})
    }
    return {p: found.get(p, 0) for p in names.values()}


def differences(held: Mapping[str, int], ledger: Mapping[str, int]) -> list[str]:
    """What the table holds and the ledger does not, in words (empty: they agree).

    >>> differences({"ann": 100, "bob": 50}, {"ann": 86, "bob": 50})
    ['ann: the table holds 100, the ledger 86']
    """
    return [
        f"{p}: the table holds {chips}, the ledger {ledger.get(p, 0)}"
        for p, chips in sorted(held.items())
        if ledger.get(p, 0) != chips
    ]


def end_nets(end: HandEnd) -> tuple[str, dict[str, int]]:
    """The kind of transaction a hand's end writes and what it changes, by account
    (zero changes left out)."""
    if end.cancelled:
        return "refund", {}
    nets: dict[str, int] = {}
    for player, chips in end.contributions.items():
        name = table_account(end.table_id, player)
        nets[name] = nets.get(name, 0) - chips
    for player, chips in end.payouts.items():
        name = table_account(end.table_id, player)
        nets[name] = nets.get(name, 0) + chips
    if end.rake:
        nets[rake_account(end.table_id)] = end.rake
    nets.pop(pot(end.table_id), None)
    return "hand_settlement", {name: n for name, n in nets.items() if n}


def same_end(conn: Connection, transaction_id: int, end: HandEnd) -> bool:
    """Whether the transaction that closed the hand is this very end (a repeat)."""
    kind, nets = end_nets(end)
    written: dict[str, int] = {}
    for name, account_kind, n in conn.execute(_NETS, {"txn": transaction_id}):
        # the rake in whichever rake account took it: a hand closed before the
        # tables had their own (the room-wide ``rake``) is the same end still
        key = rake_account(end.table_id) if account_kind == "rake" else name
        written[key] = written.get(key, 0) + int(n or 0)
    written = {name: n for name, n in written.items() if n}
    return conn.execute(_KIND, {"txn": transaction_id}).scalar() == kind and written == nets
