"""Table leases in a real Redis: one holder at a time, renewed only by its holder,
free again when its holder stops renewing or gives it up; the tables that want an
owner found without reading every lease (the due set).

A lease's time is Redis's (its TTL, and Redis's clock in the due set), not one a
test can hold: a lease's time running out is done to it (:func:`run_out`: its TTL
and its end brought to now), so no test waits on a short lease."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from stud8.server.cluster.leases import LEASES, Leases, lease_key


async def run_out(redis: Redis, table_id: str) -> None:
    """The lease of ``table_id`` runs out now (as LEASE_SECONDS after its last renewal)."""
    await redis.pexpire(lease_key(table_id), 1)
    await redis.zadd(LEASES, {table_id: 1}, xx=True)
    while await redis.exists(lease_key(table_id)):  # (Redis expires it in a millisecond)
        await asyncio.sleep(0.005)


async def near_its_end(redis: Redis, table_id: str) -> None:
    """The lease of ``table_id`` has a moment left (its TTL down to a second)."""
    assert await redis.pexpire(lease_key(table_id), 1000)


def test_one_node_at_a_time_holds_a_lease(redis_url: str) -> None:
    async def main() -> None:
        async with Redis.from_url(redis_url) as redis:
            one, two = Leases(redis, "n1", seconds=5), Leases(redis, "n2", seconds=5)
            assert await one.acquire("t1")
            assert not await two.acquire("t1")
            assert await two.acquire("t2")
            assert await one.owners(["t1", "t2", "t3"]) == {"t1": "n1", "t2": "n2", "t3": None}
            # only the holder renews or releases
            assert await one.renew(["t1", "t2"]) == {"t2"}
            assert not await two.release("t1")
            assert await one.owners(["t1"]) == {"t1": "n1"}
            assert await one.release("t1")
            assert await two.acquire("t1")
            assert await one.renew(["t1"]) == {"t1"}

    asyncio.run(main())


def test_a_lease_not_renewed_expires_and_a_renewed_one_does_not(redis_url: str) -> None:
    async def main() -> None:
        async with Redis.from_url(redis_url) as redis:
            one, two = Leases(redis, "n1", seconds=5), Leases(redis, "n2", seconds=5)
            assert await one.acquire("kept") and await one.acquire("dropped")
            for table_id in ("kept", "dropped"):
                await near_its_end(redis, table_id)
            assert await one.renew(["kept"]) == set()  # renewed in time: 5 s again
            assert 1000 < await redis.pttl(lease_key("kept")) <= 5000
            await run_out(redis, "dropped")  # not renewed: its time ran out
            assert await one.owners(["kept", "dropped"]) == {"kept": "n1", "dropped": None}
            assert await two.acquire("dropped")  # a dead holder's table is free
            assert not await two.acquire("kept")

    asyncio.run(main())


def test_a_lease_nobody_holds_is_taken_again_at_its_renewal(redis_url: str) -> None:
    """Redis restarted empty (or the lease expired and nobody took the table): the
    node that ran the table keeps it."""

    async def main() -> None:
        async with Redis.from_url(redis_url) as redis:
            one, two = Leases(redis, "n1", seconds=5), Leases(redis, "n2", seconds=5)
            assert await one.acquire("t1")
            await redis.flushall()
            assert await one.renew(["t1"]) == set()
            assert await one.owners(["t1"]) == {"t1": "n1"}
            assert not await two.acquire("t1")

    asyncio.run(main())


def test_only_the_tables_whose_lease_ran_out_or_was_released_are_due(redis_url: str) -> None:
    async def main() -> None:
        async with Redis.from_url(redis_url) as redis:
            one, two = Leases(redis, "n1", seconds=5), Leases(redis, "n2", seconds=5)
            await one.want(["new"])  # a new table: due at once
            assert await one.due() == ["new"]
            assert await one.acquire("new") and await one.acquire("dies")
            assert await two.acquire("lives") and await two.acquire("handed")
            assert await one.due() == []
            assert await two.release("handed")  # handed over: due at once
            assert await one.due() == ["handed"]
            await one.want(["handed", "lives"])  # known already: left as they are
            assert await one.due() == ["handed"]
            # n1 stops renewing "dies" (its time runs out); renews "new" in time
            await near_its_end(redis, "new")
            assert await one.renew(["new"]) == set()
            await run_out(redis, "dies")
            assert await two.renew(["lives"]) == set()
            assert sorted(await one.due()) == ["dies", "handed"]
            assert await two.acquire("dies")  # taken: no longer due
            assert await one.due() == ["handed"]
            await one.forget(["handed"])  # closed
            assert await one.due() == []
            # a lease taken again at its renewal (Redis emptied) is back in the set
            await redis.flushall()
            assert await two.renew(["lives"]) == set()
            assert await one.due() == [] and await redis.zscore(LEASES, "lives")

    asyncio.run(main())


def test_a_lease_lasts_some_time() -> None:
    with pytest.raises(ValueError, match="more than 0 seconds"):
        Leases(Redis(), "n1", seconds=0)
