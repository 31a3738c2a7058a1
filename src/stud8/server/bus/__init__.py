"""The bus: the one seam between the edge (the players' connections) and the tables.

The edge never holds a table: it reaches one by its id, through a :class:`TableBus`,
with four messages, all of them plain frozen records (serialisable, no shared
objects, nothing that calls back into a table):

- :meth:`~TableBus.send` a command (:mod:`stud8.server.table.commands`); its
  :class:`~stud8.server.table.commands.Reply` comes back;
- :meth:`~TableBus.catch_up`: what a viewer missed after a number, or a snapshot
  (:class:`~stud8.server.table.snapshot.CatchUp`);
- :meth:`~TableBus.follow` a table: its numbered events
  (:class:`~stud8.server.table.events.Numbered`), whole, in order, as they happen;
- :meth:`~TableBus.directory`: every table of the room with its last
  :class:`~stud8.server.table.status.TableStatus` (the lobby).

The tables of this process are on a :class:`~stud8.server.bus.local.LocalBus`; a
room on several nodes puts Redis behind the same four messages
(:class:`~stud8.server.bus.redis.RedisBus`, which keeps the tables of its own
node on a LocalBus), and the edge does not change.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from stud8.server.table.commands import Command, Reply
from stud8.server.table.events import Numbered
from stud8.server.table.snapshot import CatchUp
from stud8.server.table.spec import TableSpec
from stud8.server.table.status import TableStatus

__all__ = ["Following", "Listed", "NoSuchTable", "TableBus"]


class NoSuchTable(LookupError):
    """No open table has this id (it never had, or it is closed)."""


@dataclass(frozen=True, slots=True)
class Listed:
    """A table as the directory knows it: what it is and its last status."""

    table_id: str
    name: str
    spec: TableSpec
    status: TableStatus


class Following(Protocol):
    """A table followed; :meth:`close` stops its events."""

    def close(self) -> None: ...


class TableBus(Protocol):
    """Commands in, numbered events out (see the module)."""

    def send(self, table_id: str, command: Command) -> asyncio.Future[Reply]:
        """Hand ``command`` to the table; the future of its reply (a refusal if the
        table is closed)."""
        ...

    async def catch_up(self, table_id: str, last_seen: int | None) -> CatchUp:
        """The events after ``last_seen`` (None: a snapshot); :class:`NoSuchTable`."""
        ...

    def follow(
        self,
        table_id: str,
        deliver: Callable[[Numbered], None],
        closed: Callable[[], None],
        lost: Callable[[], None] | None = None,
    ) -> Following:
        """Deliver the table's events from now on, in order; ``closed`` is called if
        the table closes. A transport that may drop events (between nodes: a
        reconnection to Redis) calls ``lost`` when it may have: the follower
        catches up (events also come with their numbers, so a gap shows too).
        :class:`NoSuchTable` if there is none."""
        ...

    def directory(self) -> Mapping[str, Listed]:
        """Every open table of the room, by id, in the order they opened."""
        ...
