"""The operator's console's REST (``/api/v1/admin/...``) on the real app, in process: the
acts (credit, debit, ban, unban, silence, unsilence) go through and into the log,
a bad request is a 400 that changed nothing; who is online and where; an account
whole; the journal (JSON and CSV, filtered); the rake by day, table and stakes; the
lobby's message in the lobby's answer until withdrawn (those on SQLite and
PostgreSQL). Every answer conforms to its generated schema. (That every route of
the console refuses a player: ``test_admin_refusals.py``.)"""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.typing import Subprotocol

from server.dbroom import OPERATOR, OPERATOR_PASSWORD, db_room, memory_room
from server.schemacheck import SCHEMAS, conforms
from stud8.server.books.chat import ChatStore
from stud8.server.books.ledger import HandMoney, bank
from stud8.server.settings import Settings
from stud8.server.wire.admin import ADMIN_ENDPOINTS

GOOD = "Tr1cky-Ostrich-7"
ONE_TABLE = Settings(default_tables=1, bots_per_table=0, starting_chips=1000)
REST = SCHEMAS["rest"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def token_of(http: httpx.AsyncClient, name: str, password: str = GOOD) -> str:
    r = await http.post("/api/v1/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


async def sign_up(http: httpx.AsyncClient, name: str) -> str:
    r = await http.post("/api/v1/register", json={"name": name, "password": GOOD})
    assert r.status_code == 201, r.text
    return await token_of(http, name)


def answer_of(method: str, path: str, r: httpx.Response) -> Any:
    assert r.status_code == 200, r.text
    body = r.json()
    assert conforms(body, REST[f"{method} {path}"]["answer"]), body
    return body


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 90))


def test_a_room_in_memory_has_no_console(tmp_path: Path) -> None:
    async def body() -> None:
        async with memory_room(tmp_path) as http:
            boss = bearer(await token_of(http, OPERATOR, OPERATOR_PASSWORD))
            r = await http.get("/api/v1/admin/log", headers=boss)
            assert r.status_code == 404 and "memory" in r.json()["error"]
            assert (await http.get("/api/v1/tables")).json()["message"] is None

    run(body)


def test_the_acts_are_done_logged_and_a_bad_one_changes_nothing(url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE, url=url) as (http, room, _):
            await sign_up(http, "Ann")
            boss = bearer(await token_of(http, OPERATOR, OPERATOR_PASSWORD))
            act = "/api/v1/admin/accounts/{name}/"

            async def do(verb: str, data: dict[str, Any], name: str = "ann") -> httpx.Response:
                return await http.post(act.replace("{name}", name) + verb, json=data, headers=boss)

            bad: list[tuple[str, dict[str, Any]]] = [
                ("credit", {"amount": 5}),  # no reason
                ("credit", {"amount": 5, "reason": "   "}),
                ("credit", {"amount": "5", "reason": "x"}),
                ("credit", {"amount": 5.0, "reason": "x"}),
                ("credit", {"amount": 0, "reason": "x"}),
                ("credit", {"amount": -5, "reason": "x"}),
                ("credit", {"amount": True, "reason": "x"}),
                ("debit", {"amount": 1001, "reason": "over the bank"}),
                ("ban", {"reason": "x", "extra": 1}),
                ("ban", {}),
                ("unban", {"reason": "not banned"}),
                ("silence", {"reason": "x", "minutes": 0}),
                ("silence", {"reason": "x", "minutes": "10"}),
                ("unsilence", {"reason": "not silenced"}),
            ]
            for verb, data in bad:
                r = await do(verb, data)
                assert r.status_code == 400, (verb, data, r.text)
                assert r.json()["error"]
            assert (await do("ban", {"reason": "x"}, name="nobody")).status_code == 404
            assert (await do("fine", {"reason": "x"})).status_code == 404
            assert (await do("ban", {"reason": "x"}, name=OPERATOR)).status_code == 400
            as_json = {**boss, "Content-Type": "application/json"}
            r = await http.post(act.replace("{name}", "ann") + "ban", content=b"{", headers=as_json)
            assert r.status_code == 400
            assert room.ledger.balance(bank("Ann")) == 1000
            log = answer_of(
                "GET", "/api/v1/admin/log", await http.get("/api/v1/admin/log", headers=boss)
            )
            assert log == {"log": []}

            path = "/api/v1/admin/accounts/{name}/"
            credit = answer_of(
                "POST", path + "credit", await do("credit", {"amount": 250, "reason": "sold"})
            )
            assert credit["act"] == "credit" and credit["player"] == "Ann"
            assert credit["amount"] == 250 and credit["operator"] == OPERATOR
            answer_of("POST", path + "debit", await do("debit", {"amount": 50, "reason": "cashed"}))
            assert room.ledger.balance(bank("Ann")) == 1200
            silence = answer_of(
                "POST", path + "silence", await do("silence", {"reason": "spam", "minutes": 30})
            )
            assert silence["until"] is not None
            assert ChatStore(room.engine).silenced() == ["Ann"]
            answer_of("POST", path + "unsilence", await do("unsilence", {"reason": "ok now"}))
            assert ChatStore(room.engine).silenced() == []
            ban = answer_of("POST", path + "ban", await do("ban", {"reason": "collusion"}))
            assert ban["act"] == "ban"
            r = await http.post("/api/v1/login", json={"name": "ann", "password": GOOD})
            assert r.status_code == 401
            answer_of("POST", path + "unban", await do("unban", {"reason": "appeal"}))
            await token_of(http, "ann")
            r = await http.get("/api/v1/admin/log?player=ANN&limit=10", headers=boss)
            acts = answer_of("GET", "/api/v1/admin/log", r)["log"]
            assert [(a["act"], a["reason"]) for a in acts] == [
                ("unban", "appeal"),
                ("ban", "collusion"),
                ("unsilence", "ok now"),
                ("silence", "spam"),
                ("debit", "cashed"),
                ("credit", "sold"),
            ]
            for query in ("limit=0", "limit=x", "limit=1001", "who=ann"):
                r = await http.get(f"/api/v1/admin/log?{query}", headers=boss)
                assert r.status_code == 400, query
            assert room.ledger.audit().ok

    run(body)


