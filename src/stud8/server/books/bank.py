"""The chip bank: every chip a table moves goes through it.

A table calls its :class:`ChipBank` to seat a player with chips from his account
(``buy_in``, ``top_up``), to give them back (``cash_out``), to settle a finished
hand (``settle_hand``: one call per hand, keyed by the hand id, so a repeat is
applied once) and to close a cancelled one (``refund_hand``). The real bank is
the double-entry ledger (``stud8.server.books.ledger``); :class:`MemoryBank` keeps the
same books in memory, for tests and for a room without a database.

Chips at a table stay the player's, in the bank's books, while he plays: a hand
moves them only when it is settled. The invariant: accounts + chips on tables +
rake collected = all chips ever issued.

>>> import asyncio
>>> bank = MemoryBank({"ann": 100, "bob": 100})
>>> asyncio.run(bank.buy_in("ann", "t1", 1, 60))
>>> asyncio.run(bank.buy_in("bob", "t1", 2, 50))
>>> asyncio.run(bank.settle_hand("h1", "t1", {"ann": -5, "bob": 4}, 1))
>>> bank.balance("ann"), bank.on_table("t1", "ann"), bank.on_table("t1", "bob"), bank.audit()
(40, 55, 54, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Protocol, runtime_checkable


class BankError(Exception):
    """The bank refused a movement (not enough chips, unknown player, ...)."""


class ChipBank(Protocol):
    """What a table needs of the chip ledger."""

    async def buy_in(self, player: str, table: str, seat: int, amount: int) -> None:
        """Move ``amount`` from the player's account to his seat; raise BankError if
        he has not got it."""
        ...

    async def top_up(self, player: str, table: str, seat: int, amount: int) -> None:
        """Add ``amount`` from his account to his chips at the table."""
        ...

    async def cash_out(self, player: str, table: str, seat: int, amount: int) -> None:
        """Move ``amount`` (all his chips there) from the table back to his account."""
        ...

    async def settle_hand(
        self, hand_id: str, table: str, deltas: Mapping[str, int], rake: int
    ) -> None:
        """Apply a finished hand: each player's chips at the table change by his
        delta (final stack - starting stack); ``-sum(deltas) == rake`` goes to the
        house. Applied once per ``hand_id``."""
        ...

    async def refund_hand(self, hand_id: str, table: str, contributions: Mapping[str, int]) -> None:
        """Close a cancelled hand: what each player put in goes back to him (his
        chips at the table are as before the hand). Applied once per ``hand_id``."""
        ...


@runtime_checkable
class HandNoter(Protocol):
    """A bank that notes each hand before its cards are dealt (the room on a
    database: a restart cancels the hands noted and not finished)."""

    async def note_hand(
        self, hand_id: str, table: str, seats: Mapping[int, tuple[str, int]], started_at: datetime
    ) -> None:
        """Note the hand (seat -> (player, starting stack)); returns once it is
        written."""
        ...


class MemoryBank:
    """The books in memory: accounts, chips on tables, rake. For tests."""

    def __init__(self, accounts: Mapping[str, int] | None = None) -> None:
        self._accounts: dict[str, int] = dict(accounts or {})
        self._tables: dict[tuple[str, str], int] = {}
        self.issued = sum(self._accounts.values())
        self.rake = 0
        self.settled: dict[str, tuple[str, dict[str, int], int]] = {}
        self.refunded: dict[str, tuple[str, dict[str, int]]] = {}
        self.journal: list[tuple[str, ...]] = []

    def issue(self, player: str, amount: int) -> None:
        """Give a player new chips (an account's opening grant)."""
        self._accounts[player] = self._accounts.get(player, 0) + amount
        self.issued += amount

    def balance(self, player: str) -> int:
        return self._accounts.get(player, 0)

    def on_table(self, table: str, player: str) -> int:
        return self._tables.get((table, player), 0)

    def audit(self) -> bool:
        """accounts + chips on tables + rake == issued, and nothing negative."""
        if any(v < 0 for v in self._accounts.values()) or any(v < 0 for v in self._tables.values()):
            return False
        return sum(self._accounts.values()) + sum(self._tables.values()) + self.rake == self.issued

    @staticmethod
    def _check_amount(amount: int) -> None:
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise BankError(f"an amount must be a whole positive number of chips, got {amount!r}")

    def _move_in(self, player: str, table: str, amount: int) -> None:
        self._check_amount(amount)
        have = self._accounts.get(player, 0)
        if have < amount:
            raise BankError(f"{player} has {have} chips in his account, not {amount}")
        self._accounts[player] = have - amount
        key = (table, player)
        self._tables[key] = self._tables.get(key, 0) + amount

    async def buy_in(self, player: str, table: str, seat: int, amount: int) -> None:
        self._move_in(player, table, amount)
        self.journal.append(("buy_in", player, table, str(seat), str(amount)))

    async def top_up(self, player: str, table: str, seat: int, amount: int) -> None:
        self._move_in(player, table, amount)
        self.journal.append(("top_up", player, table, str(seat), str(amount)))

    async def cash_out(self, player: str, table: str, seat: int, amount: int) -> None:
        key = (table, player)
        have = self._tables.get(key, 0)
        if amount < 0 or have < amount:
            raise BankError(f"{player} has {have} chips at {table}, cannot cash out {amount}")
        self._tables[key] = have - amount
        if self._tables[key] == 0:
            del self._tables[key]
        self._accounts[player] = self._accounts.get(player, 0) + amount
        self.journal.append(("cash_out", player, table, str(seat), str(amount)))

    async def settle_hand(
        self, hand_id: str, table: str, deltas: Mapping[str, int], rake: int
    ) -> None:
        if hand_id in self.settled or hand_id in self.refunded:
            return  # applied once
        if sum(deltas.values()) + rake != 0 or rake < 0:
            raise BankError(f"hand {hand_id}: deltas {dict(deltas)} and rake {rake} do not balance")
        for player, delta in deltas.items():
            if self._tables.get((table, player), 0) + delta < 0:
                raise BankError(f"hand {hand_id}: {player} would go below zero at {table}")
        for player, delta in deltas.items():
            key = (table, player)
            self._tables[key] = self._tables.get(key, 0) + delta
        self.rake += rake
        self.settled[hand_id] = (table, dict(deltas), rake)
        self.journal.append(("settle", hand_id, table))

    async def refund_hand(self, hand_id: str, table: str, contributions: Mapping[str, int]) -> None:
        if hand_id in self.settled or hand_id in self.refunded:
            return
        # Nothing moved during the hand in these books: the refund is recorded only.
        self.refunded[hand_id] = (table, dict(contributions))
        self.journal.append(("refund", hand_id, table))
