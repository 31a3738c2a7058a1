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
"""

from __future__ import annotations

from collections.abc import Sequence

from redis.asyncio import Redis

from stud8.server.cluster import PREFIX

__all__ = ["LEASE_SECONDS", "Leases", "lease_key"]

LEASE_SECONDS = 5.0  # a dead owner's tables are free this long after its last renewal

_RENEW = """
local held = {}
for i, key in ipairs(KEYS) do
    local holder = redis.call('GET', key)
    if holder == ARGV[1] then
        redis.call('PEXPIRE', key, ARGV[2])
        held[i] = 1
    elseif holder == false then
        redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
        held[i] = 1
    else
        held[i] = 0
    end
end
return held
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


def lease_key(table_id: str) -> str:
    return f"{PREFIX}lease:{table_id}"


class Leases:
    """The leases of one node (``node``) on a Redis connection."""

    def __init__(self, redis: Redis, node: str, *, seconds: float = LEASE_SECONDS) -> None:
        if seconds <= 0:
            raise ValueError(f"a lease lasts more than 0 seconds, not {seconds}")
        self.redis = redis
        self.node = node
        self.ms = max(1, round(seconds * 1000))
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    async def acquire(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it; True if it is ours now."""
        taken = await self.redis.set(lease_key(table_id), self.node, nx=True, px=self.ms)
        return bool(taken)

    async def renew(self, table_ids: Sequence[str]) -> set[str]:
        """Extend the leases of ``table_ids`` that are still ours (take again those
        nobody holds); the ids of those another node holds now."""
        if not table_ids:
            return set()
        keys = [lease_key(t) for t in table_ids]
        held = await self._renew(keys=keys, args=[self.node, self.ms])
        return {t for t, ok in zip(table_ids, held, strict=True) if not ok}

    async def release(self, table_id: str) -> bool:
        """Give the table's lease up (if it is still ours); True if it was."""
        return bool(await self._release(keys=[lease_key(table_id)], args=[self.node]))

    async def owners(self, table_ids: Sequence[str]) -> dict[str, str | None]:
        """Who holds each table's lease now (None: nobody)."""
        if not table_ids:
            return {}
        values = await self.redis.mget([lease_key(t) for t in table_ids])
        return {
            t: (v.decode() if isinstance(v, bytes) else v)
            for t, v in zip(table_ids, values, strict=True)
        }
