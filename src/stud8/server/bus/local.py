"""The bus in one process: :class:`LocalBus` carries the messages between the edge and
the tables running in this process's event loop.

A table is put on the bus when it opens (:meth:`LocalBus.open`) and taken off when it
closes (:meth:`LocalBus.close`: its followers are told). Commands and catch-ups go to
the table's queue (:meth:`Table.post`, :meth:`Table.catch_up`), in order with
everything else the table does; its events are delivered to every follower as the
table emits them; its status is kept for the directory as the table publishes it.
Nothing is copied or encoded: the messages are immutable, so handing over the object
is the in-process transport.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from stud8.server.bus import Listed, NoSuchTable
from stud8.server.table.commands import Command, Reply
from stud8.server.table.events import Numbered
from stud8.server.table.owner import Table
from stud8.server.table.snapshot import CatchUp
from stud8.server.table.spec import TableSpec
from stud8.server.table.status import TableStatus

__all__ = ["LocalBus"]

log = logging.getLogger("stud8.server")

CLOSED = "the table is closed"


@dataclass(eq=False, slots=True)
class _Follower:
    hosted: _Hosted
    deliver: Callable[[Numbered], None]
    closed: Callable[[], None]
    active: bool = True

    def close(self) -> None:
        if self.active:
            self.active = False
            self.hosted.followers.remove(self)


@dataclass(eq=False, slots=True)
class _Hosted:
    table: Table
    listed: Listed
    followers: list[_Follower] = field(default_factory=list)
    stop_listening: Callable[[], None] | None = None
    closing: bool = False  # no more commands from the edge; its events still go out

    def deliver(self, item: Numbered) -> None:
        for follower in tuple(self.followers):
            try:
                follower.deliver(item)
            except Exception:  # a broken follower does not stop the table
                log.exception("a follower of table %s failed", self.table.table_id)
                follower.close()


class LocalBus:
    """The :class:`~stud8.server.bus.TableBus` of tables in this process."""

    def __init__(self) -> None:
        self._tables: dict[str, _Hosted] = {}
        self._watchers: list[Callable[[str, Listed | None, bool], None]] = []

    def watch(self, changed: Callable[[str, Listed | None, bool], None]) -> None:
        """Call ``changed(table_id, listed, False)`` whenever a table here opens or
        its status changes, and ``changed(table_id, None, for_good)`` when it leaves
        this process: closed for good, or (``for_good`` False) moving to another node
        of the room. A bus between nodes publishes this node's tables so."""
        self._watchers.append(changed)

    def _changed(self, table_id: str, listed: Listed | None, for_good: bool = False) -> None:
        for changed in self._watchers:
            try:
                changed(table_id, listed, for_good)
            except Exception:
                log.exception("a watcher of table %s failed", table_id)

    def hosts(self, table_id: str) -> bool:
        """Whether the table runs in this process."""
        return table_id in self._tables

    # ------------------------------------------------------------ the room's side
    def open(self, table: Table, name: str, spec: TableSpec) -> None:
        """Put ``table`` on the bus (before it starts, so no event is missed)."""
        table_id = table.table_id
        if table_id in self._tables:
            raise ValueError(f"table {table_id} is already on the bus")
        hosted = _Hosted(table, Listed(table_id, name, spec, TableStatus(table_id)))
        self._tables[table_id] = hosted
        hosted.stop_listening = table.listen(hosted.deliver)

        def status(new: TableStatus) -> None:
            hosted.listed = replace(hosted.listed, status=new)
            self._changed(table_id, hosted.listed)

        table.on_status(status)
        self._changed(table_id, hosted.listed)

    def closing(self, table_id: str) -> None:
        """The table is closing: the edge's commands are refused from now on, while
        its last events (everyone standing up) still reach its followers."""
        hosted = self._tables.get(table_id)
        if hosted is not None:
            hosted.closing = True

    def close(self, table_id: str, *, moving: bool = False) -> None:
        """Take the table off the bus; its followers are told it closed. ``moving``:
        it goes on on another node of the room (it is not closed for good)."""
        hosted = self._tables.pop(table_id, None)
        if hosted is None:
            return
        if hosted.stop_listening is not None:
            hosted.stop_listening()
        self._changed(table_id, None, not moving)
        for follower in tuple(hosted.followers):
            follower.close()
            try:
                follower.closed()
            except Exception:
                log.exception("a follower of table %s failed at its closing", table_id)

    # ------------------------------------------------------------ the edge's side
    def send(self, table_id: str, command: Command) -> asyncio.Future[Reply]:
        hosted = self._tables.get(table_id)
        if hosted is None or hosted.closing or not hosted.table.running:
            fut: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
            fut.set_result(Reply(False, CLOSED))
            return fut
        return hosted.table.post(command)

    async def catch_up(self, table_id: str, last_seen: int | None) -> CatchUp:
        hosted = self._tables.get(table_id)
        if hosted is None:
            raise NoSuchTable(table_id)
        return await hosted.table.catch_up(last_seen)

    def follow(
        self,
        table_id: str,
        deliver: Callable[[Numbered], None],
        closed: Callable[[], None],
        lost: Callable[[], None] | None = None,
    ) -> _Follower:
        hosted = self._tables.get(table_id)
        if hosted is None:
            raise NoSuchTable(table_id)
        follower = _Follower(hosted, deliver, closed)
        hosted.followers.append(follower)
        return follower

    def directory(self) -> Mapping[str, Listed]:
        return MappingProxyType({t: h.listed for t, h in self._tables.items()})
