"""The console's Nodes section on two nodes (``GET /api/v1/admin/nodes``, drain and
undo through ``/api/v1/admin/nodes/{node}/drain``), and the tables now with the
node that runs each, and the lobby message posted through one node pushed to a
viewer on the other.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import websockets

from server.cluster.inprocess import SPEC, cluster, operator, owner, until
from server.cluster.test_drain_undo import until_beat
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

            async def settled() -> dict[str, dict[str, object]]:
                for _ in range(100):
                    now = await lines()
                    if set(now) == {"a", "b"} and now[holder]["tables"] == 1:
                        return now
                    await asyncio.sleep(0.1)
                raise AssertionError(await lines())

            now = await settled()
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
            for _ in range(300):
                if await owner(redis_url, "t1") == other:
                    break
                await asyncio.sleep(0.1)
            assert await owner(redis_url, "t1") == other
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