def test_who_is_online_and_an_account_whole(url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE, url=url) as (http, _, port):
            token = await sign_up(http, "ann")
            await sign_up(http, "bob")
            boss = bearer(await token_of(http, OPERATOR, OPERATOR_PASSWORD))
            players = "/api/v1/admin/players"
            assert answer_of("GET", players, await http.get(players, headers=boss)) == {
                "players": []
            }
            ws_url = f"ws://127.0.0.1:{port}/ws/v1/tables/t1"
            protocols = [Subprotocol("stud8.v1"), Subprotocol(f"stud8.token.{token}")]
            async with websockets.connect(ws_url, subprotocols=protocols) as ws:
                assert json.loads(await ws.recv())["t"] == "welcome"
                online = answer_of("GET", players, await http.get(players, headers=boss))
                assert online["players"] == [
                    {"name": "ann", "connected": True, "watches": ["t1"], "sits": []}
                ]
                path = "/api/v1/admin/accounts/{name}"
                r = await http.get("/api/v1/admin/accounts/ANN", headers=boss)
                whole = answer_of("GET", path, r)
                assert whole["name"] == "ann" and whole["role"] == "player"
                assert whole["balance"] == 1000 and whole["silenced"] is False
                assert whole["addresses"] == ["127.0.0.1"]
                assert len(whole["sessions"]) == 1 and whole["seats"] == []
                assert whole["hands"] == [] and whole["log"] == []
            r = await http.get("/api/v1/admin/accounts/nobody", headers=boss)
            assert r.status_code == 404

    run(body)


