"""Table rules: validation, the defaults RULES.md names, enum options, repr."""

from __future__ import annotations

import dataclasses
from enum import Enum
from fractions import Fraction
from typing import Any

import pytest

import stud8.core.rules as rules_module
from stud8.core import (
    AllInLowCard,
    BettingStructure,
    CommunityCardFirstToAct,
    FirstToActTie,
    HeadsUpCap,
    OddChip,
    OddChipHalf,
    RulesError,
    ShowOrderNoBet,
    Stud8Error,
    TableRules,
    TimeoutPolicy,
)

STAKES: dict[str, Any] = {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}


def make(**changes: Any) -> TableRules:
    return TableRules(**{**STAKES, **changes})


def test_rule_2_the_four_parameters_are_set_independently() -> None:
    """RULES.md 2: "Four independent table parameters: **ante**, **bring-in**, **small
    bet**, **big bet** (e.g. ante 1, bring-in 2, small bet 4, big bet 8). None is derived."
    """
    for ante, bring_in, small, big in [
        (1, 2, 4, 8),
        (0, 1, 1, 1),
        (3, 1, 10, 25),
        (10, 2, 4, 8),  # an ante above the bring-in and the small bet
        (5, 5, 5, 7),  # a bring-in of a full small bet; a big bet not twice the small
        (2, 3, 10, 1000),
    ]:
        rules = TableRules(ante=ante, bring_in=bring_in, small_bet=small, big_bet=big)
        assert (rules.ante, rules.bring_in, rules.small_bet, rules.big_bet) == (
            ante,
            bring_in,
            small,
            big,
        )


def test_rules_defaults_are_the_defaults_of_rules_md() -> None:
    """RULES.md: "the **default** is what a table does when nobody chooses"."""
    rules = make()
    assert rules.structure is BettingStructure.FIXED_LIMIT  # 3: fixed limit (default)
    assert rules.big_bet_street == 5  # 3: big bet from 5th street
    assert rules.raise_cap == 3  # 3: one bet and three raises
    assert rules.heads_up_cap is HeadsUpCap.LIFTED_WHEN_HEADS_UP  # 3: RRoP default
    assert rules.all_in_low_card is AllInLowCard.NEXT_MUST_BRING_IN  # 2: PS default
    assert rules.first_to_act_tie is FirstToActTie.POSITION  # 3: position
    assert rules.community_card_first_to_act is CommunityCardFirstToAct.SAME_AS_SIXTH_STREET
    assert rules.show_order_no_bet is ShowOrderNoBet.EARLIEST_SEAT  # 5
    assert rules.odd_chip is OddChip.ALL_CARDS  # 5.3
    assert rules.rake_percent == 0  # 5: "Default for a new table: no rake"
    assert rules.rake_cap is None
    assert rules.rake_third_street is False
    assert rules.timeout_policy is TimeoutPolicy.ALL_IN_PROTECTION  # 6
    assert (rules.action_seconds, rules.time_bank_seconds) == (10, 20)  # 6: 10 s, then 20 s
    assert rules.reconnect_seconds == 20  # 6: an extra 20 seconds
    assert rules.max_seats == 8  # 1: 2 to 8 players


@pytest.mark.parametrize(
    ("changes", "setting"),
    [
        ({"ante": -1}, "ante"),
        ({"bring_in": -2}, "bring_in"),
        ({"small_bet": -4}, "small_bet"),
        ({"big_bet": -8}, "big_bet"),
        ({"bring_in": 5}, "bring_in"),  # above the small bet of 4
        ({"big_bet": 3}, "big_bet"),  # below the small bet of 4
        ({"max_seats": 9}, "max_seats"),
        ({"max_seats": 1}, "max_seats"),
        ({"ante": 1.0}, "ante"),
        ({"ante": 0.5}, "ante"),
        ({"big_bet": 8.5}, "big_bet"),
        ({"ante": True}, "ante"),
        ({"ante": "1"}, "ante"),
        ({"structure": "spread_limit"}, "structure"),
        ({"heads_up_cap": "sometimes"}, "heads_up_cap"),
        ({"all_in_low_card": "skip"}, "all_in_low_card"),
        ({"timeout_policy": "kick"}, "timeout_policy"),
        ({"rake_percent": 101}, "rake_percent"),
        ({"rake_percent": "100.5"}, "rake_percent"),
        ({"rake_percent": -1}, "rake_percent"),
        ({"rake_percent": "lots"}, "rake_percent"),
        ({"rake_cap": -1}, "rake_cap"),
        ({"raise_cap": 0}, "raise_cap"),
        ({"big_bet_street": 3}, "big_bet_street"),
        ({"big_bet_street": 6.0}, "big_bet_street"),
        ({"action_seconds": -1}, "action_seconds"),
    ],
)
def test_bad_table_rules_raise_rules_error_naming_the_setting(
    changes: dict[str, Any], setting: str
) -> None:
    with pytest.raises(RulesError) as info:
        make(**changes)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, Stud8Error)
    message = str(info.value)
    assert setting in message
    if setting == "max_seats":
        assert "max_seats" in message and "2 to 8" in message


