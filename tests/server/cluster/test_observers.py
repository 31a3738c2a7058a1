"""Two nodes of one room: a table's observers are counted by its owner, also those
who watch it through the other node, and every node's lobby lists the same count; a
node killed, its viewers stop counting within its heartbeat's TTL and a round.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import httpx

from server.cluster.clusterprocess import Player, nodes
from server.cluster.inprocess import cluster, open_t1, operator
from server.cluster.test_failover import open_room
from server.http.test_lobby_observers import observers_reach
from server.roomdb import fresh_database
from stud8.server.cluster.leases import LEASE_SECONDS
from stud8.server.cluster.node import TICK_SECONDS


def test_viewers_through_either_node_are_counted_at_the_table_s_owner(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            boss = await operator(a)
            headers = {"Authorization": f"Bearer {boss}"}
            here, away = await open_t1((a, b), redis_url, headers)
            ann = await away.player("ann")
            async with away.connect(), away.connect(ann):
                for node in (a, b):
                    await observers_reach(node.http, 2)
                async with here.connect():
                    for node in (a, b):
                        await observers_reach(node.http, 3)
                for node in (a, b):
                    await observers_reach(node.http, 2)
            for node in (a, b):
                await observers_reach(node.http, 0)
            # closed, so that the nodes stop with no table to hand over
            r = await away.http.delete("/api/v1/tables/t1", headers=headers)
            assert r.status_code == 200, r.text

    asyncio.run(asyncio.wait_for(main(), 90))


def test_a_dead_node_s_viewers_stop_counting(tmp_path: Path, redis_url: str) -> None:
    """Ann, and bob in one of his two windows, watch t1 through the node that does not
    run it; that node is killed (SIGKILL: it says nothing). The owner stops counting
    them once the dead node's heartbeat has expired, and only them: bob's window on
    the owner's node still counts, and when it closes the count is 0, not less."""
    pg = fresh_database("postgresql", tmp_path)
    with nodes(pg, redis_url, tmp_path, ("a", "b")) as servers:
        home, away, tokens = open_room(servers, redis_url)

        async def main() -> float:
            async with httpx.AsyncClient(base_url=servers[home].base) as http:
                ann = await Player.connect(servers[away], "t1", "ann", tokens["ann"])
                bob = await Player.connect(servers[away], "t1", "bob", tokens["bob"])
                here = await Player.connect(servers[home], "t1", "bob", tokens["bob"])
                await observers_reach(http, 3)
                killed = time.monotonic()
                servers[away].process.send_signal(signal.SIGKILL)
                await observers_reach(http, 1)
                took = time.monotonic() - killed
                await asyncio.sleep(2 * TICK_SECONDS)  # no more is taken off
                await observers_reach(http, 1)
                await here.close()
                await observers_reach(http, 0)
                for player in (ann, bob):
                    await player.close()
                return took

        took = asyncio.run(asyncio.wait_for(main(), 90))
        # the heartbeat's TTL, the owner's round, the lobby's second (and the kill)
        assert took < LEASE_SECONDS + 2 * TICK_SECONDS + 2, took
        print(f"a dead node's viewers stopped counting after {took:.1f} s")
