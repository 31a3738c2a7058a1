"""The books' alarms: each time the room's books and a table disagreed.

:class:`~stud8.server.books.room.RoomBooks` raises one when a hand's end is refused
as already closed otherwise (another process on the same database closed it) or
when the check in the settlement's own transaction finds the table's accounts in
the ledger different from the table's stacks. The table stops dealing and says
why in the lobby (its ``paused``), the log gets an error line, and
:attr:`BooksAlarms.count` goes up: a plain counter that only grows, for the
metrics endpoint (``stud8_books_alarms_total``) to read from ``Room.alarms`` /
``app.state.books_alarms``.

>>> alarms = BooksAlarms()
>>> alarms.raise_alarm("t1", "hand h1: seat ann holds 100, the ledger 86")
>>> alarms.count, alarms.last
(1, 't1: hand h1: seat ann holds 100, the ledger 86')
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

log = logging.getLogger("stud8.server")

__all__ = ["BooksAlarms"]


@dataclass(slots=True)
class BooksAlarms:
    """How many alarms the books raised (``count``, only ever up), by table, and
    the last one's text."""

    count: int = 0
    by_table: dict[str, int] = field(default_factory=dict)
    last: str | None = None

    def raise_alarm(self, table_id: str, reason: str) -> None:
        self.count += 1
        self.by_table[table_id] = self.by_table.get(table_id, 0) + 1
        self.last = f"{table_id}: {reason}"
        log.error("BOOKS ALARM at table %s: %s", table_id, reason)
