"""A table's waiting list survives its owner node (:mod:`stud8.server.cluster.waitlists`):
after a drain, and after the owner stops without handing its tables over, the next
owner shows the same list in the same order (its snapshot, the lobby), the player
who was offered a seat is offered one again, the next free seat goes to the next
listed, and the list leaves Redis when the table closes.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import json
import time
from functools import partial
from pathlib import Path
from typing import Any

from redis.asyncio import Redis

from server.cluster.inprocess import SPEC, Node, cluster, operator, owner, until
from server.roomdb import fresh_database
from stud8.server.cluster.nodes import request_drain
from stud8.server.cluster.waitlists import waiting_key
from stud8.server.table.commands import Command, JoinWaitlist, Leave, Sit

WAIT = 30.0
# two seats, no hand for ten minutes (the seats change only when told to), an offer
# that outlasts the test
TABLE = {**SPEC, "table_id": "t1", "seats": 2, "between_hands": 600, "offer_seconds": 300}
PLAYERS = ("ann", "bob", "cat", "dan", "eve")


async def send(node: Node, command: Command) -> None:
    """Through the room's bus: to the table wherever it runs."""
    reply = await node.node.bus.send("t1", command)
    assert reply.ok, reply.reason


async def stored(redis_url: str) -> Any:
    async with Redis.from_url(redis_url) as redis:
        raw = await redis.get(waiting_key("t1"))
    return None if raw is None else json.loads(raw)


async def until_stored(redis_url: str, players: list[str] | None) -> None:
    began = time.monotonic()
    while (found := await stored(redis_url)) != players:
        assert time.monotonic() - began < WAIT, f"Redis holds {found}, not {players}"
        await asyncio.sleep(0.05)


async def a_table_with_a_waiting_list(a: Node, b: Node, redis_url: str) -> tuple[Node, Node]:
    """t1 full (ann, then bob: who leaves), cat, dan and eve waiting, seat 2 held for
    cat; (its owner, the other node)."""
    boss = await operator(a)
    r = await a.http.post("/api/v1/tables", json=TABLE, headers={"Authorization": f"Bearer {boss}"})
    assert r.status_code == 201, r.text
    home, away = (a, b) if await owner(redis_url, "t1") == "a" else (b, a)
    for name in PLAYERS:
        await away.player(name)
    await send(away, Sit(player="ann", seat=1, amount=100))
    await send(home, Sit(player="bob", seat=2, amount=100))
    for name in ("cat", "dan", "eve"):
        await send(away, JoinWaitlist(player=name))
    await send(away, Leave(player="bob"))
    offer = home.table("t1").waiting.offer
    assert offer is not None and (offer.seat, offer.player) == (2, "cat")
    await until_stored(redis_url, ["cat", "dan", "eve"])
    return home, away


async def the_list_lives_on(home: Node, away: Node, redis_url: str) -> None:
    """After t1 moved from ``home`` to ``away``: the same list, cat offered seat 2
    again, then the next seat to dan; the list gone from Redis when t1 closes."""
    await until("t1 on the other node", lambda: "t1" in away.lobby.tables)
    table = away.table("t1")
    assert table.waiting.players == ["cat", "dan", "eve"]
    snap = table.snapshot()
    assert snap.waiting_list == ("cat", "dan", "eve")
    assert snap.offer is not None and (snap.offer.seat, snap.offer.player) == (2, "cat")
    # what a player sees, through either node: the snapshot and the lobby
    for node in (home, away):
        token = await node.player(f"{node.node.name}-watcher")
        async with node.connect(token) as watcher:
            shown = await watcher.until(lambda m: m["t"] == "snapshot")
        assert shown["d"]["waiting_list"] == ["cat", "dan", "eve"], shown
        assert shown["d"]["offer"]["seat"] == 2 and shown["d"]["offer"]["player"] == "cat"
        await until(f"the lobby of {node.node.name}", partial(_lists, node, 3))
    # a seat held for cat: nobody else may take it
    refused = await home.node.bus.send("t1", Sit(player="eve", seat=2, amount=100))
    assert not refused.ok and "held for cat" in refused.reason
    await send(home, Sit(player="cat", seat=2, amount=100))
    assert table.waiting.players == ["dan", "eve"] and table.waiting.offer is None
    await until_stored(redis_url, ["dan", "eve"])  # the new owner keeps it
    await send(home, Leave(player="ann"))
    offer = table.waiting.offer
    assert offer is not None and (offer.seat, offer.player) == (1, "dan")
    # closed for good: its list leaves Redis
    boss = await operator(home)
    r = await home.http.delete("/api/v1/tables/t1", headers={"Authorization": f"Bearer {boss}"})
    assert r.status_code in (200, 204), r.text
    await until_stored(redis_url, None)


def _lists(node: Node, waiting: int) -> bool:
    """Whether the node's lobby lists t1 with ``waiting`` players waiting."""
    return [t["waiting"] for t in node.lobby.listing() if t["table_id"] == "t1"] == [waiting]


def test_the_waiting_list_survives_a_drain(tmp_path: Path, redis_url: str) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            home, away = await a_table_with_a_waiting_list(a, b, redis_url)
            async with Redis.from_url(redis_url) as redis:
                await request_drain(redis, home.node.name)
            await the_list_lives_on(home, away, redis_url)
            assert home.node.stats.handed_over == ["t1"]

    asyncio.run(asyncio.wait_for(main(), 120))


def test_the_waiting_list_survives_its_owner_stopping_without_a_hand_over(
    tmp_path: Path, redis_url: str
) -> None:
    """The owner goes (its tables left as they are, as after a crash that let its
    leases go); the other node takes the table from the database and the list from
    Redis. (A node killed outright: tests/server/cluster/test_failover.py.)"""
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            home, away = await a_table_with_a_waiting_list(a, b, redis_url)
            await home.node.stop(hand_over=False)
            await the_list_lives_on_elsewhere(away, redis_url)

    asyncio.run(asyncio.wait_for(main(), 120))


async def the_list_lives_on_elsewhere(away: Node, redis_url: str) -> None:
    await until("t1 on the other node", lambda: "t1" in away.lobby.tables)
    table = away.table("t1")
    assert table.waiting.players == ["cat", "dan", "eve"]
    offer = table.waiting.offer
    assert offer is not None and (offer.seat, offer.player) == (2, "cat")
    await send(away, Sit(player="cat", seat=2, amount=100))
    await send(away, Leave(player="ann"))
    offer = table.waiting.offer
    assert offer is not None and (offer.seat, offer.player) == (1, "dan")
    await until_stored(redis_url, ["dan", "eve"])
