"""A node of several, wired into the room (:func:`stud8.server.runtime.room_app`).

A node is the room of one process plus its cluster parts: :class:`NodeParts` (its
name, Redis, the database it shares) given to ``room_app``, which wires them with
:class:`NodeWiring` where one process has its own: the bus across the nodes in
place of the local one (this node's tables stay on the local bus), the node's
round placing and taking the tables in place of the tables of the last run, the
tournaments' owner nodes, the log-in limits every node counts together, and the
nodes in the operator's console. Whatever else the room has (the edge, the
lobby, the books, the chat, the console, a new feature), a node has because it
is the same assembly.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import Engine

from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger
from stud8.server.books.seats import TableStore
from stud8.server.books.tournaments import TournamentStore
from stud8.server.books.writer import RoomWriter
from stud8.server.bus.channels import PREFIX
from stud8.server.bus.local import LocalBus
from stud8.server.http.guard import AccountGuard
from stud8.server.http.services import RoomServices
from stud8.server.settings import Settings
from stud8.server.table.spec import TableSpec
from stud8.server.tournaments.manager import Tournaments

if TYPE_CHECKING:  # (Redis and the cluster's parts are imported when a node opens)
    from redis.asyncio import Redis

    from stud8.server.books.fencing import TableEpochs
    from stud8.server.cluster.node import ClusterNode
    from stud8.server.cluster.tournaments import ClusterTournaments

__all__ = ["BOT_BLOCK", "BOT_COUNTER", "FIRST_START", "NodeParts", "NodeWiring"]

log = logging.getLogger("stud8.server")

BOT_COUNTER = f"{PREFIX}bot-numbers"
BOT_BLOCK = 100_000  # bot numbers a node takes for itself at its start
FIRST_START = f"{PREFIX}first-start"


@dataclass(frozen=True)
class NodeParts:
    """What a node of several adds to the room (:func:`open_cluster_room`): its name,
    Redis (the bus between the nodes, the leases, the heartbeats, the limits every
    node counts together) and the database it shares with the others. Everything
    else is the room's own, wired by :func:`room_app` as for one process."""

    name: str
    redis: Redis
    redis_url: str
    url: str  # where the other nodes and the operator's console find this node
    public: bool  # url is its public address (--public-url): players are sent there
    epochs: TableEpochs  # the tables' fencing: a table moved on cannot write here
    engine: Engine
    ledger: Ledger
    hands: HandStore
    tables: TableStore
    first_bot: int  # the first bot number nobody had when this node opened


class NodeWiring:
    """A node's parts wired into the room: the bus across the nodes (its tables on
    ``local``), the node's round (it takes and places the tables), its tournaments'
    owners, its console and the shared limits."""

    def __init__(self, parts: NodeParts, local: LocalBus) -> None:
        from stud8.server.bus.redis import RedisBus
        from stud8.server.cluster.nodes import Nodes

        self.parts = parts
        self.local = local
        self.bus = RedisBus(parts.redis, parts.name, local, url=parts.redis_url)
        self.nodes = Nodes(parts.redis, parts.name, url=parts.url, public=parts.public)
        self.owners: ClusterTournaments | None = None
        self.node: ClusterNode | None = None

    def guard_for(self, limits: Settings) -> AccountGuard:
        """Every node counts the log-ins and sign-ups together."""
        from stud8.server.cluster import PREFIX as CLUSTER_PREFIX
        from stud8.server.http.sharedguard import SharedGuard

        return SharedGuard(self.parts.redis, limits, prefix=CLUSTER_PREFIX)

    def tournaments(self, writer: RoomWriter, store: TournamentStore) -> ClusterTournaments:
        """The tournaments' owner nodes: each run by one node at a time, its tables on
        that node's bus."""
        from stud8.server.books.fencing import TournamentEpochs
        from stud8.server.cluster.leases import tournament_leases
        from stud8.server.cluster.tournaments import ClusterTournaments

        parts = self.parts
        self.owners = ClusterTournaments(
            bus=self.bus,
            leases=tournament_leases(parts.redis, parts.name),
            nodes=self.nodes,
            epochs=TournamentEpochs(parts.engine, parts.name),
            writer=writer,
            ledger=parts.ledger,
            hands=parts.hands,
            store=store,
        )
        return self.owners

    def serve(self, room: RoomServices, spec: TableSpec, tournaments: Tournaments | None) -> None:
        """The node's round for ``room``: started with the app, stopped (its tables
        and tournaments handed over) before the writer drains."""
        from stud8.server.cluster.console import ClusterConsole
        from stud8.server.cluster.leases import Leases
        from stud8.server.cluster.node import ClusterNode
        from stud8.server.cluster.routing import PublicOrigins, Routing
        from stud8.server.cluster.waitlists import WaitingLists

        parts, lobby, redis = self.parts, room.lobby, self.parts.redis
        settings = room.settings
        # its players go to their table's node: its pages may connect to the nodes
        routes = settings.public_url is not None
        origins = PublicOrigins() if routes else None
        if tournaments is not None and self.owners is not None:
            self.owners.attach(tournaments)
        node = ClusterNode(
            lobby=lobby,
            bus=self.bus,
            leases=Leases(redis, parts.name),
            nodes=self.nodes,
            epochs=parts.epochs,
            ledger=parts.ledger,
            hands=parts.hands,
            tables=parts.tables,
            tournaments=self.owners,
            waiting=WaitingLists(redis, parts.name, self.local),
            origins=origins,
        )
        lobby.placement = node
        self.node = node

        async def start() -> None:
            # bots are named from a room-wide counter: two nodes never make the same bot
            first_bot = parts.first_bot
            await redis.set(BOT_COUNTER, first_bot - 1, nx=True)
            last = await redis.incrby(BOT_COUNTER, BOT_BLOCK)
            lobby.number_bots_from(max(first_bot, last - BOT_BLOCK + 1))
            await node.start()
            # the ready tables, on the room's first start only (one node makes them)
            had_tables = await asyncio.to_thread(parts.tables.tables)
            if not had_tables and await redis.set(FIRST_START, parts.name, nx=True):
                for _ in range(settings.default_tables):
                    table_id = await lobby.open_table(spec)
                    log.info("table %s is open with %d bots", table_id, spec.bots)

        async def stop() -> None:
            await node.stop(hand_over=True)
            await redis.aclose()

        room.startup.append(start)
        room.shutdown.append(stop)
        if origins is not None:
            room.route = Routing(self.bus, self.nodes).elsewhere
            room.socket_origins = origins
        room.nodes = ClusterConsole(self.nodes, Leases(redis, parts.name), self.bus.directory())
