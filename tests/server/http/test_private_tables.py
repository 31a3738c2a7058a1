"""Private tables on a real server on 127.0.0.1: only the accounts a table's invitation
admitted (and operators) see it in the lobby, watch it or sit at it; to anybody else
it does not exist, over REST and the websocket alike. Codes cannot be guessed (tried
too often, they are refused like wrong passwords), a wrong, revoked or closed table's
code admits nobody, and a player once admitted keeps his access."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx
import pytest
import websockets

from server.roomclient import OPERATOR, SPEC, Room, passive, play, run, serve, sit
from server.schemacheck import SCHEMAS, conforms
from stud8.cli import build_parser
from stud8.server.settings import Settings

REST = SCHEMAS["rest"]
PRIVATE = {"min_buy_in": 40, "max_buy_in": 400, "between_hands": 0.05, "showdown_seconds": 0}
NO_CODE = "no open table has this invitation code"
LET_PLAYERS = Settings(default_tables=0, players_create_private=True)


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def lobby(room: Room, token: str | None = None) -> dict[str, Any]:
    r = await room.http.get("/api/v1/tables", headers=auth(token))
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    assert conforms(body, REST["GET /api/v1/tables"]["answer"]), body
    return body


async def table_ids(room: Room, token: str | None = None) -> list[str]:
    return [t["table_id"] for t in (await lobby(room, token))["tables"]]


async def open_private(room: Room, token: str, **extra: Any) -> dict[str, Any]:
    body = {**PRIVATE, "private": True, **extra}
    r = await room.http.post("/api/v1/tables", json=body, headers=auth(token))
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    assert conforms(created, REST["POST /api/v1/tables"]["answer"]), created
    return created


async def redeem(room: Room, token: str, code: object) -> httpx.Response:
    return await room.http.post("/api/v1/invitations", json={"code": code}, headers=auth(token))


async def refused_socket(room: Room, table_id: str, token: str | None) -> tuple[int, str]:
    """The close code and reason of a websocket to ``table_id`` the room refuses."""
    query = f"?token={token}" if token else ""
    url = f"ws://127.0.0.1:{room.port}/ws/v1/tables/{table_id}{query}"
    async with websockets.connect(url) as ws:
        try:
            msg = await asyncio.wait_for(ws.recv(), 5)
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd is not None
            return closed.rcvd.code, closed.rcvd.reason
    raise AssertionError(f"the socket stayed open: {msg!r}")


def test_a_private_table_is_seen_only_by_those_its_code_admitted() -> None:
    async def body() -> None:
        async with serve(LET_PLAYERS) as room:
            ann, eve = await room.player("ann"), await room.player("eve")
            bob = await room.player("bob")
            oper = await room.player(OPERATOR)
            assert (await lobby(room, ann))["may_open_private"] is True
            assert (await lobby(room))["may_open_private"] is False
            created = await open_private(room, ann, name="Ann's game")
            table, invitation = created["table"], created["invitation"]
            home = table["table_id"]  # not the room's next number: a random id
            assert table["private"] is True and re.fullmatch(r"p[0-9a-f]{12}", home), table
            code = invitation["code"]
            assert invitation == {
                "table_id": home,
                "creator": "ann",
                "code": code,
                "link": f"/#/join/{code}",
            }
            assert len(code) >= 22  # 128 random bits
            # the creator and operators see it; an outsider and the anonymous lobby do not
            assert await table_ids(room, ann) == ["t1", home]
            assert await table_ids(room, oper) == ["t1", home]
            assert await table_ids(room, eve) == ["t1"]
            assert await table_ids(room) == ["t1"]
            assert await table_ids(room, "not-a-token") == ["t1"]
            # the id alone opens nothing: the answer of a table that does not exist
            for token in (eve, None):
                assert await refused_socket(room, home, token) == (4404, f"no table {home}")
                assert await refused_socket(room, "nope", token) == (4404, "no table nope")
            for method in ("GET", "POST", "DELETE"):
                for tid in (home, "nope"):
                    r = await room.http.request(
                        method, f"/api/v1/tables/{tid}/invitation", headers=auth(eve)
                    )
                    assert (r.status_code, r.json()) == (404, {"error": f"no table {tid}"})
            for tid in (home, "nope"):  # closing it: the same refusal either way
                r = await room.http.delete(f"/api/v1/tables/{tid}", headers=auth(eve))
                assert (r.status_code, r.json()) == (403, {"error": "operators only"})
            # bob redeems the code: he sees it, watches it and sits
            r = await redeem(room, bob, code)
            assert r.status_code == 200, r.text
            assert conforms(r.json(), REST["POST /api/v1/invitations"]["answer"])
            assert r.json()["table"]["table_id"] == home
            assert await table_ids(room, bob) == ["t1", home]
            assert await table_ids(room, eve) == ["t1"]
            async with (
                room.connect(ann, table_id=home) as c1,
                room.connect(bob, table_id=home) as c2,
            ):
                await sit(room, c1, 1)
                await sit(room, c2, 2)
                await asyncio.gather(play(c1, 2, passive), play(c2, 2, passive))
                # its hands replay for its players and operators; to eve and to nobody
                # logged in, a hand of it does not exist
                r = await room.http.get(f"/api/v1/hands/list?table={home}", headers=auth(ann))
                hand = r.json()["hands"][0]["hand_id"]
                for token, status in ((ann, 200), (bob, 200), (oper, 200), (eve, 404), (None, 404)):
                    r = await room.http.get(f"/api/v1/hands/{hand}/replay", headers=auth(token))
                    assert r.status_code == status, (token, r.text)
                    if status == 404:
                        assert r.json() == {"error": f"no hand {hand!r} to replay"}
                # its chat reads back for its players and operators; to eve it is a
                # table where nothing was said, as a table that does not exist
                assert (await c2.command("chat", text="only for us"))["t"] == "ack"
                for token, said in ((bob, ["only for us"]), (oper, ["only for us"]), (eve, [])):
                    for tid in (home, "nope"):
                        r = await room.http.get(f"/api/v1/tables/{tid}/chat", headers=auth(token))
                        assert r.status_code == 200, r.text
                        lines = [line["text"] for line in r.json()["lines"]]
                        assert lines == (said if tid == home else []), (token, tid, r.text)
                # the creator renews the code: the old one admits nobody, bob stays
                r = await room.http.post(f"/api/v1/tables/{home}/invitation", headers=auth(ann))
                assert r.status_code == 200, r.text
                renewed = REST["POST /api/v1/tables/{table_id}/invitation"]["answer"]
                assert conforms(r.json(), renewed)
                new_code = r.json()["code"]
                assert new_code != code
                assert (await redeem(room, eve, code)).status_code == 404
                assert await table_ids(room, bob) == ["t1", home]
                # an operator sees the code; he revokes it: no code works
                r = await room.http.get(f"/api/v1/tables/{home}/invitation", headers=auth(oper))
                assert r.json()["code"] == new_code
                r = await room.http.delete(f"/api/v1/tables/{home}/invitation", headers=auth(ann))
                revoked = {"table_id": home, "creator": "ann", "code": None, "link": None}
                assert r.json() == revoked
                assert (await redeem(room, eve, new_code)).status_code == 404
                assert await table_ids(room, eve) == ["t1"]
                # bob (admitted) still opens the table afresh; eve still cannot
                async with room.connect(bob, table_id=home) as again:
                    assert again.seat == 2
                assert await refused_socket(room, home, eve) == (4404, f"no table {home}")
            r = await room.http.post(f"/api/v1/tables/{home}/invitation", headers=auth(oper))
            last = r.json()["code"]
            # the creator closes his table: its code admits nobody now
            r = await room.http.delete(f"/api/v1/tables/{home}", headers=auth(ann))
            assert r.status_code == 200, r.text
            r = await redeem(room, eve, last)
            assert (r.status_code, r.json()) == (404, {"error": NO_CODE})
            assert await table_ids(room, ann) == ["t1"]
            assert room.books.audit()

    run(body)


def test_players_may_not_open_tables_unless_the_room_lets_them() -> None:
    async def body() -> None:
        async with serve(Settings(default_tables=0)) as room:
            ann = await room.player("ann")
            assert (await lobby(room, ann))["may_open_private"] is False
            for extra in ({"private": True}, {}, {"private": False}):
                r = await room.http.post(
                    "/api/v1/tables", json={**PRIVATE, **extra}, headers=auth(ann)
                )
                assert (r.status_code, r.json()) == (403, {"error": "operators only"})
            # an operator may, and he sees the code
            oper = await room.player(OPERATOR)
            created = await open_private(room, oper)
            assert created["invitation"]["creator"] == OPERATOR
            assert created["table"]["table_id"] not in await table_ids(room, ann)
            # the next public table takes the next number: no gap tells of the private one
            r = await room.http.post("/api/v1/tables", json=PRIVATE, headers=auth(oper))
            assert r.json()["table"]["table_id"] == "t2"
            assert await table_ids(room, ann) == ["t1", "t2"]
        async with serve(LET_PLAYERS) as room:
            ann = await room.player("ann")
            # a player's table is private, and of sane settings
            r = await room.http.post("/api/v1/tables", json=PRIVATE, headers=auth(ann))
            assert (r.status_code, r.json()) == (403, {"error": "operators only"})
            r = await room.http.post(
                "/api/v1/tables", json={**PRIVATE, "private": "yes"}, headers=auth(ann)
            )
            assert r.status_code == 403
            r = await room.http.post(
                "/api/v1/tables", json={"private": True, "seats": 99}, headers=auth(ann)
            )
            assert r.status_code == 400, r.text
            # he may not choose its id (a refusal could tell him a private table has it)
            r = await room.http.post(
                "/api/v1/tables",
                json={**PRIVATE, "private": True, "table_id": "club"},
                headers=auth(ann),
            )
            assert (r.status_code, r.json()) == (
                400,
                {"error": "a player's table gets its id from the room: leave out table_id"},
            )
            # at most private_tables_per_player open at once
            for _ in range(LET_PLAYERS.private_tables_per_player):
                await open_private(room, ann)
            r = await room.http.post(
                "/api/v1/tables", json={**PRIVATE, "private": True}, headers=auth(ann)
            )
            assert r.status_code == 403 and "3 private tables" in r.json()["error"]

    run(body)


def test_guessing_codes_is_refused_like_wrong_passwords() -> None:
    async def body() -> None:
        settings = LET_PLAYERS.with_overrides(login_failures=3, address_failures=5)
        async with serve(settings) as room:
            ann, eve = await room.player("ann"), await room.player("eve")
            cyd = await room.player("cyd")
            code = (await open_private(room, ann))["invitation"]["code"]
            # malformed codes are 400s and count for nothing
            for bad in ("", "x" * 65, 7, None):
                r = await redeem(room, eve, bad)
                assert r.status_code == 400, (bad, r.text)
            r = await room.http.post(
                "/api/v1/invitations", json={"code": code, "x": 1}, headers=auth(eve)
            )
            assert r.status_code == 400
            assert (await redeem(room, "", code)).status_code == 401  # no log-in
            # eve guesses: three wrong codes, then even the right one waits
            near = [code[:-1] + last for last in "ABCD" if code[:-1] + last != code]
            for guess in near[:3]:  # one character off the real code
                r = await redeem(room, eve, guess)
                assert (r.status_code, r.json()["error"]) == (404, NO_CODE)
            r = await redeem(room, eve, code)
            assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
            assert r.json() == {"error": "too many wrong invitation codes: try again later"}
            assert await table_ids(room, eve) == ["t1"]
            # cyd, from the same address: a right code is not counted, two wrong ones
            # reach the address's limit of five
            assert (await redeem(room, cyd, code)).status_code == 200
            for n in range(2):
                assert (await redeem(room, cyd, f"wrong-{n}")).status_code == 404
            assert (await redeem(room, cyd, code)).status_code == 429

    run(body)


def test_an_outsider_watching_the_lobby_never_learns_of_a_private_table() -> None:
    """The lobby's feed (its list, polled) seen by an outsider while a private table
    opens and plays a hand: never the table, its players, or a count that moved."""

    async def body() -> None:
        async with serve(LET_PLAYERS) as room:
            ann, bob = await room.player("ann"), await room.player("bob")
            eve = await room.player("eve")
            seen: list[dict[str, Any]] = []
            stop = asyncio.Event()

            async def watch() -> None:
                while not stop.is_set():
                    seen.append(await lobby(room, eve))
                    seen.append(await lobby(room))
                    await asyncio.sleep(0.01)

            async def look() -> None:  # at each step, besides the watcher's own looks
                seen.extend([await lobby(room, eve), await lobby(room)])

            watcher = asyncio.create_task(watch())
            created = await open_private(room, ann, name="Secret")
            code, secret = created["invitation"]["code"], created["table"]["table_id"]
            await look()
            assert (await redeem(room, bob, code)).status_code == 200
            await look()
            async with (
                room.connect(ann, table_id=secret) as c1,
                room.connect(bob, table_id=secret) as c2,
            ):
                await sit(room, c1, 1)
                await sit(room, c2, 2)
                await look()
                await asyncio.gather(play(c1, 1, passive), play(c2, 1, passive), look())
                await look()
            stop.set()
            await watcher
            assert len(seen) >= 10
            public = (await lobby(room, ann))["tables"][0]
            for answer in seen:
                assert [t["table_id"] for t in answer["tables"]] == ["t1"], answer
                assert answer["tables"][0] == public
                text = str(answer)
                assert secret not in text and "Secret" not in text
                assert "ann" not in text and "bob" not in text

    run(body)


def test_a_table_is_public_unless_opened_private() -> None:
    """A table opened without ``private`` is public, and says so."""

    async def body() -> None:
        async with serve(Settings(default_tables=0), spec=SPEC) as room:
            assert [t["private"] for t in (await lobby(room))["tables"]] == [False]

    run(body)


def test_the_room_lets_players_open_private_tables_by_flag_or_environment() -> None:
    assert Settings().players_create_private is False  # off by default
    args = build_parser().parse_args(["serve", "--players-create-private"])
    assert Settings().with_overrides(players_create_private=args.players_create_private) == (
        Settings(players_create_private=True)
    )
    unset = build_parser().parse_args(["serve"]).players_create_private
    on = Settings.from_env({"STUD8_PLAYERS_CREATE_PRIVATE": "1"})
    assert on.with_overrides(players_create_private=unset).players_create_private is True
    for raw, value in (("yes", True), ("TRUE", True), ("0", False), ("off", False), ("", False)):
        settings = Settings.from_env({"STUD8_PLAYERS_CREATE_PRIVATE": raw})
        assert settings.players_create_private is value, raw
    with pytest.raises(ValueError, match="STUD8_PLAYERS_CREATE_PRIVATE='maybe': not yes or no"):
        Settings.from_env({"STUD8_PLAYERS_CREATE_PRIVATE": "maybe"})
    with pytest.raises(ValueError, match="must be positive"):
        Settings(private_tables_per_player=0)
