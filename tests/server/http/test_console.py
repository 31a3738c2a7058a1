"""The console's "now" and its books (``http/console.py``, ``http/fairness.py``,
``http/lobbymessage.py``) on the real app in process: the tables with their figures
and today's rake, the nodes of a room in one process (no drain), the audit's
figures, the fairness report run off the loop, and the lobby message pushed to a
table's viewer as the typed ``message`` event, said again to one who connects and
withdrawn to both, and kept through a restart. Every answer conforms to its generated schema."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.typing import Subprotocol

from server.dbroom import OPERATOR, OPERATOR_PASSWORD, db_room
from server.http.test_admin_console import (
    ONE_TABLE,
    answer_of,
    bearer,
    run,
    sign_up,
    token_of,
)
from server.schemacheck import SCHEMAS, conforms
from stud8.server.books.ledger import HandMoney

MESSAGE = SCHEMAS["server"]["message"]


async def boss_of(http: httpx.AsyncClient) -> dict[str, str]:
    return bearer(await token_of(http, OPERATOR, OPERATOR_PASSWORD))


def test_the_tables_now_with_today_s_rake(url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE, url=url) as (http, room, _):
            await sign_up(http, "ann")
            await sign_up(http, "bob")
            boss = await boss_of(http)
            for player in ("ann", "bob"):
                room.ledger.buy_in(player, "t1", 100, "seat")
            room.ledger.settle_hand("h1", "t1", HandMoney({"ann": 10, "bob": 10}, {"ann": 17}, 3))
            path = "/api/v1/admin/tables"
            lines = answer_of("GET", path, await http.get(path, headers=boss))["tables"]
            assert [t["table_id"] for t in lines] == ["t1"]
            t1 = lines[0]
            assert t1["rake_today"] == 3 and t1["node"] is None and t1["paused"] is None
            assert t1["small_bet"] == 4 and t1["big_bet"] == 8 and t1["seats"] == 8
            assert t1["dealing"] is False  # nobody seated at the table itself
            assert (await http.get(f"{path}?x=1", headers=boss)).status_code == 400

    run(body)


def test_one_process_is_one_node_and_is_not_drained(tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE) as (http, _, _):
            boss = await boss_of(http)
            path = "/api/v1/admin/nodes"
            answer = answer_of("GET", path, await http.get(path, headers=boss))
            assert answer["clustered"] is False
            assert [(n["name"], n["tables"]) for n in answer["nodes"]] == [("this room", 1)]
            for method in ("POST", "DELETE"):
                r = await http.request(method, f"{path}/this room/drain", headers=boss)
                assert r.status_code == 400 and "one process" in r.json()["error"]

    run(body)


def test_the_audit_s_figures(url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE, url=url) as (http, room, _):
            await sign_up(http, "ann")
            boss = await boss_of(http)
            r = await http.post(
                "/api/v1/admin/accounts/ann/credit",
                json={"amount": 25, "reason": "a prize"},
                headers=boss,
            )
            assert r.status_code == 200
            path = "/api/v1/admin/audit"
            audit = answer_of("GET", path, await http.get(path, headers=boss))
            report = room.ledger.audit()
            assert audit["ok"] is True and audit["problems"] == []
            assert audit["issued"] == audit["held"] == report.issued
            assert audit["banks"] == report.banks and audit["transactions"] == report.transactions

    run(body)


def test_a_short_fairness_report_runs_while_the_room_serves(tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE) as (http, _, _):
            boss = await boss_of(http)
            path = "/api/v1/admin/fairness"
            before = answer_of("GET", path, await http.get(path, headers=boss))
            assert before["running"] is False and before["made_at"] is None
            for data in ({"deals": 10}, {"deals": 10**7}, {"deals": "5"}, {"deals": 1, "x": 1}):
                r = await http.post(path, json=data, headers=boss)
                assert r.status_code == 400, data
            began = time.monotonic()
            # (deals enough for seconds: the second run below is asked while it runs)
            running = asyncio.create_task(http.post(path, json={"deals": 20000}, headers=boss))
            # while it runs, the room answers, and a second run is refused
            seen_running = False
            while not running.done():
                r = await http.get("/health")
                assert r.status_code == 200
                now = (await http.get(path, headers=boss)).json()
                if now["running"] and not seen_running:
                    seen_running = True
                    second = await http.post(path, json={"deals": 5000}, headers=boss)
                    assert second.status_code == 409
                await asyncio.sleep(0.05)
            report = answer_of("POST", path, await running)
            assert seen_running
            assert report["running"] is False and report["deals"] == 20000
            assert report["verdict"] in ("pass", "fail") and len(report["tests"]) > 50
            assert time.monotonic() - began < 60
            kept = answer_of("GET", path, await http.get(path, headers=boss))
            assert kept == report

    run(body)


async def _until_message(ws: Any) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if frame["t"] == "message":
            return frame


def test_the_lobby_message_is_pushed_to_the_table_s_viewers(tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE) as (http, _, port):
            token = await sign_up(http, "ann")
            boss = await boss_of(http)
            ws_url = f"ws://127.0.0.1:{port}/ws/v1/tables/t1"
            protocols = [Subprotocol("stud8.v1"), Subprotocol(f"stud8.token.{token}")]
            async with websockets.connect(ws_url, subprotocols=protocols) as ws:
                assert json.loads(await ws.recv())["t"] == "welcome"
                path = "/api/v1/admin/message"
                r = await http.post(path, json={"text": "restart at 22:00"}, headers=boss)
                posted = r.json()
                frame = await _until_message(ws)
                assert frame["d"] == {"message": posted} and "v" not in frame
                assert conforms(frame, MESSAGE)
                # one who connects now is told after his welcome
                async with websockets.connect(ws_url) as late:
                    assert json.loads(await late.recv())["t"] == "welcome"
                    assert (await _until_message(late))["d"]["message"] == posted
                    assert (await http.delete(path, headers=boss)).status_code == 200
                    assert (await _until_message(late))["d"] == {"message": None}
                assert (await _until_message(ws))["d"] == {"message": None}
            async with websockets.connect(ws_url) as after:  # withdrawn: not said again
                assert json.loads(await after.recv())["t"] == "welcome"
                try:
                    frame = json.loads(await asyncio.wait_for(after.recv(), 0.5))
                    assert frame["t"] != "message", frame
                except TimeoutError:
                    pass

    run(body)


def test_a_message_posted_elsewhere_reaches_this_node_s_tables(tmp_path: Path) -> None:
    """Another node (here: the database written directly, as ``stud8 admin`` or a
    node would) posts a message: this node's watch reads it and pushes it."""

    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE) as (_, room, port):
            ws_url = f"ws://127.0.0.1:{port}/ws/v1/tables/t1"
            async with websockets.connect(ws_url) as ws:
                assert json.loads(await ws.recv())["t"] == "welcome"
                services = room.app.state.room
                assert services.moderation is not None
                await asyncio.to_thread(services.moderation.post_message, "boss", "from node b")
                frame = await _until_message(ws)  # within the watch's seconds
                assert frame["d"]["message"]["text"] == "from node b"

    run(body)


def test_the_lobby_message_survives_a_restart(tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE) as (http, _, _):
            boss = await boss_of(http)
            r = await http.post("/api/v1/admin/message", json={"text": "kept"}, headers=boss)
            assert r.status_code == 200
        async with db_room(tmp_path, ONE_TABLE) as (http, _, port):  # the same database
            assert (await http.get("/api/v1/tables")).json()["message"]["text"] == "kept"
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/v1/tables/t1") as ws:
                assert json.loads(await ws.recv())["t"] == "welcome"
                assert (await _until_message(ws))["d"]["message"]["text"] == "kept"

    run(body)
