"""One node of a room on several nodes: the tables it takes, keeps and lets go.

Every :data:`TICK_SECONDS` a :class:`ClusterNode`

1. writes its heartbeat (:mod:`stud8.server.cluster.nodes`) and reads whether an
   operator asked it to drain; in a room that routes, notes the live nodes' public
   addresses for its pages' policy (:class:`~stud8.server.cluster.routing.PublicOrigins`);
2. renews the leases of the tables it runs (:mod:`stud8.server.cluster.leases`); a
   table whose lease it lost (it was paused or cut off from Redis longer than the
   lease, and another node may have taken it) is let go at once, untouched: its
   fencing epoch (:mod:`stud8.server.books.fencing`) already keeps it from
   writing;
3. if it is draining, hands its tables over one at a time, each **between two
   hands** (:meth:`Table.hand_over`: the hand in play is finished, no new one
   dealt), so a drain cancels no hand. The hand-over runs beside the rounds, which
   go on renewing the leases meanwhile: a hand that outlasts a lease (players gone,
   their turns run out on the clock) is not taken by another node and cancelled;
4. else takes the tables that have no owner (their owner died, was drained, or
   they are new): those whose lease ran out or was released, from the leases'
   sorted set (:meth:`Leases.due`), checked against their lease keys and the
   database; every :data:`FULL_SCAN_SECONDS` every open table of the database
   and its lease (the safety net: Redis restarted empty). The least loaded live
   node takes them (every node asks the same question and gets the same answer,
   so only one tries; if it does not, any node may after
   :data:`ORPHAN_GRACE_SECONDS`). Taking a table over is, in order:
   its lease (``SET NX``), its epoch one higher in the database (from then on the
   old owner can write nothing of it), its hand in play cancelled through the
   ledger (every chip back, the history records it: RULES.md section 7), its seats
   read back with the chips the ledger holds for them, and the table opened here
   (:meth:`Lobby.reopen`), numbering its events above the old owner's. Players
   connected through any node get a snapshot and play on.

A drain called off (``stud8 admin drain NODE --undo``) is read at the next round:
the node hands no more tables over (a hand-over already begun, its table between
two hands, goes on to its end) and takes tables again.

A node that stops cleanly (:meth:`ClusterNode.stop`) first hands its tables over
like a drain (a hand in play is played out, its lease renewed until then), then
leaves.

Its tournaments (``tournaments``, :mod:`stud8.server.cluster.tournaments`) have a
round of their own in each of the node's: their leases renewed, the lost let go,
those nobody runs taken; a drain or a stop hands them over between hands.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from redis.exceptions import RedisError

from stud8.server.books.fencing import TableEpochs
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger
from stud8.server.books.recovery import cut_short_at, recover_table
from stud8.server.books.seats import TableStore
from stud8.server.bus import NoSuchTable
from stud8.server.bus.redis import RedisBus
from stud8.server.bus.requests import RemoteHandlers
from stud8.server.cluster.leases import Leases
from stud8.server.cluster.nodes import NodeInfo, Nodes, least_loaded
from stud8.server.cluster.routing import PublicOrigins
from stud8.server.cluster.tournaments import ClusterTournaments
from stud8.server.cluster.waitlists import WaitingLists
from stud8.server.room.lobby import Lobby, LobbyError, NoSuchTableError
from stud8.server.room.restore import plan_table
from stud8.server.tasks import cancel_and_wait

__all__ = ["ClusterNode", "NodeStats"]

log = logging.getLogger("stud8.server")

TICK_SECONDS = 1.0
ORPHAN_GRACE_SECONDS = 3.0  # a table the least loaded node has not taken: anyone may
HAND_OVER_SECONDS = 120.0  # the longest a drain waits for a hand to end
MAX_CLAIMS_PER_TICK = 25
PLACE_SECONDS = 10.0  # a new table runs on some node within this time
FULL_SCAN_SECONDS = 30.0  # every open table's lease read: the safety net of the due set


@dataclass(slots=True)
class NodeStats:
    """What the node did (for the operator's log and the tests)."""

    taken: list[str] = field(default_factory=list)  # table ids, in order
    handed_over: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    cancelled_hands: list[str] = field(default_factory=list)
    rounds: int = 0  # its rounds done to their end (a test waits for rounds, not seconds)


class ClusterNode:
    """This node's part in a room on several nodes (see the module)."""

    def __init__(
        self,
        *,
        lobby: Lobby,
        bus: RedisBus,
        leases: Leases,
        nodes: Nodes,
        epochs: TableEpochs,
        ledger: Ledger,
        hands: HandStore,
        tables: TableStore,
        tick: float = TICK_SECONDS,
        grace: float = ORPHAN_GRACE_SECONDS,
        full_scan: float = FULL_SCAN_SECONDS,
        now: Callable[[], float] = time.monotonic,
        tournaments: ClusterTournaments | None = None,
        waiting: WaitingLists | None = None,
        origins: PublicOrigins | None = None,
    ) -> None:
        self.waiting = waiting
        self.origins = origins
        self.tournaments = tournaments
        self.name = nodes.name
        self.lobby = lobby
        self.bus = bus
        self.leases = leases
        self.nodes = nodes
        self.epochs = epochs
        self.ledger = ledger
        self.hands = hands
        self.tables = tables
        self.tick_seconds = tick
        self.grace = grace
        self._now = now
        self.draining = False
        self.stats = NodeStats()
        self._orphaned_at: dict[str, float] = {}
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._quiet_until = 0.0  # no table taken before (Redis was away)
        self.full_scan_seconds = full_scan
        self._full_scan_at = 0.0  # the next full scan for tables without an owner
        self._looking: asyncio.Task[None] | None = None
        self._handovers: dict[str, asyncio.Task[None]] = {}  # tables being handed over

    # ------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        tournaments = self.tournaments
        await self.bus.start(
            RemoteHandlers(
                close=self.lobby.close,
                wake=self._woken,
                tournament=tournaments.serve if tournaments is not None else None,
            )
        )
        if self.waiting is not None:
            self.waiting.start()
        await self.nodes.beat(tables=0, draining=False)
        await self._note_origins()
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"node {self.name}")

    async def stop(self, *, hand_over: bool = True) -> None:
        """Stop: the tables handed over between hands (``hand_over``), or left as
        they are for the next owner (their hands cancelled there)."""
        self._stopping = True
        if self._task is not None:
            await cancel_and_wait(self._task)
            self._task = None
        with contextlib.suppress(RedisError, OSError):
            await self.nodes.beat(tables=self.load(), draining=True)
        # the tournaments handed over beside the tables (each renews its leases)
        handing: list[Awaitable[None]] = []
        if self.tournaments is not None:
            handing.append(self.tournaments.stop())
        if hand_over:
            # the leases are renewed while the hands play out (they may outlast a
            # lease): else another node takes the table and cancels its hand, and
            # this one waits for a hand its table, fenced, will never finish
            handing += [self._handing_over(t) for t in list(self.lobby.tables)]
        renewing = asyncio.get_running_loop().create_task(self._keep_leases())
        try:
            await asyncio.gather(*handing, return_exceptions=True)
        finally:
            await cancel_and_wait(renewing)
        for table_id in list(self.lobby.tables):
            await self._let_go(table_id)
        with contextlib.suppress(RedisError, OSError):
            await self.nodes.leave()
        if self.waiting is not None:
            await self.waiting.close()
        await self.bus.close()

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except (RedisError, OSError) as exc:
                log.warning("node %s: Redis is not answering: %s", self.name, exc)
                # when it is back, the owners first take their leases again (Redis may
                # have restarted empty): no table is taken from a live owner
                self._quiet_until = self._now() + self.leases.ms / 1000
                self._full_scan_at = 0.0  # Redis may have restarted empty: a full scan
            except Exception:
                log.exception("node %s: its round failed", self.name)
            await asyncio.sleep(self.tick_seconds)

    def load(self) -> int:
        """The tables this node runs: the lobby's, and its tournaments' (what its
        heartbeat says, so the least loaded node takes the next, and a drain waits
        until it is 0)."""
        tournaments = 0 if self.tournaments is None else self.tournaments.tables()
        return len(self.lobby.tables) + tournaments

    # ------------------------------------------------------------ one round
    async def tick(self) -> None:
        """One round: heartbeat, leases, then drain or take tables (see the module)."""
        running = list(self.lobby.tables)
        asked = await self.nodes.draining()
        if asked != self.draining:  # an operator's drain, or its undo (drain --undo)
            self.draining = asked
            if asked:
                log.warning("node %s is draining: its tables go to other nodes", self.name)
            else:
                log.warning("node %s is no longer draining: it takes tables again", self.name)
        # the heartbeat says it at once: the others place no table here while it drains
        await self.nodes.beat(tables=self.load(), draining=self.draining)
        await self._note_origins()
        await self._renew(running)
        await self._dead_viewers()
        if self.tournaments is not None:
            quiet = self._now() < self._quiet_until
            await self.tournaments.tick(draining=self.draining, quiet=quiet)
        if self.draining:
            # one table at a time, beside the rounds (they renew its lease meanwhile)
            if not self._handovers and self.lobby.tables:
                self._handing_over(next(iter(self.lobby.tables)))
        elif self._now() >= self._quiet_until:
            await self._take_orphans()
        self.stats.rounds += 1

    async def _dead_viewers(self) -> None:
        """A node whose heartbeat expired cannot disconnect its viewers of this node's
        tables: they are disconnected for it (bus/viewers.py), so the lobby stops
        counting them within a heartbeat's TTL and a round. Not while Redis is just
        back (it may have restarted empty: no heartbeat yet of the live nodes)."""
        if self._now() < self._quiet_until:
            return
        for node in self.bus.viewers_from():
            if node != self.name and await self.nodes.info(node) is None:
                count = await self.bus.node_gone(node)
                log.warning("node %s is gone: its %d viewers here disconnected", node, count)

    async def _note_origins(self) -> None:
        """The public addresses of the live nodes, for this node's pages (a room that
        routes: :class:`PublicOrigins`)."""
        if self.origins is not None:
            self.origins.note(await self.nodes.live())

    async def _renew(self, running: list[str]) -> None:
        """Renew the leases of the tables running here; let go at once those another
        node holds now, or whose table stopped because another node owns it."""
        for table_id in await self.leases.renew(running):
            log.error("node %s lost the lease of table %s: letting it go", self.name, table_id)
            self.stats.lost.append(table_id)
            await self._let_go(table_id)
        self._forget_fenced()

    async def _keep_leases(self) -> None:
        """While the node stops: its heartbeat and its leases, every round, until
        its tables are handed over."""
        while True:
            await asyncio.sleep(self.tick_seconds)
            try:
                await self.nodes.beat(tables=self.load(), draining=True)
                await self._renew(list(self.lobby.tables))
            except (RedisError, OSError) as exc:
                log.warning("node %s: Redis is not answering: %s", self.name, exc)

    def _forget_fenced(self) -> None:
        """Tables that stopped because another node owns them now."""
        for table_id, entry in list(self.lobby.tables.items()):
            if entry.table.fenced is not None:
                self.stats.lost.append(table_id)
                self._spawn_let_go(table_id)

    def _spawn_let_go(self, table_id: str) -> None:
        asyncio.get_running_loop().create_task(self._let_go(table_id))

    # ------------------------------------------------------------ taking tables
    def _woken(self) -> None:
        """Another node stored a new table: look for tables to take now (once at a
        time)."""
        if self._looking is None and not self.draining and not self._stopping:
            self._looking = asyncio.get_running_loop().create_task(self._look())

    async def _look(self) -> None:
        try:
            await self._take_orphans()
        except (RedisError, OSError) as exc:
            log.warning("node %s: cannot look for tables now: %s", self.name, exc)
        except Exception:
            log.exception("node %s: looking for tables failed", self.name)
        finally:
            self._looking = None

    async def _orphans(self) -> list[str]:
        """The open tables nobody holds: those whose lease ran out or was released
        (the leases' sorted set, :meth:`Leases.due`), checked; every
        :data:`FULL_SCAN_SECONDS` (and after Redis came back) every open table of the
        database, in case the set lost some (Redis restarted empty)."""
        now = self._now()
        if now >= self._full_scan_at:
            self._full_scan_at = now + self.full_scan_seconds
            open_ids = await asyncio.to_thread(self.tables.open_ids)
            owners = await self.leases.owners(open_ids)
            orphans = [t for t, owner in owners.items() if owner is None]
            await self.leases.want(orphans)
            return [t for t in orphans if t not in self.lobby.tables]
        due = [t for t in await self.leases.due() if t not in self.lobby.tables]
        if not due:
            return []
        owners = await self.leases.owners(due)
        free = [t for t in due if owners[t] is None]
        if not free:
            return []
        still_open = await asyncio.to_thread(self.tables.open_among, free)
        closed = [t for t in free if t not in still_open]
        if closed:
            await self.leases.forget(closed)
        return [t for t in free if t in still_open]

    async def _take_orphans(self) -> None:
        orphans = await self._orphans()
        now = self._now()
        for table_id in list(self._orphaned_at):
            if table_id not in orphans:
                del self._orphaned_at[table_id]
        if not orphans:
            return
        live = await self.nodes.live()
        mine = self.load()
        others = [n for n in live if n.name != self.name]
        serving = [n for n in others if not n.draining]
        best = least_loaded([*others, _me(self.name, mine, self.nodes.url)])
        taken = 0
        for table_id in orphans:
            since = self._orphaned_at.setdefault(table_id, now)
            chosen = best is not None and best.name == self.name
            if not chosen and now - since < self.grace:
                continue
            if taken >= MAX_CLAIMS_PER_TICK:
                break
            # the least loaded node keeps taking while it stays the least loaded: a
            # dead node's tables are shared among the others, not all taken by one
            if chosen and serving and mine + taken > min(n.tables for n in serving):
                break
            if await self.take(table_id):
                taken += 1
        if taken:  # the others see the new load at once, not at this node's next beat
            await self.nodes.beat(tables=self.load(), draining=self.draining)

    async def take(self, table_id: str) -> bool:
        """Take the table over if nobody holds it (see the module); True if taken."""
        if not await self.leases.acquire(table_id):
            return False
        try:
            await asyncio.to_thread(self.epochs.take_over, table_id)
            closed, problems = await asyncio.to_thread(
                recover_table, self.ledger, self.hands, table_id
            )
            for problem in problems:
                log.error("node %s taking table %s: %s", self.name, table_id, problem)
            stored, reseats = await asyncio.to_thread(
                plan_table, self.tables, self.ledger, table_id
            )
            if stored.closed:
                if self.waiting is not None:
                    await self.waiting.forget(table_id)
                await self.leases.release(table_id)
                return False
            # its waiting list as the last owner left it (cluster.waitlists)
            waiting = [] if self.waiting is None else await self.waiting.read(table_id)
            # the hands a restart or a failover cut short here: the table tells them
            refunded = await asyncio.to_thread(cut_short_at, self.hands, table_id)
            dealt = await asyncio.to_thread(self.hands.dealt_at, table_id)  # a mixed table's turn
            await self.lobby.reopen(
                table_id,
                stored.name,
                stored.spec,
                reseats,
                waiting,
                refunded=refunded,
                hands_dealt=dealt,
            )
        except Exception as exc:  # the database away, a bad stored spec...: not ours then
            log.error("node %s could not take table %s: %s", self.name, table_id, exc)
            self.epochs.let_go(table_id)
            with contextlib.suppress(RedisError, OSError):
                await self.leases.release(table_id)
            return False
        self._orphaned_at.pop(table_id, None)
        self.stats.taken.append(table_id)
        for hand in closed:
            if hand.outcome == "refunded":
                self.stats.cancelled_hands.append(hand.hand_id)
                log.warning(
                    "node %s took table %s: hand %s cancelled, every chip back",
                    self.name,
                    table_id,
                    hand.hand_id,
                )
        log.info("node %s runs table %s (%d seats back)", self.name, table_id, len(reseats))
        return True

    # ------------------------------------------------------------ the lobby's placement
    async def place(self, table_id: str) -> None:
        """A new table (stored) goes to the least loaded node: this one takes it at
        once if it is that node, another within its next round. Returns once the
        room's directory lists it."""
        await self.leases.want([table_id])
        self.bus.wake_all()
        deadline = self._now() + PLACE_SECONDS
        while table_id not in self.bus.directory():
            if self._now() > deadline:
                raise LobbyError(f"no node has started table {table_id} yet; it will start soon")
            await asyncio.sleep(0.05)

    async def close_elsewhere(self, table_id: str) -> None:
        try:
            await self.bus.close_remote(table_id)
        except NoSuchTable:
            raise NoSuchTableError(f"no table {table_id}") from None

    # ------------------------------------------------------------ letting tables go
    def _handing_over(self, table_id: str) -> asyncio.Task[None]:
        """The task handing ``table_id`` over (started if none is): a drain's and a
        stop's hand-over of one table are one."""
        task = self._handovers.get(table_id)
        if task is None:
            task = asyncio.get_running_loop().create_task(
                self._hand_over(table_id), name=f"node {self.name} hands {table_id} over"
            )
            self._handovers[table_id] = task
            task.add_done_callback(lambda _: self._handovers.pop(table_id, None))
        return task

    async def _hand_over(self, table_id: str) -> None:
        """Between hands: no more hands here, then the table goes to the next owner."""
        entry = self.lobby.tables.get(table_id)
        if entry is None:
            return
        try:
            await asyncio.wait_for(entry.table.hand_over(), HAND_OVER_SECONDS)
        except TimeoutError:
            log.error(
                "node %s: the hand at table %s did not end; it is left to the next "
                "owner (who cancels it)",
                self.name,
                table_id,
            )
        if self.lobby.tables.get(table_id) is not entry or entry.table.fenced is not None:
            return  # let go meanwhile: its lease lost, or closed
        await self._let_go(table_id)
        self.stats.handed_over.append(table_id)
        log.info("node %s handed table %s over", self.name, table_id)

    async def _let_go(self, table_id: str) -> None:
        if table_id in self.lobby.tables:
            with contextlib.suppress(LobbyError):
                await self.lobby.release(table_id)
        self.epochs.let_go(table_id)
        with contextlib.suppress(RedisError, OSError):
            await self.bus.flush()  # its last events out before the next owner's
            if self.waiting is not None:  # its waiting list too, while the lease is ours
                await self.waiting.flush()
            await self.leases.release(table_id)


def _me(name: str, tables: int, url: str) -> NodeInfo:
    return NodeInfo(name, url, tables, False, time.time())
