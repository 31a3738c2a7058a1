"""The table's books on the room's database: :class:`RoomBooks`.

It implements the :class:`~stud8.server.table.books.TableBooks` port with the
room's :class:`~stud8.server.books.writer.RoomWriter` (one thread, in order,
batched transactions): each call is ONE job (one savepoint, so all of it or none)
and is awaited until its transaction has committed, so when it returns what the
table asked is durable:

===================  ===================================================================
``sit``              (a bot's chips issued) + the buy-in + the seat row (``table_seats``:
                     his auto top-up tops up to the buy-in)
``top_up``           the top-up (his own raises the stack his auto top-up tops up to)
``stand``            the cash-out of his chips (if any) + the seat row removed
``hand_dealt``       the hand noted in ``hands_in_progress`` (before its cards are dealt)
``hand_ended``       the settlement (gross contributions, payouts, rake) or the refund,
                     the hand's record, the removal of its note, and the self-check:
                     the table's accounts read back and compared with its stacks
``chat_said``        the line of chat (refused if its player is silenced)
===================  ===================================================================

A refusal of the ledger (:class:`~stud8.server.books.ledger.LedgerError`: not
enough chips, an unknown account) undoes the job alone and becomes
:class:`~stud8.server.table.books.BooksRefused`. A hand already settled or refunded is not applied
twice: the same end again (a retry) stores its record if it was not; a different
one (the hand was closed otherwise: another process's refund) is refused as
:class:`~stud8.server.table.books.BooksDiverged`, nothing written, as is an end
after which the ledger's table accounts differ from the table's stacks
(:mod:`stud8.server.books.selfcheck`; that end is written, the ledger's amounts
are handed to the table). Either raises an alarm (:attr:`RoomBooks.alarms`).

Crash safety: the ledger moves no chip during a hand (a hand is one transaction at
its end), and the table announces a finished hand only once ``hand_ended`` has
returned. A crash before that commit leaves the hand noted, the ledger without
it, and every stack as it was when it was dealt: the restart refunds it
(:mod:`stud8.server.books.recovery`), and nobody had seen it end.

>>> import asyncio, tempfile
>>> from datetime import UTC, datetime
>>> from stud8.server.books.ledger import Ledger
>>> from stud8.server.storage import create_engine_for, upgrade
>>> engine = create_engine_for(f"sqlite:///{tempfile.mkdtemp()}/room.db")  # a file: threads
>>> upgrade(engine)
>>> ledger = Ledger(engine)
>>> _ = ledger.grant("ann", 100)
>>> async def main() -> None:
...     writer = RoomWriter(engine)
...     books = RoomBooks(ledger, writer)
...     await books.sit("t1", 1, "ann", 60)
...     await books.sit("t1", 2, "bot1", 50, bot=True)
...     await books.stand("t1", 2, "bot1", 50)
...     writer.close()
>>> asyncio.run(main())
>>> ledger.balances("table:"), ledger.balances("bank:")
({'table:t1:ann': 60, 'table:t1:bot1': 0}, {'bank:ann': 40, 'bank:bot1': 50})
>>> engine.dispose()
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import Connection, bindparam, select

from stud8.server.books.alarms import BooksAlarms
from stud8.server.books.chat import ChatStore
from stud8.server.books.fencing import TableEpochs
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger, LedgerError, bank, table_account
from stud8.server.books.seats import TableStore
from stud8.server.books.selfcheck import differences, ledger_stacks, same_end
from stud8.server.books.writer import RoomWriter
from stud8.server.storage.models import StoredHand, Transaction
from stud8.server.table.books import BooksDiverged, BooksRefused, ChatLine, HandEnd, HandNote

T = TypeVar("T")

BOT_MEMO = "bot chips"

# A hand's end reads at once whether the hand has its transaction (and of which
# kind) and its record: one round trip instead of two.
_HAND_STATE = select(
    select(Transaction.id).where(Transaction.hand_id == bindparam("hand_id")).scalar_subquery(),
    select(Transaction.kind).where(Transaction.hand_id == bindparam("hand_id")).scalar_subquery(),
    select(StoredHand.id).where(StoredHand.hand_id == bindparam("hand_id")).scalar_subquery(),
)


class RoomBooks:
    """The :class:`~stud8.server.table.books.TableBooks` port over the room's
    database, through its writer (see the module)."""

    def __init__(
        self,
        ledger: Ledger,
        writer: RoomWriter,
        *,
        epochs: TableEpochs | None = None,
        alarms: BooksAlarms | None = None,
    ) -> None:
        self.ledger = ledger
        self.writer = writer
        # every disagreement of the books and a table (a counter for /metrics)
        self.alarms = alarms if alarms is not None else BooksAlarms()
        # a room on several nodes: every write first checks that the table is
        # still this node's (fencing); None: one process owns every table
        self.epochs = epochs

    async def _job(self, table_id: str, work: Callable[[Connection], T], what: str) -> T:
        epochs = self.epochs
        fence = None if epochs is None else epochs.fence(table_id)
        try:
            return await self.writer.call(work, what=what, fence=fence)
        except LedgerError as exc:
            raise BooksRefused(str(exc)) from exc

    async def sit(
        self, table_id: str, seat: int, player: str, amount: int, *, bot: bool = False
    ) -> None:
        ledger = self.ledger

        def work(conn: Connection) -> None:
            if bot:
                ledger.grant(player, amount, memo=BOT_MEMO, conn=conn)
            ledger.buy_in(player, table_id, amount, f"seat {seat}", conn=conn)
            TableStore.sit_in(conn, table_id, seat, player, bot, top_up_to=amount)

        await self._job(table_id, work, f"{player} sitting at {table_id} seat {seat}")

    async def top_up(
        self, table_id: str, seat: int, player: str, amount: int, *, partial: bool = False
    ) -> int:
        ledger = self.ledger

        def work(conn: Connection) -> int:
            if not partial:
                ledger.top_up(player, table_id, amount, f"seat {seat}", conn=conn)
                # between hands his table account is his stack: the stack he chose
                stack = ledger.balance_in(conn, table_account(table_id, player))
                TableStore.topped_up_in(conn, table_id, seat, player, stack)
                return amount
            chips = min(amount, ledger.balance_in(conn, bank(player)))
            if chips > 0:  # an empty bank: nothing written
                ledger.top_up(player, table_id, chips, f"seat {seat}, auto top-up", conn=conn)
            return chips

        return await self._job(table_id, work, f"{player} topping up at {table_id}")

    async def stand(self, table_id: str, seat: int, player: str, chips: int) -> None:
        ledger = self.ledger

        def work(conn: Connection) -> None:
            if chips:
                ledger.cash_out(player, table_id, chips, f"seat {seat}", conn=conn)
            TableStore.stand_in(conn, table_id, seat)

        await self._job(table_id, work, f"{player} leaving {table_id} seat {seat}")

    async def hand_dealt(self, note: HandNote) -> None:
        seats = {seat: (player, chips) for seat, player, chips in note.seats}
        await self._job(
            note.table_id,
            lambda conn: HandStore.begin_in(
                conn, note.hand_id, note.table_id, seats, note.started_at
            ),
            f"the note of hand {note.hand_id}",
        )

    async def hand_ended(self, end: HandEnd) -> None:
        ledger = self.ledger

        def work(conn: Connection) -> BooksDiverged | None:
            # one read for both: has the hand its transaction, and its record?
            closed, kind, stored = conn.execute(_HAND_STATE, {"hand_id": end.hand_id}).one()
            held: dict[str, int] | None = None
            if closed is None:
                seated = end.stacks if end.stacks is not None else ()
                # the self-check's accounts read with the hand's own, under its lock
                held = ledger.close_hand_in(conn, end, seated).balances
            elif not same_end(conn, closed, end):
                # closed otherwise (another process's refund): refused, never
                # dropped; nothing of this end is written
                seated = end.stacks if end.stacks is not None else end.contributions
                return BooksDiverged(
                    f"hand {end.hand_id} was closed otherwise before "
                    f"(its {kind}, transaction {closed}): another process on this database?",
                    written=False,
                    ledger=ledger_stacks(conn, end.table_id, seated),
                )
            # else the same end again (a retry after a commit whose answer was lost)
            if stored is None:
                HandStore.store_in(conn, end.record, known_new=True)
            if end.stacks is None:
                return None
            # the self-check, in the settlement's transaction
            if held is None:
                held = ledger_stacks(conn, end.table_id, end.stacks)
            wrong = differences(end.stacks, held)
            if not wrong:
                return None
            return BooksDiverged(
                f"after hand {end.hand_id} the ledger differs from the table: " + "; ".join(wrong),
                written=True,
                ledger=held,
            )

        diverged = await self._job(end.table_id, work, f"the end of hand {end.hand_id}")
        if diverged is not None:
            self.alarms.raise_alarm(end.table_id, diverged.reason)
            raise diverged

    async def chat_said(self, line: ChatLine) -> None:
        # not fenced: a line of chat moves no chip, and a table that lost its lease
        # stops at its next write of money
        try:
            await self.writer.call(
                lambda conn: ChatStore.say_in(conn, line), what=f"a line of chat at {line.table_id}"
            )
        except LedgerError as exc:
            raise BooksRefused(str(exc)) from exc
