"""The hand histories of a room in memory (``memory_app``): the store
answers exactly as the database's does (the same filters, each player's hands as
he saw them), keeps the latest hands only, and ``GET /api/v1/hands`` serves them."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest

from server.handplay import by_hand, fold_twice
from server.roomdb import serving
from stud8.core import Hand
from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.events import CardDealt, HandShown
from stud8.core.rules import TableRules
from stud8.formats.record import HandRecord
from stud8.server.books.hands import HandNotFoundError, HandStore
from stud8.server.books.memory_hands import MemoryHandStore
from stud8.server.runtime import memory_app
from stud8.server.settings import Settings
from stud8.server.storage import create_engine_for, upgrade

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)


def played(seed: int, table: str, names: dict[int, str], *, cancel: bool = False) -> HandRecord:
    """A hand through the engine: the last seat folds at his first chance, the
    others check or call to the showdown (or the hand is cancelled on 4th street)."""
    hand = Hand.start(
        rules=RULES, stacks=dict.fromkeys(names, 100), deck=Deck.seeded(seed), hand_id=f"h{seed}"
    )
    folder = max(names)
    while not hand.is_over:
        if cancel and hand.street == 4:
            hand.cancel("the table is closing")
            break
        legal = {a.kind for a in hand.legal_actions()}
        if hand.to_act == folder and ActionKind.FOLD in legal:
            kind = ActionKind.FOLD
        else:
            kind = next(
                k for k in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN) if k in legal
            )
        hand.apply(make_action(kind.value, None))
    return HandRecord.from_hand(hand, names=names, table=table)


IDS = [f"h{seed}" for seed in range(1, 6)]


def records() -> list[HandRecord]:
    three = {1: "ann", 2: "bob", 3: "cat"}
    return [
        played(1, "t1", three),
        played(2, "t2", {2: "ann", 5: "dan"}),
        played(3, "t1", three, cancel=True),
        played(4, "t1", {1: "bob", 4: "cat"}),
        played(5, "t2", {1: "dan", 2: "ann", 3: "bob"}),
    ]


def test_the_memory_store_answers_as_the_database_does(tmp_path: Path) -> None:
    engine = create_engine_for(f"sqlite:///{tmp_path / 'room.db'}")
    try:
        upgrade(engine)
        database, memory = HandStore(engine), MemoryHandStore()
        for record in records():
            database.store(record)
            memory.add(record)
        assert len(memory) == 5
        tables = (None, "t1", "t2", "elsewhere")
        for player in ("ann", "bob", "cat", "dan", "nobody", "Ann"):
            for table in tables:
                for limit in (1, 2, 50):
                    mine = memory.pokerstars_for(player, None, limit, table=table)
                    assert mine == database.pokerstars_for(player, None, limit, table=table)
        for who in (None, "ann", "dan", "nobody"):
            for table in tables:
                for limit in (1, 3, 50):
                    every = memory.pokerstars_for_operator(player=who, table=table, limit=limit)
                    assert every == database.pokerstars_for_operator(
                        player=who, table=table, limit=limit
                    )
        # by hand id: a player's own hands only
        assert memory.pokerstars_for("ann", ["h5", "h1"]) == database.pokerstars_for(
            "ann", ["h5", "h1"]
        )
        for store in (memory, database):
            with pytest.raises(HandNotFoundError):
                store.pokerstars_for("cat", ["h2"])
            with pytest.raises(HandNotFoundError):
                store.pokerstars_for_operator(["h99"])
        # the answers are real: ann's hands, latest first, each as she saw it
        ann = by_hand(memory.pokerstars_for("ann", None, 50), IDS)
        assert list(ann) == ["h5", "h3", "h2", "h1"]
        first = next(r for r in records() if r.hand_id == "h1")
        shown = {e.seat for e in first.events if isinstance(e, HandShown)}
        for event in first.events:
            if isinstance(event, CardDealt) and not event.face_up:
                seen = re.search(rf"\b{event.card}\b", ann["h1"]) is not None
                assert seen == (event.seat == 1 or event.seat in shown), event
    finally:
        engine.dispose()


def test_the_memory_store_keeps_the_latest_hands() -> None:
    store = MemoryHandStore(kept=3)
    for record in records():
        store.add(record)
    assert len(store) == 3
    kept = by_hand(store.pokerstars_for_operator(limit=50), IDS)
    assert list(kept) == ["h5", "h4", "h3"]
    with pytest.raises(ValueError, match="kept"):
        MemoryHandStore(kept=0)


def third_street(history: str, player: str) -> list[str]:
    """The cards a hand history shows dealt to ``player`` on 3rd street."""
    found = re.search(rf"^Dealt to {player} \[([^\]]*)\]", history, re.MULTILINE)
    assert found, history
    return found.group(1).split()


@asynccontextmanager
async def memory_room() -> AsyncIterator[tuple[httpx.AsyncClient, int]]:
    """The room in memory (``memory_app``) in this event loop, on 127.0.0.1; stopped after."""
    settings = Settings(default_tables=0, starting_chips=1000)
    env = {"STUD8_BETWEEN_HANDS": "0.02", "STUD8_BOT_DELAY": "0", "STUD8_SHOWDOWN_SECONDS": "0"}
    app = memory_app(settings, env, operators={"boss": "pw-12345"})
    async with serving(app) as port:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            yield http, port
        assert app.state.books.audit()


def test_the_memory_room_serves_the_hand_histories() -> None:
    async def body() -> None:
        async with memory_room() as (http, port):
            tokens, headers = {}, {}
            for name in ("boss", "ann", "bob", "cat"):
                if name != "boss":  # the operator was made with the room
                    body = {"name": name, "password": "pw-12345"}
                    r = await http.post("/api/v1/register", json=body)
                    assert r.status_code == 201
                r = await http.post("/api/v1/login", json={"name": name, "password": "pw-12345"})
                tokens[name] = r.json()["token"]
                headers[name] = {"Authorization": f"Bearer {tokens[name]}"}
            r = await http.post(
                "/api/v1/tables",
                json={"table_id": "hh", "between_hands": 0.02, "showdown_seconds": 0},
                headers=headers["boss"],
            )
            assert r.status_code == 201, r.text
            await fold_twice(port, "hh", tokens)

            ann = await http.get("/api/v1/hands", params={"limit": 10}, headers=headers["ann"])
            assert ann.status_code == 200 and ann.headers["content-type"].startswith("text/plain")
            every = await http.get(
                "/api/v1/hands", params={"player": "ann"}, headers=headers["boss"]
            )
            seen, all_cards = by_hand(ann.text), by_hand(every.text)
            assert len(seen) == 2 and seen.keys() == all_cards.keys()
            for hand_id, text in seen.items():
                # on 3rd street ann is dealt her two down cards and her up card, and
                # sees bob's up card only (nobody showed down); the operator sees all
                assert len(third_street(text, "ann")) == 3, text
                assert len(third_street(text, "bob")) == 1, text
                assert third_street(all_cards[hand_id], "ann") == third_street(text, "ann")
                assert len(third_street(all_cards[hand_id], "bob")) == 3
            at = await http.get("/api/v1/hands", params={"table": "hh"}, headers=headers["bob"])
            assert by_hand(at.text).keys() == seen.keys()
            at = await http.get("/api/v1/hands", params={"table": "zz"}, headers=headers["ann"])
            assert at.status_code == 200 and at.text == ""
            assert (await http.get("/api/v1/hands", headers=headers["cat"])).text == ""
            for params, auth, status in (
                ({"player": "bob"}, headers["ann"], 403),
                ({}, {}, 401),
                ({"limit": "0"}, headers["ann"], 400),
                ({"colour": "red"}, headers["ann"], 400),
            ):
                r = await http.get("/api/v1/hands", params=params, headers=auth)
                assert r.status_code == status and r.json()["error"], (params, r.text)

    asyncio.run(asyncio.wait_for(body(), 60))
