"""A table waiting long on its books says so in the lobby (``paused``), then deals on
once the write lands (issue 26: a 36 s database lock left ``paused`` empty)."""

from __future__ import annotations

import asyncio

from server.tableharness import PLAYERS, Harness, run, seat_players
from stud8.server.books.memory import MemoryBooks
from stud8.server.table.books import HandNote
from stud8.server.table.status import TableStatus
from stud8.server.table.waiting import SLOW_SECONDS


class LockedBooks(MemoryBooks):
    """Books whose hand notes wait until ``unlocked`` is set (a database lock)."""

    def __init__(self) -> None:
        super().__init__({p: 1000 for p in PLAYERS})
        self.unlocked = asyncio.Event()
        self.waiting = 0

    async def hand_dealt(self, note: HandNote) -> None:
        self.waiting += 1
        await self.unlocked.wait()
        await super().hand_dealt(note)


def test_a_long_wait_for_the_books_is_said_in_paused_and_cleared_when_it_lands() -> None:
    books = LockedBooks()

    async def body(h: Harness) -> None:
        statuses: list[TableStatus] = []
        h.table.on_status(statuses.append)
        await seat_players(h, 2)
        h.clock.advance(5)  # the deal is due: its note waits for the lock
        for _ in range(100):
            if books.waiting:
                break
            await asyncio.sleep(0)
        assert books.waiting == 1 and h.table.paused is None  # not long yet
        h.clock.advance(SLOW_SECONDS + 0.1)
        assert h.table.paused == "waiting for the database to keep a new hand's note"
        assert statuses[-1].paused == h.table.paused  # published at once
        books.unlocked.set()
        await h.settle()
        assert h.table.paused is None and h.table.hand is not None  # dealt
        assert statuses[-1].paused is None

    run(body, books=books)