def test_the_journal_and_the_rake(url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE, url=url) as (http, room, _):
            await sign_up(http, "ann")
            await sign_up(http, "bob")
            boss = bearer(await token_of(http, OPERATOR, OPERATOR_PASSWORD))
            ledger = room.ledger
            for player in ("ann", "bob"):
                ledger.buy_in(player, "t1", 100, "seat")
            ledger.settle_hand("h1", "t1", HandMoney({"ann": 10, "bob": 10}, {"ann": 18}, 2))
            ledger.settle_hand("h2", "t1", HandMoney({"ann": 20, "bob": 20}, {"bob": 37}, 3))
            r = await http.post(
                "/api/v1/admin/accounts/ann/credit",
                json={"amount": 7, "reason": "a prize, with a comma"},
                headers=boss,
            )
            assert r.status_code == 200
            path = "/api/v1/admin/journal"
            every = answer_of("GET", path, await http.get(path, headers=boss))["transactions"]
            kinds = [t["kind"] for t in every]
            assert kinds[:3] == ["credit", "hand_settlement", "hand_settlement"]
            for txn in every:
                assert sum(e["amount"] for e in txn["entries"]) == 0
            assert every[0]["memo"] == "a prize, with a comma"
            r = await http.get(f"{path}?account=bank:ann&kind=credit", headers=boss)
            only = answer_of("GET", path, r)["transactions"]
            assert [t["id"] for t in only] == [every[0]["id"]]
            assert only[0]["entries"] == [
                {"account": "issuance", "amount": -7},
                {"account": "bank:ann", "amount": 7},
            ]
            today = datetime.now(UTC).date().isoformat()
            r = await http.get(f"{path}?day={today}&limit=2", headers=boss)
            assert len(answer_of("GET", path, r)["transactions"]) == 2
            r = await http.get(f"{path}?day=2001-01-01", headers=boss)
            assert answer_of("GET", path, r)["transactions"] == []
            r = await http.get(f"{path}?before={every[0]['id']}&limit=1", headers=boss)
            assert [t["id"] for t in answer_of("GET", path, r)["transactions"]] == [every[1]["id"]]
            r = await http.get(f"{path}?format=csv&kind=hand_settlement", headers=boss)
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
            rows = list(csv.reader(io.StringIO(r.text)))
            assert rows[0] == ["transaction", "at", "kind", "hand_id", "memo", "account", "amount"]
            assert {row[3] for row in rows[1:]} == {"h1", "h2"}
            assert sum(int(row[6]) for row in rows[1:]) == 0
            for query in ("kind=gift", "day=yesterday", "limit=0", "format=xml", "x=1"):
                r = await http.get(f"{path}?{query}", headers=boss)
                assert r.status_code == 400, query

            rake = "/api/v1/admin/rake"
            by_table = answer_of("GET", rake, await http.get(f"{rake}?by=table", headers=boss))
            assert by_table == {
                "by": "table",
                "lines": [{"key": "t1", "transactions": 2, "rake": 5}],
                "total": 5,
            }
            r = await http.get(f"{rake}?by=stakes", headers=boss)
            assert answer_of("GET", rake, r)["lines"] == [
                {"key": "4/8", "transactions": 2, "rake": 5}
            ]
            r = await http.get(f"{rake}?by=day", headers=boss)
            assert answer_of("GET", rake, r)["lines"] == [
                {"key": today, "transactions": 2, "rake": 5}
            ]
            for query in ("by=week", "by=day&x=1"):
                assert (await http.get(f"{rake}?{query}", headers=boss)).status_code == 400

    run(body)


def test_the_lobby_message_is_shown_until_withdrawn(url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE, url=url) as (http, _, _):
            boss = bearer(await token_of(http, OPERATOR, OPERATOR_PASSWORD))
            path = "/api/v1/admin/message"
            lobby = await http.get("/api/v1/tables")
            assert lobby.json()["message"] is None
            assert conforms(lobby.json(), REST["GET /api/v1/tables"]["answer"])
            assert (await http.delete(path, headers=boss)).status_code == 404
            for data in ({}, {"text": ""}, {"text": 5}, {"text": "x" * 501}, {"text": "a", "b": 1}):
                assert (await http.post(path, json=data, headers=boss)).status_code == 400, data
            posted = answer_of(
                "POST", path, await http.post(path, json={"text": "restart at 22:00"}, headers=boss)
            )
            assert posted["text"] == "restart at 22:00" and posted["posted_by"] == OPERATOR
            lobby = await http.get("/api/v1/tables")  # everyone sees it, no login needed
            assert lobby.json()["message"] == posted
            assert conforms(lobby.json(), REST["GET /api/v1/tables"]["answer"])
            assert answer_of("DELETE", path, await http.delete(path, headers=boss)) == posted
            assert (await http.get("/api/v1/tables")).json()["message"] is None
            r = await http.get("/api/v1/admin/log", headers=boss)
            assert [a["act"] for a in r.json()["log"]] == ["withdraw", "message"]

    run(body)


@pytest.mark.parametrize("endpoint", ADMIN_ENDPOINTS, ids=lambda e: f"{e.method} {e.path}")
def test_every_admin_endpoint_is_in_the_schemas(endpoint: Any) -> None:
    entry = REST[f"{endpoint.method} {endpoint.path}"]
    assert entry["login"] is True and "answer" in entry


def test_the_chat_s_silence_button_is_logged_too(tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE) as (http, room, _):
            await sign_up(http, "ann")
            boss = bearer(await token_of(http, OPERATOR, OPERATOR_PASSWORD))
            path = "/api/v1/accounts/ann/silence"
            assert (await http.delete(path, headers=boss)).status_code == 200  # not silenced
            assert (await http.post(path, headers=boss)).status_code == 200  # no body
            assert ChatStore(room.engine).silenced() == ["ann"]
            r = await http.post(path, json={"reason": 5}, headers=boss)
            assert r.status_code == 400
            r = await http.request("DELETE", path, json={"reason": "said sorry"}, headers=boss)
            assert r.status_code == 200 and ChatStore(room.engine).silenced() == []
            acts = (await http.get("/api/v1/admin/log", headers=boss)).json()["log"]
            assert [(a["act"], a["reason"]) for a in acts] == [
                ("unsilence", "said sorry"),
                ("silence", "silenced from a table's chat (no reason given)"),
            ]

    run(body)
