"""``/api/v1/settings``: the settings kept with the account (four-colour deck, sounds,
default buy-in per stakes, auto top-up, the lobby's sort and filters), through the
real app, on a database (SQLite and PostgreSQL) and in memory: a new account has the
defaults, a session of the same account elsewhere reads what another kept, a bad body
changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from server.dbroom import db_room, memory_room
from server.http.test_notes import SETTINGS, answer, login
from stud8.server.wire.limits import MAX_STAKES_BUY_INS

STAKES = "stud_hi_lo:limit:1/2/4/8"
LOBBY: dict[str, object] = {
    "sort": None,
    "descending": False,
    "games": [],
    "mixed": False,
    "stakes": "",
    "hide_full": False,
    "hide_empty": False,
    "min_players": 0,
}
DEFAULTS = {
    "four_colour": False,
    "sounds": True,
    "buy_in": {},
    "auto_top_up": False,
    "lobby": LOBBY,
}
# a lobby sorted by its observers, most first, only Razz, Stud Hi/Lo and the mixed
# tables at 2/4
MY_LOBBY: dict[str, object] = {
    "sort": "observers",
    "descending": True,
    "games": ["razz", "stud_hi_lo"],
    "mixed": True,
    "stakes": "2/4",
    "hide_full": True,
    "hide_empty": True,
    "min_players": 2,
}


async def settings_follow_the_account(http: httpx.AsyncClient) -> None:
    first, bob = await login(http, "ann"), await login(http, "bob")
    second = await login(http, "ann", new=False)  # another browser, another session
    got = answer(await http.get("/api/v1/settings", headers=first), "GET /api/v1/settings")
    assert got == DEFAULTS
    mine = {
        "four_colour": True,
        "sounds": False,
        "buy_in": {STAKES: 120},
        "auto_top_up": True,
        "lobby": MY_LOBBY,
    }
    r = await http.put("/api/v1/settings", json=mine, headers=first)
    assert answer(r, "PUT /api/v1/settings") == mine
    assert (await http.get("/api/v1/settings", headers=second)).json() == mine
    assert (await http.get("/api/v1/settings", headers=bob)).json() == DEFAULTS
    # a field left out takes its default
    r = await http.put("/api/v1/settings", json={"four_colour": True}, headers=second)
    assert r.json() == {**DEFAULTS, "four_colour": True}
    assert (await http.get("/api/v1/settings", headers=first)).json()["buy_in"] == {}
    assert (await http.get("/api/v1/settings")).status_code == 401


async def bad_settings_change_nothing(http: httpx.AsyncClient) -> None:
    ann = await login(http, "ann")
    kept = {
        "four_colour": True,
        "sounds": True,
        "buy_in": {STAKES: 80},
        "auto_top_up": False,
        "lobby": MY_LOBBY,
    }
    assert (await http.put("/api/v1/settings", json=kept, headers=ann)).status_code == 200
    refused = [
        ({"four_colour": "yes"}, "four_colour"),
        ({"buy_in": {STAKES: 0}}, "positive"),
        ({"buy_in": {STAKES: -5}}, "positive"),
        ({"buy_in": {STAKES: 2.5}}, "buy_in"),
        ({"buy_in": {"<script>": 10}}, "names no stakes"),
        ({"buy_in": {f"stud:limit:1/2/4/{n}": 10 for n in range(MAX_STAKES_BUY_INS + 1)}}, "limit"),
        ({"colour_deck": True}, "colour_deck"),
        ({"lobby": {"sort": "rake"}}, "lobby.sort"),
        ({"lobby": {"games": ["holdem"]}}, "lobby.games"),
        ({"lobby": {"games": ["razz", "razz"]}}, "each game at most once"),
        ({"lobby": {"stakes": "2-4"}}, "small_bet/big_bet"),
        ({"lobby": {"min_players": 11}}, "min_players must be 0 to 10"),
        ({"lobby": {"min_players": -1}}, "min_players"),
        ({"lobby": {"hide_full": "yes"}}, "hide_full"),
        ({"lobby": {"sorted": "game"}}, "sorted"),
    ]
    for body, said in refused:
        r = await http.put("/api/v1/settings", json=body, headers=ann)
        assert r.status_code == 400 and said in r.json()["error"], (body, r.text)
        assert (
            answer(await http.get("/api/v1/settings", headers=ann), "GET /api/v1/settings") == kept
        )
    r = await http.put(
        "/api/v1/settings", content=b"[1]", headers={**ann, "content-type": "application/json"}
    )
    assert r.status_code == 400


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_settings_on_a_database(kind: str, tmp_path: Path) -> None:
    from server.roomdb import fresh_database

    url = fresh_database(kind, tmp_path)

    async def main() -> None:
        async with db_room(tmp_path, SETTINGS, url=url) as (http, _, _):
            await settings_follow_the_account(http)
        url2 = fresh_database(kind, tmp_path, "room2.db")
        async with db_room(tmp_path, SETTINGS, url=url2) as (http, _, _):
            await bad_settings_change_nothing(http)

    asyncio.run(asyncio.wait_for(main(), 60))


def test_settings_in_memory(tmp_path: Path) -> None:
    async def main() -> None:
        async with memory_room(tmp_path, SETTINGS) as http:
            await settings_follow_the_account(http)
        async with memory_room(tmp_path, SETTINGS) as http:
            await bad_settings_change_nothing(http)

    asyncio.run(asyncio.wait_for(main(), 60))


def test_a_socket_opened_reads_the_settings_kept_at_hand_and_true(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a room in one process a websocket's opening takes the account's settings
    from those at hand: read once, then kept true by each change; a change made while
    a read is on its way is not undone by it."""
    from server.roomclient import run, serve, sit
    from stud8.server.accounts.preferences import KeptSettings, MemoryPreferences
    from stud8.server.wire.account import AccountSettings

    reads: list[str] = []
    real = MemoryPreferences.settings_of

    def counting(self: MemoryPreferences, account: str) -> AccountSettings:
        reads.append(account)
        return real(self, account)

    monkeypatch.setattr(MemoryPreferences, "settings_of", counting)

    async def body() -> None:
        async with serve() as room:
            ann, bob = await room.player("ann"), await room.player("bob")
            mine = {"Authorization": f"Bearer {ann}"}
            async with room.connect(bob), room.connect(bob, ids="b2"):
                pass
            assert reads == ["bob"]  # read at his first opening only
            on = {"auto_top_up": True}
            assert (await room.http.put("/api/v1/settings", json=on, headers=mine)).is_success
            async with room.connect(ann) as a, room.connect(ann, ids="a2"):
                await sit(room, a, 1, 100)
                assert room.table().seats[1].auto_top_up  # what the Connect told
            assert reads == ["bob", "ann"]  # the PUT's own look at the old ones
            off = {"auto_top_up": False}
            assert (await room.http.put("/api/v1/settings", json=off, headers=mine)).is_success
            async with room.connect(ann, ids="a3"):
                while room.table().seating.connections["ann"] != 1:  # its Connect taken
                    await asyncio.sleep(0.01)
                assert not room.table().seats[1].auto_top_up  # the change, not the old
            got = await room.http.get("/api/v1/settings", headers=mine)
            assert got.json()["auto_top_up"] is False and reads == ["bob", "ann"]

    run(body)
    kept = KeptSettings(limit=2)
    for name in ("ann", "bob", "cyd"):
        kept.read(name, AccountSettings())
    assert kept.get("ann") is None and kept.get("cyd") is not None  # the oldest forgotten
