"""The hand replayer's endpoints on a real server on 127.0.0.1: a stored hand with
the cards its viewer may see (a player, an observer, nobody logged in, an operator),
the list of hands, and hand history files read (and nothing stored), hostile ones
included: oversized, binary, in other encodings, corrupt, thousands of hands."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine

from server.replayhands import quiet_hand, side_pot_hand
from server.roomdb import fresh_database, serving
from server.schemacheck import SCHEMAS, conforms
from sharedhh import SHARED_HH
from stud8.core.events import CardDealt, HandShown, PotAwarded
from stud8.formats.record import HandRecord
from stud8.server.accounts.auth import MemoryAuth
from stud8.server.books.hands import HandStore, InProgress, SeatEntry
from stud8.server.books.memory import MemoryBooks
from stud8.server.http.replay_files import read_replays
from stud8.server.http.services import HandTexts
from stud8.server.runtime import room_app
from stud8.server.settings import Settings
from stud8.server.storage import create_engine_for, upgrade
from stud8.server.table.spec import TableSpec
from stud8.server.wire.events import encode_event
from stud8.server.wire.limits import MAX_REPLAY_BYTES, MAX_REPLAY_HANDS
from stud8.server.wire.replay import replay_of

REST = SCHEMAS["rest"]
HH = SHARED_HH
PHH = Path(__file__).resolve().parents[2] / "data" / "phh"
STARS = HH / "pokerstars_stud8_7-StudHL-USD-0.04-0.08-200911.txt"
SHORT_STARS = HH / "pokerstars_stud8_7-StudHL-USD-400-800-201701.3bet.fix.txt"


def answers(endpoint: str, response: httpx.Response) -> bool:
    if response.status_code >= 400:
        return conforms(response.json(), REST["errors"])
    return response.status_code == REST[endpoint]["status"] and conforms(
        response.json(), REST[endpoint]["answer"]
    )


Room = tuple[httpx.AsyncClient, MemoryBooks, dict[str, dict[str, str]]]


@asynccontextmanager
async def room(
    settings: Settings | None = None, engine: Engine | None = None
) -> AsyncIterator[Room]:
    """A room with two stored hands of ann, bob, cat and dan at t1 (in memory, or
    in the database of ``engine``); eve (who played neither) and the operator oper
    are logged in too."""
    books = MemoryBooks()
    auth = MemoryAuth(operators={"oper": "secret-1"}, on_register=lambda n: books.issue(n, 1000))
    hands: HandTexts = books.hands
    if engine is not None:
        store = HandStore(engine)
        for record in (quiet_hand(), side_pot_hand()):
            store.store(record)
        hands = store
    else:
        books.hands.add(quiet_hand())
        books.hands.add(side_pot_hand())
    app = room_app(
        (settings or Settings()).with_overrides(signups=1000, default_tables=0),
        auth=auth,
        books=books,
        hands=hands,
        default_spec=TableSpec(bots=0),
    )
    async with (
        serving(app) as port,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http,
    ):
        headers = {}
        for name in ("ann", "bob", "eve", "oper"):
            if name != "oper":
                r = await http.post("/api/v1/register", json={"name": name, "password": "secret-1"})
                assert r.status_code == 201, r.text
            r = await http.post("/api/v1/login", json={"name": name, "password": "secret-1"})
            headers[name] = {"Authorization": f"Bearer {r.json()['token']}"}
        yield http, books, headers


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 120))


def strings(value: Any) -> set[str]:
    """Every word of every string in a JSON value (card names among them)."""
    if isinstance(value, str):
        return set(value.split())
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def hidden_from(record: HandRecord, viewer: int | None) -> set[str]:
    """The down cards a viewer in ``viewer``'s seat may never see: the others', but
    for those shown at the showdown."""
    shown = {e.seat for e in record.events if isinstance(e, HandShown)}
    return {
        str(e.card)
        for e in record.events
        if isinstance(e, CardDealt)
        and not e.face_up
        and e.seat != viewer
        and e.seat not in shown
        and e.card is not None
    }


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def store_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine | None]:
    """None: the hands in memory; else an engine on a migrated database (SQLite, and
    PostgreSQL when the tests have one) where they are stored."""
    if request.param == "memory":
        yield None
        return
    url = fresh_database(request.param, tmp_path)
    upgrade(url)
    engine = create_engine_for(url)
    yield engine
    engine.dispose()


def test_a_stored_hand_shows_each_viewer_the_cards_he_may_see(store_engine: Engine | None) -> None:
    record = side_pot_hand()
    assert hidden_from(record, None)  # seat 4 mucked: his down cards stay secret

    async def body() -> None:
        async with room(engine=store_engine) as (http, _, headers):
            path = "/api/v1/hands/sidepots1/replay"
            endpoint = "GET /api/v1/hands/{hand_id}/replay"
            for who, seat in (("ann", 1), ("bob", 2), ("eve", None), (None, None)):
                r = await http.get(path, headers=headers[who] if who else {})
                assert r.status_code == 200 and answers(endpoint, r), r.text
                got = r.json()
                assert got["viewer"] == seat and got["everything"] is False
                # never a card he may not see, anywhere in the answer
                assert not strings(got) & hidden_from(record, seat), who
                downs = [e for e in got["events"] if e["k"] == "deal" and not e["face_up"]]
                for e in downs:
                    assert (e["card"] is not None) == (e["seat"] == seat), (who, e)
                # the rest is the hand as the table told it
                assert len(got["events"]) == len(record.events)
                assert got["final_stacks"] == [list(p) for p in record.final_stacks]
                assert [p["player"] for p in got["players"]] == ["ann", "bob", "cat", "dan"]
                shows = [e for e in got["events"] if e["k"] == "show"]
                assert [e["seat"] for e in shows] == [1, 2, 3]
            r = await http.get(path, headers=headers["oper"])
            every = r.json()
            assert every["everything"] is True
            downs = [e for e in every["events"] if e["k"] == "deal" and not e["face_up"]]
            assert downs and all(e["card"] is not None for e in downs)
            assert hidden_from(record, None) <= strings(every)
            # a token that is not a session's is no login: an observer's view
            r = await http.get(path, headers={"Authorization": "Bearer nope"})
            assert r.status_code == 200 and r.json()["viewer"] is None
            assert not strings(r.json()) & hidden_from(record, None)
            for bad, status in (("nohand", 404), ("x" * 101, 400)):
                r = await http.get(f"/api/v1/hands/{bad}/replay", headers=headers["oper"])
                assert r.status_code == status and answers(endpoint, r), r.text

    run(body)


def test_the_list_of_hands_gives_their_ids_with_the_rights_of_the_histories(
    store_engine: Engine | None,
) -> None:
    async def body() -> None:
        async with room(engine=store_engine) as (http, _, headers):
            endpoint = "GET /api/v1/hands/list"
            r = await http.get("/api/v1/hands/list", headers=headers["ann"])
            assert r.status_code == 200 and answers(endpoint, r), r.text
            assert [h["hand_id"] for h in r.json()["hands"]] == ["sidepots1", "quiet1"]
            # the numbers are the hands' numbers in PokerStars text
            text = (await http.get("/api/v1/hands", headers=headers["ann"])).text
            for entry in r.json()["hands"]:
                assert f"PokerStars Hand #{entry['number']}:" in text
                assert entry["table"] == "t1" and entry["replayable"] is True
            r = await http.get("/api/v1/hands/list?limit=1&table=t1", headers=headers["ann"])
            assert [h["hand_id"] for h in r.json()["hands"]] == ["sidepots1"]
            r = await http.get("/api/v1/hands/list", headers=headers["eve"])
            assert r.json() == {"hands": []}
            r = await http.get("/api/v1/hands/list?player=bob", headers=headers["oper"])
            assert len(r.json()["hands"]) == 2
            for query, who, status in (
                ("?player=bob", "ann", 403),
                ("?limit=0", "ann", 400),
                ("?limit=x", "ann", 400),
                ("?colour=red", "ann", 400),
                ("", None, 401),
            ):
                auth = headers[who] if who else {}
                r = await http.get(f"/api/v1/hands/list{query}", headers=auth)
                assert r.status_code == status and answers(endpoint, r), (query, r.text)

    run(body)


async def upload(
    http: httpx.AsyncClient, headers: dict[str, str], data: bytes, name: str = "hands.txt"
) -> httpx.Response:
    r = await http.post("/api/v1/replays", params={"name": name}, content=data, headers=headers)
    assert answers("POST /api/v1/replays", r), r.text
    return r


def test_a_pokerstars_file_replays_with_its_hero_s_cards_only() -> None:
    data = STARS.read_bytes()

    async def body() -> None:
        async with room() as (http, books, headers):
            r = await upload(http, headers["eve"], data, STARS.name)
            assert r.status_code == 200, r.text
            got = r.json()
            assert got["format"] == "pokerstars" and got["problems"] == []
            assert len(got["hands"]) == 7 and got["more"] is False
            first = got["hands"][0]
            assert first["number"] == "35874487284" and first["table"] == "Dawn II"
            assert [p["player"] for p in first["players"]] == [
                "gashpor",
                "denny501",
                "Hero",
                "rdiezchang",
            ]
            assert first["viewer"] == 5 and first["currency"] == "USD"
            for hand in got["hands"]:
                shown = {e["seat"] for e in hand["events"] if e["k"] == "show"}
                for e in hand["events"]:
                    if e["k"] == "deal" and not e["face_up"]:
                        known = e["seat"] == hand["viewer"]
                        assert (e["card"] is not None) == known, e
                    if e["k"] == "deal" and e["face_up"]:
                        assert e["card"] is not None
                assert shown <= {p["seat"] for p in hand["players"]}
            # the hero's first three cards, as the file deals them
            deals = [e["card"] for e in first["events"] if e["k"] == "deal" and e["seat"] == 5]
            assert deals[:3] == ["5d", "Ks", "2h"]
            assert len(books.hands) == 2  # nothing stored

    run(body)


def test_other_sites_and_phh_files_replay_hiding_what_they_do_not_know() -> None:
    async def body() -> None:
        async with room(Settings(replay_files=1000)) as (http, _, headers):
            for path in sorted((HH / "other-sites").glob("*_stud8_*")):
                r = await upload(http, headers["ann"], path.read_bytes(), path.name)
                assert r.status_code == 200, (path.name, r.text)
                assert r.json()["hands"], path.name
            r = await upload(http, headers["ann"], (PHH / "player_view.phh").read_bytes())
            hand = r.json()["hands"][0]
            assert r.json()["format"] == "phh" and hand["everything"] is True
            # the file's ?? cards (p2 to p5's first two) stay hidden: filled in to replay
            hidden = [e["seat"] for e in hand["events"] if e["k"] == "deal" and e["card"] is None]
            assert sorted(hidden) == [4, 4, 5, 5, 6, 6, 7, 7]
            r = await upload(http, headers["ann"], (PHH / "three_hands.phhs").read_bytes())
            assert len(r.json()["hands"]) == 3
            runout = (PHH / "all_in_runout_side_pots.phh").read_bytes()
            r = await upload(http, headers["ann"], runout)
            hand = r.json()["hands"][0]
            assert all(e["card"] is not None for e in hand["events"] if e["k"] == "deal")

    run(body)


# Everleaf samples (tests/data/hh/everleaf/, ours): file: (hands replayed, games skipped)
EVERLEAF = {
    "everleaf_stud8_new_format.txt": (2, 1),
    "everleaf_razz_old_format.txt": (2, 0),
    "everleaf_stud_eur_side_pot.txt": (1, 0),
}


@pytest.mark.parametrize("name", sorted(EVERLEAF))
def test_the_replayers_upload_takes_everleaf_files(name: str) -> None:
    data = Path(__file__).resolve().parents[2] / "data" / "hh" / "everleaf" / name
    replays = read_replays(data.read_bytes(), name)
    assert replays.format == "everleaf"
    assert len(replays.hands) == EVERLEAF[name][0]
    assert len(replays.problems) == EVERLEAF[name][1]  # the other games, each named
    assert all("skipped: not a Stud-family hand" in p for p in replays.problems)


def test_hostile_files_get_a_clear_refusal_and_nothing_is_stored() -> None:
    stars = SHORT_STARS.read_text(encoding="utf-8")
    phh = (PHH / "folds_on_third_street.phh").read_text(encoding="utf-8")
    huge_phh = phh.replace("starting_stacks = [151,", "starting_stacks = [1e999999,").encode()
    assert huge_phh != phh.encode()

    async def body() -> None:
        async with room(Settings(replay_files=1000)) as (http, books, headers):
            ann = headers["ann"]
            cases: list[tuple[bytes, int, str]] = [
                (b"", 400, "empty"),
                (b"   \n\n", 400, "empty"),
                (os.urandom(5000), 400, "not text"),
                (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8, 400, "not text"),
                (b"Hello, this is a shopping list\neggs\nmilk\n", 400, "cannot tell the format"),
                (stars[: len(stars) // 2].encode(), 400, "no hand of it can be replayed"),
                (stars.replace("calls", "cal ls").encode(), 400, "no hand of it can be replayed"),
                (b'variant = "F7S/8"\nantes = [1, 1\n', 400, "no hand of it can be replayed"),
                (b'{"v": 1, "hand_id": 3}\n', 400, "no hand of it can be replayed"),
                (huge_phh, 400, "no hand of it can be replayed"),
                ("\u2665 ünïcödé ♠ only, no hand ♣\n".encode("utf-16"), 400, "cannot tell"),
            ]
            for data, status, words in cases:
                r = await upload(http, ann, data)
                assert r.status_code == status, (data[:40], r.text)
                error = r.json()["error"]
                assert words in error and "Traceback" not in error, error
            # other encodings of a good file: UTF-16 (with and without its mark), UTF-8
            # with a mark, Windows-1252 (a name with an accent)
            latin = stars.replace("Hero", "Hérø")
            for data in (
                stars.encode("utf-16"),
                stars.encode("utf-16-le"),
                stars.encode("utf-8-sig"),
                latin.encode("cp1252"),
                stars.encode() + b"\x1a",  # an old editor's end-of-file mark
            ):
                r = await upload(http, ann, data)
                assert r.status_code == 200, r.text
                assert len(r.json()["hands"]) == 1
            r = await upload(http, ann, latin.encode("cp1252"))
            assert "Hérø" in [p["player"] for p in r.json()["hands"][0]["players"]]
            # oversized: refused before it is read (declared) and while read (chunked)
            big = b"x" * (MAX_REPLAY_BYTES + 1)
            r = await upload(http, ann, big)
            assert r.status_code == 413, r.text

            async def chunks() -> AsyncIterator[bytes]:
                for _ in range(MAX_REPLAY_BYTES // 65536 + 2):
                    yield b"y" * 65536

            r = await http.post("/api/v1/replays", content=chunks(), headers=ann)
            assert r.status_code == 413, r.text
            # no login: 401; an unknown parameter: 400
            assert (await upload(http, {}, stars.encode())).status_code == 401
            r = await http.post("/api/v1/replays?x=1", content=stars.encode(), headers=ann)
            assert r.status_code == 400
            # the other endpoints keep their 16 KiB limit
            r = await http.post(
                "/api/v1/login",
                content=b"{" + b" " * 20000 + b"}",
                headers={"content-type": "application/json"},
            )
            assert r.status_code == 413
            assert len(books.hands) == 2

    run(body)


def test_a_file_of_thousands_of_hands_is_read_up_to_the_limit_quickly() -> None:
    stars = SHORT_STARS.read_text(encoding="utf-8").strip()
    many = ("\n\n\n".join([stars] * 1000) + "\n").encode()
    assert len(many) < MAX_REPLAY_BYTES
    section = (PHH / "folds_on_third_street.phh").read_text(encoding="utf-8")
    phhs = "".join(f"[{i}]\n{section}\n" for i in range(1, 1700)).encode()
    assert len(phhs) < MAX_REPLAY_BYTES

    async def body() -> None:
        async with room() as (http, _, headers):
            for data in (many, phhs):
                started = time.monotonic()
                r = await upload(http, headers["ann"], data)
                took = time.monotonic() - started
                assert r.status_code == 200, r.text
                assert len(r.json()["hands"]) == MAX_REPLAY_HANDS and r.json()["more"] is True
                assert took < 30, took  # bounded work: the hands past the limit are not replayed

    run(body)


def test_files_are_rate_limited_per_address() -> None:
    data = SHORT_STARS.read_bytes()

    async def body() -> None:
        async with room(Settings(replay_files=2)) as (http, _, headers):
            for _ in range(2):
                assert (await upload(http, headers["ann"], data)).status_code == 200
            r = await upload(http, headers["bob"], data)  # the same address
            assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
            assert "too many" in r.json()["error"]

    run(body)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_replay_keeps_every_event_of_the_record(seed: int) -> None:
    record = quiet_hand(seed, hand_id=f"q{seed}")
    every = replay_of(record, everything=True)
    assert every.events == [encode_event(e) for e in record.events]
    mine = replay_of(record, viewer=2)
    for a, b in zip(mine.events, every.events, strict=True):
        if a != b:  # only the others' down cards differ
            assert a["k"] == "deal" and not a["face_up"] and a["seat"] != 2 and a["card"] is None


def test_a_hand_cancelled_by_a_restart_is_listed_but_has_no_replay(engine: Engine) -> None:
    store = HandStore(engine)
    store.store(quiet_hand())
    started = datetime.now(UTC)
    gone = InProgress("lost1", "t1", started, (SeatEntry(1, "ann", 100), SeatEntry(2, "bob", 100)))
    store.close_unfinished(gone, cancelled=True, note="the server restarted")
    assert store.ids_for("ann") == [("lost1", "t1", False), ("quiet1", "t1", True)]
    assert store.ids_for(None, 1) == [("lost1", "t1", False)]
    assert store.ids_for("ann", table="t2") == []
    assert store.record("lost1") is None and store.record("nohand") is None

    async def body() -> None:
        async with room(engine=engine) as (http, _, headers):
            r = await http.get("/api/v1/hands/lost1/replay", headers=headers["ann"])
            assert r.status_code == 404 and "no hand" in r.json()["error"]

    run(body)


def test_stud8_records_replay_whole_and_a_tampered_one_is_refused() -> None:
    good = side_pot_hand()
    first = next(e for e in good.events if isinstance(e, PotAwarded))
    more = replace(first, amount=first.amount + 1)  # one chip more to the winner
    cheat = replace(
        good, hand_id="cheat", events=tuple(more if e is first else e for e in good.events)
    )
    data = (good.dumps() + "\n" + cheat.dumps() + "\n").encode()

    async def body() -> None:
        async with room() as (http, _, headers):
            r = await upload(http, headers["ann"], data, "room.jsonl")
            assert r.status_code == 200, r.text
            got = r.json()
            assert got["format"] == "json" and [h["hand_id"] for h in got["hands"]] == ["sidepots1"]
            assert got["hands"][0]["everything"] is True
            assert len(got["problems"]) == 1 and "room.jsonl" in got["problems"][0]
            r = await upload(http, headers["ann"], cheat.dumps().encode(), "cheat.jsonl")
            assert r.status_code == 400 and "differs" in r.json()["error"], r.text

    run(body)
