"""Every option of RULES.md ("every option below is a real table setting that an
operator can choose") through the real room: ``POST /api/v1/tables`` opens a table
with it, the lobby shows it, a hand is played on it, the hand's record carries it and
its PokerStars text (``GET /api/v1/hands``) verifies under it; a bad value is a 400
naming the option, nothing opened. The spec keeps every option across a restart (the
stored JSON, ``room_tables``) and on another node (the bus's ``listed``)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from server.handplay import by_hand
from server.roomclient import OPERATOR, Room, play, serve, sit
from stud8.core.rules import TableRules
from stud8.formats.pokerstars import PokerStarsHand
from stud8.formats.pokerstars.read import parse_text
from stud8.formats.verify import verify_pokerstars
from stud8.server.books.seats import TableStore, spec_from_json, spec_json
from stud8.server.bus import Listed
from stud8.server.bus.codec import decode_listed, encode_listed
from stud8.server.storage import create_engine_for, upgrade
from stud8.server.table.spec import RULE_OPTIONS, RuleOption, TableSpec
from stud8.server.table.status import TableStatus

OPTIONS = {o.name: o for o in RULE_OPTIONS}
# a mixed table's options: the table's, not a hand's TableRules (tests/server/table/test_mixed.py)
TABLE_LEVEL = {"rotation", "rotation_hands"}
# the room's settings of every table here: quick, and a buy-in the bank covers for all
QUICK: dict[str, Any] = {
    "between_hands": 0.05,
    "showdown_seconds": 0,
    "bot_delay": 0,
    "min_buy_in": 20,
    "max_buy_in": 100,
}


def other_values(option: RuleOption) -> list[Any]:
    """Every value of the option but its default (a number: two of them, or null)."""
    if option.choices:
        return [v for v, _ in option.choices if v != option.default]
    if option.kind == "bool":
        return [not option.default]
    if option.kind == "rate":
        return ["5/2"]
    least = option.minimum or 0
    values: list[Any] = [least, least + 7]
    if option.nullable:
        values.append(None if option.default is not None else least + 3)
    return [v for v in values if v != option.default]


def chosen_with(name: str, value: Any) -> dict[str, Any]:
    """A table's body choosing ``value`` for option ``name``: a rotation with a game
    of its own (a mixed table starts with one of its games)."""
    if name == "rotation" and value != "off":
        return {"rotation": value, "game": value.split("+")[0]}
    return {name: value}


# (option, value): each option of RULES.md with each of its values but its default
CHOSEN = [(o.name, v) for o in RULE_OPTIONS for v in other_values(o)]
# one table with every option away from its default at once
ALL_CHOSEN = {o.name: other_values(o)[-1] for o in RULE_OPTIONS}


def test_rules_md_options_are_all_choosable() -> None:
    """RULES.md: every option is a table setting an operator can choose: each of
    TableRules's fields but the stakes, the seats and the reconnection's time is one,
    with TableRules's default (the rule book's), and the spec passes each through."""
    fixed = {"ante", "bring_in", "small_bet", "big_bet", "max_seats", "reconnect_seconds"}
    fields = set(TableRules.__dataclass_fields__) - fixed
    assert set(OPTIONS) - TABLE_LEVEL == fields
    defaults = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
    spec = TableSpec(**ALL_CHOSEN)
    rules = spec.rules()
    for option in RULE_OPTIONS:
        assert getattr(TableSpec(), option.name) == option.default
        if option.name in TABLE_LEVEL:
            assert option.default in ("off", None)  # off by default: one game
            continue
        engine = getattr(defaults, option.name)
        assert getattr(engine, "value", engine) == option.default or option.kind == "rate"
        chosen = getattr(rules, option.name)
        assert str(getattr(chosen, "value", chosen)) == str(ALL_CHOSEN[option.name])


async def _open(room: Room, token: str, body: dict[str, Any]) -> Any:
    r = await room.http.post(
        "/api/v1/tables", json={**QUICK, **body}, headers={"Authorization": f"Bearer {token}"}
    )
    assert r.status_code == 201, r.text
    return r.json()["table"]


async def _play_a_hand(room: Room, table_id: str, tokens: dict[str, str]) -> None:
    async with (
        room.connect(tokens["ann"], table_id=table_id, ids=f"a{table_id}") as ann,
        room.connect(tokens["bob"], table_id=table_id, ids=f"b{table_id}") as bob,
    ):
        # 20 each (the least buy-in): the players' starting chips cover every table
        await sit(room, ann, 1, 20)
        await sit(room, bob, 2, 20)
        await asyncio.gather(play(ann, 1), play(bob, 1))


def test_each_option_opens_a_table_that_plays_and_records_it() -> None:
    """Each option's every value (and all of them at once) through ``POST
    /api/v1/tables``: the lobby's ``rules`` say it, a hand is played, the record has
    the table's rules, and the room's PokerStars text of the hand reproduces under
    them (``stud8 hh verify``'s check)."""

    async def body() -> None:
        async with serve(spec=None) as room:
            tokens = {name: await room.player(name) for name in ("ann", "bob", OPERATOR)}
            tables: dict[str, dict[str, Any]] = {}
            for n, (name, value) in enumerate([*CHOSEN, ("all", ALL_CHOSEN)]):
                chosen = value if name == "all" else chosen_with(name, value)
                table = await _open(room, tokens[OPERATOR], {"table_id": f"o{n}", **chosen})
                for key, v in chosen.items():
                    assert table["rules"][key] == v, (key, table["rules"])
                await _play_a_hand(room, table["table_id"], tokens)
                tables[table["table_id"]] = chosen
            ends = {end.record.table: end for end in room.books.settled.values()}
            assert set(ends) >= set(tables)
            for table_id, chosen in tables.items():
                rules = ends[table_id].record.rules
                assert rules == TableSpec(**QUICK, **chosen).rules(), table_id
                for key, v in chosen.items():  # the engine's rules, as chosen
                    if key in TABLE_LEVEL:
                        continue
                    played = getattr(rules, key)
                    assert str(getattr(played, "value", played)) == str(v), (table_id, key)
            r = await room.http.get(
                "/api/v1/hands",
                params={"limit": 100},
                headers={"Authorization": f"Bearer {tokens[OPERATOR]}"},
            )
            assert r.status_code == 200, r.text
            ids = [end.record.hand_id for end in ends.values()]
            texts = by_hand(r.text, ids)
            for end in ends.values():
                [hand] = parse_text(texts[end.record.hand_id])
                assert isinstance(hand, PokerStarsHand), hand
                verdict = verify_pokerstars(hand, rules=end.record.rules)
                assert verdict.reproduced, (end.record.table, str(verdict))

    asyncio.run(asyncio.wait_for(body(), 240))


def _bad_values(option: RuleOption) -> list[Any]:
    if option.choices:
        return ["nonsense", 99, True]
    if option.kind == "bool":
        return ["yes", 1]
    if option.kind == "rate":
        return ["a lot", "1/0", "150"]
    return [(option.minimum or 0) - 1, "3", True] + ([] if option.nullable else [None])


@pytest.mark.parametrize(
    ("name", "value"), [(o.name, v) for o in RULE_OPTIONS for v in _bad_values(o)]
)
def test_a_bad_option_is_refused_with_its_name_and_nothing_opens(name: str, value: Any) -> None:
    async def body() -> None:
        async with serve(spec=None) as room:
            token = await room.player(OPERATOR)
            r = await room.http.post(
                "/api/v1/tables",
                json={"table_id": "bad", name: value},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert r.status_code == 400, r.text
            assert name in r.json()["error"], r.text
            assert (await room.http.get("/api/v1/tables")).json()["tables"] == []

    asyncio.run(asyncio.wait_for(body(), 30))


def test_the_options_are_served_from_their_one_definition() -> None:
    """``GET /api/v1/tables/options`` (what the operator's form and the lobby's
    details are made from) and the POST's schema say each option as RULE_OPTIONS."""

    async def body() -> None:
        async with serve(spec=None) as room:
            served = (await room.http.get("/api/v1/tables/options")).json()["options"]
            schemas = (await room.http.get("/api/v1/schemas")).json()
        assert [o["name"] for o in served] == list(OPTIONS)
        for o in served:
            option = OPTIONS[o["name"]]
            assert o["default"] == option.default
            assert [c["value"] for c in o["choices"]] == [v for v, _ in option.choices]
            prop = schemas["rest"]["POST /api/v1/tables"]["body"]["properties"][o["name"]]
            assert prop["default"] == option.default
            assert prop["description"] == option.doc
            if option.choices:
                assert prop["enum"] == [v for v, _ in option.choices]

    asyncio.run(asyncio.wait_for(body(), 30))


@pytest.mark.parametrize(("name", "value"), CHOSEN)
def test_each_option_is_kept_and_carried(name: str, value: Any) -> None:
    """The stored spec (room_tables' JSON, read back at a restart) and the bus's
    listed message (another node's copy) keep each option's value."""
    spec = TableSpec(**{name: value})
    assert spec_from_json(spec_json(spec)) == spec
    listed = Listed("t1", "Main", spec, TableStatus("t1", (), 0, 0, 0.0, 0.0, None))
    assert decode_listed(encode_listed(listed)).spec == spec
    old = spec_json(TableSpec()).replace(f'"{name}":', '"gone":')  # a spec stored before
    assert getattr(spec_from_json(old), name) == OPTIONS[name].default


def test_a_table_with_every_option_comes_back_after_a_restart(tmp_path: Path) -> None:
    """room_tables keeps the spec a restart reads back (room/restore.py): every
    option as chosen, on a migrated database."""
    engine = create_engine_for(f"sqlite:///{tmp_path}/room.db")
    try:
        upgrade(engine)
        spec = TableSpec(**ALL_CHOSEN)
        TableStore(engine).save("every", "Every option", spec)
        [stored] = TableStore(engine).tables()
        assert stored.spec == spec
        assert stored.spec.rules() == spec.rules()
    finally:
        engine.dispose()


def test_a_mixed_table_is_refused_or_listed_mixed_with_the_game_it_plays_now() -> None:
    """A rotation the room does not know, or one without the table's game, is a 400
    naming the rotation, nothing opened; a mixed table is listed as one ("Triple
    Stud"), with the game it plays now."""

    async def body() -> None:
        async with serve(spec=None) as room:
            tokens = {name: await room.player(name) for name in ("ann", "bob", OPERATOR)}
            auth = {"Authorization": f"Bearer {tokens[OPERATOR]}"}
            for rotation, words in (
                ("stud_hi_lo,razz", "rotation must be one of off, stud_hi_lo+stud_high+razz"),
                ("stud_high+razz", "game stud_hi_lo is not one of the rotation's games"),
            ):
                r = await room.http.post(
                    "/api/v1/tables", json={"table_id": "bad", "rotation": rotation}, headers=auth
                )
                assert r.status_code == 400, r.text
                assert words in r.json()["error"], r.text
            assert (await room.http.get("/api/v1/tables")).json()["tables"] == []
            one = await _open(room, tokens[OPERATOR], {"table_id": "one"})
            assert one["mixed"] == ""
            mix = {"table_id": "mix", "rotation": "stud_hi_lo+razz", "rotation_hands": 1}
            table = await _open(room, tokens[OPERATOR], mix)
            assert (table["mixed"], table["game"]) == ("Triple Stud", "stud_hi_lo")
            assert table["rules"]["rotation"] == "stud_hi_lo+razz"
            await _play_a_hand(room, "mix", tokens)  # Hi/Lo; the next hand is Razz
            for _ in range(400):
                listed = (await room.http.get("/api/v1/tables")).json()["tables"]
                now = next(t for t in listed if t["table_id"] == "mix")
                if now["game"] == "razz":
                    break
                await asyncio.sleep(0.01)
            assert (now["mixed"], now["game"]) == ("Triple Stud", "razz"), now

    asyncio.run(asyncio.wait_for(body(), 60))
