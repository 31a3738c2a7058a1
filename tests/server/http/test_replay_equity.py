"""The hand replayer's equity on a real server on 127.0.0.1: known positions (a made
hand on the river wins it all; a position symmetric under a change of suits splits
at every street), the figures of each game (a low only in Stud Hi/Lo), the rights
of the replay (a player, an observer, nobody logged in, an operator; 404 and 400 as
the replay), a file's hand sent back, and above all: an observer's equity never
depends on the cards he may not see."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import httpx
import pytest

from server.equityhands import MIRROR, ROYAL, ROYAL_OTHER_HOLE, RULES, heads_up
from server.replayhands import side_pot_hand
from server.roomdb import serving
from server.schemacheck import SCHEMAS, conforms
from sharedhh import FPDB_REGRESSION, NEEDED
from stud8.core.rules import Game
from stud8.formats.record import HandRecord
from stud8.server.accounts.auth import MemoryAuth
from stud8.server.books.memory import MemoryBooks
from stud8.server.http import replay_equity
from stud8.server.http.replay_equity import BadReplay, equity_of, positions
from stud8.server.http.replay_files import read_replays
from stud8.server.runtime import room_app
from stud8.server.settings import Settings
from stud8.server.table.spec import TableSpec
from stud8.server.wire.codec import to_json
from stud8.server.wire.replay import replay_of
from stud8.tools.equity import warm_up

REST = SCHEMAS["rest"]
GET = "GET /api/v1/hands/{hand_id}/equity"
POST = "POST /api/v1/replays/equity"


@pytest.fixture(scope="module", autouse=True)
def _compiled() -> None:
    warm_up()  # the kernels loaded (compiled once after an install) before any timing


Room = tuple[httpx.AsyncClient, dict[str | None, dict[str, str]]]


@asynccontextmanager
async def room(*records: HandRecord, equity_requests: int = 1000) -> AsyncIterator[Room]:
    """A room in memory holding ``records``; ann, bob, eve and the operator logged in
    (the key None: no login); an address may ask ``equity_requests`` hands' equity a
    minute."""
    books = MemoryBooks()
    auth = MemoryAuth(operators={"oper": "secret-1"}, on_register=lambda n: books.issue(n, 1000))
    for record in records:
        books.hands.add(record)
    app = room_app(
        Settings().with_overrides(signups=1000, default_tables=0, equity_requests=equity_requests),
        auth=auth,
        books=books,
        hands=books.hands,
        default_spec=TableSpec(bots=0),
    )
    async with (
        serving(app) as port,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http,
    ):
        headers: dict[str | None, dict[str, str]] = {None: {}}
        for name in ("ann", "bob", "eve", "oper"):
            if name != "oper":
                r = await http.post("/api/v1/register", json={"name": name, "password": "secret-1"})
                assert r.status_code == 201, r.text
            r = await http.post("/api/v1/login", json={"name": name, "password": "secret-1"})
            headers[name] = {"Authorization": f"Bearer {r.json()['token']}"}
        yield http, headers


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 240))


def by_seat(street: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {s["seat"]: s for s in street["seats"]}


async def equity_for(http: httpx.AsyncClient, hand_id: str, headers: dict[str, str]) -> Any:
    r = await http.get(f"/api/v1/hands/{hand_id}/equity", headers=headers)
    assert r.status_code == 200 and conforms(r.json(), REST[GET]["answer"]), r.text
    return r.json()


def test_a_made_hand_on_the_river_wins_it_all_and_a_mirror_position_splits() -> None:
    royal, mirror = heads_up(*ROYAL, "royal1"), heads_up(*MIRROR, "mirror1")

    async def body() -> None:
        async with room(royal, mirror) as (http, headers):
            got = await equity_for(http, "royal1", headers["oper"])
            assert got["everything"] is True and got["game"] == "stud_hi_lo"
            assert [s["street"] for s in got["streets"]] == [3, 4, 5, 6, 7]
            for street in got["streets"][2:]:  # the royal flush is made on 5th street
                one, two = by_seat(street)[1], by_seat(street)[2]
                assert street["method"] == "exact"
                assert (one["share"], one["win"], one["scoop"]) == (1.0, 1.0, 1.0)
                assert (two["share"], two["win"], two["low"], two["scoop"]) == (0, 0, 0, 0)
            river = got["streets"][-1]
            assert river["count"] == 1 and river["no_low"] == 1.0
            assert by_seat(river)[1]["cards"] == ROYAL[0]

            got = await equity_for(http, "mirror1", headers["oper"])
            third = got["streets"][0]  # 18 billion outcomes: sampled, seeded
            assert third["method"] == "sampled" and third["count"] == 100_000
            assert abs(by_seat(third)[1]["share"] - 0.5) < 0.01
            for street in got["streets"][1:]:
                one, two = by_seat(street)[1], by_seat(street)[2]
                assert street["method"] == "exact", street["street"]
                assert one["share"] == two["share"] == 0.5
                assert one["win"] == two["win"] and one["low"] == two["low"]
                assert one["scoop"] == two["scoop"]
            river = got["streets"][-1]
            assert by_seat(river)[1]["win"] == by_seat(river)[1]["low"] == 1.0  # both tie
            assert by_seat(river)[1]["scoop"] == 0.0

    run(body)


def test_an_observer_s_equity_does_not_depend_on_the_cards_he_may_not_see() -> None:
    """Bob mucks at the showdown: his down cards are never shown. Two hands the same
    but for them give an observer, and ann, the same figures, street by street, and
    the cards the server counted from show none of bob's; the operator, who sees
    them, gets different figures."""
    first = heads_up(*ROYAL, "hole1")
    second = heads_up(*ROYAL_OTHER_HOLE, "hole2")
    secret = set(ROYAL[1].split()[:2] + ROYAL[1].split()[6:]) | {"9c", "8d", "4c"}

    async def body() -> None:
        async with room(first, second) as (http, headers):
            for who in (None, "eve", "ann"):
                one = await equity_for(http, "hole1", headers[who])
                two = await equity_for(http, "hole2", headers[who])
                assert one["streets"] == two["streets"], who
                for street in one["streets"]:
                    bob = by_seat(street)[2]
                    assert bob["cards"].split()[:2] == ["??", "??"], who
                    assert not set(bob["cards"].split()) & secret
                    if street["street"] == 7:
                        assert bob["cards"].split()[6] == "??"
            # the royal flush wins it all from 6th street on, whatever bob holds; on 5th
            # his unseen cards might still make a royal flush of diamonds with his Kd
            assert by_seat(one["streets"][3])[1]["share"] == 1.0
            assert 0.99 < by_seat(one["streets"][2])[1]["share"] < 1.0
            # at 3rd street bob's unseen cards are random: the operator's figures differ
            oper_one = await equity_for(http, "hole1", headers["oper"])
            oper_two = await equity_for(http, "hole2", headers["oper"])
            assert oper_one["streets"][0] != oper_two["streets"][0]
            assert by_seat(oper_one["streets"][0])[2]["cards"] == "Qd Qc 9h"
            # bob sees his own down cards: his view is the operator's
            bob = await equity_for(http, "hole1", headers["bob"])
            assert bob["viewer"] == 2 and bob["streets"] == oper_one["streets"]

    run(body)


def test_the_positions_follow_the_viewer_s_knowledge() -> None:
    """Folded hands: their up cards are dead, their unseen down cards unknown; the
    hands shown at the showdown are known from 3rd street on."""
    record = side_pot_hand()
    observer = positions(replay_of(record, viewer=None))
    assert [p.street for p in observer] == [3, 4, 5, 6, 7]
    shown = {1: "3d 3s 9s", 2: "9d 2h Qs", 3: "8s As 7d"}  # seat 4 mucked
    for seat, cards in zip(observer[0].seats, observer[0].cards, strict=True):
        assert " ".join(cards) == shown.get(seat, "?? ?? 5d")
    folded = heads_up(*ROYAL, "fold1", folds=True)
    seen = positions(replay_of(folded, viewer=1))
    assert [p.street for p in seen] == [3, 4]
    assert seen[-1].seats == (1,) and seen[-1].dead == ("??", "??", "9h", "9d")
    everything = positions(replay_of(folded, everything=True))
    assert everything[-1].dead == ("Qd", "Qc", "9h", "9d")
    # who folded on 4th street: the pot is the other's
    answer = equity_of(replay_of(folded, viewer=1))
    last = answer.streets[-1]
    assert [(s.seat, s.share, s.win) for s in last.seats] == [(1, 1.0, 1.0)]


def test_each_game_has_its_own_figures_rules_8() -> None:
    """Razz: the ace-to-five low is the "win", and no 8-or-better low or scoop is
    given; Seven Card Stud the same with the high. The wheel wins Razz."""
    wheel, queens = "As 2d 3c 4h 5s Kd Kc", "Qh Qs 8c 9d Jc 2s 7d"
    for game in (Game.RAZZ, Game.STUD_HIGH):
        record = heads_up(wheel, queens, f"{game.value}1", rules=replace(RULES, game=game))
        answer = equity_of(replay_of(record, everything=True))
        assert answer.game == game.value
        river = {s.seat: s for s in answer.streets[-1].seats}
        # the best ace-to-five low in Razz; a straight (five-high) in Stud
        assert river[1].share == river[1].win == 1.0
        assert river[2].share == river[2].win == 0.0
        for street in answer.streets:
            assert street.no_low is None
            assert all(s.low is None and s.scoop is None for s in street.seats)


def test_the_rights_and_the_errors_are_the_replay_s() -> None:
    record = heads_up(*ROYAL, "royal1")

    async def body() -> None:
        async with room(record) as (http, headers):
            for bad, status in (("nohand", 404), ("x" * 101, 400)):
                r = await http.get(f"/api/v1/hands/{bad}/equity", headers=headers["oper"])
                assert r.status_code == status and conforms(r.json(), REST["errors"]), r.text
                replayed = await http.get(f"/api/v1/hands/{bad}/replay", headers=headers["oper"])
                assert replayed.status_code == status
            # a file's hand sent back: its own cards, and only those
            hand = to_json(replay_of(record, viewer=2))
            r = await http.post("/api/v1/replays/equity", json=hand, headers=headers["eve"])
            assert r.status_code == 200 and conforms(r.json(), REST[POST]["answer"]), r.text
            stored = await equity_for(http, "royal1", headers["bob"])
            assert r.json()["streets"] == stored["streets"]
            r = await http.post("/api/v1/replays/equity", json=hand)
            assert r.status_code == 401
            for body, reason in (
                (b"not json", "not JSON"),
                (b'{"hand_id": 1}', "not a hand to replay"),
                (_with_card(hand, "Zz"), "event"),
                (_with_card(hand, "As"), "given twice"),
                (_with_game(hand, "poker"), "game is one of"),
            ):
                r = await http.post("/api/v1/replays/equity", content=body, headers=headers["eve"])
                assert r.status_code == 400 and reason in r.json()["error"], r.text
                assert conforms(r.json(), REST["errors"])

    run(body)


def test_an_address_asks_a_limited_number_of_hands_equity(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past ``equity_requests`` a minute an address is answered 429 with Retry-After,
    on both endpoints (they count together, whoever is logged in); nothing is counted
    for a refused request."""
    record = heads_up(*ROYAL, "royal1")
    counted: list[str] = []
    real = replay_equity.equity_of

    def counting(replay: Any) -> Any:
        counted.append(replay.hand_id)
        return real(replay)

    monkeypatch.setattr(replay_equity, "equity_of", counting)

    async def body() -> None:
        async with room(record, equity_requests=3) as (http, headers):
            hand = to_json(replay_of(record, viewer=2))
            for who in ("eve", "ann"):
                r = await http.post("/api/v1/replays/equity", json=hand, headers=headers[who])
                assert r.status_code == 200, r.text
            await equity_for(http, "royal1", headers["bob"])  # the third, from the address
            assert len(counted) == 3
            for asked in (
                http.post("/api/v1/replays/equity", json=hand, headers=headers["eve"]),
                http.get("/api/v1/hands/royal1/equity", headers=headers["oper"]),
                http.get("/api/v1/hands/royal1/equity"),
            ):
                r = await asked
                assert r.status_code == 429, r.text
                assert 1 <= int(r.headers["Retry-After"]) <= 60
                assert "too many" in r.json()["error"]
                assert conforms(r.json(), REST["errors"])
            assert len(counted) == 3

    run(body)


