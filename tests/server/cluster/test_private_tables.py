"""Private tables in a room on two nodes (one PostgreSQL, one Redis, in this event
loop): the lobby and the websocket of every node keep a private table from those its
code did not admit, whichever node runs it; a code redeemed through one node admits
through every node; codes guessed through several nodes are counted together.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path

from server.cluster.inprocess import SPEC, cluster, eventually, operator, owner
from server.http.test_private_tables import refused_socket, table_ids
from server.roomclient import passive, play, sit
from server.roomdb import fresh_database

# short clocks: the players left seated when the test ends are acted for quickly, so
# the nodes' clean stop (a hand-over between hands) does not wait long under load
CLOCK = {"action_seconds": 2, "time_bank_seconds": 0, "reconnect_seconds": 0}


def test_no_node_shows_a_private_table_to_an_outsider(tmp_path: Path, redis_url: str) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b"), login_failures=3) as (a, b):
            boss = await operator(a)
            headers = {"Authorization": f"Bearer {boss}"}
            r = await a.http.post(
                "/api/v1/tables", json={"table_id": "pub", **SPEC}, headers=headers
            )
            assert r.status_code == 201, r.text
            r = await b.http.post(
                "/api/v1/tables",
                json={"table_id": "club", "private": True, **SPEC, **CLOCK},
                headers=headers,
            )
            assert r.status_code == 201, r.text
            code = r.json()["invitation"]["code"]
            home = await owner(redis_url, "club")
            here, away = (a, b) if home == "a" else (b, a)
            ann, eve = await away.player("ann"), await here.player("eve")
            for node in (a, b):  # the directory reaches every node
                await eventually(
                    "both tables listed",
                    partial(table_ids, node, boss),
                    lambda ids: ids == ["pub", "club"],
                )
                for token in (ann, eve, None):
                    assert await table_ids(node, token) == ["pub"]
                    assert await refused_socket(node, "club", token) == (4404, "no table club")
            # ann redeems the code through the node that does not run the table
            r = await away.http.post(
                "/api/v1/invitations",
                json={"code": code},
                headers={"Authorization": f"Bearer {ann}"},
            )
            assert r.status_code == 200, r.text
            for node in (a, b):
                assert await table_ids(node, ann) == ["pub", "club"]
                assert await table_ids(node, eve) == ["pub"]
            bob = await here.player("bob")
            r = await here.http.post(
                "/api/v1/invitations",
                json={"code": code},
                headers={"Authorization": f"Bearer {bob}"},
            )
            assert r.status_code == 200, r.text
            async with (
                away.connect(ann, table_id="club") as c1,
                here.connect(bob, table_id="club") as c2,
            ):
                await sit(away, c1, 1)
                await sit(here, c2, 2)
                await asyncio.gather(play(c1, 2, passive), play(c2, 2, passive))
                for node in (a, b):  # while it plays
                    assert await table_ids(node, eve) == ["pub"]
                    assert await refused_socket(node, "club", eve) == (4404, "no table club")
            # codes guessed through both nodes are counted together, as log-ins are
            eve_auth = {"Authorization": f"Bearer {eve}"}
            for node, guess in ((a, "wrong-1"), (b, "wrong-2"), (a, "wrong-3")):
                r = await node.http.post(
                    "/api/v1/invitations", json={"code": guess}, headers=eve_auth
                )
                assert r.status_code == 404, r.text
            r = await b.http.post("/api/v1/invitations", json={"code": code}, headers=eve_auth)
            assert r.status_code == 429, r.text

    asyncio.run(asyncio.wait_for(main(), 180))
