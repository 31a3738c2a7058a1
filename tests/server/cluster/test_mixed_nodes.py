"""A mixed table on a room of two nodes: opened on one node, its rotation is in the
stored spec and on the bus (the other node's lobby lists it mixed, with its game
now); drained to the other node mid-rotation, it goes on with the game its stored
hands bring, so every hand of the table, on either node, is its turn's game.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from redis.asyncio import Redis

from server.cluster.inprocess import SPEC, cluster, operator, owner, until
from server.roomdb import fresh_database
from stud8.server.books.hands import HandStore
from stud8.server.cluster.nodes import request_drain
from stud8.server.storage import create_engine_for
from stud8.server.table.spec import TableSpec

MIXED = {"rotation": "stud_hi_lo+stud_high+razz", "rotation_hands": 2, "bots": 3, "bot_delay": 0}


def test_a_mixed_table_drained_to_another_node_goes_on_with_its_rotation(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)
    rotation = TableSpec(**MIXED).config("m1").rotation  # type: ignore[arg-type]
    assert rotation is not None

    async def main() -> tuple[int, int]:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            boss = await operator(a)
            r = await a.http.post(
                "/api/v1/tables",
                json={"table_id": "m1", **SPEC, **MIXED},
                headers={"Authorization": f"Bearer {boss}"},
            )
            assert r.status_code == 201, r.text
            home, away = (a, b) if await owner(redis_url, "m1") == "a" else (b, a)
            table = home.table("m1")
            await until("3 hands played", lambda: table.hands_played >= 3)
            # the other node's lobby: mixed, with the game the table plays now
            listed = (await away.http.get("/api/v1/tables")).json()["tables"]
            [row] = [t for t in listed if t["table_id"] == "m1"]
            assert row["mixed"] == "Triple Stud" and row["rules"]["rotation"] == MIXED["rotation"]
            assert row["game"] in {g.value for g in rotation.games}
            async with Redis.from_url(redis_url) as redis:
                await request_drain(redis, home.node.name)
            await until("taken over", lambda: "m1" in away.lobby.tables, 60)
            before = table.hands_played
            moved = away.table("m1")
            await until("2 hands played there", lambda: moved.hands_played >= 2, 60)
            assert away.node.stats.cancelled_hands == []
            return before, moved.hands_played

    before, after = asyncio.run(asyncio.wait_for(main(), 180))
    engine = create_engine_for(pg)
    try:
        hands = HandStore(engine)
        ids = list(reversed(hands.latest(200, table="m1")))
        assert len(ids) == hands.dealt_at("m1") >= before + 2
        for n, hand_id in enumerate(ids):  # on either node, each hand its turn's game
            record = hands.record(hand_id)
            assert record is not None and record.rules.game is rotation.game_of(n), n
            assert record.mixed == "Triple Stud"
    finally:
        engine.dispose()
    assert after >= 2
