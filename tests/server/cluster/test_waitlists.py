"""The tables' waiting lists in a real Redis (:mod:`stud8.server.cluster.waitlists`):
written at each change while this node holds the table's lease and never after,
kept when the table moves, deleted when it closes or empties; a value that is not a
list we wrote is read as no list."""

from __future__ import annotations

import asyncio
import json

import pytest
from redis.asyncio import Redis

from server.tableharness import Harness
from stud8.core.rules import TableRules
from stud8.server.bus.local import LocalBus
from stud8.server.cluster.leases import Leases
from stud8.server.cluster.waitlists import WaitingLists, waiting_key
from stud8.server.table.commands import JoinWaitlist, LeaveWaitlist, Sit
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableConfig, TableSpec


async def full_table(local: LocalBus) -> Harness:
    """t1 (two seats: ann and bob) on ``local``, started."""
    h = Harness()
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, max_seats=2)
    config = TableConfig(table_id="t1", rules=rules, min_buy_in=20, max_buy_in=200)
    h.table = Table(config, books=h.books, clock=h.clock)
    local.open(h.table, "t1", TableSpec(seats=2))
    h.table.start()
    for seat, player in ((1, "ann"), (2, "bob")):
        assert (await h.send(Sit(player=player, seat=seat, amount=100))).ok
    return h


async def listed(redis: Redis) -> object:
    raw = await redis.get(waiting_key("t1"))
    return None if raw is None else json.loads(raw)


def test_the_owner_writes_each_change_and_closing_deletes_it(redis_url: str) -> None:
    async def main() -> None:
        async with Redis.from_url(redis_url) as redis:
            assert await Leases(redis, "a").acquire("t1")
            local = LocalBus()
            lists = WaitingLists(redis, "a", local)
            lists.start()
            h = await full_table(local)
            try:
                for player in ("cat", "dan", "eve"):
                    assert (await h.send(JoinWaitlist(player=player))).ok
                assert (await h.send(LeaveWaitlist(player="dan"))).ok
                await lists.flush()
                assert await listed(redis) == ["cat", "eve"]
                assert await lists.read("t1") == ["cat", "eve"]
                for player in ("cat", "eve"):
                    assert (await h.send(LeaveWaitlist(player=player))).ok
                await lists.flush()
                assert await listed(redis) is None  # empty: no key
                assert (await h.send(JoinWaitlist(player="dan"))).ok
                await lists.flush()
                assert await listed(redis) == ["dan"]
                local.close("t1", moving=True)  # to another node: the list stays
                await lists.flush()
                assert await listed(redis) == ["dan"]
                local.open(h.table, "t1", TableSpec(seats=2))  # back
                local.close("t1")  # closed for good: the list goes
                await lists.flush()
                assert await listed(redis) is None
            finally:
                await h.table.stop()
                await lists.close()

    asyncio.run(asyncio.wait_for(main(), 30))


def test_a_node_without_the_lease_writes_nothing(redis_url: str) -> None:
    """A node that lost the table (another took it) cannot overwrite the list the
    new owner keeps."""

    async def main() -> None:
        async with Redis.from_url(redis_url) as redis:
            assert await Leases(redis, "b").acquire("t1")
            await redis.set(waiting_key("t1"), '["zed"]')
            local = LocalBus()
            lists = WaitingLists(redis, "a", local)
            lists.start()
            h = await full_table(local)
            try:
                assert (await h.send(JoinWaitlist(player="cat"))).ok
                await lists.flush()
                assert lists.writes == 1 and await listed(redis) == ["zed"]
            finally:
                await h.table.stop()
                await lists.close()

    asyncio.run(asyncio.wait_for(main(), 30))


@pytest.mark.parametrize(
    "raw",
    [
        b"not json",
        b'{"cat": 1}',
        b"[1, 2]",
        b'["cat", ""]',
        b'"cat"',
        b"\xff\xfe",
        json.dumps(["p"] * 1001).encode(),
    ],
)
def test_a_list_that_cannot_be_read_starts_empty(redis_url: str, raw: bytes) -> None:
    async def main() -> None:
        async with Redis.from_url(redis_url) as redis:
            await redis.set(waiting_key("t1"), raw)
            assert await WaitingLists(redis, "a", LocalBus()).read("t1") == []

    asyncio.run(main())


def test_the_table_does_not_wait_for_redis_when_it_is_away() -> None:
    """Redis away: the table's commands are answered at once, the write is tried
    again in the background, and a flush gives up after its time."""

    async def main() -> None:
        async with Redis.from_url("redis://127.0.0.1:9/0", socket_connect_timeout=0.2) as redis:
            local = LocalBus()
            lists = WaitingLists(redis, "a", local, retry=0.05)
            lists.start()
            h = await full_table(local)
            try:
                # answered, though the write is tried again and again (a table that
                # waited for it would never answer: the bound is room, not a claim)
                reply = await asyncio.wait_for(h.send(JoinWaitlist(player="cat")), 10)
                assert reply.ok
                await lists.flush(0.3)
                assert lists.writes == 0
            finally:
                await h.table.stop()
                local.close("t1", moving=True)
                await asyncio.wait_for(lists.close(), 10)

    asyncio.run(asyncio.wait_for(main(), 30))
