"""A node that drains, or stops cleanly, with a hand in play that outlasts a table's
lease (its players gone, their turns run out on the clock): the node keeps the
lease while the hand plays out, so no other node takes the table and cancels the
hand, and the node lets the table go as soon as the hand has ended (not after the
longest a hand-over may wait).

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from redis.asyncio import Redis

from server.cluster.inprocess import SPEC, Node, cluster, operator, owner
from server.roomclient import sit
from server.roomdb import fresh_database
from stud8.server.books.ledger import Ledger
from stud8.server.cluster.leases import LEASE_SECONDS
from stud8.server.cluster.node import HAND_OVER_SECONDS
from stud8.server.cluster.nodes import request_drain
from stud8.server.storage import create_engine_for

# two turns timed out (the bring-in, then a fold facing it) take 12 s: more than a
# lease, far less than the longest a hand-over waits
ACTION_SECONDS = 6
CLOCK = {"action_seconds": ACTION_SECONDS, "time_bank_seconds": 0, "reconnect_seconds": 0}
assert 2 * ACTION_SECONDS > LEASE_SECONDS + 2 and 2 * ACTION_SECONDS < HAND_OVER_SECONDS / 4


async def a_hand_left_in_play(a: Node, b: Node, redis_url: str) -> tuple[Node, Node, str]:
    """Table t1 with a hand dealt whose two players have gone; (its owner, the other
    node, the hand's id)."""
    boss = await operator(a)
    r = await a.http.post(
        "/api/v1/tables",
        json={"table_id": "t1", **SPEC, **CLOCK},
        headers={"Authorization": f"Bearer {boss}"},
    )
    assert r.status_code == 201, r.text
    home, away = (a, b) if await owner(redis_url, "t1") == "a" else (b, a)
    ann, bob = await away.player("ann"), await home.player("bob")
    async with away.connect(ann) as c1, home.connect(bob) as c2:
        await sit(away, c1, 1)
        await sit(home, c2, 2)
        start = await c1.until(lambda m: m["t"] == "event" and m["d"]["k"] == "hand_start")
    # both gone: the hand goes on, each turn timed out after ACTION_SECONDS
    table = home.table("t1")
    assert table.hand is not None and table.hand.hand_id == start["d"]["hand_id"]
    return home, away, start["d"]["hand_id"]


def settled(pg: str, hand_id: str) -> str | None:
    engine = create_engine_for(pg)
    try:
        ledger = Ledger(engine)
        assert ledger.audit().ok
        done = ledger.hand_transaction(hand_id)
        return None if done is None else done[1]
    finally:
        engine.dispose()


def test_a_drained_node_keeps_the_lease_while_a_hand_outlasting_it_plays_out(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> str:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            home, away, hand_id = await a_hand_left_in_play(a, b, redis_url)
            async with Redis.from_url(redis_url) as redis:
                await request_drain(redis, home.node.name)
            began = time.monotonic()
            while "t1" not in away.lobby.tables:
                assert time.monotonic() - began < HAND_OVER_SECONDS / 2, "not handed over"
                await asyncio.sleep(0.1)
            assert await owner(redis_url, "t1") == away.node.name
            # the hand was played out on the drained node, not cancelled by the other
            assert home.node.stats.handed_over == ["t1"] and home.node.stats.lost == []
            assert away.node.stats.taken == ["t1"] and away.node.stats.cancelled_hands == []
            return hand_id

    hand_id = asyncio.run(asyncio.wait_for(main(), 120))
    assert settled(pg, hand_id) == "hand_settlement"


def test_a_node_stopped_cleanly_keeps_the_lease_until_its_hand_ends_then_stops(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> tuple[str, float]:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            home, away, hand_id = await a_hand_left_in_play(a, b, redis_url)
            began = time.monotonic()
            await home.stop()
            stopped = time.monotonic() - began
            assert home.node.stats.handed_over == ["t1"] and home.node.stats.lost == []
            while "t1" not in away.lobby.tables:
                assert time.monotonic() - began < HAND_OVER_SECONDS / 2, "not taken"
                await asyncio.sleep(0.1)
            assert away.node.stats.cancelled_hands == []
            return hand_id, stopped

    hand_id, stopped = asyncio.run(asyncio.wait_for(main(), 120))
    assert settled(pg, hand_id) == "hand_settlement"
    # the stop waited for the hand (settled, above: two turns on the clock), not a
    # hand-over's limit (the bound is that, with room for a busy machine)
    assert stopped < HAND_OVER_SECONDS / 2, stopped
