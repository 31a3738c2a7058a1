"""Two nodes of one room: a table's observers are counted by its owner, also those
who watch it through the other node, and every node's lobby lists the same count.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.cluster.inprocess import SPEC, cluster, operator, owner
from server.http.test_lobby_observers import observers_reach
from server.roomdb import fresh_database


def test_viewers_through_either_node_are_counted_at_the_table_s_owner(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            boss = await operator(a)
            headers = {"Authorization": f"Bearer {boss}"}
            r = await a.http.post(
                "/api/v1/tables", json={"table_id": "t1", **SPEC}, headers=headers
            )
            assert r.status_code == 201, r.text
            home = await owner(redis_url, "t1")
            away, here = (b, a) if home == "a" else (a, b)
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
