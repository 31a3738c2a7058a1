"""Two nodes of one room in this event loop, on one PostgreSQL and one Redis: any node
serves any table, the lobby of each lists every table, and a table owned by one node
is played through the other.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.cluster.inprocess import SPEC, cluster, eventually, open_t1, operator, owner
from server.http.test_metrics import samples
from server.roomclient import passive, play, sit
from server.roomdb import fresh_database
from stud8.server.books.ledger import Ledger
from stud8.server.storage import create_engine_for


def test_a_table_owned_by_one_node_is_played_through_the_other(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            boss = await operator(a)
            r = await a.http.post(
                "/api/v1/tables",
                json={"table_id": "t1", **SPEC},
                headers={"Authorization": f"Bearer {boss}"},
            )
            assert r.status_code == 201, r.text
            home = await owner(redis_url, "t1")
            away = b if home == "a" else a
            here = a if home == "a" else b
            # every node's lobby lists the table
            for node in (a, b):
                listed = (await node.http.get("/api/v1/tables")).json()["tables"]
                assert [t["table_id"] for t in listed] == ["t1"]
            ann, bob = await away.player("ann"), await here.player("bob")
            async with away.connect(ann) as c1, here.connect(bob) as c2:
                await sit(away, c1, 1)
                await sit(here, c2, 2)
                played = await asyncio.gather(play(c1, 3, passive), play(c2, 3, passive))
                assert all(acks > 0 for acks in played)
            assert "t1" in here.lobby.tables and "t1" not in away.lobby.tables
            # each node's metrics: the lease is the owner's, and the bus carried the
            # away player's commands there and back (each answered)
            auth = {"Authorization": f"Bearer {boss}"}
            owning, serving = [
                samples((await node.http.get("/metrics", headers=auth)).text)
                for node in (here, away)
            ]
            assert owning["stud8_node_leases"] == 1 and serving["stud8_node_leases"] == 0
            for seen in (owning, serving):
                assert seen['stud8_bus_messages_total{direction="out"}'] > 0
                assert seen['stud8_bus_messages_total{direction="in"}'] > 0
                assert seen["stud8_bus_lost_messages_total"] == 0
            asked = serving["stud8_bus_request_seconds_count"]
            assert asked >= played[0] + 1  # her sit and every action she took
            assert 0 < serving["stud8_bus_request_seconds_sum"] < asked * 5
            assert serving["stud8_bus_unanswered_total"] == 0

    asyncio.run(asyncio.wait_for(main(), 90))
    engine = create_engine_for(pg)
    try:
        report = Ledger(engine).audit()
        assert report.ok, report
    finally:
        engine.dispose()


def test_new_tables_go_to_the_least_loaded_node(tmp_path: Path, redis_url: str) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            boss = await operator(b)
            headers = {"Authorization": f"Bearer {boss}"}
            for _ in range(4):
                r = await a.http.post("/api/v1/tables", json=SPEC, headers=headers)
                assert r.status_code == 201, r.text
            assert sorted([*a.lobby.tables, *b.lobby.tables]) == ["t1", "t2", "t3", "t4"]
            assert len(a.lobby.tables) == len(b.lobby.tables) == 2
            # an operator closes a table through the node that does not run it
            gone = next(iter(a.lobby.tables))
            r = await b.http.delete(f"/api/v1/tables/{gone}", headers=headers)
            assert r.status_code == 200, r.text

            async def listed() -> set[str]:
                tables = (await b.http.get("/api/v1/tables")).json()["tables"]
                return {t["table_id"] for t in tables}

            await eventually(f"{gone} gone from b's lobby", listed, lambda ids: gone not in ids)
            assert gone not in a.lobby.tables

    asyncio.run(asyncio.wait_for(main(), 90))


# the players leave whenever their last hand ends, the next one perhaps dealt: its
# turns run out well within a node's clean stop (STOP_SECONDS), which plays it out
LEFT_IN_PLAY = {"action_seconds": 5, "time_bank_seconds": 0, "reconnect_seconds": 0}


def test_three_nodes_share_the_tables_and_one_account_plays_through_two_of_them(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b", "c")) as nodes:
            boss = await operator(nodes[0])
            headers = {"Authorization": f"Bearer {boss}"}
            for _ in range(6):
                r = await nodes[2].http.post(
                    "/api/v1/tables", json={**SPEC, **LEFT_IN_PLAY}, headers=headers
                )
                assert r.status_code == 201, r.text
            assert sorted(len(n.lobby.tables) for n in nodes) == [2, 2, 2]
            home_name = await owner(redis_url, "t1")
            others = [n for n in nodes if n.node.name != home_name]
            ann, bob = await others[0].player("ann"), await others[1].player("bob")
            # ann in two tabs, through two nodes; bob through a third
            async with (
                others[0].connect(ann) as tab1,
                others[1].connect(ann) as tab2,
                others[1].connect(bob) as c2,
            ):
                await sit(others[0], tab1, 1)
                await sit(others[1], c2, 2)
                tab2.seat = 1
                await asyncio.gather(play(tab1, 2, passive), play(c2, 2, passive))
                # both tabs saw the same events, in the same order
                await tab2.until(lambda m: m["t"] == "event" and m["d"]["k"] == "hand_finish")
                seen1 = [m["v"] for m in tab1.messages if m["t"] == "event"]
                seen2 = [m["v"] for m in tab2.messages if m["t"] == "event"]
                common = [v for v in seen1 if v in set(seen2)]
                assert common == sorted(common) and len(common) > 10
            # the lobby of every node counts the same players at t1
            for node in nodes:
                tables = {
                    t["table_id"]: t
                    for t in (await node.http.get("/api/v1/tables")).json()["tables"]
                }
                assert len(tables) == 6

    asyncio.run(asyncio.wait_for(main(), 120))


def test_chat_crosses_the_bus_to_a_table_on_another_node(tmp_path: Path, redis_url: str) -> None:
    """A line said on the node without the table goes to its owner through the bus,
    comes back to every node's viewers as the same event, is kept in the shared
    database with its hand, and is refused there for a silenced player."""
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            boss = await operator(a)
            headers = {"Authorization": f"Bearer {boss}"}
            here, away = await open_t1((a, b), redis_url, headers)
            ann, bob = await away.player("ann"), await here.player("bob")
            text = "<img src=x onerror=alert(1)> gl 玩家"
            async with away.connect(ann) as c1, here.connect(bob) as c2:
                await sit(away, c1, 1)  # alone: no hand to finish before the nodes stop
                reply = await c1.command("chat", text=text)
                assert reply["t"] == "ack", reply
                for client in (c1, c2):
                    seen = [
                        m for m in client.messages if m["t"] == "event" and m["d"]["k"] == "chat"
                    ]
                    got = (
                        seen[0]
                        if seen
                        else await client.until(
                            lambda m: m["t"] == "event" and m["d"]["k"] == "chat"
                        )
                    )
                    assert got["d"]["player"] == "ann" and got["d"]["text"] == text
                    assert got["d"]["seat"] == 1
                r = await away.http.post("/api/v1/accounts/ann/silence", headers=headers)
                assert r.status_code == 200
                refused = await c1.command("chat", text="still here?")
                assert refused["t"] == "reject" and "silenced" in refused["d"]["reason"]
            r = await away.http.get("/api/v1/tables/t1/chat", headers=headers)
            assert [(x["player"], x["text"]) for x in r.json()["lines"]] == [("ann", text)]
            # closed, so that the nodes stop with no table to hand over
            r = await away.http.delete("/api/v1/tables/t1", headers=headers)
            assert r.status_code == 200, r.text

    asyncio.run(asyncio.wait_for(main(), 90))
