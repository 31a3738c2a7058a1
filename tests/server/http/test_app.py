"""The REST API on a real server on 127.0.0.1: accounts, the lobby, creating tables."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from fractions import Fraction

import httpx
import pytest

from server.roomdb import serving
from server.schemacheck import SCHEMAS, conforms
from stud8.cli import build_parser
from stud8.core.rules import TimeoutPolicy
from stud8.formats.pokerstars import PokerStarsHand
from stud8.formats.pokerstars.read import parse_text
from stud8.formats.verify import verify_pokerstars
from stud8.server.accounts.auth import MemoryAuth
from stud8.server.books.memory import MemoryBooks
from stud8.server.room.lobby import Lobby
from stud8.server.runtime import room_app
from stud8.server.settings import Settings
from stud8.server.settings.sources import flag_values, load
from stud8.server.table.spec import TableSpec

REST = SCHEMAS["rest"]


def answers(endpoint: str, response: httpx.Response) -> bool:
    """The response is the answer the schema of ``endpoint`` describes (or an error)."""
    if response.status_code >= 400:
        return conforms(response.json(), REST["errors"])
    return response.status_code == REST[endpoint]["status"] and conforms(
        response.json(), REST[endpoint]["answer"]
    )


@asynccontextmanager
async def serve(
    settings: Settings,
) -> AsyncIterator[tuple[httpx.AsyncClient, MemoryBooks, Lobby]]:
    books = MemoryBooks()
    auth = MemoryAuth(
        operators={"oper": "secret-1"}, on_register=lambda name: books.issue(name, 1000)
    )
    app = room_app(
        settings.with_overrides(signups=1000),
        auth=auth,
        books=books,
        hands=books.hands,
        default_spec=TableSpec(bots=2, between_hands=0.0, bot_delay=0.0),
    )
    async with (
        serving(app) as port,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
    ):
        yield http, books, app.state.room.lobby


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 60))


async def login(http: httpx.AsyncClient, name: str, password: str = "secret-1") -> str:
    """Register ``name`` and log in (the operator ``oper`` exists: he only logs in)."""
    if name != "oper":
        r = await http.post("/api/v1/register", json={"name": name, "password": password})
        assert r.status_code == 201, r.text
    r = await http.post("/api/v1/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    token = r.json()["token"]
    assert isinstance(token, str) and len(token) >= 32
    return token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_register_login_logout() -> None:
    async def body() -> None:
        async with serve(Settings(default_tables=0)) as (http, books, _):
            r = await http.post("/api/v1/register", json={"name": "ann", "password": "secret-1"})
            assert r.status_code == 201 and r.json() == {"name": "ann", "operator": False}
            assert answers("POST /api/v1/register", r)
            assert books.balance("ann") == 1000  # new accounts get play chips
            r = await http.post("/api/v1/register", json={"name": "ann", "password": "other-pw"})
            assert r.status_code == 409 and "taken" in r.json()["error"]
            assert answers("POST /api/v1/register", r)
            for bad in (
                {"name": "a", "password": "secret-1"},
                {"name": "bob", "password": "123"},
                {"name": "bob"},
                {"name": "bob", "password": "secret-1", "admin": True},
            ):
                r = await http.post("/api/v1/register", json=bad)
                assert r.status_code == 400 and r.json()["error"], bad
            r = await http.post(
                "/api/v1/register", content=b"{oops", headers={"content-type": "application/json"}
            )
            assert r.status_code == 400 and "malformed JSON" in r.json()["error"]
            r = await http.post("/api/v1/login", json={"name": "ann", "password": "wrong-pw"})
            assert r.status_code == 401
            # the token, the name and the role (the client shows operators their form)
            r = await http.post("/api/v1/login", json={"name": "ann", "password": "secret-1"})
            token = r.json()["token"]
            assert r.json() == {"token": token, "name": "ann", "operator": False}
            assert answers("POST /api/v1/login", r)
            # the operator was made with the room: registering his name is refused
            r = await http.post("/api/v1/register", json={"name": "Oper", "password": "secret-1"})
            assert r.status_code == 409
            r = await http.post("/api/v1/login", json={"name": "oper", "password": "secret-1"})
            assert r.json()["operator"] is True and r.json()["name"] == "oper"
            # the token is a session: it logs out once
            r = await http.post("/api/v1/logout", headers=bearer(token))
            assert r.status_code == 200 and answers("POST /api/v1/logout", r)
            r = await http.post("/api/v1/tables", headers=bearer(token), json={})
            assert r.status_code == 401
            r = await http.post("/api/v1/logout")
            assert r.status_code == 401

    run(body)


def test_the_lobby_lists_the_ready_tables_with_bots() -> None:
    async def body() -> None:
        async with serve(Settings(default_tables=2)) as (http, books, _):
            tables = (await http.get("/api/v1/tables")).json()["tables"]
            assert [t["table_id"] for t in tables] == ["t1", "t2"]
            for t in tables:
                assert t["game"] == "stud_hi_lo" and t["structure"] == "fixed_limit"
                assert t["stakes"] == {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}
                assert t["seats"] == 8 and t["seats_taken"] == 2 and len(t["players"]) == 2
                assert {"average_pot", "hands_per_hour", "buy_in"} <= set(t)
                # the clock and the rules, as the client words them
                assert (t["timeout_policy"], t["action_seconds"], t["time_bank_seconds"]) == (
                    "all_in_protection",
                    10,
                    20,
                )
                assert (t["offer_seconds"], t["sit_out_seconds"]) == (30, 600)
                assert (t["rake_percent"], t["rake_cap"]) == ("0", None)
            # the bots play: hands are counted, with their pots
            for _ in range(500):
                tables = (await http.get("/api/v1/tables")).json()["tables"]
                if all(t["hands_played"] >= 2 for t in tables):
                    break
                await asyncio.sleep(0.02)
            assert all(t["hands_played"] >= 2 for t in tables)
            assert all(t["average_pot"] > 0 and t["hands_per_hour"] > 0 for t in tables)
            r = await http.get("/api/v1/tables")
            assert answers("GET /api/v1/tables", r)
            assert [(t["name"], t["waiting"]) for t in r.json()["tables"]] == [("t1", 0), ("t2", 0)]
            assert books.audit()

    run(body)


def test_create_and_close_a_table_operators_only() -> None:
    async def body() -> None:
        async with serve(Settings(default_tables=0)) as (http, books, lobby):
            op, ann = await login(http, "oper"), await login(http, "ann")
            spec = {
                "ante": 2,
                "bring_in": 5,
                "small_bet": 10,
                "big_bet": 20,
                "seats": 6,
                "min_buy_in": 100,
                "max_buy_in": 1000,
                "action_seconds": 5,
                "time_bank_seconds": 10,
                "reconnect_seconds": 10,
                "rake_percent": "5/2",
                "rake_cap": 3,
                "bots": 2,
                "timeout_policy": "check_or_fold",
                "sit_out_seconds": 300,
            }
            r = await http.post("/api/v1/tables", json=spec)
            assert r.status_code == 401
            r = await http.post("/api/v1/tables", json=spec, headers=bearer(ann))
            assert r.status_code == 403 and "operators" in r.json()["error"]
            assert (await http.get("/api/v1/tables")).json()["tables"] == []
            assert conforms(spec, REST["POST /api/v1/tables"]["body"])
            r = await http.post(
                "/api/v1/tables",
                json={**spec, "table_id": "high", "name": "High stakes"},
                headers=bearer(op),
            )
            assert r.status_code == 201, r.text
            assert answers("POST /api/v1/tables", r)
            table = r.json()["table"]
            assert table["table_id"] == "high" and table["seats"] == 6
            assert table["name"] == "High stakes" and table["waiting"] == 0
            assert table["stakes"] == {"ante": 2, "bring_in": 5, "small_bet": 10, "big_bet": 20}
            assert table["buy_in"] == {"min": 100, "max": 1000} and table["seats_taken"] == 2
            assert (table["timeout_policy"], table["sit_out_seconds"]) == ("check_or_fold", 300)
            assert (table["action_seconds"], table["time_bank_seconds"]) == (5, 10)
            assert (table["rake_percent"], table["rake_cap"], table["offer_seconds"]) == (
                "5/2",
                3,
                30,
            )
            rules = lobby.tables["high"].table.rules
            assert rules.timeout_policy is TimeoutPolicy.CHECK_OR_FOLD
            assert rules.rake_percent == Fraction(5, 2)
            for bad, why in (
                ({**spec, "big_bet": 5}, "big_bet"),
                ({**spec, "min_buy_in": 0}, "buy-in"),
                ({**spec, "ante": "2"}, "integer"),
                ({**spec, "colour": "red"}, "unknown"),
                ({**spec, "bots": 9}, "bots"),
                ({**spec, "structure": "no-limit-ish"}, "no-limit-ish"),
                ({**spec, "offer_seconds": 0}, "offer_seconds"),
                ({**spec, "timeout_policy": "fold_always"}, "fold_always"),
                ({**spec, "timeout_policy": None}, "timeout_policy"),
                ({**spec, "sit_out_seconds": 0}, "sit_out_seconds"),
                ({**spec, "sit_out_seconds": "600"}, "sit_out_seconds"),
                ({**spec, "game": "holdem"}, "holdem"),
                ({**spec, "game": 7}, "game"),
                ({**spec, "bot_policy": "genius"}, "genius"),
                ({**spec, "name": ""}, "name"),
                ({**spec, "table_id": "high"}, "already a table"),
            ):
                r = await http.post("/api/v1/tables", json=bad, headers=bearer(op))
                assert r.status_code == 400 and why in r.json()["error"], (bad, r.text)
            assert len((await http.get("/api/v1/tables")).json()["tables"]) == 1
            r = await http.delete("/api/v1/tables/high", headers=bearer(ann))
            assert r.status_code == 403
            r = await http.delete("/api/v1/tables/high", headers=bearer(op))
            assert r.status_code == 200 and answers("DELETE /api/v1/tables/{table_id}", r)
            assert (await http.get("/api/v1/tables")).json()["tables"] == []
            r = await http.delete("/api/v1/tables/high", headers=bearer(op))
            assert r.status_code == 404
            assert books.audit()
            # closing cashed everyone out: nothing is left on a table
            assert sum(books.on_table("high", f"bot{i}") for i in (1, 2)) == 0

    run(body)


def test_the_serve_command_takes_host_port_and_database() -> None:
    args = build_parser().parse_args(
        ["serve", "--host", "127.0.0.1", "--port", "8123", "--database", "sqlite:///x.db"]
    )
    env = {"STUD8_PORT": "9000", "STUD8_HOST": "0.0.0.0"}
    merged = load(flags=flag_values(args), environ=env)
    assert (merged.host, merged.port, merged.database_url) == ("127.0.0.1", 8123, "sqlite:///x.db")
    assert load(environ=env).database_url == "sqlite:///stud8.db"


@pytest.mark.parametrize(
    ("game", "header"),
    [
        ("stud_hi_lo", "7 Card Stud Hi/Lo Limit"),
        ("stud_high", "7 Card Stud Limit"),
        ("razz", "Razz Limit"),
    ],
)
def test_a_table_of_each_game_plays_and_keeps_its_hands(game: str, header: str) -> None:
    """Room tables play Seven Card Stud Hi/Lo, Seven Card Stud and Razz: the lobby
    says the game, the bots play it, and its hands are kept in PokerStars text under
    the game's own name."""

    async def body() -> None:
        async with serve(Settings(default_tables=0)) as (http, books, lobby):
            op = await login(http, "oper")
            spec = {"game": game, "bots": 4, "between_hands": 0, "bot_delay": 0}
            spec["showdown_seconds"] = 0  # as fast as the bots play
            r = await http.post(
                "/api/v1/tables", json={**spec, "table_id": "g"}, headers=bearer(op)
            )
            assert r.status_code == 201, r.text
            assert r.json()["table"]["game"] == game
            table = lobby.tables["g"].table
            assert table.rules.game.value == game
            while table.hands_played < 20:
                await asyncio.sleep(0.01)
            r = await http.get("/api/v1/hands", params={"limit": 20}, headers=bearer(op))
            assert r.status_code == 200
            hands = [h for h in r.text.split("\n\n\n") if h.strip()]
            assert len(hands) == 20
            assert all(f":  {header} (" in h.strip().splitlines()[0] for h in hands), hands
            # and every one of them verifies (stud8 hh verify reads all three games)
            read = parse_text(r.text)
            assert len(read) == 20 and all(isinstance(h, PokerStarsHand) for h in read)
            verdicts = [verify_pokerstars(h) for h in read if isinstance(h, PokerStarsHand)]
            assert all(v.reproduced for v in verdicts), [str(v) for v in verdicts]
            lobby_row = (await http.get("/api/v1/tables")).json()["tables"][0]
            assert lobby_row["game"] == game and lobby_row["hands_played"] >= 20
            assert books.audit()

    run(body)
