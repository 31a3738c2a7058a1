"""The tables' waiting lists in Redis: a list survives its owner node.

A table's waiting list (:class:`~stud8.server.table.waitlist.WaitingList`) lives in
its owner task; on a room of several nodes the owner also keeps it in Redis, one
key per table, ``stud8:waiting:<table>`` (a JSON list of the players, in order),
so that the next owner (the old one died, or was drained) starts with it:

- :class:`WaitingLists` follows this node's tables on its
  :class:`~stud8.server.bus.local.LocalBus` and, at each ``waiting_list`` event,
  hands the new list to one writer task, which never blocks the table: it writes
  the latest list of each table (a burst of changes is one write), only while
  this node holds the table's lease (one Lua script checks the lease and writes,
  so a node that lost the table cannot overwrite its next owner's list). An empty
  list deletes the key, and so does a table closed for good.
- Before a table leaves this node (handed over, or the node stops), the node waits
  for the writes (:meth:`WaitingLists.flush`), then releases the lease.
- The node taking a table reads the list (:meth:`WaitingLists.read`) and reopens
  the table with it (:meth:`~stud8.server.room.lobby.Lobby.reopen`): the players
  in the same order, the lowest free seat held for the first (a player offered a
  seat by the old owner is first again; the offer's clock starts again), no bot
  seated in a seat a waiting player will be offered.

A node killed outright may lose a change made in its last moment (the write was
not sent yet); the list is then as at the change before.
"""

from __future__ import annotations

import asyncio
import json
import logging
from functools import partial
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from stud8.server.bus import Listed
from stud8.server.bus.local import LocalBus
from stud8.server.cluster import PREFIX
from stud8.server.cluster.leases import lease_key
from stud8.server.table.events import Numbered, WaitingListChanged
from stud8.server.tasks import cancel_and_wait

__all__ = ["WaitingLists", "waiting_key"]

log = logging.getLogger("stud8.server")

RETRY_SECONDS = 0.5  # Redis away: the write is tried again this often
FLUSH_SECONDS = 5.0  # the longest a table's hand-over waits for its list's write
MAX_PLAYERS = 1000  # a list read back longer than this is not a list we wrote

# KEYS: the table's lease, its waiting list; ARGV: this node, the list ('': none).
# Written only while this node holds the lease.
_WRITE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[2]) else redis.call('SET', KEYS[2], ARGV[2]) end
return 1
"""

_CLOSED = None  # the table closed for good: its list goes


def waiting_key(table_id: str) -> str:
    return f"{PREFIX}waiting:{table_id}"


class WaitingLists:
    """This node's tables' waiting lists, kept in Redis (see the module)."""

    def __init__(
        self, redis: Redis, node: str, local: LocalBus, *, retry: float = RETRY_SECONDS
    ) -> None:
        self.redis = redis
        self.node = node
        self.local = local
        self.retry = retry
        self._script = redis.register_script(_WRITE)
        self._following: dict[str, Any] = {}
        # each table's list still to write (the latest only), or _CLOSED
        self._pending: dict[str, tuple[str, ...] | None] = {}
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None
        self.writes = 0  # done (for the tests)
        local.watch(self._changed)
        for table_id, listed in local.directory().items():
            self._changed(table_id, listed, False)

    # ------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name=f"node {self.node}: waiting lists"
            )

    async def close(self) -> None:
        """Stop, after the writes handed over so far (at most :data:`FLUSH_SECONDS`)."""
        await self.flush()
        task, self._task = self._task, None
        if task is not None:
            await cancel_and_wait(task)

    async def flush(self, seconds: float = FLUSH_SECONDS) -> None:
        """Wait until every list handed over so far is written (or ``seconds``)."""
        if self._task is None:
            return
        try:
            await asyncio.wait_for(self._idle.wait(), seconds)
        except TimeoutError:
            log.warning(
                "node %s: waiting lists not written to Redis yet: %s",
                self.node,
                ", ".join(sorted(self._pending)),
            )

    # ------------------------------------------------------------ the next owner's side
    async def read(self, table_id: str) -> list[str]:
        """The table's waiting list as its last owner left it ([] if none)."""
        raw = await self.redis.get(waiting_key(table_id))
        if raw is None:
            return []
        try:
            players = json.loads(raw)
            if not isinstance(players, list) or len(players) > MAX_PLAYERS:
                raise ValueError("not a list of players")
            if not all(isinstance(p, str) and p for p in players):
                raise ValueError("a player is not a name")
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError included
            log.error(
                "node %s: table %s's waiting list in Redis cannot be read (%s); it starts empty",
                self.node,
                table_id,
                exc,
            )
            return []
        return list(players)

    async def forget(self, table_id: str) -> None:
        """The table is closed: its list goes (whoever held it)."""
        await self.redis.delete(waiting_key(table_id))

    # ------------------------------------------------------------ this node's tables
    def _changed(self, table_id: str, listed: Listed | None, for_good: bool) -> None:
        if listed is not None:
            if table_id not in self._following:
                self._following[table_id] = self.local.follow(
                    table_id, partial(self._event, table_id), lambda: None
                )
            return
        following = self._following.pop(table_id, None)
        if following is not None:
            following.close()
        if for_good:
            self._write(table_id, _CLOSED)

    def _event(self, table_id: str, item: Numbered) -> None:
        if isinstance(item.event, WaitingListChanged):
            self._write(table_id, item.event.players)

    def _write(self, table_id: str, players: tuple[str, ...] | None) -> None:
        self._pending.pop(table_id, None)  # the latest last: tables written in order
        self._pending[table_id] = players
        self._idle.clear()
        self._wake.set()

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                table_id = next(iter(self._pending))
                players = self._pending.pop(table_id)
                try:
                    await self._store(table_id, players)
                except (RedisError, OSError) as exc:
                    log.warning(
                        "node %s: table %s's waiting list not written yet: %s",
                        self.node,
                        table_id,
                        exc,
                    )
                    self._pending.setdefault(table_id, players)  # unless a newer came
                    await asyncio.sleep(self.retry)
            self._idle.set()

    async def _store(self, table_id: str, players: tuple[str, ...] | None) -> None:
        if players is _CLOSED:
            await self.forget(table_id)
        else:
            value = json.dumps(list(players), separators=(",", ":")) if players else ""
            keys = [lease_key(table_id), waiting_key(table_id)]
            if not await self._script(keys=keys, args=[self.node, value]):
                log.info(
                    "node %s: table %s's waiting list not written: its lease is another node's now",
                    self.node,
                    table_id,
                )
        self.writes += 1
