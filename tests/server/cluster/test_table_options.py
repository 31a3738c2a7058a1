"""A table with every option of RULES.md away from its default, in a room on two
nodes (one PostgreSQL, one Redis, in this event loop): opened through one node, its
spec reaches the other (the bus's directory) and the node that runs it (from the
database), both lobbies say each option, and a hand played by a player on each node
is dealt under those rules: the PokerStars text either node serves reproduces under
them, and the hand's stored record carries them.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path
from typing import Any

from server.cluster.inprocess import SPEC, cluster, eventually, lobby_tables, operator, owner
from server.http.test_table_options import ALL_CHOSEN
from server.roomclient import passive, play, sit
from server.roomdb import fresh_database
from stud8.formats.pokerstars import PokerStarsHand
from stud8.formats.pokerstars.read import parse_text
from stud8.formats.verify import verify_pokerstars
from stud8.server.table.spec import TableSpec

CLOCK = {"action_seconds": 2, "time_bank_seconds": 0, "reconnect_seconds": 0}


def test_every_option_travels_to_the_node_that_runs_the_table(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)
    chosen = {**ALL_CHOSEN, **CLOCK}
    room: dict[str, Any] = SPEC
    rules = TableSpec(**room, **chosen).rules()

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            boss = await operator(a)
            headers = {"Authorization": f"Bearer {boss}"}
            r = await a.http.post(
                "/api/v1/tables", json={"table_id": "every", **SPEC, **chosen}, headers=headers
            )
            assert r.status_code == 201, r.text
            home = await owner(redis_url, "every")
            here, away = (a, b) if home == "a" else (b, a)
            for node in (a, b):
                # the directory reaches every node
                tables = await eventually(
                    "the table listed",
                    partial(lobby_tables, node),
                    lambda ts: [t["table_id"] for t in ts] == ["every"],
                )
                assert tables[0]["rules"] == {k: chosen[k] for k in tables[0]["rules"]}
            ann, bob = await away.player("ann"), await here.player("bob")
            async with (
                away.connect(ann, table_id="every") as c1,
                here.connect(bob, table_id="every") as c2,
            ):
                await sit(away, c1, 1)
                await sit(here, c2, 2)
                await asyncio.gather(play(c1, 1, passive), play(c2, 1, passive))
            for node in (a, b):
                r = await node.http.get("/api/v1/hands", headers=headers)
                assert r.status_code == 200, r.text
                hands = [h for h in parse_text(r.text) if isinstance(h, PokerStarsHand)]
                assert hands, r.text
                for hand in hands:
                    verdict = verify_pokerstars(hand, rules=rules)
                    assert verdict.reproduced, str(verdict)
            entry = here.lobby.get("every")
            assert entry is not None
            assert entry.table.config.rules == rules

    asyncio.run(asyncio.wait_for(main(), 120))
