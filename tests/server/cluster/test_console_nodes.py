"""The console's Nodes section on two nodes (``GET /api/v1/admin/nodes``, drain and
undo through ``/api/v1/admin/nodes/{node}/drain``), and the tables now with the
node that runs each, and the lobby message posted through one node pushed to a
viewer on the other; the tournaments now, the last fairness report and an account's
addresses, the same through either node.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import json
from functools import partial
from pathlib import Path

import websockets
from websockets.typing import Subprotocol

from server.cluster.inprocess import SPEC, cluster, eventually, operator, owner, until
from server.cluster.test_drain_undo import until_beat
from server.cluster.test_tournaments import tournament_owner
from server.http.test_admin_console import GOOD, bearer, token_of
from server.roomdb import fresh_database
from server.schemacheck import SCHEMAS, conforms

REST = SCHEMAS["rest"]


def test_the_nodes_seen_drained_and_undrained_from_the_console(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            boss = {"Authorization": f"Bearer {await operator(b)}"}
            r = await b.http.post("/api/v1/tables", json={"table_id": "t1", **SPEC}, headers=boss)
            assert r.status_code == 201, r.text
            await until("t1 owned", lambda: "t1" in a.lobby.tables or "t1" in b.lobby.tables)
            holder = await owner(redis_url, "t1")
            path = "/api/v1/admin/nodes"

            async def lines() -> dict[str, dict[str, object]]:
                r = await a.http.get(path, headers=boss)
                assert r.status_code == 200, r.text
                assert conforms(r.json(), REST[f"GET {path}"]["answer"])
                assert r.json()["clustered"] is True
                return {n["name"]: n for n in r.json()["nodes"]}

            now = await eventually(
                "both nodes seen, the holder's table counted",
                lines,
                lambda now: set(now) == {"a", "b"} and now[holder]["tables"] == 1,
            )
            assert now[holder]["leases"] == 1 and now[holder]["draining"] is False
            other = "a" if holder == "b" else "b"
            assert now[other]["leases"] == 0 and now[other]["tables"] == 0

            r = await a.http.get("/api/v1/admin/tables", headers=boss)
            assert [(t["table_id"], t["node"]) for t in r.json()["tables"]] == [("t1", holder)]

            # drain the holder from the console: the table moves to the other node
            drain = f"{path}/{holder}/drain"
            r = await a.http.post(drain, headers=boss)
            assert r.status_code == 200, r.text
            assert {n["name"]: n["draining"] for n in r.json()["nodes"]}[holder] is True
            await until_beat(redis_url, holder, draining=True)
            await eventually(
                "t1 moved", partial(owner, redis_url, "t1"), lambda now: now == other, 60
            )
            # and undo it
            r = await b.http.delete(drain, headers=boss)
            assert r.status_code == 200, r.text
            assert {n["name"]: n["draining"] for n in r.json()["nodes"]}[holder] is False
            await until_beat(redis_url, holder, draining=False)
            assert (await lines())[holder]["draining"] is False
            r = await a.http.post(f"{path}/nobody/drain", headers=boss)
            assert r.status_code == 404

            # a message posted through a reaches a viewer connected to b
            ws_url = f"ws://127.0.0.1:{b.port}/ws/v1/tables/t1"
            async with websockets.connect(ws_url) as ws:
                assert json.loads(await ws.recv())["t"] == "welcome"
                r = await a.http.post(
                    "/api/v1/admin/message", json={"text": "node a speaks"}, headers=boss
                )
                assert r.status_code == 200
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if frame["t"] == "message":
                        break
                assert frame["d"]["message"]["text"] == "node a speaks"

    asyncio.run(asyncio.wait_for(main(), 120))


def test_the_console_s_tournaments_report_and_addresses_are_the_same_on_both_nodes(
    tmp_path: Path, redis_url: str
) -> None:
    """Node b's console shows what node a did or holds: a tournament a runs (its
    node, its table and players, read from the database), the fairness report run
    on a (who, when, every test), and the addresses of a player's sessions seen
    only by a (a log-in through a, a websocket open on a), and the table he watches
    through a."""
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            boss = {"Authorization": f"Bearer {await operator(a)}"}
            r = await a.http.post("/api/v1/tables", json={"table_id": "t1", **SPEC}, headers=boss)
            assert r.status_code == 201, r.text
            await until("t1 owned", lambda: "t1" in a.lobby.tables or "t1" in b.lobby.tables)
            node_of = {"a": a, "b": b}

            # a heads-up sit-and-go made through a, its two players registered through b
            body = {"name": "HU", "structure": "hyper", "buy_in": 50, "level_hands": 50}
            sng = {**body, "max_entrants": 2, "table_size": 2}
            r = await a.http.post("/api/v1/tournaments", json=sng, headers=boss)
            assert r.status_code == 201, r.text
            tid = int(r.json()["tournament"]["summary"]["tournament_id"])
            for name in ("ann", "bob"):
                r = await b.http.post("/api/v1/register", json={"name": name, "password": GOOD})
                assert r.status_code == 201, r.text
                player = bearer(await token_of(b.http, name))
                r = await b.http.post(f"/api/v1/tournaments/{tid}/register", headers=player)
                assert r.status_code == 200, r.text
            runner = tournament_owner(redis_url, tid)
            assert runner in node_of
            elsewhere = node_of["b" if runner == "a" else "a"]
            path = "/api/v1/admin/tournaments"
            for _ in range(200):  # until the owner has seated them and written it
                r = await elsewhere.http.get(path, headers=boss)
                assert r.status_code == 200, r.text
                lines = r.json()["tournaments"]
                if lines and lines[0]["phase"] == "running" and lines[0]["tables"]:
                    break
                await asyncio.sleep(0.05)
            assert conforms(r.json(), REST[f"GET {path}"]["answer"])
            [line] = lines
            assert line["tournament_id"] == tid and line["node"] == runner
            assert line["players_left"] == 2 and line["prize_pool"] == 100 and line["level"] == 1
            assert line["tables"][0]["table_id"] == f"T{tid}-1"
            assert sorted(line["tables"][0]["players"]) == ["ann", "bob"]
            mine = (await node_of[runner].http.get(path, headers=boss)).json()["tournaments"]
            assert [(t["tournament_id"], t["node"], t["tables"]) for t in mine] == [
                (tid, runner, line["tables"])
            ]

            # a fairness report run through a is b's last report
            fairness = "/api/v1/admin/fairness"
            # (a process spawned to run it: seconds on a loaded machine)
            r = await a.http.post(fairness, json={"deals": 2000}, headers=boss, timeout=90)
            assert r.status_code == 200, r.text
            ran = r.json()
            assert ran["run_by"] == "boss" and ran["deals"] == 2000
            kept = (await b.http.get(fairness, headers=boss)).json()
            assert conforms(kept, REST[f"GET {fairness}"]["answer"])
            assert kept == ran

            # carl logs in through a twice, from two addresses, and watches t1 through
            # a with his second session from a third: b's console sees them all
            r = await a.http.post("/api/v1/register", json={"name": "carl", "password": GOOD})
            assert r.status_code == 201
            login = {"name": "carl", "password": GOOD}
            first = {"X-Forwarded-For": "198.51.100.7"}
            r = await a.http.post("/api/v1/login", json=login, headers=first)
            assert r.status_code == 200
            r = await a.http.post(
                "/api/v1/login", json=login, headers={"X-Forwarded-For": "203.0.113.9"}
            )
            token = r.json()["token"]
            protocols = [Subprotocol("stud8.v1"), Subprotocol(f"stud8.token.{token}")]
            ws_url = f"ws://127.0.0.1:{a.port}/ws/v1/tables/t1"
            third = {"X-Forwarded-For": "192.0.2.44"}
            async with websockets.connect(
                ws_url, subprotocols=protocols, additional_headers=third
            ) as ws:
                assert json.loads(await ws.recv())["t"] == "welcome"
                account = "/api/v1/admin/accounts/{name}"
                for _ in range(200):
                    r = await b.http.get("/api/v1/admin/accounts/carl", headers=boss)
                    assert r.status_code == 200, r.text
                    if "192.0.2.44" in r.json()["addresses"]:
                        break
                    await asyncio.sleep(0.05)
                assert conforms(r.json(), REST[f"GET {account}"]["answer"])
                assert r.json()["addresses"] == ["192.0.2.44", "198.51.100.7"]
                assert [s["address"] for s in r.json()["sessions"]] == [
                    "192.0.2.44",
                    "198.51.100.7",
                ]
                assert b.room.app.state.room.sockets.addresses_of("carl") == []  # none on b
                # and b's Players tab has carl watching t1 (the table's owner counts
                # him, whichever node his socket came through)
                for _ in range(200):
                    r = await b.http.get("/api/v1/admin/players", headers=boss)
                    carl = [p for p in r.json()["players"] if p["name"] == "carl"]
                    if carl and carl[0]["watches"] == ["t1"]:
                        break
                    await asyncio.sleep(0.05)
                assert conforms(r.json(), REST["GET /api/v1/admin/players"]["answer"])
                assert carl == [{"name": "carl", "connected": True, "watches": ["t1"], "sits": []}]

    asyncio.run(asyncio.wait_for(main(), 120))
