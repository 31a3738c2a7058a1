"""The tournaments of a room on several nodes: one owner node per tournament.

A tournament is run, as in one process, by one owner task
(:class:`~stud8.server.tournaments.runner.TournamentRunner`) over its tables; on a
room of several nodes that task runs on **one node at a time**, the holder of the
tournament's lease in Redis (``stud8:tlease:<id>``, the same :class:`Leases` as the
tables', with their own sorted set ``stud8:tleases``). **Its tables follow it**: they
are room tables on the owner's bus, not leased on their own, because the director
talks to them in process (it seats, moves, deals and hears every hand's end
through their books) and a tournament's tables are few (a 180-player MTT of eight
a table is 23 tables, well within a node). Every node reaches them through the bus
as any table: a player connected to node B plays at his table run by node A.

**Fencing.** Taking a tournament over puts its epoch in the database one higher
(``tournaments.epoch``, :class:`~stud8.server.books.fencing.TournamentEpochs`);
every write of the owner task (its state, its money, its tables' hand notes and
records) goes through a :class:`~stud8.server.books.fencing.FencedWriter` that checks
the epoch in its own transaction, so a node that lost the lease writes nothing of
the tournament afterwards.

**Requests through any node.** Any node answers the lobby's reads from the database
(the owner writes the whole state at every event of its director; in between,
only a heartbeat, so a reading node's "time left" is as at the last event). The
requests that change a tournament (register, unregister, bots, cancel) go to its
owner: the node that got the request reads the lease's holder and sends it the
request through the bus (:meth:`RedisBus.ask`: a line of JSON), and the owner's
:class:`~stud8.server.tournaments.manager.Tournaments` does it as for its own
players and answers (the entry, or the refusal's reason). A tournament between
owners answers "try again" (:class:`TournamentElsewhere`, a 503).

**Failover.** Each round (:meth:`ClusterTournaments.tick`, from the node's) renews
the leases of the tournaments run here, lets go at once those whose lease another
node holds now, releases those that are over, and takes the tournaments nobody
holds (their lease ran out or was released: :meth:`Leases.due`; every
:data:`FULL_SCAN_SECONDS` every tournament not over in the database, the safety
net), the least loaded live node first, any node after :data:`ORPHAN_GRACE_SECONDS`.
Taking one over is: the lease; the epoch one higher; every hand its tables had in
play closed through the ledger as cancelled (:func:`recover_table`); then the
tournament brought back as after a crash (:meth:`Tournaments.take`: the director's
``Resume``, the same level and time left as at the last owner's last heartbeat,
the same seats, each hand
cut short cancelled, every stack as at its deal, and dealt again). A drain or a
clean stop hands a tournament over **between hands**: its tables play out the hands
in play and deal no more (:meth:`Tournaments.release`; the director takes each
hand's end first), then the owner task and the tables stop and the lease is
released; the next owner brings it back as above, with no hand to cancel (the
hands the director had decided to deal next are dealt again, with the same chips).
A hand that has not ended in :data:`HAND_OVER_SECONDS` is left to the next owner,
who cancels it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from redis.exceptions import RedisError

from stud8.server.books.fencing import FencedWriter, TournamentEpochs
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger
from stud8.server.books.recovery import recover_table
from stud8.server.books.tournaments import TournamentStore
from stud8.server.books.writer import RoomWriter, Writes
from stud8.server.bus.redis import RedisBus, TableMoving
from stud8.server.cluster.leases import Leases
from stud8.server.cluster.nodes import Nodes, least_loaded
from stud8.server.tasks import cancel_and_wait
from stud8.server.tournaments.manager import NoSuchTournament, TournamentElsewhere, Tournaments
from stud8.server.tournaments.runner import TournamentRefused

__all__ = ["ClusterTournaments"]

log = logging.getLogger("stud8.server")

ORPHAN_GRACE_SECONDS = 3.0  # a tournament the least loaded node has not taken: anyone may
FULL_SCAN_SECONDS = 30.0  # every tournament not over read from the database this often
FORWARD_SECONDS = 30.0  # a request to the owner (a hundred bots are a hundred buy-ins)
HAND_OVER_SECONDS = 15.0  # the longest a hand-over waits for the hands in play to end


class ClusterTournaments:
    """This node's part in the tournaments of a room on several nodes (see the
    module): the :class:`~stud8.server.tournaments.manager.TournamentCluster` of
    its :class:`Tournaments` (:meth:`attach`), and a round of the node's."""

    def __init__(
        self,
        *,
        bus: RedisBus,
        leases: Leases,
        nodes: Nodes,
        epochs: TournamentEpochs,
        writer: RoomWriter,
        ledger: Ledger,
        hands: HandStore,
        store: TournamentStore,
        grace: float = ORPHAN_GRACE_SECONDS,
        full_scan: float = FULL_SCAN_SECONDS,
        hand_over_seconds: float = HAND_OVER_SECONDS,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.hand_over_seconds = hand_over_seconds
        self.name = nodes.name
        self.bus = bus
        self.leases = leases
        self.nodes = nodes
        self.epochs = epochs
        self.writer = writer
        self.ledger = ledger
        self.hands = hands
        self.store = store
        self.grace = grace
        self.full_scan_seconds = full_scan
        self._now = now
        self._tournaments: Tournaments | None = None
        self.held: set[int] = set()  # the tournaments whose lease this node holds
        self.taken: list[int] = []  # taken over from another node (for the log and tests)
        self._orphaned_at: dict[int, float] = {}
        self._full_scan_at = 0.0
        self._handing: dict[int, asyncio.Task[None]] = {}  # handed over now

    def attach(self, tournaments: Tournaments) -> None:
        """Serve ``tournaments`` (this node's) to the other nodes."""
        self._tournaments = tournaments

    @property
    def tournaments(self) -> Tournaments:
        assert self._tournaments is not None, "attach the tournaments first"
        return self._tournaments

    def tables(self) -> int:
        """The tournaments' tables running on this node now."""
        if self._tournaments is None:
            return 0
        return sum(len(r.running) for r in self._tournaments.runners.values())

    # ------------------------------------------------------------ TournamentCluster
    def writer_for(self, tid: int) -> Writes:
        return FencedWriter(self.writer, self.epochs, tid)

    async def claim(self, tid: int) -> bool:
        """This node runs the new tournament: its lease and its epoch (False if
        Redis or the database is away: the rounds give it an owner later)."""
        try:
            if not await self.leases.acquire(str(tid)):
                return False
        except (RedisError, OSError) as exc:
            log.warning("node %s cannot take tournament %d now: %s", self.name, tid, exc)
            return False
        try:
            await asyncio.to_thread(self.epochs.take_over, tid)
        except Exception as exc:
            log.error("node %s cannot take tournament %d: %s", self.name, tid, exc)
            await self._let_go(tid)
            return False
        self.held.add(tid)
        return True

    async def forward(self, tid: int, action: str, args: dict[str, Any]) -> Any:
        try:
            node = (await self.leases.owners([str(tid)]))[str(tid)]
        except (RedisError, OSError):
            node = None
        if node is None or node == self.name:  # between two owners
            raise TournamentElsewhere(
                f"tournament {tid} is moving to another node; try again in a few seconds"
            )
        payload = json.dumps({"tournament": tid, "action": action, "args": args})
        try:
            raw = await self.bus.ask(node, payload.encode(), FORWARD_SECONDS)
            answer = json.loads(raw)
        except (TableMoving, RedisError, OSError, ValueError):
            raise TournamentElsewhere(
                f"tournament {tid}'s node did not answer; try again in a few seconds"
            ) from None
        if "ok" in answer:
            return answer["ok"]
        if "refused" in answer:
            raise TournamentRefused(str(answer["refused"]))
        if "missing" in answer:
            raise NoSuchTournament(str(answer["missing"]))
        raise TournamentElsewhere(str(answer.get("moved", "try again")))

    async def serve(self, payload: bytes) -> bytes:
        """Another node's request for a tournament run here (see the module)."""
        answer: dict[str, Any]
        try:
            asked = json.loads(payload)
            tid, action, args = int(asked["tournament"]), str(asked["action"]), asked["args"]
            if not isinstance(args, dict):
                raise TypeError("args")
        except (ValueError, KeyError, TypeError):
            return b'{"refused": "a malformed request"}'
        try:
            answer = {"ok": await self.tournaments.owner_does(tid, action, args)}
        except TournamentRefused as exc:
            answer = {"refused": str(exc)}
        except NoSuchTournament as exc:
            answer = {"missing": str(exc)}
        except TournamentElsewhere as exc:
            answer = {"moved": str(exc)}
        except Exception as exc:  # fenced, the database away...: not done, try again
            log.warning("node %s: a request for tournament %d failed: %s", self.name, tid, exc)
            answer = {"moved": f"tournament {tid} cannot take requests now; try again"}
        return json.dumps(answer).encode()

    # ------------------------------------------------------------ the node's round
    async def tick(self, *, draining: bool, quiet: bool = False) -> None:
        """Renew, let go the lost and the over, then hand over (``draining``) or
        take the tournaments nobody runs (not while ``quiet``: Redis just came back
        and the owners first take their leases again)."""
        runners = self.tournaments.runners
        for tid in sorted(self.held - set(self._handing)):
            runner = runners.get(tid)
            if runner is None or runner.over:  # over: nobody needs to run it any more
                self.held.discard(tid)
                self.epochs.let_go(tid)
                with contextlib.suppress(RedisError, OSError):
                    await self.leases.release(str(tid))
                    await self.leases.forget([str(tid)])
        for lost in await self.leases.renew([str(tid) for tid in sorted(self.held)]):
            tid = int(lost)
            log.error("node %s lost the lease of tournament %d: letting it go", self.name, tid)
            self.held.discard(tid)
            self.epochs.let_go(tid)
            await self.tournaments.release(tid)
        if draining:  # each handed over between hands, its lease renewed meanwhile
            for tid in sorted(self.held - set(self._handing)):
                task = asyncio.get_running_loop().create_task(self.hand_over(tid))
                self._handing[tid] = task
                task.add_done_callback(partial(self._handed, tid))
            return
        if not quiet:
            await self._take_orphans()

    def _handed(self, tid: int, _task: asyncio.Task[None]) -> None:
        self._handing.pop(tid, None)

    async def hand_over(self, tid: int) -> None:
        """The tournament goes to another node: its tables play out their hands in
        play and deal no more (at most :data:`HAND_OVER_SECONDS`: a hand still in play
        then is cancelled by the next owner), its owner task and tables stop here,
        then its lease is released."""
        try:
            await self.tournaments.release(tid, between_hands=self.hand_over_seconds)
        finally:
            await self._let_go(tid)
        log.info("node %s handed tournament %d over", self.name, tid)

    async def stop(self) -> None:
        """The node stops: every tournament run here is handed over, all at once,
        their leases renewed meanwhile (a hand may outlast a lease: else another
        node would take the tournament and cancel the hand)."""
        renewing = asyncio.get_running_loop().create_task(self._keep_leases())
        try:
            handing = list(self._handing.values())
            await asyncio.gather(*handing, return_exceptions=True)
            held = sorted(self.held)
            await asyncio.gather(*(self.hand_over(tid) for tid in held), return_exceptions=True)
        finally:
            await cancel_and_wait(renewing)

    async def _keep_leases(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            with contextlib.suppress(RedisError, OSError):
                await self.leases.renew([str(tid) for tid in sorted(self.held)])

    async def _let_go(self, tid: int) -> None:
        self.held.discard(tid)
        self.epochs.let_go(tid)
        with contextlib.suppress(RedisError, OSError):
            await self.bus.flush()  # its tables' last events out before the next owner's
            await self.leases.release(str(tid))

    async def _orphans(self) -> list[int]:
        """The tournaments not over that nobody holds (see the module)."""
        now = self._now()
        if now >= self._full_scan_at:
            self._full_scan_at = now + self.full_scan_seconds
            ids = [str(t) for t in await asyncio.to_thread(self.store.open_ids)]
            owners = await self.leases.owners(ids)
            await self.leases.want([t for t, owner in owners.items() if owner is None])
        due = [t for t in await self.leases.due() if t.isdigit() and int(t) not in self.held]
        if not due:
            return []
        owners = await self.leases.owners(due)
        free = [t for t in due if owners[t] is None]
        if not free:
            return []
        still_open = {str(t) for t in await asyncio.to_thread(self.store.open_ids)}
        over = [t for t in free if t not in still_open]
        if over:
            await self.leases.forget(over)
        return [int(t) for t in free if t in still_open]

    async def _take_orphans(self) -> None:
        orphans = await self._orphans()
        now = self._now()
        for tid in list(self._orphaned_at):
            if tid not in orphans:
                del self._orphaned_at[tid]
        if not orphans:
            return
        best = least_loaded(await self.nodes.live())  # by their tables, as for a table
        for tid in orphans:
            since = self._orphaned_at.setdefault(tid, now)
            chosen = best is not None and best.name == self.name
            if chosen or now - since >= self.grace:
                await self.take(tid)

    async def take(self, tid: int) -> bool:
        """Take the tournament over if nobody holds it (see the module)."""
        if not await self.leases.acquire(str(tid)):
            return False
        try:
            await asyncio.to_thread(self.epochs.take_over, tid)
            # from here on the old owner writes nothing of it: its hands cut short
            stored = await asyncio.to_thread(self.store.tournament, tid)
            tables = sorted(((stored.state if stored else None) or {}).get("tables", {}).values())
            for table_id in tables:
                closed, problems = await asyncio.to_thread(
                    recover_table, self.ledger, self.hands, str(table_id)
                )
                for problem in problems:
                    log.error("node %s taking tournament %d: %s", self.name, tid, problem)
                for hand in closed:
                    log.warning(
                        "node %s took tournament %d: hand %s at %s %s",
                        self.name,
                        tid,
                        hand.hand_id,
                        hand.table,
                        hand.outcome,
                    )
            self.held.add(tid)
            if not await self.tournaments.take(tid):  # over meanwhile
                await self._let_go(tid)
                await self.leases.forget([str(tid)])
                return False
        except Exception as exc:  # the database away...: not ours then
            log.error("node %s could not take tournament %d: %s", self.name, tid, exc)
            await self._let_go(tid)
            return False
        self._orphaned_at.pop(tid, None)
        self.taken.append(tid)
        log.warning("node %s runs tournament %d now", self.name, tid)
        return True
