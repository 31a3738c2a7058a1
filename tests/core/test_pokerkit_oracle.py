"""Self-tests of the PokerKit oracle harness, with hands written out by hand.

Table for all hands: ante 1, bring-in 2, small bet 4, big bet 8. Every expected
stack is worked out in the comments, from the rules, not from PokerKit; the last
tests pin PokerKit behaviours that differ from RULES.md (the caller masks them).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pokerkit_oracle import FULL_DECK, OracleDisagrees, Step, play_in_pokerkit, pokerkit_version


def third_street(hands: Sequence[tuple[str, str, str]]) -> list[Step]:
    """Our 3rd-street order: first down card to everyone, then the second, then the up card."""
    return [
        Step("deal", player, hand[k], face_up=k == 2)
        for k in range(3)
        for player, hand in enumerate(hands)
    ]


def street(cards: Sequence[tuple[int, str]], *, face_up: bool = True) -> list[Step]:
    """One card to each listed (player, card), in order."""
    return [Step("deal", player, card, face_up=face_up) for player, card in cards]


def everyone(kind: str, players: Sequence[int]) -> list[Step]:
    return [Step(kind, player) for player in players]


def unused(steps: Sequence[Step]) -> list[str]:
    dealt = {step.card for step in steps if step.card}
    return [card for card in FULL_DECK if card not in dealt]


def play(stacks: Sequence[int], steps: Sequence[Step], *, recycle: bool = False) -> list[int]:
    return play_in_pokerkit(
        ante=1,
        bring_in=2,
        small_bet=4,
        big_bet=8,
        starting_stacks=stacks,
        steps=steps,
        unused_cards=unused(steps),
        recycle_mucked_cards=recycle,
    )


def test_pokerkit_version() -> None:
    assert pokerkit_version().startswith("0.7")


# --- 3 players, everyone folds to a completion on 3rd street -------------------

FOLD_TO_COMPLETION = [
    *third_street([("Ah", "Kh", "Qs"), ("2c", "3c", "2d"), ("9s", "9h", "Td")]),
    Step("bring_in", 1),  # 2d is the lowest up card
    Step("complete", 2, to=4),
    Step("fold", 0),
    Step("fold", 1),
]


def test_everyone_folds_to_a_completion() -> None:
    # P0 loses the ante; P1 the ante and the bring-in; P2 wins 3 antes + 2 and
    # gets his uncalled completion back: 100 - 1 + 3 + 2 = 104.
    assert play([100, 100, 100], FOLD_TO_COMPLETION) == [99, 97, 104]


def test_wrong_actor_raises() -> None:
    steps = [*FOLD_TO_COMPLETION[:9], Step("bring_in", 0), *FOLD_TO_COMPLETION[10:]]
    with pytest.raises(OracleDisagrees, match=r"step 9 .*actor is 1, we had player 0") as info:
        play([100, 100, 100], steps)
    assert info.value.step_index == 9
    assert info.value.step == Step("bring_in", 0)


def test_refused_amount_says_what_pokerkit_allows() -> None:
    steps = [*FOLD_TO_COMPLETION[:10], Step("raise", 2, to=8)]
    with pytest.raises(OracleDisagrees, match=r"refuses the raise.*completion/bet/raise to 4\.\.4"):
        play([100, 100, 100], steps)


def test_check_facing_a_bet_raises() -> None:
    steps = [*FOLD_TO_COMPLETION[:10], Step("check", 2)]
    with pytest.raises(OracleDisagrees, match="check/call amount is 2, we had a check"):
        play([100, 100, 100], steps)


def test_wrong_face_up_flag_raises() -> None:
    steps = list(FOLD_TO_COMPLETION)
    steps[6] = Step("deal", 0, "Qs", face_up=False)  # the up card dealt face down
    with pytest.raises(OracleDisagrees, match="PokerKit deals this card face up"):
        play([100, 100, 100], steps)


def test_card_to_the_wrong_player_raises() -> None:
    steps = list(FOLD_TO_COMPLETION)
    steps[0], steps[1] = steps[1], steps[0]  # first card to P1 before P0
    with pytest.raises(OracleDisagrees, match="next card to player 0, we dealt to 1"):
        play([100, 100, 100], steps)


def test_unfinished_hand_raises() -> None:
    with pytest.raises(OracleDisagrees, match="not over after the last step"):
        play([100, 100, 100], FOLD_TO_COMPLETION[:-1])


def test_same_card_twice_raises() -> None:
    steps = list(FOLD_TO_COMPLETION)
    steps[1] = Step("deal", 1, "Ah")
    with pytest.raises(OracleDisagrees, match="same card twice"):
        play([100, 100, 100], steps)


# --- 3 players to a showdown with a hi/lo split --------------------------------

SHOWDOWN = [
    *third_street([("Kc", "Kd", "Ks"), ("Ac", "2d", "3h"), ("9h", "9s", "5d")]),
    # 3rd: 3h brings in; P2 calls, P0 completes, both call. Pot 3 + 3 * 4 = 15.
    Step("bring_in", 1),
    Step("call", 2),
    Step("complete", 0, to=4),
    *everyone("call", [1, 2]),
    # 4th: K-Q high acts first. P0 bets, P1 calls, P2 folds. Pot 23.
    *street([(0, "Qh"), (1, "4s"), (2, "Jc")]),
    Step("bet", 0, to=4),
    Step("call", 1),
    Step("fold", 2),
    # 5th: P0 (pair of queens) first; bet, raise, call. Pot 23 + 32 = 55.
    *street([(0, "Qd"), (1, "7c")]),
    Step("bet", 0, to=8),
    Step("raise", 1, to=16),
    Step("call", 0),
    # 6th: P0 checks, P1 bets, P0 calls. Pot 71.
    *street([(0, "9c"), (1, "Jh")]),
    Step("check", 0),
    Step("bet", 1, to=8),
    Step("call", 0),
    # 7th (down): both check.
    *street([(0, "9d"), (1, "Td")], face_up=False),
    *everyone("check", [0, 1]),
]


def test_showdown_splits_high_and_low() -> None:
    # P0 kings full of queens (no low) wins high: ceil(71 / 2) = 36.
    # P1 7-4-3-2-A wins low: 35. Both put in 1 + 4 + 4 + 16 + 8 = 33; P2 put in 5.
    assert play([100, 100, 100], SHOWDOWN) == [100 - 33 + 36, 100 - 33 + 35, 95]


# --- 8 players reach 7th street: one community card ----------------------------

# P5 shows aces from 3rd street on (four aces by 6th) and acts first on 4th-7th;
# P2 holds the only qualifying low, 7-6-4-3-2. Nobody else has five low ranks.
EIGHT_HANDS = {
    0: ("2d", "2h", "3d", "3h", "Tc", "Td"),
    1: ("4d", "4h", "5c", "5d", "Th", "Ts"),
    2: ("3c", "4c", "2c", "6h", "7d", "9s"),
    3: ("5h", "5s", "6c", "6d", "Jc", "Jd"),
    4: ("7c", "7h", "8c", "8d", "Jh", "Js"),
    5: ("Kh", "Kc", "Ah", "As", "Ad", "Ac"),
    6: ("2s", "3s", "4s", "8h", "Qc", "Qd"),
    7: ("6s", "7s", "8s", "Qh", "Qs", "9c"),
}
FROM_P5 = [5, 6, 7, 0, 1, 2, 3, 4]


def eight_player_third_street() -> list[Step]:
    return [
        *third_street([hand[:3] for hand in EIGHT_HANDS.values()]),
        Step("bring_in", 2),  # 2c, the lowest card there is
        *everyone("call", [3, 4, 5, 6, 7, 0, 1]),  # pot 8 + 8 * 2 = 24
    ]


def up_cards(k: int, players: Sequence[int]) -> list[Step]:
    return street([(p, EIGHT_HANDS[p][k]) for p in sorted(players)])


def test_eight_players_get_a_community_card() -> None:
    steps = eight_player_third_street()
    for k in (3, 4, 5):
        steps += [*up_cards(k, range(8)), *everyone("check", FROM_P5)]
    # 48 cards dealt, 4 left for 8 players: one community card, face up.
    steps += [Step("community", card="Kd"), *everyone("check", FROM_P5)]
    # Pot 24: four aces win 12, the 7-6-4-3-2 low wins 12; everyone put in 3.
    assert play([100] * 8, steps) == [97, 97, 109, 97, 97, 109, 97, 97]


def test_community_card_after_a_fold_keeps_the_folded_cards_dead() -> None:
    steps = [
        *eight_player_third_street(),
        *up_cards(3, range(8)),
        Step("bet", 5, to=4),
        *everyone("call", [6, 7]),
        Step("fold", 0),
        *everyone("call", [1, 2, 3, 4]),  # pot 24 + 7 * 4 = 52
    ]
    for k in (4, 5):
        steps += [*up_cards(k, range(1, 8)), *everyone("check", [5, 6, 7, 1, 2, 3, 4])]
    # 46 cards dealt, 6 left for 7 players: a community card under our rules.
    steps += [Step("community", card="Kd"), *everyone("check", [5, 6, 7, 1, 2, 3, 4])]
    # Pot 52: P5 and P2 win 26 each and put in 7; P0 put in 3, the others 7.
    assert play([100] * 8, steps) == [97, 93, 119, 93, 93, 119, 93, 93]
    # PokerKit on its own would reshuffle P0's four folded cards and deal
    # everyone a 7th down card instead.
    with pytest.raises(OracleDisagrees, match="expects no community card"):
        play([100] * 8, steps, recycle=True)


# --- PokerKit behaviours that differ from RULES.md (pinned, masked by callers) ---


def test_pokerkit_gives_both_odd_chips_to_the_first_seat_on_a_double_tie() -> None:
    steps = [
        *third_street([("Ac", "2c", "3d"), ("Ad", "2d", "3h")]),
        Step("bring_in", 0),  # 3d below 3h
        Step("call", 1),  # pot 6
    ]
    for cards in (("4h", "4s"), ("5s", "5c"), ("Kc", "Kd")):
        steps += [*street(list(enumerate(cards))), *everyone("check", [0, 1])]  # tie: P0 first
    steps += [*street([(0, "Qs"), (1, "Qh")], face_up=False), *everyone("check", [0, 1])]
    # Both have the wheel for high and 5-4-3-2-A for low. RULES 5.4: split the
    # pot evenly, 3 each -> [100, 100]. PokerKit splits each half 2/1, odd chip
    # to P0 both times -> P0 gets 4.
    assert play([100, 100], steps) == [101, 99]


def test_pokerkit_splits_a_side_pot_with_no_eligible_low() -> None:
    steps = [
        *third_street(
            [("Ac", "2c", "3d"), ("Kh", "Kd", "Ks"), ("Jh", "Jd", "Js"), ("5h", "5d", "4s")]
        ),
        Step("bring_in", 0),
        Step("call", 1),
        Step("complete", 2, to=4),
        Step("call", 3),
        Step("call", 0),  # P0 all-in: 1 + 4 = 5
        Step("call", 1),
        *street([(0, "8h"), (1, "Qh"), (2, "9h"), (3, "9c")]),
        Step("check", 1),
        Step("bet", 2, to=4),
        *everyone("call", [3, 1]),
        *street([(0, "Ts"), (1, "Qd"), (2, "9d"), (3, "Th")]),
        Step("check", 1),
        Step("bet", 2, to=8),
        Step("call", 3),
        Step("call", 1),  # P1 all-in for 6: 1 + 4 + 4 + 6 = 15
        *street([(0, "Qc"), (1, "Jc"), (2, "7c"), (3, "8c")]),
        Step("bet", 2, to=8),  # P1 (pair of queens showing) is all-in and skipped
        Step("call", 3),
        *street([(0, "7s"), (1, "Tc"), (2, "6c"), (3, "Kc")], face_up=False),
        Step("bet", 2, to=8),
        Step("call", 3),
    ]
    # Main pot 20 (all): P1 kings full takes high 10, P0 8-7-3-2-A low 10.
    # Side pot 30 (P1, P2, P3): no eligible low, RULES 5.1: P1 takes 30.
    # Side pot 36 (P2, P3): P2 jacks full, 36.
    # RULES: [10, 40, 103, 67]. PokerKit halves the 30 side pot because P0's low
    # exists, and gives its low half (15) to the live hands P1 and P2 (8 / 7).
    assert play([5, 15, 100, 100], steps) == [10, 33, 110, 67]


def test_pokerkit_makes_the_next_player_bring_in_without_a_fold_option() -> None:
    # P0 (2c, the low card) is all-in for the ante, so P1 must bring in (RULES
    # default). RULES' option "may fold without paying" cannot be replayed.
    deal = third_street([("Kc", "Qc", "2c"), ("Kd", "Qd", "3d"), ("Ks", "Qs", "4h")])
    with pytest.raises(OracleDisagrees, match="must post the bring-in"):
        play([1, 100, 100], [*deal, Step("fold", 1), Step("fold", 2)])
    # P1 brings in, P2 folds. P1's bring-in is uncalled and comes back; P0 and
    # P1 are dealt out with no more betting and P0's aces win the 3 antes.
    steps = [
        *deal,
        Step("bring_in", 1),
        Step("fold", 2),
        *street([(0, "Ah"), (1, "Jh")]),
        *street([(0, "Ad"), (1, "9d")]),
        *street([(0, "7h"), (1, "6s")]),
        *street([(0, "8s"), (1, "5s")], face_up=False),
    ]
    assert play([1, 100, 100], steps) == [3, 99, 99]
