"""A table waiting on its books says so: the lobby's ``paused`` whenever it is not dealing.

A hand's note and a hand's end are awaited until durable, and the table deals
nothing meanwhile. When that wait is long (the database is locked by a long
transaction, a busy disk, a PostgreSQL failover), nothing has failed yet, so nothing
said why the table stood still: a 36 s lock left ``paused`` empty. :func:`awaiting_books`
awaits the write and, past :data:`SLOW_SECONDS`, pauses the table saying what it
waits for (its status published at once); the table's next successful write clears
it, as after a failure.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from stud8.server.table.owner import Table

SLOW_SECONDS = 2.0  # a write awaited longer than this is said in the lobby


async def awaiting_books(table: Table, what: str, write: Callable[[], Awaitable[None]]) -> None:
    """Await ``write``; past :data:`SLOW_SECONDS`, ``table.paused`` says it waits for it."""

    def slow() -> None:
        if table.paused is None:
            table._pause(f"waiting for the database to keep {what}")
            table._board.publish(table.status)

    clock = table._clock
    timer = clock.call_at(clock.now() + SLOW_SECONDS, slow)
    try:
        await write()
    finally:
        timer.cancel()
