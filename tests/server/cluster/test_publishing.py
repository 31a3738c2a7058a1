"""A table's events go to Redis only while another node follows it
(:mod:`stud8.server.bus.own`): nothing published while every viewer is on the
table's own node, and nothing lost by a viewer who comes through another node, or
leaves and comes back.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.cluster.inprocess import Node, cluster, open_t1, operator
from server.http.test_metrics import samples
from server.roomclient import Client, Msg, passive, play, sit
from server.roomdb import fresh_database

UNPUBLISHED = "stud8_bus_events_unpublished_total"
OUT = 'stud8_bus_messages_total{direction="out"}'


def finished(msg: Msg) -> bool:
    return bool(msg["t"] == "event" and msg["d"]["k"] == "hand_finish")


async def watch_a_hand(viewer: Client, players: tuple[Client, Client]) -> None:
    """The two players play a hand out while ``viewer`` (on the other node) sees it
    end; his client checks every event came, in order."""
    await asyncio.gather(*(play(c, 1, passive) for c in players), viewer.until(finished, 30))


def test_events_go_to_redis_only_while_another_node_follows_the_table(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            boss = await operator(a)
            auth = {"Authorization": f"Bearer {boss}"}
            here, away = await open_t1((a, b), redis_url, auth)

            async def metrics(node: Node) -> dict[str, float]:
                return samples((await node.http.get("/metrics", headers=auth)).text)

            bob, cat = await here.player("bob"), await here.player("cat")
            ann = await away.player("ann")
            async with here.connect(bob) as c1, here.connect(cat) as c2:
                await sit(here, c1, 1)
                await sit(here, c2, 2)
                await asyncio.gather(play(c1, 1, passive), play(c2, 1, passive))
                alone = await metrics(here)
                # the first event's PUBLISH told nobody heard it; the rest stayed here
                assert alone[UNPUBLISHED] > 10, alone

                for visit in range(2):  # she watches, leaves, and comes back
                    async with away.connect(ann) as watcher:
                        snap = await watcher.until(lambda m: m["t"] == "snapshot")
                        assert snap["v"] > 0
                        before = await metrics(here)  # (she was caught up: published since)
                        await watch_a_hand(watcher, (c1, c2))
                        during = await metrics(here)
                        assert during[UNPUBLISHED] == before[UNPUBLISHED], (visit, during)
                        assert during[OUT] > before[OUT] + 10
                        seen = [m["v"] for m in watcher.messages if m["t"] == "event"]
                        assert seen == list(range(snap["v"] + 1, snap["v"] + 1 + len(seen)))
                    # gone: the next events are answered "nobody", and kept here again
                    await asyncio.gather(play(c1, 1, passive), play(c2, 1, passive))
                    after = await metrics(here)
                    assert after[UNPUBLISHED] > during[UNPUBLISHED] + 10, (visit, after)
            r = await here.http.delete("/api/v1/tables/t1", headers=auth)
            assert r.status_code == 200, r.text

    asyncio.run(asyncio.wait_for(main(), 120))