def _with_card(hand: dict[str, Any], card: str) -> bytes:
    """The hand with seat 2's first up card changed to ``card``."""
    import json

    events = [dict(e) for e in hand["events"]]
    up = next(e for e in events if e["k"] == "deal" and e["seat"] == 2 and e["face_up"])
    up["card"] = card
    return json.dumps({**hand, "events": events}).encode()


def _with_game(hand: dict[str, Any], game: str) -> bytes:
    import json

    return json.dumps({**hand, "game": game}).encode()


def test_a_street_is_counted_once_and_then_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked again (by anyone who knows the same cards), a street is not counted again;
    a hand too large to count exactly is sampled, seeded: the same figures each time."""
    replay_equity.forget()
    counted: list[int] = []
    real = replay_equity._count

    def counting(game: Game, position: replay_equity.StreetPosition) -> Any:
        counted.append(position.street)
        return real(game, position)

    monkeypatch.setattr(replay_equity, "_count", counting)
    replay = replay_of(side_pot_hand(), viewer=1)
    first = equity_of(replay)
    assert counted == [3, 4, 5, 6, 7]
    assert equity_of(replay) == first and counted == [3, 4, 5, 6, 7]
    assert first.streets[0].method.value == "sampled"
    assert first.streets[0].count == replay_equity.SAMPLE_DEALS
    replay_equity.forget()
    assert equity_of(replay) == first  # counted again: the same seeded deals
    assert len(counted) == 10
    # the figures add up: the shares to the whole pot
    for street in first.streets:
        assert abs(sum(s.share for s in street.seats) - 1.0) < 1e-9


def test_a_replay_that_is_not_a_hand_of_stud_is_refused() -> None:
    replay = replay_of(side_pot_hand(), viewer=1)
    events = [dict(e) for e in replay.events]
    street = next(e for e in events if e["k"] == "street" and e["street"] == 5)
    street["street"] = 4
    with pytest.raises(BadReplay, match="streets follow one another"):
        positions(replace_events(replay, events))
    # each event is read by the hand records' reader: one it cannot read is named
    events = [dict(e) for e in replay.events]
    at = next(i for i, e in enumerate(events) if e["k"] == "deal" and e["street"] == 4)
    deal = events[at]
    for bad, reason in (
        ({**deal, "seat": "1"}, "deal.seat must be a whole number"),
        ({k: v for k, v in deal.items() if k != "face_up"}, "the deal event has no 'face_up'"),
        ({**deal, "why": 2}, "unknown fields"),
        ({**deal, "k": "deals"}, "unknown event kind 'deals'"),
        ({**deal, "card": "Zz"}, "cannot read card"),
    ):
        wrong = [*events[:at], bad, *events[at + 1 :]]
        with pytest.raises(BadReplay, match=f"^event {at}: .*{reason}"):
            positions(replace_events(replay, wrong))


def replace_events(replay: Any, events: list[dict[str, Any]]) -> Any:
    import msgspec

    return msgspec.structs.replace(replay, events=events)


@NEEDED
def test_a_voluntary_show_is_known_from_the_deal_in_a_file_s_hand() -> None:
    """A PokerStars Home Game hand from the hero's file: the winner of the uncontested
    pot shows Ad Ah after the hand, so they are his down cards from 3rd street on; the
    hero's own are known; the hand ends on 5th street, the pot his."""
    home = FPDB_REGRESSION / (
        "pokerstars_stud8_8-Game-2max-STT-play-100-201306.homeGame.shootout.stud8-level.txt"
    )
    text = home.read_bytes().decode("utf-8").replace("\r\n", "\n")
    (hand,) = (h for h in text.split("\n\n\n") if "Hand #99632607069:" in h)
    (replay,) = read_replays(hand.strip().encode() + b"\n", "home.txt").hands
    streets = positions(replay)
    assert [p.street for p in streets] == [3, 4, 5]
    assert streets[0].cards == (("Ad", "Ah", "3d"), ("Kh", "3s", "Td"))
    assert streets[-1].seats == (1,) and len(streets[-1].dead) == 5
    last = equity_of(replay).streets[-1]
    assert [(s.seat, s.share, s.win, s.low, s.scoop) for s in last.seats] == [(1, 1, 1, 1, 1)]
