"""A table's writes to its books, and why it deals nothing meanwhile (the lobby's ``paused``).

A hand's note and a hand's end are awaited until durable, and the table deals
nothing meanwhile. :class:`BookWrites` runs those writes for the table and keeps
why it stands still: a write that failed (tried again until it lands), or one
awaited long. When that wait is long (the database is locked by a long
transaction, a busy disk, a PostgreSQL failover), nothing has failed yet, so nothing
said why the table stood still: a 36 s lock left ``paused`` empty. Past
:data:`SLOW_SECONDS`, it pauses the table saying what it waits for (its status
published at once); the table's next successful write clears it, as after a
failure. A table whose books diverged is ``halted``: paused for good.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from stud8.server.clock import Clock
from stud8.server.table.books import BooksDiverged, BooksFenced, HandEnd, HandNote, TableBooks
from stud8.server.table.status import StatusBoard, TableStatus

log = logging.getLogger("stud8.server")

SLOW_SECONDS = 2.0  # a write awaited longer than this is said in the lobby
RETRY_FIRST = 0.5  # a failed write is tried again after this, then twice as long...
RETRY_LAST = 30.0  # ...up to this


@dataclass(frozen=True, slots=True)
class WritesContext:
    """What :class:`BookWrites` needs of its table: its books, its clock, and its
    lobby's board (``status``: the table's status now, to publish)."""

    table_id: str
    books: TableBooks
    clock: Clock
    board: StatusBoard
    status: Callable[[], TableStatus]


class BookWrites:
    """The table's writes to its books; ``paused``: why it deals nothing now, or
    None; ``halted``: why it deals no more (its books diverged), or None."""

    def __init__(self, context: WritesContext) -> None:
        self._c = context
        self.paused: str | None = None
        self.halted: str | None = None

    async def durably(self, what: str, write: Callable[[], Awaitable[None]]) -> None:
        """Run ``write`` until it lands. Meanwhile the table deals no hand and says
        why (:attr:`paused`, and the log); it never gives up on it."""
        c = self._c
        delay = RETRY_FIRST
        while True:
            try:
                await self._awaiting(what, write)
            except (BooksFenced, BooksDiverged):
                raise
            except Exception as exc:
                log.error("table %s: %s could not be written: %s", c.table_id, what, exc)
                self.pause(f"{what} could not be written ({exc}); trying again")
                c.board.publish(c.status)
                await c.clock.sleep_until(c.clock.now() + delay)
                delay = min(2 * delay, RETRY_LAST)
                continue
            self._resume()
            return

    async def hand_ended(self, end: HandEnd) -> None:
        """Keep the hand's end until it lands (:meth:`durably`)."""
        await self.durably(f"the end of hand {end.hand_id}", lambda: self._c.books.hand_ended(end))

    async def noted(self, note: HandNote) -> bool:
        """Note a hand before its deal; False (paused, saying why) if the room cannot."""
        try:
            await self._awaiting("a new hand's note", lambda: self._c.books.hand_dealt(note))
        except BooksFenced:
            raise
        except Exception as exc:
            log.error("table %s: cannot note a new hand; trying again: %s", self._c.table_id, exc)
            self.pause(f"the room cannot note a new hand ({exc}); trying again")
            return False
        self._resume()
        return True

    def halt(self, why: str, reason: str) -> None:
        """Deal no more, for ``why`` (the lobby and the log say ``reason``) until a restart."""
        log.error("table %s: %s", self._c.table_id, reason)
        self.halted = why
        self.pause(reason)

    def pause(self, reason: str) -> None:
        if self.paused != reason:
            self.paused = reason
            self._c.board.changed = True

    def _resume(self) -> None:
        if self.paused is not None and not self.halted:
            log.warning("table %s: its books are written again", self._c.table_id)
            self.paused = None
            self._c.board.changed = True

    async def _awaiting(self, what: str, write: Callable[[], Awaitable[None]]) -> None:
        """Await ``write``; past :data:`SLOW_SECONDS`, :attr:`paused` says it waits for it."""
        c = self._c

        def slow() -> None:
            if self.paused is None:
                self.pause(f"waiting for the database to keep {what}")
                c.board.publish(c.status)

        timer = c.clock.call_at(c.clock.now() + SLOW_SECONDS, slow)
        try:
            await write()
        finally:
            timer.cancel()
