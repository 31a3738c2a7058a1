"""``stud8 admin drain NODE --undo``: a node already draining stops handing tables
away and takes tables again (a drain called off, say, when the upgrade is put off).

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from redis.asyncio import Redis

from server.cluster.inprocess import SPEC, Node, cluster, operator, owner, rounds, until
from server.roomdb import fresh_database
from stud8.server.admin import run_drain
from stud8.server.cluster.nodes import Nodes, cancel_drain, request_drain

WAIT = 20.0


async def until_beat(redis_url: str, name: str, *, draining: bool) -> None:
    """Until the node's heartbeat says it (the other nodes place tables by it)."""
    async with Redis.from_url(redis_url) as redis:
        nodes = Nodes(redis, "test", url="")
        began = time.monotonic()
        while not any(n.name == name and n.draining == draining for n in await nodes.live()):
            assert time.monotonic() - began < WAIT, f"{name}'s heartbeat: draining {not draining}"
            await asyncio.sleep(0.05)


async def open_table(node: Node, table_id: str) -> None:
    boss = await operator(node)
    r = await node.http.post(
        "/api/v1/tables",
        json={"table_id": table_id, **SPEC},
        headers={"Authorization": f"Bearer {boss}"},
    )
    assert r.status_code == 201, r.text


def test_an_undone_drain_stops_the_hand_over_and_the_node_takes_tables_again(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            async with Redis.from_url(redis_url) as redis:
                await request_drain(redis, "a")
            await until("draining", lambda: a.node.draining)
            await open_table(b, "t1")  # a drains: the new table goes to b
            assert await owner(redis_url, "t1") == "b"
            # the operator calls the drain off (the command, as he would type it)
            assert await asyncio.to_thread(run_drain, redis_url, "a", undo=True) == 0
            await until("serving again", lambda: not a.node.draining)
            await until_beat(redis_url, "a", draining=False)
            # a runs no table, b one: the next table goes to a, and a keeps it
            await open_table(b, "t2")
            assert await owner(redis_url, "t2") == "a"
            await rounds(a, 3)
            assert "t2" in a.lobby.tables and a.node.stats.handed_over == []
            assert await owner(redis_url, "t2") == "a"

    asyncio.run(asyncio.wait_for(main(), 90))


def test_a_drain_undone_while_a_table_is_handed_over_hands_no_other_table_away(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b), Redis.from_url(redis_url) as redis:
            await request_drain(redis, "b")  # so that both tables go to a
            await until("b draining", lambda: b.node.draining)
            await open_table(b, "t1")
            await open_table(b, "t2")
            assert sorted(a.lobby.tables) == ["t1", "t2"]
            await cancel_drain(redis, "b")
            await request_drain(redis, "a")  # one table at a time, a round apart
            await until("a table handed over", lambda: len(a.node.stats.handed_over) == 1)
            await cancel_drain(redis, "a")  # before the next round's
            await until("serving again", lambda: not a.node.draining)
            await rounds(a, 3)
            # the other table stayed: the drain was called off before its turn came
            assert len(a.node.stats.handed_over) == 1 and len(a.lobby.tables) == 1
            assert not b.node.draining and len(b.lobby.tables) == 1

    asyncio.run(asyncio.wait_for(main(), 90))
