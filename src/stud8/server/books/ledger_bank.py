"""The table runtime's :class:`~stud8.server.books.bank.ChipBank` over the real ledger.

Each call runs the blocking :class:`~stud8.server.books.ledger.Ledger` method in a
worker thread (:func:`asyncio.to_thread`) and turns its refusals
(:class:`~stud8.server.books.ledger.LedgerError`) into :class:`~stud8.server.books.bank.BankError`.
A settlement or a refund is keyed by the hand id: a repeat is a no-op, as the
protocol says ("applied once").

Crash safety: the ledger moves no chip during a hand (a hand is one transaction
at its end), so after a crash the chips are where they were when the hand
started. What a restart must still do is close the hand: refund it in the
ledger and record its cancellation. For that the hand is noted when it is dealt
(:meth:`LedgerBank.hand_started`, or :meth:`stud8.server.books.hands.HandStore.watch`
on the table) and the note is removed when the hand's record is stored (in the
same transaction as the record). :func:`stud8.server.books.recovery.recover` closes
whatever notes remain.

>>> import asyncio, tempfile
>>> from stud8.server.books.ledger import Ledger
>>> from stud8.server.storage import create_engine_for, upgrade
>>> engine = create_engine_for(f"sqlite:///{tempfile.mkdtemp()}/room.db")  # a file: threads
>>> upgrade(engine)
>>> ledger = Ledger(engine)
>>> _ = ledger.grant("ann", 100), ledger.grant("bob", 100)
>>> chips = LedgerBank(ledger)
>>> asyncio.run(chips.buy_in("ann", "t1", 1, 60))
>>> asyncio.run(chips.buy_in("bob", "t1", 2, 50))
>>> asyncio.run(chips.settle_hand("h1", "t1", {"ann": -5, "bob": 4}, 1))
>>> asyncio.run(chips.settle_hand("h1", "t1", {"ann": -5, "bob": 4}, 1))  # once only
>>> ledger.balances("table:")
{'table:t1:ann': 55, 'table:t1:bob': 54}
>>> engine.dispose()
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import ParamSpec, TypeVar

from stud8.server.books.bank import BankError
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import DuplicateHandError, HandMoney, Ledger, LedgerError
from stud8.server.books.writer import RoomWriter

P = ParamSpec("P")
T = TypeVar("T")


class LedgerBank:
    """A :class:`~stud8.server.books.bank.ChipBank` whose books are the ledger.

    With a :class:`~stud8.server.books.writer.RoomWriter` (the running room), every
    write goes through it, in order: the buy-ins, top-ups and cash-outs are
    awaited (they may be refused); a hand's settlement or refund is handed over
    and not awaited (its record, handed over in the same turn of the event loop,
    lands in the same transaction), so a table never waits on the database at
    the end of a hand. Without one, each call is a transaction of its own in a
    worker thread."""

    def __init__(
        self, ledger: Ledger, hands: HandStore | None = None, writer: RoomWriter | None = None
    ) -> None:
        self.ledger = ledger
        self.hands = hands
        self.writer = writer

    async def _call(self, method: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        try:
            if self.writer is not None:
                return await self.writer.call(
                    lambda conn: method(*args, **kwargs, conn=conn),  # type: ignore[arg-type]
                    what=getattr(method, "__name__", "a ledger call"),
                )
            return await asyncio.to_thread(method, *args, **kwargs)
        except LedgerError as exc:
            raise BankError(str(exc)) from exc

    async def buy_in(self, player: str, table: str, seat: int, amount: int) -> None:
        await self._call(self.ledger.buy_in, player, table, amount, f"seat {seat}")

    async def top_up(self, player: str, table: str, seat: int, amount: int) -> None:
        await self._call(self.ledger.top_up, player, table, amount, f"seat {seat}")

    async def cash_out(self, player: str, table: str, seat: int, amount: int) -> None:
        await self._call(self.ledger.cash_out, player, table, amount, f"seat {seat}")

    async def settle_hand(
        self, hand_id: str, table: str, deltas: Mapping[str, int], rake: int
    ) -> None:
        money = HandMoney.from_net(deltas, rake)
        writer = self.writer
        if writer is not None:
            if sum(deltas.values()) + rake != 0 or rake < 0:
                raise BankError(
                    f"hand {hand_id}: deltas {dict(deltas)} and rake {rake} do not balance"
                )
            settle = self.ledger.settle_hand
            writer.submit(
                lambda conn: settle(hand_id, table, money, conn=conn),
                what=f"the settlement of hand {hand_id}",
                hand_id=hand_id,
            )
            return
        try:
            await self._call(self.ledger.settle_hand, hand_id, table, money)
        except BankError as exc:
            if not isinstance(exc.__cause__, DuplicateHandError):
                raise

    async def refund_hand(self, hand_id: str, table: str, contributions: Mapping[str, int]) -> None:
        writer = self.writer
        if writer is not None:
            refund, chips = self.ledger.refund_hand, dict(contributions)
            writer.submit(
                lambda conn: refund(hand_id, table, chips, conn=conn),
                what=f"the refund of hand {hand_id}",
                hand_id=hand_id,
            )
            return
        try:
            await self._call(self.ledger.refund_hand, hand_id, table, dict(contributions))
        except BankError as exc:
            if not isinstance(exc.__cause__, DuplicateHandError):
                raise

    async def hand_started(
        self,
        hand_id: str,
        table: str,
        seats: Mapping[int, tuple[str, int]],
        started_at: datetime | None = None,
    ) -> None:
        """Note a hand just dealt (seat -> (player, starting stack)) so that a
        restart can cancel it; needs the :class:`HandStore`. Returns when the
        note is written."""
        if self.hands is None:
            raise RuntimeError("this LedgerBank has no HandStore to note hands in")
        if self.writer is not None:
            noted = dict(seats)
            await self.writer.call(
                lambda conn: HandStore.begin_in(conn, hand_id, table, noted, started_at),
                what=f"the note of hand {hand_id}",
            )
            return
        await asyncio.to_thread(self.hands.begin, hand_id, table, seats, started_at)

    async def note_hand(
        self, hand_id: str, table: str, seats: Mapping[int, tuple[str, int]], started_at: datetime
    ) -> None:
        """The table's :class:`~stud8.server.books.bank.HandNoter` call, before it deals:
        :meth:`hand_started` if this bank has a :class:`HandStore`."""
        if self.hands is not None:
            await self.hand_started(hand_id, table, seats, started_at)
