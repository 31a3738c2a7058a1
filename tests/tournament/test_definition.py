"""The tournament definition: validated, keyword-only, frozen, stored as JSON."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime
from typing import Any

import pytest

from stud8.core import Game, HeadsUpCap
from stud8.tournament import (
    STRUCTURES,
    Break,
    DefinitionError,
    Level,
    Start,
    Structure,
    TournamentDefinition,
)

AT = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)


def level(**kw: Any) -> Level:
    base: dict[str, Any] = {"ante": 5, "bring_in": 10, "small_bet": 20, "big_bet": 40, "minutes": 5}
    base.update(kw)
    return Level(**base)


def test_a_definition_reads_its_structure_and_stakes() -> None:
    d = TournamentDefinition(structure=STRUCTURES["regular"], buy_in=100, fee=9, max_entrants=9)
    assert d.starting_chips == 3000
    assert d.entry_cost == 109
    assert d.level(1).stakes == (5, 10, 20, 40)
    assert d.level(999) == STRUCTURES["regular"].levels[-1]  # the last level lasts
    assert d.is_sit_and_go and d.game is Game.STUD_HI_LO


@pytest.mark.parametrize("game", list(Game))
def test_every_game_of_the_engine_may_be_played(game: Game) -> None:
    d = TournamentDefinition(structure=STRUCTURES["turbo"], game=game.value)  # type: ignore[arg-type]
    assert d.game is game
    assert d.table_rules(1, players_left=9).game is game


def test_the_raise_cap_holds_heads_up_until_the_tournament_is_heads_up() -> None:
    """TDA "Number of Allowable Raises": in limit, the cap holds at a heads-up table."""
    d = TournamentDefinition(structure=STRUCTURES["turbo"])
    assert d.table_rules(3, players_left=5).heads_up_cap is HeadsUpCap.NEVER_LIFTED
    assert d.table_rules(3, players_left=2).heads_up_cap is HeadsUpCap.LIFTED_WHEN_HEADS_UP
    assert d.table_rules(3, players_left=2).small_bet == 50


def test_a_definition_is_frozen_and_keyword_only() -> None:
    d = TournamentDefinition(structure=STRUCTURES["turbo"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.buy_in = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        TournamentDefinition(STRUCTURES["turbo"])  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"buy_in": -1}, "buy_in must be from 0 to"),
        ({"buy_in": 1.5}, "buy_in must be a whole number"),
        ({"fee": True}, "fee must be a whole number"),
        ({"table_size": 9}, "a Stud table seats 2 to 8"),
        ({"table_size": 1}, "a Stud table seats 2 to 8"),
        ({"min_entrants": 1}, "min_entrants must be from 2"),
        ({"min_entrants": 10, "max_entrants": 9}, "max_entrants (9) is below min_entrants (10)"),
        ({"max_entrants": 10**6}, "max_entrants must be from 2 to 10000"),
        ({"game": "holdem"}, "game must be one of"),
        ({"start": "later"}, "start must be one of"),
        ({"start": Start.AT_TIME}, "needs starts_at"),
        ({"start": Start.AT_TIME, "starts_at": datetime(2026, 1, 1)}, "with its time zone"),
        ({"starts_at": AT}, "a sit-and-go starts when full"),
        ({"late_registration": 2}, "there is no late registration"),
        ({"start": Start.AT_TIME, "starts_at": AT, "reentries": 1}, "re-entries need late"),
        ({"start": Start.AT_TIME, "starts_at": AT, "late_registration": 99}, "late_registration"),
        ({"payouts": (6000, 3000)}, "sum to 9000"),
        ({"payouts": (3000, 7000)}, "place 2 (7000) is paid more than place 1"),
        ({"payouts": (10000, 0)}, "place 2's share"),
        ({"payouts": [10000]}, "a tuple"),
        ({"name": ""}, "name is 1 to 100"),
        ({"structure": "turbo"}, "structure must be a Structure"),
    ],
)
def test_a_bad_definition_says_what_is_wrong(fields: dict[str, Any], says: str) -> None:
    kw: dict[str, Any] = {"structure": STRUCTURES["turbo"], **fields}
    with pytest.raises(DefinitionError) as e:
        TournamentDefinition(**kw)
    assert says in str(e.value)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda: level(minutes=None), "minutes or of hands"),
        (lambda: level(hands=10), "minutes or of hands"),
        (lambda: level(minutes=0), "a level's minutes must be from 1"),
        (lambda: level(minutes=None, hands=-2), "a level's hands must be from 1"),
        (lambda: level(bring_in=30), "level stakes: bring_in (30) must not be above"),
        (lambda: level(ante=-5), "level stakes: ante must be"),
        (lambda: Break(minutes=0), "a break's minutes"),
        (lambda: Structure(name="x", starting_chips=100, steps=()), "at least one level"),
        (lambda: Structure(name="x", starting_chips=0, steps=(level(),)), "starting_chips"),
        (lambda: Structure(name="x", starting_chips=9, steps=[level()]), "a tuple"),  # type: ignore[arg-type]
        (lambda: Structure(name="", starting_chips=9, steps=(level(),)), "name is 1 to 40"),
        (
            lambda: Structure(name="x", starting_chips=9, steps=(Break(minutes=5), level())),
            "starts and ends with a level",
        ),
        (
            lambda: Structure(
                name="x",
                starting_chips=9,
                steps=(level(), Break(minutes=5), Break(minutes=5), level()),
            ),
            "two breaks in a row",
        ),
        (
            lambda: Structure(
                name="x", starting_chips=9, steps=(level(), level(minutes=None, hands=5))
            ),
            "all in minutes or all in hands",
        ),
        (
            lambda: Structure(
                name="x",
                starting_chips=9,
                steps=(level(small_bet=40, big_bet=80), level()),
            ),
            "level 2: the big bet (40) is below level 1's (80)",
        ),
        (lambda: Structure(name="x", starting_chips=9, steps=(level(), "x")), "step 2"),  # type: ignore[arg-type]
    ],
)
def test_a_bad_structure_says_what_is_wrong(make: Any, says: str) -> None:
    with pytest.raises(DefinitionError) as e:
        make()
    assert says in str(e.value)


@pytest.mark.parametrize("name", sorted(STRUCTURES))
def test_the_ready_structures_climb_and_go_through_json(name: str) -> None:
    s = STRUCTURES[name]
    assert s.name == name and not s.by_hands
    bets = [lv.big_bet for lv in s.levels]
    assert bets == sorted(bets) and len(set(bets)) == len(bets)
    assert Structure.from_dict(json.loads(json.dumps(s.to_dict()))) == s


def test_the_ready_structures_differ_in_chips_and_speed() -> None:
    r, t, h = STRUCTURES["regular"], STRUCTURES["turbo"], STRUCTURES["hyper"]
    assert (r.starting_chips, t.starting_chips, h.starting_chips) == (3000, 1500, 500)
    assert (r.levels[0].minutes, t.levels[0].minutes, h.levels[0].minutes) == (10, 5, 3)
    assert any(isinstance(s, Break) for s in r.steps)
    assert not any(isinstance(s, Break) for s in t.steps + h.steps)


def test_a_definition_goes_through_json_and_back_equal() -> None:
    d = TournamentDefinition(
        name="Sunday Stud/8",
        structure=STRUCTURES["regular"],
        game=Game.RAZZ,
        buy_in=200,
        fee=15,
        table_size=7,
        min_entrants=10,
        max_entrants=500,
        start=Start.AT_TIME,
        starts_at=AT,
        late_registration=4,
        reentries=2,
        payouts=(5000, 3000, 2000),
    )
    assert TournamentDefinition.from_dict(json.loads(json.dumps(d.to_dict()))) == d


def test_a_hand_made_structure_by_hands_with_a_break() -> None:
    s = Structure(
        name="short",
        starting_chips=200,
        steps=(
            level(minutes=None, hands=10),
            Break(minutes=3),
            level(minutes=None, hands=10, small_bet=40, big_bet=80),
        ),
    )
    assert s.by_hands and s.level_number(1) == 1 and s.level_number(2) == 2
    assert Structure.from_dict(s.to_dict()) == s


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ("not a dict", "is an object"),
        ({"structure": {}}, "malformed"),
        ({"structure": STRUCTURES["turbo"].to_dict(), "colour": "red"}, "unknown fields"),
        ({"structure": STRUCTURES["turbo"].to_dict(), "starts_at": "yesterday"}, "malformed"),
        (
            {"structure": {"name": "x", "starting_chips": 5, "steps": [{"stakes": [1]}]}},
            "malformed",
        ),
        ({"structure": STRUCTURES["turbo"].to_dict(), "buy_in": "100"}, "whole number"),
    ],
)
def test_a_malformed_record_is_refused_clearly(data: Any, says: str) -> None:
    with pytest.raises(DefinitionError) as e:
        TournamentDefinition.from_dict(data)
    assert says in str(e.value)
