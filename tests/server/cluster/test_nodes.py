"""The live nodes: heartbeats that expire, the drain flag, and where a table goes."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from stud8.server.cluster.nodes import (
    NodeInfo,
    Nodes,
    cancel_drain,
    least_loaded,
    node_key,
    request_drain,
)


def test_live_nodes_are_those_whose_heartbeat_has_not_expired(redis_url: str) -> None:
    async def main() -> None:
        async with Redis.from_url(redis_url) as redis:
            a = Nodes(redis, "a", url="http://127.0.0.1:8001", seconds=5)
            b = Nodes(redis, "b", url="http://127.0.0.1:8002", seconds=5)
            await a.beat(tables=3, draining=False)
            await b.beat(tables=1, draining=False)
            live = await a.live()
            assert [(n.name, n.url, n.tables) for n in live] == [
                ("a", "http://127.0.0.1:8001", 3),
                ("b", "http://127.0.0.1:8002", 1),
            ]
            # b stopped beating: its heartbeat's time runs out (done to it, not waited for)
            await redis.pexpire(node_key("b"), 1)
            while await redis.exists(node_key("b")):
                await asyncio.sleep(0.005)
            assert [n.name for n in await a.live()] == ["a"]
            await a.leave()
            assert await a.live() == []

    asyncio.run(main())


def test_an_operator_drains_a_node_until_told_otherwise(redis_url: str) -> None:
    async def main() -> None:
        async with Redis.from_url(redis_url) as redis:
            a = Nodes(redis, "a", url="http://127.0.0.1:8001")
            assert not await a.draining()
            await request_drain(redis, "a")
            assert await a.draining()
            await cancel_drain(redis, "a")
            assert not await a.draining()

    asyncio.run(main())


def node(name: str, tables: int, draining: bool = False) -> NodeInfo:
    return NodeInfo(name, f"http://{name}", tables, draining, 0.0)


def test_a_table_goes_to_the_least_loaded_node_that_is_not_draining() -> None:
    assert least_loaded([node("a", 3), node("b", 1), node("c", 1)]) == node("b", 1)
    assert least_loaded([node("a", 3), node("b", 0, draining=True)]) == node("a", 3)
    assert least_loaded([node("a", 0, draining=True)]) is None
    assert least_loaded([]) is None
    info = node("a", 2, draining=True)
    assert NodeInfo.from_json("a", info.to_json()) == info