def test_bring_in_may_equal_the_small_bet() -> None:
    assert make(bring_in=4).bring_in == 4


ENUM_FIELDS: dict[str, type[Enum]] = {
    "structure": BettingStructure,
    "heads_up_cap": HeadsUpCap,
    "all_in_low_card": AllInLowCard,
    "first_to_act_tie": FirstToActTie,
    "community_card_first_to_act": CommunityCardFirstToAct,
    "show_order_no_bet": ShowOrderNoBet,
    "odd_chip": OddChip,
    "odd_chip_half": OddChipHalf,
    "timeout_policy": TimeoutPolicy,
}


@pytest.mark.parametrize(
    ("name", "member"),
    [(name, member) for name, enum in ENUM_FIELDS.items() for member in enum],
    ids=lambda v: v if isinstance(v, str) else v.value,
)
def test_enum_options_accept_their_string_values(name: str, member: Enum) -> None:
    rules = make(**{name: member.value})
    assert getattr(rules, name) is member
    assert make(**{name: member}) == rules


def test_rake_percent_is_an_exact_fraction() -> None:
    assert make(rake_percent=2.5).rake_percent == Fraction(5, 2)
    assert make(rake_percent="2.5").rake_percent == Fraction(5, 2)
    assert make(rake_percent=Fraction(1, 3)).rake_percent == Fraction(1, 3)
    assert make(rake_percent=100).rake_percent == 100


@pytest.mark.parametrize(
    "rules",
    [
        make(),
        TableRules(ante=0, bring_in=1, small_bet=1, big_bet=1),
        make(
            structure="pot_limit",
            big_bet_street=6,
            raise_cap=None,
            heads_up_cap=HeadsUpCap.NEVER_LIFTED,
            all_in_low_card=AllInLowCard.NEXT_MAY_FOLD,
            first_to_act_tie=FirstToActTie.HIGHEST_CARD_BY_SUIT,
            community_card_first_to_act=CommunityCardFirstToAct.HIGH_HAND_WITH_COMMUNITY,
            show_order_no_bet=ShowOrderNoBet.FIRST_TO_ACT_SEVENTH,
            odd_chip=OddChip.FIVE_CARD_HAND,
            odd_chip_half=OddChipHalf.LOW,
            rake_percent=Fraction(5, 2),
            rake_cap=300,
            rake_third_street=True,
            timeout_policy=TimeoutPolicy.CHECK_OR_FOLD,
            action_seconds=15,
            time_bank_seconds=30,
            reconnect_seconds=25,
            max_seats=6,
        ),
    ],
    ids=["default", "smallest", "every-option"],
)
def test_table_rules_repr_round_trip(rules: TableRules) -> None:
    namespace = dict(vars(rules_module))
    assert eval(repr(rules), namespace) == rules


def test_table_rules_are_frozen_and_keyword_only() -> None:
    rules = make()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.ante = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        TableRules(1, 2, 4, 8)  # type: ignore[call-arg]


def test_bet_size_follows_the_big_bet_street() -> None:
    """RULES.md 3: "small bet on 3rd and 4th street, big bet from 5th street [...] Option:
    big bets from 6th street"."""
    assert [make().bet_size(s) for s in (3, 4, 5, 6, 7)] == [4, 4, 8, 8, 8]
    assert [make(big_bet_street=6).bet_size(s) for s in (3, 4, 5, 6, 7)] == [4, 4, 4, 8, 8]
