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
"""

from __future__ import annotations

from typing import Protocol

from redis.exceptions import RedisError

from stud8.server.cluster.nodes import Nodes

__all__ = ["Owners", "Routing", "socket_url"]


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
