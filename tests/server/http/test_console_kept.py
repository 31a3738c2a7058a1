"""What the console keeps and shows beyond this node's memory, on one process: the
tournaments now (``GET /api/v1/admin/tournaments``: registering and running, their
players left, level and stakes, tables and prize pool; the finished ones not),
the last fairness report kept in the database (when, by whom, deals, every test)
through a restart, and an account's addresses as its sessions were last seen
(its log-in's, and a websocket's from elsewhere), kept in the database too. (The
same on two nodes: ``tests/server/cluster/test_console_nodes.py``.)"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.typing import Subprotocol

from server.dbroom import OPERATOR, OPERATOR_PASSWORD, db_room
from server.http.test_admin_console import GOOD, ONE_TABLE, answer_of, bearer, run, token_of
from stud8.server.accounts.accounts import Accounts

TOURNAMENTS = "/api/v1/admin/tournaments"
FAIRNESS = "/api/v1/admin/fairness"


async def new_tournament(http: httpx.AsyncClient, boss: dict[str, str], **asked: Any) -> int:
    body = {"name": "Console SNG", "structure": "hyper", "buy_in": 50, "level_hands": 50}
    r = await http.post("/api/v1/tournaments", json={**body, **asked}, headers=boss)
    assert r.status_code == 201, r.text
    return int(r.json()["tournament"]["summary"]["tournament_id"])


async def until_phase(http: httpx.AsyncClient, tid: int, phase: str) -> None:
    for _ in range(200):
        r = await http.get(f"/api/v1/tournaments/{tid}")
        if r.json()["summary"]["phase"] == phase:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"tournament {tid} is not {phase}: {r.json()['summary']}")


def test_the_tournaments_now(url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE, url=url) as (http, _, _):
            boss = bearer(await token_of(http, OPERATOR, OPERATOR_PASSWORD))
            assert answer_of("GET", TOURNAMENTS, await http.get(TOURNAMENTS, headers=boss)) == {
                "tournaments": []
            }
            waiting = await new_tournament(http, boss, max_entrants=6, table_size=6)
            r = await http.post(
                f"/api/v1/tournaments/{waiting}/bots", json={"count": 2}, headers=boss
            )
            assert r.status_code == 200, r.text
            # a heads-up sit-and-go of two players who do not act: it runs, at level 1
            running = await new_tournament(http, boss, max_entrants=2, table_size=2, name="HU")
            for name in ("ann", "bob"):
                r = await http.post("/api/v1/register", json={"name": name, "password": GOOD})
                assert r.status_code == 201
                player = bearer(await token_of(http, name))
                r = await http.post(f"/api/v1/tournaments/{running}/register", headers=player)
                assert r.status_code == 200, r.text
            await until_phase(http, running, "running")
            over = await new_tournament(http, boss, name="Gone")
            assert (
                await http.delete(f"/api/v1/tournaments/{over}", headers=boss)
            ).status_code == 200

            lines = answer_of("GET", TOURNAMENTS, await http.get(TOURNAMENTS, headers=boss))
            by_id = {t["tournament_id"]: t for t in lines["tournaments"]}
            assert set(by_id) == {waiting, running}  # the cancelled one is not "now"
            w = by_id[waiting]
            assert w["phase"] == "registering" and w["entries"] == 2 and w["players_left"] == 2
            assert w["tables"] == [] and w["prize_pool"] == 100 and w["level"] == 1
            assert w["node"] is None and w["on_break"] is False
            h = by_id[running]
            assert h["name"] == "HU" and h["phase"] == "running"
            assert h["entries"] == h["players_left"] == 2 and h["prize_pool"] == 100
            assert h["level"] == 1 and h["seconds_left"] is None  # its levels last hands
            detail = (await http.get(f"/api/v1/tournaments/{running}")).json()
            first = detail["levels"][0]
            assert (h["small_bet"], h["big_bet"], h["ante"]) == (
                first["small_bet"],
                first["big_bet"],
                first["ante"],
            )
            assert [t["table_id"] for t in h["tables"]] == [f"T{running}-1"]
            assert sorted(h["tables"][0]["players"]) == ["ann", "bob"]
            assert (await http.get(f"{TOURNAMENTS}?x=1", headers=boss)).status_code == 400

    run(body)


def test_the_last_fairness_report_is_kept_through_a_restart(tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE) as (http, _, _):
            boss = bearer(await token_of(http, OPERATOR, OPERATOR_PASSWORD))
            ran = answer_of(
                "POST", FAIRNESS, await http.post(FAIRNESS, json={"deals": 2000}, headers=boss)
            )
            assert ran["run_by"] == OPERATOR and ran["deals"] == 2000 and ran["made_at"]
            assert len(ran["tests"]) > 50
            assert all(t["verdict"] in ("pass", "fail", "not run") for t in ran["tests"])
        async with db_room(tmp_path, ONE_TABLE) as (http, room, _):  # the same database
            boss = bearer(await token_of(http, OPERATOR, OPERATOR_PASSWORD))
            kept = answer_of("GET", FAIRNESS, await http.get(FAIRNESS, headers=boss))
            assert kept == ran  # every test's p-value and verdict, who, when
            services = room.app.state.room
            assert services.fairness is not None
            assert services.fairness.last().run_by == OPERATOR

    run(body)


def test_an_account_s_addresses_are_its_sessions_last_seen(url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE, url=url) as (http, room, port):
            r = await http.post("/api/v1/register", json={"name": "ann", "password": GOOD})
            assert r.status_code == 201
            login = {"name": "ann", "password": GOOD}
            r = await http.post(
                "/api/v1/login", json=login, headers={"X-Forwarded-For": "198.51.100.7"}
            )
            token = r.json()["token"]
            await http.post("/api/v1/login", json=login, headers={"X-Forwarded-For": "203.0.113.9"})
            boss = bearer(await token_of(http, OPERATOR, OPERATOR_PASSWORD))
            path = "/api/v1/admin/accounts/{name}"

            async def whole() -> dict[str, Any]:
                r = await http.get("/api/v1/admin/accounts/ann", headers=boss)
                found: dict[str, Any] = answer_of("GET", path, r)
                return found

            ann = await whole()
            assert ann["addresses"] == ["198.51.100.7", "203.0.113.9"]
            assert [s["address"] for s in ann["sessions"]] == ["203.0.113.9", "198.51.100.7"]
            assert all(s["seen_at"] for s in ann["sessions"])
            # his first session's websocket, from another address: that session moves
            ws_url = f"ws://127.0.0.1:{port}/ws/v1/tables/t1"
            protocols = [Subprotocol("stud8.v1"), Subprotocol(f"stud8.token.{token}")]
            moved = {"X-Forwarded-For": "192.0.2.44"}
            async with websockets.connect(
                ws_url, subprotocols=protocols, additional_headers=moved
            ) as ws:
                assert json.loads(await ws.recv())["t"] == "welcome"
                for _ in range(100):
                    ann = await whole()
                    if "192.0.2.44" in [s["address"] for s in ann["sessions"]]:
                        break
                    await asyncio.sleep(0.05)
            assert [s["address"] for s in ann["sessions"]] == ["203.0.113.9", "192.0.2.44"]
            ann = await whole()  # the socket closed: the session's address is kept
            assert ann["addresses"] == ["192.0.2.44", "203.0.113.9"]
            # a session made outside the web (as those of before r0011): no address known
            accounts = Accounts(room.engine, room.ledger)
            await asyncio.to_thread(accounts.login, "ann", GOOD)
            ann = await whole()
            newest = ann["sessions"][0]
            assert newest["address"] is None and newest["seen_at"] is None
            assert ann["addresses"] == ["192.0.2.44", "203.0.113.9"]

    run(body)
