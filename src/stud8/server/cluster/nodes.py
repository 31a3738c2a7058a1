"""The room's live nodes: a heartbeat each, in Redis, and where new tables go.

Every node writes its heartbeat ``stud8:node:<name>`` (its address, how many tables
it runs, whether it is draining) every second or so, with a TTL of
:data:`~stud8.server.cluster.leases.LEASE_SECONDS`: a node whose key is gone is
dead. :func:`least_loaded` picks where a table without an owner goes: the live node
that is not draining and runs the fewest tables (ties broken by name, so that every
node, asking the same question, gets the same answer and only one of them tries).

An operator drains a node (``stud8 admin drain NODE``) by setting
``stud8:drain:<name>``; the node reads it at its next heartbeat
(:meth:`Nodes.draining`), stops taking tables and hands over its own between hands.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass

from redis.asyncio import Redis

from stud8.server.cluster import PREFIX
from stud8.server.cluster.leases import LEASE_SECONDS

__all__ = ["NodeInfo", "Nodes", "drain_key", "least_loaded", "node_key"]


def node_key(name: str) -> str:
    return f"{PREFIX}node:{name}"


def drain_key(name: str) -> str:
    return f"{PREFIX}drain:{name}"


@dataclass(frozen=True, slots=True)
class NodeInfo:
    """A live node as its last heartbeat told."""

    name: str
    url: str  # where a player's client may reach it (http://host:port)
    tables: int
    draining: bool
    beat_at: float  # its wall clock at the heartbeat (Unix seconds)
    # url is its public address (--public-url): the other nodes send its tables'
    # players there (else they relay them)
    public: bool = False

    def to_json(self) -> str:
        data: dict[str, object] = {
            "url": self.url,
            "tables": self.tables,
            "draining": self.draining,
            "beat_at": self.beat_at,
        }
        if self.public:
            data["public"] = True
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, name: str, text: str | bytes) -> NodeInfo:
        data = json.loads(text)
        return cls(
            name,
            str(data["url"]),
            int(data["tables"]),
            bool(data["draining"]),
            float(data["beat_at"]),
            bool(data.get("public", False)),
        )


def least_loaded(nodes: Iterable[NodeInfo]) -> NodeInfo | None:
    """The node a new or orphaned table goes to (see the module); None if every
    live node is draining."""
    candidates = [n for n in nodes if not n.draining]
    return min(candidates, key=lambda n: (n.tables, n.name), default=None)


class Nodes:
    """This node's heartbeat, and what it knows of the others."""

    def __init__(
        self,
        redis: Redis,
        name: str,
        *,
        url: str,
        seconds: float = LEASE_SECONDS,
        public: bool = False,
    ) -> None:
        self.redis = redis
        self.name = name
        self.url = url
        self.public = public  # url is the node's public address (its players go there)
        self.ms = max(1, round(seconds * 1000))

    async def beat(self, *, tables: int, draining: bool) -> None:
        info = NodeInfo(self.name, self.url, tables, draining, time.time(), self.public)
        await self.redis.set(node_key(self.name), info.to_json(), px=self.ms)

    async def leave(self) -> None:
        """This node stops (cleanly): it is no longer live."""
        await self.redis.delete(node_key(self.name))

    async def draining(self) -> bool:
        """Has an operator asked this node to drain?"""
        return bool(await self.redis.exists(drain_key(self.name)))

    async def info(self, name: str) -> NodeInfo | None:
        """Node ``name``'s last heartbeat (None: it is not live)."""
        value = await self.redis.get(node_key(name))
        return None if value is None else NodeInfo.from_json(name, value)

    async def live(self) -> list[NodeInfo]:
        """Every live node (its heartbeat not expired), by name."""
        names: list[str] = []
        async for key in self.redis.scan_iter(match=f"{PREFIX}node:*", count=1000):
            text = key.decode() if isinstance(key, bytes) else str(key)
            names.append(text.removeprefix(f"{PREFIX}node:"))
        if not names:
            return []
        values = await self.redis.mget([node_key(n) for n in names])
        found = [
            NodeInfo.from_json(name, value)
            for name, value in zip(names, values, strict=True)
            if value is not None
        ]
        return sorted(found, key=lambda n: n.name)


async def request_drain(redis: Redis, name: str) -> None:
    """Ask node ``name`` to drain (``stud8 admin drain``); it stays drained until
    :func:`cancel_drain` (a node restarted after an upgrade is told to serve again)."""
    await redis.set(drain_key(name), "1")


async def cancel_drain(redis: Redis, name: str) -> None:
    await redis.delete(drain_key(name))
