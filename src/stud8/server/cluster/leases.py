"""Table leases: which node owns each table, in Redis, for a few seconds at a time.

A node that wants a table sets its lease key ``stud8:lease:<table>`` to its own
name, only if nobody holds it (``SET NX PX``), then takes the table over in the
database (:meth:`stud8.server.books.fencing.TableEpochs.take_over`). The owner
renews its leases well before they expire (:meth:`Leases.renew`, a Lua script that
extends a key only if it still names this node). A node that dies stops renewing:
its leases expire after :data:`LEASE_SECONDS` and other nodes take its tables.

A lease is a promise among live nodes, not a guarantee: a node paused past its
TTL may still believe it owns a table. That is why every write of a table's books
is fenced by the epoch in the database; the lease only decides, quickly and
without the database, who should run the table and where its players are sent.

Renewing, releasing and asking go through small Lua scripts so that "is it still
mine?" and "extend it" are one atomic step in Redis. A lease found missing at its
renewal (Redis restarted empty, or it expired while this node was slow and nobody
took the table) is taken again: if another node took the table meanwhile, the
key names it and this node lets the table go; if another node took the table and
let it go again in between, the epoch in the database still fences this node.

**Which tables want an owner** is kept beside the leases, so that a node need not
read every lease of the room each second to find them: the sorted set
``stud8:leases`` holds every table's id scored with the time (Redis's clock, in ms)
its lease runs out, moved on by each renewal in the same script. A released lease
is scored 0, and so is a new table (:meth:`Leases.want`). The tables whose score
has passed (:meth:`Leases.due`: one ``ZRANGEBYSCORE``, however many tables the room
has) are the only ones that may have no owner; their lease keys say which really
have none. A table missing from the set (Redis restarted empty and its owner died
meanwhile) is found by the nodes' slow full scan (:mod:`stud8.server.cluster.node`).
"""

from __future__ import annotations

from collections.abc import Sequence

from redis.asyncio import Redis

from stud8.server.cluster import PREFIX

__all__ = [
    "LEASES",
    "LEASE_SECONDS",
    "TOURNAMENT_LEASES",
    "Leases",
    "lease_key",
    "tournament_leases",
]

LEASE_SECONDS = 5.0  # a dead owner's tables are free this long after its last renewal
LEASES = f"{PREFIX}leases"  # sorted set: each table's id, scored with its lease's end (ms)
# the tournaments' leases, the same way: ``stud8:tlease:<id>`` and their sorted set
TOURNAMENT_LEASES = f"{PREFIX}tleases"
TOURNAMENT_LEASE = f"{PREFIX}tlease:"

# Redis's clock in ms, for the expiries in the sorted set (the nodes' clocks may differ)
_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""

_ACQUIRE = (
    _NOW
    + """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[3])
    return 1
end
return 0
"""
)

# KEYS: the sorted set, then the lease keys; ARGV: the node, the ms, then the table ids
_RENEW = (
    _NOW
    + """
local held = {}
local ends = now + tonumber(ARGV[2])
for i = 2, #KEYS do
    local key = KEYS[i]
    local holder = redis.call('GET', key)
    if holder == ARGV[1] then
        redis.call('PEXPIRE', key, ARGV[2])
        redis.call('ZADD', KEYS[1], ends, ARGV[i + 1])
        held[i - 1] = 1
    elseif holder == false then
        redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
        redis.call('ZADD', KEYS[1], ends, ARGV[i + 1])
        held[i - 1] = 1
    else
        held[i - 1] = 0
    end
end
return held
"""
)

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    redis.call('ZADD', KEYS[2], 0, ARGV[2])
    return redis.call('DEL', KEYS[1])
end
return 0
"""

_DUE = (
    _NOW
    + """
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, ARGV[1])
"""
)


def lease_key(table_id: str) -> str:
    return f"{PREFIX}lease:{table_id}"


class Leases:
    """The leases of one node (``node``) on a Redis connection: the tables', or
    with ``key_prefix`` and ``ends`` another kind's (:func:`tournament_leases`)."""

    def __init__(
        self,
        redis: Redis,
        node: str,
        *,
        seconds: float = LEASE_SECONDS,
        key_prefix: str = f"{PREFIX}lease:",
        ends: str = LEASES,
    ) -> None:
        if seconds <= 0:
            raise ValueError(f"a lease lasts more than 0 seconds, not {seconds}")
        self.redis = redis
        self.node = node
        self.key_prefix = key_prefix
        self.ends = ends
        self.ms = max(1, round(seconds * 1000))
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._due = redis.register_script(_DUE)

    async def acquire(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it; True if it is ours now."""
        taken = await self._acquire(
            keys=[self.key_prefix + table_id, self.ends], args=[self.node, self.ms, table_id]
        )
        return bool(taken)

    async def renew(self, table_ids: Sequence[str]) -> set[str]:
        """Extend the leases of ``table_ids`` that are still ours (take again those
        nobody holds); the ids of those another node holds now."""
        if not table_ids:
            return set()
        keys = [self.ends, *(self.key_prefix + t for t in table_ids)]
        held = await self._renew(keys=keys, args=[self.node, self.ms, *table_ids])
        return {t for t, ok in zip(table_ids, held, strict=True) if not ok}

    async def release(self, table_id: str) -> bool:
        """Give the table's lease up (if it is still ours: it wants an owner at once);
        True if it was."""
        return bool(
            await self._release(
                keys=[self.key_prefix + table_id, self.ends], args=[self.node, table_id]
            )
        )

    async def owners(self, table_ids: Sequence[str]) -> dict[str, str | None]:
        """Who holds each table's lease now (None: nobody)."""
        if not table_ids:
            return {}
        values = await self.redis.mget([self.key_prefix + t for t in table_ids])
        return {
            t: (v.decode() if isinstance(v, bytes) else v)
            for t, v in zip(table_ids, values, strict=True)
        }

    async def want(self, table_ids: Sequence[str]) -> None:
        """These tables want an owner now (new, or found without one), unless the
        set already has them."""
        if table_ids:
            await self.redis.zadd(self.ends, dict.fromkeys(table_ids, 0), nx=True)

    async def due(self, limit: int = 1000) -> list[str]:
        """The tables whose lease has run out or was released (at most ``limit``,
        the longest due first): the only ones that may have no owner."""
        found = await self._due(keys=[self.ends], args=[limit])
        return [v.decode() if isinstance(v, bytes) else str(v) for v in found]

    async def forget(self, table_ids: Sequence[str]) -> None:
        """These tables are closed: no owner wanted."""
        if table_ids:
            await self.redis.zrem(self.ends, *table_ids)


def tournament_leases(redis: Redis, node: str, *, seconds: float = LEASE_SECONDS) -> Leases:
    """The leases of the tournaments (a tournament's id as text): one owner node at
    a time, as for a table (:mod:`stud8.server.cluster.tournaments`)."""
    return Leases(redis, node, seconds=seconds, key_prefix=TOURNAMENT_LEASE, ends=TOURNAMENT_LEASES)
