"""A table's players sent to the node that runs it (issue 30, item 6: routing).

Any node serves any table: one that does not run it relays its commands and events
over the bus (:mod:`stud8.server.bus.redis`). When the node that runs it has a
public address (``--public-url``, in its heartbeat), the node a player reached
instead answers his table's websocket with ``redirect`` to that address
(:class:`~stud8.server.wire.server.RedirectMessage`), and his client connects there
(``web/socket.js``), so a plain load balancer in front of the nodes still works and
the table's players end up where it runs. It relays as before when this node has
no public address itself (the room does not route), when the owner has none, when
the table is moving (its owner draining, or gone), and when the client asks to be
relayed (``?relay=1``: the owner's address did not answer him); and when Redis
cannot say where the owner is (the bus's link is down a moment).

A page may open a websocket only where its Content-Security-Policy lets it
(``connect-src``, :mod:`stud8.server.http.headers`): a routing node's pages also
name the public websocket origins of the room's nodes (:class:`PublicOrigins`, from
their heartbeats, noted at each of the node's rounds: no Redis read per answer), so
its players can follow a redirect. A page served before a node's address was known
cannot reach it, and is relayed (``web/socket.js``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol
from urllib.parse import urlsplit

from redis.exceptions import RedisError

from stud8.server.cluster.nodes import NodeInfo, Nodes

__all__ = ["Owners", "PublicOrigins", "Routing", "socket_origin", "socket_url"]


class Owners(Protocol):
    """Who runs each table (the room's directory: :class:`~stud8.server.bus.redis.RedisBus`)."""

    def owner(self, table_id: str) -> str | None: ...


def socket_url(public_url: str, table_id: str) -> str:
    """The websocket address of ``table_id`` at a node's public address."""
    base = public_url.rstrip("/")
    if base.startswith("https://"):
        base = "wss://" + base.removeprefix("https://")
    else:
        base = "ws://" + base.removeprefix("http://")
    return f"{base}/ws/v1/tables/{table_id}"


def socket_origin(public_url: str) -> str:
    """The origin of the websockets at a node's public address (``ws://host:port``,
    ``wss://`` behind https), as a page's ``connect-src`` names it."""
    where = urlsplit(socket_url(public_url, ""))
    return f"{where.scheme}://{where.netloc}"


class PublicOrigins:
    """The websocket origins of the room's nodes that have a public address, as their
    last heartbeats told: what this node's pages may connect to besides themselves.
    Noted at each of the node's rounds (:meth:`note`), read at every answer (a call)."""

    def __init__(self) -> None:
        self.origins: tuple[str, ...] = ()

    def note(self, live: Iterable[NodeInfo]) -> None:
        """The live nodes now (every heartbeat, this node's too)."""
        self.origins = tuple(sorted({socket_origin(n.url) for n in live if n.public}))

    def __call__(self) -> tuple[str, ...]:
        return self.origins


class Routing:
    """Where this node sends a table's players (see the module)."""

    def __init__(self, bus: Owners, nodes: Nodes) -> None:
        self.bus = bus
        self.nodes = nodes

    async def elsewhere(self, table_id: str) -> str | None:
        """The websocket address of ``table_id`` at the node that runs it, if its
        players go there; None: this node serves them (it runs the table, or relays)."""
        owner = self.bus.owner(table_id)
        if owner is None or owner == self.nodes.name:
            return None
        try:
            info = await self.nodes.info(owner)
        except (RedisError, OSError):
            return None  # not known now: relayed, as before routing
        if info is None or info.draining or not info.public:
            return None  # moving, gone, or not reachable from outside: relayed
        return socket_url(info.url, table_id)
