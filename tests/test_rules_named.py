"""Every rule of the rule book has a test that names it.

``../shared/RULES.md`` is read rule by rule (each bullet of a section, and each
numbered step of one): every rule must be in :data:`NAMED` with the tests that check
it, each named ``test_rule_<section>_...`` and found in its file. A rule added to
the book, or a test renamed or deleted, fails here until the table says which test
checks it. The table is keyed by the rule's first words, as the book words it.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT.parent / "shared" / "RULES.md"

CORE = "tests/core"
GAME = f"{CORE}/test_rules_game_and_forced_bets.py"
BETTING = f"{CORE}/test_rules_betting.py"
SHORTS = f"{CORE}/test_rules_several_short_all_ins.py"
COMMUNITY = f"{CORE}/test_rules_community_card.py"
SHOWDOWN = f"{CORE}/test_rules_showdown.py"
TIME = f"{CORE}/test_rules_time_and_records.py"
OTHERS = f"{CORE}/test_rules_other_games.py"
EVALUATE = f"{CORE}/test_evaluate.py"
VIEWS = f"{CORE}/test_views.py"
TIMERS = "tests/server/table/test_timers.py"
TABLE = "tests/server/table/test_table.py"

# (section, the rule's first words) -> the tests that check it, as "file::name"
NAMED: dict[tuple[int, str], tuple[str, ...]] = {
    (1, "2 to 8 players, one 52-card"): (
        f"{GAME}::test_rule_1_two_to_eight_players_may_play",
        f"{GAME}::test_rule_1_fewer_than_two_or_more_than_eight_players_are_refused",
        f"{GAME}::test_rule_1_one_deck_and_no_card_is_dealt_twice",
        f"{GAME}::test_rule_1_no_burn_cards_the_deal_takes_the_deck_in_order",
    ),
    (1, "A fresh deck is shuffled for"): (
        f"{GAME}::test_rule_1_a_live_shuffle_comes_from_the_os_cryptographic_source",
        f"{GAME}::test_rule_1_a_live_shuffle_does_not_use_the_global_random_state",
        f"{GAME}::test_rule_1_nothing_of_the_previous_shuffle_is_reused",
        f"{GAME}::test_rule_1_a_seeded_shuffle_is_reproducible",
        f"{GAME}::test_rule_1_the_shuffle_is_unbiased_chi_square",
    ),
    (1, "Each player gets two cards down"): (
        f"{GAME}::test_rule_1_two_down_one_up_then_up_up_up_then_down",
    ),
    (1, "Table stakes: only the chips a"): (
        f"{GAME}::test_rule_1_table_stakes_a_player_cannot_bet_more_than_his_stack",
        f"{GAME}::test_rule_1_table_stakes_in_no_limit_the_most_a_player_can_bet_is_his_stack",
    ),
    (2, "Four independent table parameters: ante, bring-in,"): (
        f"{GAME}::test_rule_2_the_four_parameters_are_used_as_given",
        f"{CORE}/test_table_rules.py::test_rule_2_the_four_parameters_are_set_independently",
    ),
    (2, "Every player posts the ante before"): (
        f"{GAME}::test_rule_2_every_player_posts_the_ante_before_the_deal",
        f"{GAME}::test_rule_2_a_player_short_of_the_ante_posts_what_he_has_and_is_all_in",
    ),
    (2, "Bring-in: the player with the lowest"): (
        f"{GAME}::test_rule_2_the_lowest_up_card_brings_in_ace_high_suits_clubs_diamonds_hearts_spades",
    ),
    (2, "The bring-in player may post the"): (
        f"{GAME}::test_rule_2_the_bring_in_player_may_bring_in",
        f"{GAME}::test_rule_2_the_bring_in_player_may_complete_to_the_small_bet",
        f"{GAME}::test_rule_2_a_player_short_of_the_bring_in_posts_what_he_has_others_enter_for_it_all",
    ),
    (2, "If the low card is all-in"): (
        f"{GAME}::test_rule_2_low_card_all_in_for_the_ante_the_player_on_his_left_must_bring_in",
        f"{GAME}::test_rule_2_low_card_all_in_option_the_player_on_his_left_may_fold_without_paying",
    ),
    (3, "3rd street: action starts on the"): (
        f"{BETTING}::test_rule_3_third_street_action_starts_left_of_bring_in",
        f"{BETTING}::test_rule_3_third_street_player_may_fold_call_bring_in_or_complete",
        f"{BETTING}::test_rule_3_once_completed_raises_are_by_the_small_bet",
        f"{BETTING}::test_rule_3_no_completion_round_ends_at_bring_in_who_has_no_option",
        f"{BETTING}::test_rule_3_completion_is_the_rounds_bet_not_a_raise",
    ),
    (3, "4th to 7th street: the highest"): (
        f"{BETTING}::test_rule_3_later_streets_highest_hand_showing_acts_first",
        f"{BETTING}::test_rule_3_straights_and_flushes_do_not_count_for_first_to_act",
        f"{BETTING}::test_rule_3_exact_tie_for_high_board_goes_to_lowest_seat_or_highest_card_by_suit",
        f"{BETTING}::test_rule_3_all_in_highest_hand_is_skipped_next_player_clockwise_acts",
        f"{EVALUATE}::test_rule_3_up_cards_rank_without_straights_or_flushes",
    ),
    (3, "Fixed limit (default structure): small bet"): (
        f"{BETTING}::test_rule_3_fixed_limit_small_bet_on_3rd_and_4th_big_bet_from_5th",
        f"{BETTING}::test_rule_3_no_double_bet_for_open_pair_on_fourth_street",
    ),
    (3, "Raise cap: one bet (or completion)"): (
        f"{BETTING}::test_rule_3_raise_cap_one_bet_and_three_raises",
        f"{BETTING}::test_rule_3_heads_up_cap_lifted_by_default_when_heads_up_before_cap",
        f"{BETTING}::test_rule_3_heads_up_cap_lifted_when_round_starts_heads_up",
        f"{BETTING}::test_rule_3_heads_up_cap_never_lifted_option_caps_two_players",
        f"{BETTING}::test_rule_3_heads_up_cap_all_in_player_does_not_count_during_round",
    ),
    (3, "Short all-in in limit: an all-in"): (
        f"{BETTING}::test_rule_3_short_all_in_of_half_a_bet_is_a_full_raise_that_reopens",
        f"{BETTING}::test_rule_3_short_all_in_of_half_a_bet_counts_toward_the_cap",
        f"{BETTING}::test_rule_3_short_all_in_under_half_a_bet_does_not_reopen_for_players_who_acted",
        f"{BETTING}::test_rule_3_short_all_in_under_half_a_bet_player_yet_to_act_may_fold_call_or_complete",
    ),
    (3, "Several short all-ins count together: a"): (
        f"{SHORTS}::test_rule_3_several_short_all_ins_reopen_fixed_limit_half_a_bet",
        f"{SHORTS}::test_rule_3_several_short_all_ins_reopen_no_limit_tda_47a_example_1",
        f"{SHORTS}::test_rule_3_several_short_all_ins_property",
    ),
    (3, "Pot limit and no limit (seed"): (
        f"{BETTING}::test_rule_3_no_limit_minimum_bet_small_then_big_maximum_the_stack",
        f"{BETTING}::test_rule_3_pot_limit_maximum_bet_is_the_pot_after_calling",
        f"{BETTING}::test_rule_3_no_limit_minimum_raise_is_largest_bet_or_raise_so_far",
        f"{BETTING}::test_rule_3_pot_and_no_limit_have_no_raise_cap",
        f"{BETTING}::test_rule_3_pot_and_no_limit_short_all_in_does_not_reopen",
    ),
    (3, "Uncalled chips go back to the"): (
        f"{BETTING}::test_rule_3_uncalled_chips_go_back_when_everyone_folds",
        f"{BETTING}::test_rule_3_uncalled_chips_go_back_over_a_short_all_in_call",
    ),
    (4, "With no burns, the deck runs"): (
        f"{COMMUNITY}::test_rule_4_eight_players_at_seventh_street_get_one_community_card",
        f"{COMMUNITY}::test_rule_4_the_player_first_on_sixth_street_acts_first_on_seventh",
        f"{COMMUNITY}::test_rule_4_option_the_high_hand_with_the_community_card_acts_first",
    ),
    (5, "Cards speak. Each player's best five"): (
        f"{SHOWDOWN}::test_rule_5_cards_speak_best_five_of_seven_make_the_high",
        f"{SHOWDOWN}::test_rule_5_best_low_is_five_different_ranks_eight_or_lower_ace_low",
        f"{SHOWDOWN}::test_rule_5_lows_compare_from_the_highest_card_down",
        f"{EVALUATE}::test_rule_5_suits_never_break_a_high_tie",
        f"{EVALUATE}::test_rule_5_same_cards_serve_high_and_low",
    ),
    (5, "Show order (seed 002, PS): if"): (
        f"{SHOWDOWN}::test_rule_5_show_order_last_bettor_or_raiser_on_last_round_shows_first",
        f"{SHOWDOWN}::test_rule_5_show_order_without_last_round_bet_earliest_seat_or_first_to_act",
        f"{SHOWDOWN}::test_rule_5_player_who_cannot_win_mucks_one_who_can_win_the_low_shows",
    ),
    (5, "Rake (seed 001): the operator's commission,"): (
        f"{SHOWDOWN}::test_rule_5_rake_percentage_rounded_down_with_cap",
        f"{SHOWDOWN}::test_rule_5_default_table_takes_no_rake",
        f"{SHOWDOWN}::test_rule_5_rake_on_hand_ending_on_third_street_is_a_setting_off_by_default",
        f"{SHOWDOWN}::test_rule_5_rake_is_taken_from_the_pot_before_it_is_split",
    ),
    (5, "Each pot is settled on its"): (
        f"{SHOWDOWN}::test_rule_5_side_pots_settled_last_formed_first",
        f"{SHOWDOWN}::test_rule_5_side_pot_with_no_qualifying_low_goes_whole_to_best_high",
    ),
    (5, "If nobody eligible has a qualifying"): (
        f"{SHOWDOWN}::test_rule_5_no_qualifying_low_best_high_takes_whole_pot",
    ),
    (5, "Otherwise the high half is the"): (
        f"{SHOWDOWN}::test_rule_5_high_half_is_ceil_low_half_is_floor",
        f"{SHOWDOWN}::test_rule_5_same_player_may_win_both_halves_a_scoop",
    ),
    (5, "Tied hands share their half equally."): (
        f"{SHOWDOWN}::test_rule_5_tied_high_hands_share_odd_chip_to_highest_card_by_rank_then_suit",
        f"{SHOWDOWN}::test_rule_5_tied_low_hands_share_odd_chip_to_lowest_card_clubs_first",
        f"{SHOWDOWN}::test_rule_5_three_way_low_tie_odd_chips_one_at_a_time_nobody_gets_two",
    ),
    (5, "If the very same players tie"): (
        f"{SHOWDOWN}::test_rule_5_same_players_tie_both_ways_split_as_evenly_as_possible",
    ),
    (5, "An all-in player can win from"): (
        f"{SHOWDOWN}::test_rule_5_all_in_player_wins_from_each_opponent_no_more_than_he_put_in",
    ),
    (6, "A player to act has 10"): (
        f"{TIMERS}::test_rule_6_the_turn_clock_runs_action_then_time_bank_then_the_timeout_rule",
    ),
    (6, "If the time runs out: the"): (
        f"{TIME}::test_rule_6_timeout_with_nothing_in_beyond_the_ante_folds",
        f"{TIME}::test_rule_6_timeout_after_putting_chips_in_is_all_in_protection",
        f"{TIME}::test_rule_6_a_bring_in_counts_as_putting_something_in",
        f"{TIME}::test_rule_6_option_check_or_fold_checks_when_he_can",
        f"{TIME}::test_rule_6_option_check_or_fold_folds_when_facing_the_bring_in",
    ),
    (6, "The server notices a disconnected player."): (
        f"{TIMERS}::test_rule_6_disconnect_in_turn_then_reconnect_before_the_deadline_gets_extra_time",
        f"{TIMERS}::test_rule_6_disconnected_and_not_back_the_timeout_rule_applies_and_he_is_dealt_out",
    ),
    (6, "A player who leaves or is"): (
        f"{TIMERS}::test_rule_6_disconnected_or_sitting_out_between_hands_is_dealt_out",
    ),
    (7, "Every hand has a unique id"): (
        f"{TABLE}::test_rule_7_every_hand_has_a_unique_id_and_every_event_its_time",
        f"{TIME}::test_rule_7_every_event_is_recorded_in_order",
        f"{TIME}::test_rule_7_replay_from_decisions_or_events_gives_the_same_hand",
        f"{VIEWS}::test_rule_7_a_player_sees_his_own_down_cards_not_another_players",
        f"{VIEWS}::test_rule_7_an_observer_sees_no_down_cards_and_the_operator_sees_all",
        f"{VIEWS}::test_rule_7_shown_cards_become_public_mucked_cards_stay_hidden",
    ),
    (7, "If the server fails during a"): (
        f"{TIME}::test_rule_7_cancel_returns_every_ante_bring_in_and_bet",
        f"{TIME}::test_rule_7_cancel_returns_the_chips_of_all_in_and_protected_players",
        f"{TIME}::test_rule_7_replaying_the_history_of_a_cancelled_hand_cancels_it_again",
        f"{TABLE}::test_rule_7_cancelled_hand_refunds_through_the_books",
    ),
    (8, "Seven Card Stud (high only): no"): (
        f"{OTHERS}::test_rule_8_stud_high_has_no_low_half",
        f"{OTHERS}::test_rule_8_stud_high_open_pair_allows_the_big_bet_on_4th_street",
        f"{OTHERS}::test_rule_8_without_the_open_pair_rule_one_bet_size_on_4th_street",
    ),
    (8, "Razz: low only, ace to five,"): (
        f"{OTHERS}::test_rule_8_razz_highest_up_card_brings_in",
        f"{OTHERS}::test_rule_8_razz_lowest_hand_showing_acts_first_pairs_are_bad",
        f"{OTHERS}::test_rule_8_razz_best_ace_to_five_low_wins_with_no_qualifier",
        f"{OTHERS}::test_rule_8_razz_straights_and_flushes_do_not_count",
        f"{EVALUATE}::test_rule_8_razz_low_ignores_straights_and_flushes_and_has_no_qualifier",
    ),
}

WORDS = 6  # a rule is known by its first words (bold marks dropped)


def rule_key(text: str) -> str:
    """A rule's first words, as :data:`NAMED` keys it.

    >>> rule_key("**Raise cap:** one bet (or completion) and three raises per round")
    'Raise cap: one bet (or completion)'
    """
    return " ".join(text.replace("**", "").split()[:WORDS])


def book_rules(text: str) -> list[tuple[int, str]]:
    """The rules of the book's numbered sections: each bullet, and each numbered
    step under one, as (section, its first words).

    >>> book_rules("## 2. Forced bets\\n- **Bring-in:** the player with the lowest up\\n"
    ...            "  card.\\n  1. one step of it here\\n## 3. Betting\\n- A rule.\\n")
    [(2, 'Bring-in: the player with the lowest'), (2, 'one step of it here'), (3, 'A rule.')]
    """
    rules: list[tuple[int, str]] = []
    section = 0
    for line in text.splitlines():
        heading = re.match(r"## (\d+)\. ", line)
        if heading:
            section = int(heading.group(1))
            continue
        item = re.match(r"(?:- |\s+\d+\. )(.*)", line)
        if section and item:
            rules.append((section, rule_key(item.group(1))))
    return rules


def defined_tests(path: str) -> set[str]:
    """The names of the test functions defined in the test file ``path``."""
    tree = ast.parse((ROOT / path).read_text())
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    }


def test_every_rule_of_the_book_has_a_test_that_names_it() -> None:
    if not RULES.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"{RULES} is missing: CI must have ../shared/RULES.md")
        pytest.skip(f"{RULES} is absent here (../shared is not beside the checkout)")
    rules = book_rules(RULES.read_text())
    assert len(rules) == len(set(rules)), "two rules of a section start with the same words"
    unnamed = [rule for rule in rules if rule not in NAMED]
    assert not unnamed, f"rules of RULES.md no test names (add them to NAMED): {unnamed}"
    gone = [rule for rule in NAMED if rule not in rules]
    assert not gone, f"NAMED keys no rule of RULES.md has any more: {gone}"
    defined: dict[str, set[str]] = {}
    for (section, words), tests in NAMED.items():
        assert tests, f"RULES.md {section} {words!r}: no test"
        for test in tests:
            path, _, name = test.partition("::")
            if path not in defined:
                defined[path] = defined_tests(path)
            assert name in defined[path], f"{test} (RULES.md {section}, {words!r}) is not there"
            assert name.startswith(f"test_rule_{section}_"), (
                f"{test} checks RULES.md {section} {words!r}: its name says another rule"
            )


def test_a_rule_added_to_the_book_is_caught() -> None:
    """The check above fails for a rule the table does not know."""
    book = "## 3. Betting\n- **Raise cap:** one bet (or completion) and three raises.\n"
    assert all(rule in NAMED for rule in book_rules(book))
    added = book + "- **Straddle:** a voluntary blind, before the deal.\n"
    assert [rule for rule in book_rules(added) if rule not in NAMED] == [
        (3, "Straddle: a voluntary blind, before the")
    ]
