"""RULES.md section 3 (Betting), rule by rule, against the engine.

Unless a test says otherwise the table is ante 1, bring-in 2, small bet 4, big bet
8, every seat has 100 chips, and each seat's cards are listed in the order it gets
them (down, down, up | 4th | 5th | 6th | 7th; ``??`` is a card that does not
matter). Every expected number is worked out in the comments from RULES.md.
"""

from __future__ import annotations

import pytest
from scenario import (
    act,
    assert_conserved,
    assert_dealt,
    legal,
    of_type,
    passive,
    play,
    start,
    table,
)

from stud8.core.actions import (
    Action,
    ActionKind,
    Bet,
    BringIn,
    Call,
    Check,
    Complete,
    Raise,
)
from stud8.core.errors import IllegalActionError
from stud8.core.events import (
    ActionOpened,
    BetMade,
    BringInPosted,
    Called,
    Completed,
    PotAwarded,
    Raised,
    StreetStarted,
    UncalledBetReturned,
)
from stud8.core.hand import Hand
from stud8.core.rules import BettingStructure, FirstToActTie, HeadsUpCap

FOLD, CHECK, CALL = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL
BET, RAISE, COMPLETE = ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE

# Four seats; seat 2 has the lowest up card (2c) and brings in.
FOUR_BRING_IN_2 = {1: "?? ?? Kd", 2: "?? ?? 2c", 3: "?? ?? Qh", 4: "?? ?? Js"}
# Four seats; seat 1 brings in.
FOUR_BRING_IN_1 = {1: "?? ?? 2c", 2: "?? ?? Kd", 3: "?? ?? Qh", 4: "?? ?? Js"}
# Three and two seats; seat 1 brings in.
THREE_BRING_IN_1 = {1: "?? ?? 2c", 2: "?? ?? Kd", 3: "?? ?? Qh"}
TWO_BRING_IN_1 = {1: "?? ?? 2c", 2: "?? ?? Kd"}


def kinds(hand: Hand) -> set[ActionKind]:
    return set(legal(hand))


def assert_illegal(hand: Hand, action: Action) -> None:
    """The action is refused and the hand does not change."""
    before = (len(hand.events), hand.to_act, hand.pot_total)
    with pytest.raises(IllegalActionError):
        hand.apply(action)
    assert (len(hand.events), hand.to_act, hand.pot_total) == before


# --------------------------------------------------------------------- 3rd street


@pytest.mark.parametrize(
    ("hands", "bring_in", "left"),
    [
        (FOUR_BRING_IN_2, 2, 3),
        ({1: "?? ?? Kd", 2: "?? ?? Qh", 3: "?? ?? Js", 4: "?? ?? 2c"}, 4, 1),
        ({2: "?? ?? 9c", 5: "?? ?? 8d", 7: "?? ?? 3h"}, 7, 2),
    ],
    ids=["middle", "last-seat-wraps-to-first", "gaps-between-seats"],
)
def test_rule_3_third_street_action_starts_left_of_bring_in(
    hands: dict[int, str], bring_in: int, left: int
) -> None:
    """RULES.md 3: "3rd street: action starts on the bring-in's left." """
    hand = start(hands)
    assert ActionOpened(3, bring_in) in hand.events
    events = act(hand, bring_in, BringIn())
    assert events[0] == BringInPosted(bring_in, 2)
    assert hand.to_act == left
    assert_conserved(hand)


def test_rule_3_third_street_action_on_bring_ins_left_skips_player_all_in_for_ante() -> None:
    """RULES.md 3: "3rd street: action starts on the bring-in's left." Seat 2, on the
    left, is all-in for his ante and cannot act: seat 3 is next."""
    hand = start({1: "?? ?? 2c", 2: "?? ?? Kd", 3: "?? ?? Qh"}, stacks={2: 1})
    play(hand, "1 bring-in")
    assert hand.to_act == 3
    play(hand, "3 call")
    assert hand.street == 4
    assert [hand.stack(s) for s in (1, 2, 3)] == [97, 0, 97]
    assert_conserved(hand)


def test_rule_3_third_street_player_may_fold_call_bring_in_or_complete() -> None:
    """RULES.md 3: "Each player may fold, call the bring-in, or complete." """
    hand = start(FOUR_BRING_IN_2)
    play(hand, "2 bring-in")
    options = legal(hand)
    assert set(options) == {FOLD, CALL, COMPLETE}
    assert (options[CALL].min_to, options[CALL].adds) == (2, 2)
    assert (options[COMPLETE].min_to, options[COMPLETE].max_to, options[COMPLETE].adds) == (4, 4, 4)
    for wrong in (Check(), Bet(to=4), Raise(to=4), Complete(to=6)):
        assert_illegal(hand, wrong)
    assert play(hand, "3 call") == [Called(3, 2, 2)]
    assert play(hand, "4 complete") == [Completed(4, 4, 4)]
    assert kinds(hand) == {FOLD, CALL, RAISE}
    assert_conserved(hand)


def test_rule_3_once_completed_raises_are_by_the_small_bet() -> None:
    """RULES.md 3: "Once completed, raises are by the small bet." """
    hand = start(FOUR_BRING_IN_2)
    play(hand, "2 bring-in, 3 complete")
    raise_ = legal(hand)[RAISE]
    assert (raise_.min_to, raise_.max_to) == (8, 8)  # 4 + the small bet 4
    for wrong in (Raise(to=10), Raise(to=12), Raise(to=6)):
        assert_illegal(hand, wrong)
    assert play(hand, "4 raise 8") == [Raised(4, 8, 8)]
    assert (legal(hand)[RAISE].min_to, legal(hand)[RAISE].max_to) == (12, 12)
    assert play(hand, "1 raise 12") == [Raised(1, 12, 12)]
    # The bring-in has 2 in: a raise to 16 adds 14.
    assert (legal(hand)[RAISE].min_to, legal(hand)[RAISE].adds) == (16, 14)
    assert_conserved(hand)


def test_rule_3_no_completion_round_ends_at_bring_in_who_has_no_option() -> None:
    """RULES.md 3: "If nobody completes, the round ends when the action is back to
    the bring-in (he has no option)." """
    hand = start(THREE_BRING_IN_1)
    events = play(hand, "1 bring-in, 2 call, 3 call")
    # Right after seat 3's call comes 4th street: no check, no option for seat 1.
    i = events.index(Called(3, 2, 2))
    assert events[i + 1] == StreetStarted(4)
    assert hand.street == 4
    assert hand.pot_total == 9  # 3 antes + 3 x 2
    assert [hand.stack(s) for s in (1, 2, 3)] == [97, 97, 97]
    assert_conserved(hand)


@pytest.mark.parametrize(
    "script",
    [
        "1 bring-in, 2 complete, 3 raise 8, 4 raise 12, 1 raise 16",
        "1 complete, 2 raise 8, 3 raise 12, 4 raise 16",
    ],
    ids=["completed-by-another", "completed-by-the-bring-in"],
)
def test_rule_3_completion_is_the_rounds_bet_not_a_raise(script: str) -> None:
    """RULES.md 3: "A completion is the round's bet; it is not a raise." With the cap
    of "one bet (or completion) and three raises", three raises follow it."""
    hand = start(FOUR_BRING_IN_1)
    steps = script.split(", ")
    play(hand, ", ".join(steps[:-1]))
    assert RAISE in kinds(hand)  # the completion and two raises: one raise is left
    play(hand, steps[-1])
    assert hand.bets_this_round == 4
    assert kinds(hand) == {FOLD, CALL}  # capped at 16
    passive(hand, until_street=4)
    assert [hand.stack(s) for s in (1, 2, 3, 4)] == [83, 83, 83, 83]  # 100 - 1 - 16
    assert hand.pot_total == 68
    assert_conserved(hand)


def test_rule_3_bring_in_completing_posts_a_completion_not_a_bring_in() -> None:
    """RULES.md 3: "A completion is the round's bet" (here made by the bring-in himself)."""
    hand = start(FOUR_BRING_IN_1)
    assert play(hand, "1 complete") == [Completed(1, 4, 4)]
    assert of_type(hand.events, BringInPosted) == []
    assert hand.bets_this_round == 1
    assert_conserved(hand)


# ------------------------------------------------------- 4th to 7th: who acts first


def to_street(hands: dict[int, str], street: int, **options: object) -> Hand:
    """Bring in, call and check until ``street``."""
    hand = start(hands, rules=table(**options))
    passive(hand, until_street=street)
    assert hand.street == street
    assert_dealt(hand, hands)
    return hand


def downs(up: str, street: int) -> str:
    """A seat's cards to ``street``: two unimportant down cards, the up cards, and
    an unimportant 7th-street down card when the street is 7."""
    return "?? ?? " + up + (" ??" if street == 7 else "")


@pytest.mark.parametrize(
    ("street", "up1", "up2", "first"),
    [
        (4, "As Kd", "3c 3d", 2),
        (4, "9c 9d", "3h 3s", 1),
        (4, "Kc 9d", "Kd Jh", 2),
        (5, "9c 9d Qh", "9h 9s Kc", 2),
        (5, "Kc Jd 3h", "Kd 9h 8c", 1),
        (6, "As Ah Kc Qd", "2c 2d 3c 3d", 2),
        (6, "4s 4h 4d 9c", "Ks Kh Qs Qh", 1),
        (6, "As Ah Ad Kc", "5c 5d 5h 5s", 2),
        (7, "Ac Ad 2h 3s", "Kc Kd 4h 5s", 1),
    ],
    ids=[
        "pair-beats-high-card",
        "higher-pair",
        "high-cards-by-kicker",
        "pair-kicker",
        "high-cards-in-order",
        "two-pair-beats-pair-of-aces",
        "trips-beat-two-pair",
        "quads-beat-trips",
        "seventh-street-up-cards-only",
    ],
)
def test_rule_3_later_streets_highest_hand_showing_acts_first(
    street: int, up1: str, up2: str, first: int
) -> None:
    """RULES.md 3: "4th to 7th street: the highest hand showing acts first, and may
    check or bet. Up cards rank as poker hands of up to four cards: four of a kind >
    three of a kind > two pair > one pair > high card, with the remaining cards as
    kickers" """
    hand = to_street({1: downs(up1, street), 2: downs(up2, street)}, street)
    assert ActionOpened(street, first) in hand.events
    assert hand.to_act == first
    assert kinds(hand) == {FOLD, CHECK, BET}
    assert_conserved(hand)


def test_rule_3_seventh_street_down_card_does_not_count_for_first_to_act() -> None:
    """RULES.md 3: "4th to 7th street: the highest hand showing acts first". Seat 1's
    7th-street king makes trips, but it is dealt down: seat 2's aces show higher."""
    hands = {1: "?? ?? Kc Kd 4h 5s Ks", 2: "?? ?? Ac Ad 2h 3s ??"}
    hand = to_street(hands, 7)
    assert ActionOpened(7, 2) in hand.events
    assert hand.to_act == 2
    assert_conserved(hand)


@pytest.mark.parametrize(
    ("up1", "up2", "first"),
    [
        ("5c 6d 7h 8s", "2c 2d 9s Ks", 2),
        ("2h 5h 7h 9h", "Ac 3d 4s 6c", 2),
        ("9c 9d 2s 3s", "5h 6h 7h 8h", 1),
    ],
    ids=["straight", "flush", "straight-flush"],
)
def test_rule_3_straights_and_flushes_do_not_count_for_first_to_act(
    up1: str, up2: str, first: int
) -> None:
    """RULES.md 3: "straights and flushes do not count." """
    hand = to_street({1: downs(up1, 6), 2: downs(up2, 6)}, 6)
    assert ActionOpened(6, first) in hand.events
    assert_conserved(hand)


@pytest.mark.parametrize(
    ("hands", "tie", "first"),
    [
        ({1: "?? ?? 4c 9d", 2: "?? ?? Kd 7d", 3: "?? ?? Ks 7s"}, FirstToActTie.POSITION, 2),
        ({2: "?? ?? 4c 9d", 4: "?? ?? Kh 7c", 6: "?? ?? Kc 7h"}, FirstToActTie.POSITION, 4),
        (
            {1: "?? ?? 4c 9d", 2: "?? ?? Kd 7d", 3: "?? ?? Ks 7s"},
            FirstToActTie.HIGHEST_CARD_BY_SUIT,
            3,
        ),
        (
            {2: "?? ?? 4c 9d", 4: "?? ?? Kh 7c", 6: "?? ?? Kc 7h"},
            FirstToActTie.HIGHEST_CARD_BY_SUIT,
            4,
        ),
    ],
    ids=[
        "position-lowest-seat",
        "position-lowest-seat-with-gaps",
        "by-suit-king-of-spades",
        "by-suit-king-of-hearts-beats-king-of-clubs",
    ],
)
def test_rule_3_exact_tie_for_high_board_goes_to_lowest_seat_or_highest_card_by_suit(
    hands: dict[int, str], tie: FirstToActTie, first: int
) -> None:
    """RULES.md 3: "An exact tie goes by position: the first of the tied players
    clockwise from the dealer, i.e. the lowest seat number (RRoP, WSOP Stud/8).
    Option: the tie goes to the highest up card by suit (TDA)." """
    hand = to_street(hands, 4, first_to_act_tie=tie)
    assert ActionOpened(4, first) in hand.events
    assert hand.to_act == first
    assert_conserved(hand)


@pytest.mark.parametrize(
    ("hands", "all_in", "script", "first"),
    [
        # Seat 2 shows kings but is all-in; seat 1 (ace high) is second best, yet
        # the action goes clockwise from seat 2: seat 3.
        (
            {1: "?? ?? 5d Ah", 2: "?? ?? Kc Kd", 3: "?? ?? 2c 9h"},
            2,
            "3 bring-in, 1 call, 2 call",
            3,
        ),
        # Seat 3 shows kings and is all-in: clockwise from seat 3 is seat 1, not
        # seat 2 (ace high, the second best).
        (
            {1: "?? ?? 5d 9h", 2: "?? ?? 2c Ah", 3: "?? ?? Kc Kd"},
            3,
            "2 bring-in, 3 call, 1 call",
            1,
        ),
    ],
    ids=["next-seat", "wraps-around"],
)
def test_rule_3_all_in_highest_hand_is_skipped_next_player_clockwise_acts(
    hands: dict[int, str], all_in: int, script: str, first: int
) -> None:
    """RULES.md 3: "An all-in player is skipped, and action starts with the next
    player clockwise." """
    hand = start(hands, stacks={all_in: 3})  # ante 1, then all-in calling the bring-in
    play(hand, script)
    assert hand.is_all_in(all_in)
    assert hand.street == 4
    assert ActionOpened(4, first) in hand.events
    assert hand.to_act == first
    assert_dealt(hand, hands)
    assert_conserved(hand)


# ------------------------------------------------------------- fixed limit sizes

# Seat 1 shows kings from 4th street and acts first; seat 2 brings in with the 2c.
BETTOR_HANDS = {1: "?? ?? Kc Kd 5h 6h ??", 2: "?? ?? 2c 3d 7s 8s ??"}


@pytest.mark.parametrize(
    ("big_bet_street", "sizes", "stacks"),
    [
        (5, {4: 4, 5: 8, 6: 8, 7: 8}, {1: 125, 2: 75}),
        (6, {4: 4, 5: 4, 6: 8, 7: 8}, {1: 121, 2: 79}),
    ],
    ids=["default-big-bet-from-5th", "option-big-bet-from-6th"],
)
def test_rule_3_fixed_limit_small_bet_on_3rd_and_4th_big_bet_from_5th(
    big_bet_street: int, sizes: dict[int, int], stacks: dict[int, int]
) -> None:
    """RULES.md 3: "Fixed limit (default structure): small bet on 3rd and 4th street,
    big bet from 5th street on (seeds 001 to 004, every rulebook). Option: big bets
    from 6th street (seed 000)." """
    hand = start(BETTOR_HANDS, rules=table(big_bet_street=big_bet_street))
    play(hand, "2 bring-in")
    complete = legal(hand)[COMPLETE]
    assert (complete.min_to, complete.max_to) == (4, 4)  # the small bet on 3rd
    play(hand, "1 complete, 2 call")  # pot 2 + 4 + 4 = 10
    for street in (4, 5, 6, 7):
        size = sizes[street]
        assert hand.street == street
        bet = legal(hand)[BET]
        assert (bet.min_to, bet.max_to) == (size, size)
        act(hand, 1, Bet())
        raise_ = legal(hand)[RAISE]
        assert (raise_.min_to, raise_.max_to) == (2 * size, 2 * size)
        if street < 7:
            act(hand, 2, Call())
        else:
            events = play(hand, "2 fold")
            assert UncalledBetReturned(1, size) in events
    # Each put in 1 + 4 + the bets of 4th to 6th street; seat 1 takes seat 2's.
    assert hand.result is not None
    assert hand.result.stacks == stacks
    assert_conserved(hand)


def test_rule_3_no_double_bet_for_open_pair_on_fourth_street() -> None:
    """RULES.md 3: "Stud Hi/Lo has no double bet for an open pair on 4th street." """
    hand = start(BETTOR_HANDS)
    passive(hand, until_street=4)
    assert [str(c) for c in hand.up_cards(1)] == ["Kc", "Kd"]
    assert hand.to_act == 1  # showing a pair of kings
    bet = legal(hand)[BET]
    assert (bet.min_to, bet.max_to) == (4, 4)
    assert_illegal(hand, Bet(to=8))
    assert play(hand, "1 bet 4") == [BetMade(1, 4, 4)]
    assert (legal(hand)[RAISE].min_to, legal(hand)[RAISE].max_to) == (8, 8)
    assert_conserved(hand)


# -------------------------------------------------------------------- raise cap


def test_rule_3_raise_cap_one_bet_and_three_raises() -> None:
    """RULES.md 3: "Raise cap: one bet (or completion) and three raises per round
    (seeds, RRoP)." Three players on 5th street (big bet 8)."""
    hands = {1: "?? ?? Kc Kd Ks", 2: "?? ?? 2c 3d 4h", 3: "?? ?? 9c Td Jh"}
    hand = to_street(hands, 5)
    assert hand.to_act == 1  # three kings showing
    play(hand, "1 bet 8, 2 raise 16, 3 raise 24")
    assert legal(hand)[RAISE].min_to == 32  # the third raise is still allowed
    play(hand, "1 raise 32")
    assert hand.bets_this_round == 4
    assert kinds(hand) == {FOLD, CALL}
    assert legal(hand)[CALL].adds == 16  # seat 2 has 16 in
    assert_illegal(hand, Raise(to=40))
    play(hand, "2 call")
    assert kinds(hand) == {FOLD, CALL}
    play(hand, "3 call")
    assert hand.street == 6
    assert hand.pot_total == 105  # 3 x (1 + 2 + 32)
    assert [hand.stack(s) for s in (1, 2, 3)] == [65, 65, 65]
    assert_conserved(hand)


def test_rule_3_heads_up_cap_lifted_by_default_when_heads_up_before_cap() -> None:
    """RULES.md 3: "Heads-up: default, the cap is lifted when the action is heads-up
    before the cap is reached (RRoP)". Three players; seat 3 folds after the
    completion, so seats 1 and 2 raise on and on."""
    hand = start(THREE_BRING_IN_1)
    play(hand, "1 bring-in, 2 complete, 3 fold, 1 raise 8, 2 raise 12, 1 raise 16")
    assert hand.bets_this_round == 4
    assert legal(hand)[RAISE].min_to == 20
    play(hand, "2 raise 20, 1 raise 24")
    assert legal(hand)[RAISE].min_to == 28
    play(hand, "2 call")
    assert hand.street == 4
    assert [hand.stack(s) for s in (1, 2, 3)] == [75, 75, 99]
    assert hand.pot_total == 51  # 3 antes + 24 + 24
    assert_conserved(hand)


def test_rule_3_heads_up_cap_not_lifted_when_cap_reached_before_heads_up() -> None:
    """RULES.md 3: the cap "is lifted when the action is heads-up before the cap is
    reached": here the cap is reached three-handed, then a player folds."""
    hand = start(THREE_BRING_IN_1)
    play(hand, "1 bring-in, 2 complete, 3 raise 8, 1 raise 12, 2 raise 16")
    assert kinds(hand) == {FOLD, CALL}
    play(hand, "3 fold")
    assert kinds(hand) == {FOLD, CALL}  # heads-up now, but capped already
    assert legal(hand)[CALL].adds == 4
    play(hand, "1 call")
    assert hand.street == 4
    assert [hand.stack(s) for s in (1, 2, 3)] == [83, 83, 91]
    assert_conserved(hand)


@pytest.mark.parametrize(
    "policy",
    [HeadsUpCap.LIFTED_WHEN_HEADS_UP, HeadsUpCap.LIFTED_IF_ROUND_STARTS_HEADS_UP],
    ids=["default", "option-round-starts-heads-up"],
)
def test_rule_3_heads_up_cap_lifted_when_round_starts_heads_up(policy: HeadsUpCap) -> None:
    """RULES.md 3: "Heads-up: default, the cap is lifted when the action is heads-up
    before the cap is reached (RRoP); options: only when the round starts heads-up
    (WSOP cash)". A two-player hand: heads-up raising."""
    hand = start(TWO_BRING_IN_1, rules=table(heads_up_cap=policy))
    play(hand, "1 bring-in, 2 complete, 1 raise 8, 2 raise 12, 1 raise 16")
    assert hand.bets_this_round == 4
    play(hand, "2 raise 20, 1 raise 24, 2 call")
    assert hand.street == 4
    assert [hand.stack(s) for s in (1, 2)] == [75, 75]
    assert_conserved(hand)


@pytest.mark.parametrize(
    "policy",
    [HeadsUpCap.LIFTED_IF_ROUND_STARTS_HEADS_UP, HeadsUpCap.NEVER_LIFTED],
    ids=["option-round-starts-heads-up", "option-never"],
)
def test_rule_3_heads_up_cap_kept_when_round_becomes_heads_up_under_options(
    policy: HeadsUpCap,
) -> None:
    """RULES.md 3: "options: only when the round starts heads-up (WSOP cash), or
    never (TDA, WSOP tournaments)." The round starts three-handed."""
    hand = start(THREE_BRING_IN_1, rules=table(heads_up_cap=policy))
    play(hand, "1 bring-in, 2 complete, 3 fold, 1 raise 8, 2 raise 12, 1 raise 16")
    assert kinds(hand) == {FOLD, CALL}
    play(hand, "2 call")
    assert hand.street == 4
    assert [hand.stack(s) for s in (1, 2, 3)] == [83, 83, 99]
    assert_conserved(hand)


def test_rule_3_heads_up_cap_never_lifted_option_caps_two_players() -> None:
    """RULES.md 3: "or never (TDA, WSOP tournaments)": heads-up raising is capped."""
    hand = start(TWO_BRING_IN_1, rules=table(heads_up_cap=HeadsUpCap.NEVER_LIFTED))
    play(hand, "1 bring-in, 2 complete, 1 raise 8, 2 raise 12, 1 raise 16")
    assert kinds(hand) == {FOLD, CALL}
    assert_illegal(hand, Raise(to=20))
    assert_conserved(hand)


@pytest.mark.parametrize(
    ("policy", "lifted"),
    [
        (HeadsUpCap.LIFTED_WHEN_HEADS_UP, True),
        (HeadsUpCap.LIFTED_IF_ROUND_STARTS_HEADS_UP, True),
        (HeadsUpCap.NEVER_LIFTED, False),
    ],
    ids=["default", "option-round-starts-heads-up", "option-never"],
)
def test_rule_3_heads_up_cap_all_in_player_does_not_count_when_round_starts(
    policy: HeadsUpCap, lifted: bool
) -> None:
    """RULES.md 3: "All-in players do not count as one of the players in the pot for
    this." Seat 3 is all-in from 3rd street; 4th street starts with three players
    in the pot but only two who can bet: it starts heads-up."""
    hands = {1: "?? ?? 2c Ac", 2: "?? ?? 9d 5h", 3: "?? ?? Qd 3s"}
    hand = start(hands, stacks={3: 3}, rules=table(heads_up_cap=policy))
    play(hand, "1 bring-in, 2 call, 3 call")
    assert hand.is_all_in(3)
    assert hand.to_act == 1  # ace high on 4th street
    play(hand, "1 bet 4, 2 raise 8, 1 raise 12, 2 raise 16")
    if lifted:
        assert legal(hand)[RAISE].min_to == 20
        play(hand, "1 raise 20, 2 call")
        assert [hand.stack(s) for s in (1, 2, 3)] == [77, 77, 0]  # 100 - 1 - 2 - 20
    else:
        assert kinds(hand) == {FOLD, CALL}
        play(hand, "1 call")
        assert [hand.stack(s) for s in (1, 2, 3)] == [81, 81, 0]  # 100 - 1 - 2 - 16
    assert hand.street == 5
    assert_dealt(hand, hands)
    assert_conserved(hand)


@pytest.mark.parametrize(
    ("policy", "lifted"),
    [
        (HeadsUpCap.LIFTED_WHEN_HEADS_UP, True),
        (HeadsUpCap.LIFTED_IF_ROUND_STARTS_HEADS_UP, False),
        (HeadsUpCap.NEVER_LIFTED, False),
    ],
    ids=["default", "option-round-starts-heads-up", "option-never"],
)
def test_rule_3_heads_up_cap_all_in_player_does_not_count_during_round(
    policy: HeadsUpCap, lifted: bool
) -> None:
    """RULES.md 3: "the cap is lifted when the action is heads-up before the cap is
    reached (RRoP) ... All-in players do not count as one of the players in the pot
    for this." Seat 3 (9 chips) raises all-in to 8 as the second bet: from then on
    only seats 1 and 2 can bet, before the cap."""
    hand = start(THREE_BRING_IN_1, stacks={3: 9}, rules=table(heads_up_cap=policy))
    play(hand, "1 bring-in, 2 complete, 3 raise 8")
    assert hand.is_all_in(3)
    play(hand, "1 raise 12, 2 raise 16")
    assert hand.bets_this_round == 4
    if lifted:
        assert legal(hand)[RAISE].min_to == 20
    else:
        assert kinds(hand) == {FOLD, CALL}
    assert_conserved(hand)


# ------------------------------------------------------ short all-in in limit

# Seat 1 shows kings on 4th street and acts first; seat 3 brings in with the 2c.
SHORT_HANDS_3 = {1: "?? ?? Kc Kd", 2: "?? ?? 9d 4s", 3: "?? ?? 2c 7h"}
SHORT_HANDS_4 = {**SHORT_HANDS_3, 4: "?? ?? Td 3c"}


def test_rule_3_short_all_in_of_half_a_bet_is_a_full_raise_that_reopens() -> None:
    """RULES.md 3: "Short all-in in limit: an all-in of at least half a bet ... counts
    as a full bet or raise: it reopens the betting ... and the next raise is a full
    bet above it." Seat 2 has 6 chips on 4th street and raises all-in 4 to 6 (a
    raise of 2, half the small bet)."""
    hand = start(SHORT_HANDS_3, stacks={2: 9})
    play(hand, "3 bring-in, 1 call, 2 call")
    assert hand.to_act == 1
    assert play(hand, "1 bet 4, 2 raise 6")[-1] == Raised(2, 6, 6, all_in=True)
    raise_ = legal(hand)[RAISE]
    assert (raise_.min_to, raise_.max_to) == (10, 10)  # a full bet above 6
    play(hand, "3 call")
    # Seat 1 already acted, but the half-bet raise reopened the betting for him.
    assert legal(hand)[RAISE].min_to == 10
    assert play(hand, "1 raise 10") == [Raised(1, 10, 6)]
    play(hand, "3 call")
    assert hand.street == 5
    assert hand.pot_total == 35  # 3rd: 3 + 6; 4th: 10 + 6 + 10
    assert [hand.stack(s) for s in (1, 2, 3)] == [87, 0, 87]
    assert_dealt(hand, SHORT_HANDS_3)
    assert_conserved(hand)


def test_rule_3_short_all_in_of_half_a_bet_counts_toward_the_cap() -> None:
    """RULES.md 3: an all-in of at least half a bet "counts toward the cap". Bet 4,
    all-in raise to 6, raise to 10, raise to 14: one bet and three raises."""
    hand = start(SHORT_HANDS_4, stacks={2: 9})
    play(hand, "3 bring-in, 4 call, 1 call, 2 call")
    play(hand, "1 bet 4, 2 raise 6, 3 raise 10, 4 raise 14")
    assert hand.bets_this_round == 4
    assert kinds(hand) == {FOLD, CALL}
    play(hand, "1 call")
    assert kinds(hand) == {FOLD, CALL}
    play(hand, "3 call")
    assert hand.street == 5
    assert [hand.stack(s) for s in (1, 2, 3, 4)] == [83, 0, 83, 83]
    assert_conserved(hand)


def test_rule_3_short_all_in_under_half_a_bet_does_not_reopen_for_players_who_acted() -> None:
    """RULES.md 3: "An all-in of less than half a bet does not reopen the betting for
    players who have already acted". Seat 3 has 5 chips on 4th street: bet 4,
    call, all-in to 5 (a raise of 1, under half of 4)."""
    hand = start(SHORT_HANDS_3, stacks={3: 8})
    play(hand, "3 bring-in, 1 call, 2 call")
    assert play(hand, "1 bet 4, 2 call, 3 raise 5") == [
        BetMade(1, 4, 4),
        Called(2, 4, 4),
        Raised(3, 5, 5, all_in=True),
    ]
    assert kinds(hand) == {FOLD, CALL}
    assert legal(hand)[CALL].adds == 1
    assert_illegal(hand, Raise(to=9))
    play(hand, "1 call")
    assert kinds(hand) == {FOLD, CALL}
    play(hand, "2 call")
    assert hand.street == 5
    assert hand.pot_total == 24  # 3 x (1 + 2 + 5)
    assert [hand.stack(s) for s in (1, 2, 3)] == [92, 92, 0]
    assert_conserved(hand)


def test_rule_3_short_all_in_under_half_a_bet_player_yet_to_act_may_fold_call_or_complete() -> None:
    """RULES.md 3: "a player who has not yet acted may fold, call it, or complete it
    (RRoP)." Bet 4, all-in to 5 (under half a raise); seat 3 has not acted: he
    may call 5 or make the full raise to 8, which reopens the betting."""
    hand = start(SHORT_HANDS_4, stacks={2: 8})
    play(hand, "3 bring-in, 4 call, 1 call, 2 call")
    play(hand, "1 bet 4, 2 raise 5")
    options = legal(hand)
    assert set(options) == {FOLD, CALL, RAISE}
    assert (options[CALL].min_to, options[CALL].adds) == (5, 5)
    assert (options[RAISE].min_to, options[RAISE].max_to) == (8, 8)
    play(hand, "3 raise 8")
    assert legal(hand)[RAISE].min_to == 12
    play(hand, "4 call")
    assert legal(hand)[RAISE].min_to == 12  # seat 1 faces a full raise: reopened
    play(hand, "1 call")
    assert hand.street == 5
    assert hand.pot_total == 41  # 3rd: 4 + 8; 4th: 8 + 5 + 8 + 8
    assert [hand.stack(s) for s in (1, 2, 3, 4)] == [89, 0, 89, 89]
    assert_conserved(hand)


def test_rule_3_short_all_in_bet_under_half_next_player_may_complete_it() -> None:
    """RULES.md 3: "a player who has not yet acted may fold, call it, or complete it
    (RRoP)." On 5th street (big bet 8) seat 1 bets all-in 3; seat 2 may complete
    to 8, a full bet, and seat 3 may then raise."""
    hands = {1: "?? ?? Kc Kd Ks", 2: "?? ?? 2c 3d 4h", 3: "?? ?? 9d 5s 6h"}
    hand = start(hands, stacks={1: 6})
    passive(hand, until_street=5)
    assert hand.to_act == 1
    assert play(hand, "1 bet 3") == [BetMade(1, 3, 3, all_in=True)]
    options = legal(hand)
    assert set(options) == {FOLD, CALL, COMPLETE}
    assert (options[CALL].min_to, options[COMPLETE].min_to, options[COMPLETE].max_to) == (3, 8, 8)
    assert play(hand, "2 complete") == [Completed(2, 8, 8)]
    options = legal(hand)
    assert set(options) == {FOLD, CALL, RAISE}
    assert options[RAISE].min_to == 16
    play(hand, "3 call")
    assert hand.street == 6
    assert hand.pot_total == 28  # 3rd: 3 + 6; 5th: 3 + 8 + 8
    assert [hand.stack(s) for s in (1, 2, 3)] == [0, 89, 89]
    assert_dealt(hand, hands)
    assert_conserved(hand)


def test_rule_3_short_all_in_bet_of_half_a_bet_counts_as_the_bet() -> None:
    """RULES.md 3: "an all-in of at least half a bet ... counts as a full bet ... and
    the next raise is a full bet above it." On 5th street (big bet 8) seat 1 bets
    all-in 4: the next raise is to 12, not a completion to 8."""
    hands = {1: "?? ?? Kc Kd Ks", 2: "?? ?? 2c 3d 4h", 3: "?? ?? 9d 5s 6h"}
    hand = start(hands, stacks={1: 7})
    passive(hand, until_street=5)
    assert play(hand, "1 bet 4") == [BetMade(1, 4, 4, all_in=True)]
    options = legal(hand)
    assert set(options) == {FOLD, CALL, RAISE}
    assert (options[RAISE].min_to, options[RAISE].max_to) == (12, 12)
    play(hand, "2 raise 12")
    assert legal(hand)[RAISE].min_to == 20
    play(hand, "3 call")
    assert hand.street == 6
    assert hand.pot_total == 37  # 3rd: 3 + 6; 5th: 4 + 12 + 12
    assert [hand.stack(s) for s in (1, 2, 3)] == [0, 85, 85]
    assert_conserved(hand)


@pytest.mark.parametrize(
    "bring_in_raises", [False, True], ids=["bring-in-calls", "bring-in-raises"]
)
def test_rule_3_short_all_in_under_half_over_completion_reopens_only_for_who_has_not_acted(
    bring_in_raises: bool,
) -> None:
    """RULES.md 3: "An all-in of less than half a bet does not reopen the betting for
    players who have already acted; a player who has not yet acted may fold, call
    it, or complete it (RRoP)." Seat 2 completes to 4; seat 3 goes all-in to 5 (1
    more, under half of the small bet). The bring-in has not acted since the
    completion: he may raise to 8. Seat 2 has acted: he may only call, unless seat
    1's full raise reopens the betting."""
    hand = start(THREE_BRING_IN_1, stacks={3: 6})
    play(hand, "1 bring-in, 2 complete, 3 raise 5")
    assert hand.is_all_in(3)
    options = legal(hand)
    assert set(options) == {FOLD, CALL, RAISE}
    assert (options[CALL].adds, options[RAISE].min_to, options[RAISE].max_to) == (3, 8, 8)
    if bring_in_raises:
        play(hand, "1 raise 8")
        assert legal(hand)[RAISE].min_to == 12
        play(hand, "2 call")
        assert [hand.stack(s) for s in (1, 2, 3)] == [91, 91, 0]
    else:
        play(hand, "1 call")
        assert kinds(hand) == {FOLD, CALL}
        assert legal(hand)[CALL].adds == 1
        play(hand, "2 call")
        assert [hand.stack(s) for s in (1, 2, 3)] == [94, 94, 0]
    assert hand.street == 4
    assert_conserved(hand)


def test_rule_3_short_all_in_over_bring_in_of_half_the_completion_counts_as_completion() -> None:
    """RULES.md 3: "an all-in of at least half a bet (or half of the completion, over
    a bring-in) counts as a full bet or raise ... and the next raise is a full bet
    above it." Seat 2 has 3 chips after the ante and goes all-in to 3 over the
    bring-in of 2 (1 chip of the 2 a completion adds; 3 of the 4 it reaches)."""
    hand = start(THREE_BRING_IN_1, stacks={2: 4})
    play(hand, "1 bring-in")
    complete = legal(hand)[COMPLETE]
    assert (complete.min_to, complete.max_to, complete.all_in) == (3, 3, True)
    assert play(hand, "2 complete 3") == [Completed(2, 3, 3, all_in=True)]
    raise_ = legal(hand)[RAISE]
    assert (raise_.min_to, raise_.max_to) == (7, 7)  # a full bet above 3
    play(hand, "3 raise 7")
    assert legal(hand)[RAISE].min_to == 11
    play(hand, "1 call")
    assert hand.street == 4
    assert [hand.stack(s) for s in (1, 2, 3)] == [92, 0, 92]
    assert_conserved(hand)


@pytest.mark.parametrize("all_in_seat", [1, 2], ids=["the-bring-in-himself", "the-next-player"])
def test_rule_3_short_all_in_completion_is_measured_over_the_bring_in(all_in_seat: int) -> None:
    """RULES.md 3: "an all-in of at least half a bet (or half of the completion, over
    a bring-in) counts as a full bet or raise"; one "of less than half a bet does not
    reopen the betting ... a player who has not yet acted may fold, call it, or
    complete it". Bring-in 2, small bet 6: an all-in to 3 adds 1 of the 4 a completion
    adds over the bring-in, less than half, whether the bring-in himself makes it
    (instead of bringing in) or the next player does: the player after him may
    complete to 6 (not raise to 9), and it does not count toward the cap."""
    hand = start(
        THREE_BRING_IN_1,
        stacks={all_in_seat: 4},
        rules=table(small_bet=6, big_bet=12, raise_cap=1, heads_up_cap=HeadsUpCap.NEVER_LIFTED),
    )
    if all_in_seat == 2:
        play(hand, "1 bring-in")
    assert legal(hand)[COMPLETE].max_to == 3
    assert play(hand, f"{all_in_seat} complete 3") == [Completed(all_in_seat, 3, 3, all_in=True)]
    nxt = all_in_seat + 1
    options = legal(hand)
    assert set(options) == {FOLD, CALL, COMPLETE}
    assert (options[CALL].min_to, options[COMPLETE].min_to, options[COMPLETE].max_to) == (3, 6, 6)
    play(hand, f"{nxt} complete 6")
    # The cap (one bet and one raise here) is not reached by the all-in: a raise to 12.
    after = 3 if nxt == 2 else 1
    assert legal(hand)[RAISE].min_to == 12
    play(hand, f"{after} raise 12")
    assert RAISE not in legal(hand)  # now capped
    assert_conserved(hand)


# ------------------------------------------------------- pot limit and no limit

BIG_BET_HANDS = {1: "?? ?? Kc Kd 5h", 2: "?? ?? 2c 3d 7s"}


def test_rule_3_no_limit_minimum_bet_small_then_big_maximum_the_stack() -> None:
    """RULES.md 3: "Pot limit and no limit (seed 000): the minimum bet is the small bet
    on 3rd and 4th street and the big bet from 5th street (the completion on 3rd
    street is the small bet). ... in no limit, the player's stack." """
    hand = start(BIG_BET_HANDS, rules=table(structure=BettingStructure.NO_LIMIT))
    play(hand, "2 bring-in")
    complete = legal(hand)[COMPLETE]
    assert (complete.min_to, complete.max_to) == (4, 99)
    assert_illegal(hand, Complete(to=3))
    play(hand, "1 complete 4, 2 call")
    bet = legal(hand)[BET]
    assert (hand.street, hand.to_act, bet.min_to, bet.max_to) == (4, 1, 4, 95)
    play(hand, "1 check")
    assert (legal(hand)[BET].min_to, legal(hand)[BET].max_to) == (4, 95)
    play(hand, "2 check")
    bet = legal(hand)[BET]
    assert (hand.street, bet.min_to, bet.max_to) == (5, 8, 95)
    assert_illegal(hand, Bet(to=7))
    play(hand, "1 bet 95")
    call = legal(hand)[CALL]
    assert (call.adds, call.all_in) == (95, True)
    assert_conserved(hand)


def test_rule_3_pot_limit_maximum_bet_is_the_pot_after_calling() -> None:
    """RULES.md 3: "The maximum bet in pot limit is the pot after calling" """
    hand = start(BIG_BET_HANDS, rules=table(structure=BettingStructure.POT_LIMIT))
    play(hand, "2 bring-in")
    # Pot 2 + 2 = 4; calling 2 makes 6; the completion may reach 2 + 6 = 8.
    complete = legal(hand)[COMPLETE]
    assert (complete.min_to, complete.max_to) == (4, 8)
    assert_illegal(hand, Complete(to=9))
    play(hand, "1 complete 8")
    # Pot 12; seat 2 calls 6 more: 18; he may raise by 18: to 26.
    assert legal(hand)[RAISE].max_to == 26
    assert_illegal(hand, Raise(to=27))
    play(hand, "2 call")
    # 4th street, pot 18: a bet of at most 18.
    bet = legal(hand)[BET]
    assert (bet.min_to, bet.max_to) == (4, 18)
    play(hand, "1 bet 18")
    # Pot 36; calling 18 makes 54; the raise reaches 18 + 54 = 72; the least is 36.
    raise_ = legal(hand)[RAISE]
    assert (raise_.min_to, raise_.max_to) == (36, 72)
    play(hand, "2 call")
    bet = legal(hand)[BET]
    assert (hand.street, bet.min_to, bet.max_to) == (5, 8, 54)
    assert [hand.stack(s) for s in (1, 2)] == [73, 73]
    assert_conserved(hand)


def test_rule_3_no_limit_minimum_raise_is_largest_bet_or_raise_so_far() -> None:
    """RULES.md 3: "The minimum raise is the size of the largest bet or raise so far in
    the round." """
    hands = {1: "?? ?? Kc Kd", 2: "?? ?? 2c 3d", 3: "?? ?? 9h 4s"}
    hand = start(hands, rules=table(structure=BettingStructure.NO_LIMIT))
    play(hand, "2 bring-in, 3 complete 4")
    assert legal(hand)[RAISE].min_to == 8  # the completion, a bet of 4
    play(hand, "1 call, 2 call")
    assert (hand.street, hand.to_act) == (4, 1)
    play(hand, "1 bet 10")
    assert legal(hand)[RAISE].min_to == 20
    assert_illegal(hand, Raise(to=19))
    play(hand, "2 raise 30")  # a raise of 20
    assert legal(hand)[RAISE].min_to == 50
    play(hand, "3 raise 50")  # a raise of 20
    raise_ = legal(hand)[RAISE]
    # 50 + 20; seat 1 had 95 at the start of the street, all of it may go in.
    assert (raise_.min_to, raise_.max_to) == (70, 95)
    assert_conserved(hand)


@pytest.mark.parametrize(
    ("structure", "completion", "min_raise"),
    [(BettingStructure.NO_LIMIT, 10, 20), (BettingStructure.POT_LIMIT, 9, 18)],
    ids=["no-limit", "pot-limit"],
)
def test_rule_3_big_bet_minimum_raise_over_a_completion_is_the_completion(
    structure: BettingStructure, completion: int, min_raise: int
) -> None:
    """RULES.md 3: "The minimum raise is the size of the largest bet or raise so far in
    the round." and "A completion is the round's bet; it is not a raise." A
    completion to 10 (or 9, the pot-limit most: 2 + 5 in the pot + 2) is a bet of
    10 (9): the least raise doubles it. The bring-in is not the round's bet, so the
    completion's size is not counted from it (10 - 2 = 8 would make 18)."""
    hand = start(THREE_BRING_IN_1, rules=table(structure=structure))
    play(hand, f"1 bring-in, 2 complete {completion}")
    assert legal(hand)[RAISE].min_to == min_raise
    assert_conserved(hand)


@pytest.mark.parametrize("structure", [BettingStructure.POT_LIMIT, BettingStructure.NO_LIMIT])
def test_rule_3_pot_and_no_limit_have_no_raise_cap(structure: BettingStructure) -> None:
    """RULES.md 3: "There is no raise cap." """
    hand = start(FOUR_BRING_IN_1, rules=table(structure=structure))
    play(hand, "1 bring-in, 2 complete 4, 3 raise 8, 4 raise 12, 1 raise 16")
    assert hand.bets_this_round == 4
    assert legal(hand)[RAISE].min_to == 20
    play(hand, "2 raise 20")
    assert legal(hand)[RAISE].min_to == 24
    assert_conserved(hand)


@pytest.mark.parametrize(
    ("structure", "bet", "call_adds"),
    [(BettingStructure.NO_LIMIT, 10, 5), (BettingStructure.POT_LIMIT, 8, 7)],
    ids=["no-limit", "pot-limit"],
)
def test_rule_3_pot_and_no_limit_short_all_in_does_not_reopen(
    structure: BettingStructure, bet: int, call_adds: int
) -> None:
    """RULES.md 3: "An all-in short of a full raise does not reopen the betting for
    players who have already acted." Seat 3 has 15 chips on 4th street and raises
    all-in to 15, less than a full raise over the bet."""
    hands = {1: "?? ?? Kc Kd", 2: "?? ?? 2c 3d", 3: "?? ?? 9h 4s"}
    hand = start(hands, stacks={3: 18}, rules=table(structure=structure))
    play(hand, "2 bring-in, 3 call, 1 call")
    assert (hand.street, hand.to_act) == (4, 1)
    play(hand, f"1 bet {bet}, 2 call, 3 raise 15")
    assert hand.is_all_in(3)
    assert kinds(hand) == {FOLD, CALL}
    assert legal(hand)[CALL].adds == call_adds
    play(hand, "1 call")
    assert kinds(hand) == {FOLD, CALL}
    play(hand, "2 call")
    assert hand.street == 5
    assert [hand.stack(s) for s in (1, 2, 3)] == [82, 82, 0]
    assert_conserved(hand)


# ------------------------------------------------------------ uncalled chips


def test_rule_3_uncalled_chips_go_back_when_everyone_folds() -> None:
    """RULES.md 3: "Uncalled chips go back to the player who bet them." Seat 2
    completes to 4; the bring-in (2 in) folds: 2 of seat 2's 4 were never called."""
    hand = start(THREE_BRING_IN_1)
    events = play(hand, "1 bring-in, 2 complete, 3 fold, 1 fold")
    assert UncalledBetReturned(2, 2) in events
    assert events.index(UncalledBetReturned(2, 2)) < events.index(PotAwarded(0, 2, 7, "whole"))
    assert hand.result is not None
    # Pot 3 antes + 2 + 2 = 7; seat 2: 100 - 1 - 4 + 2 + 7.
    assert hand.result.stacks == {1: 97, 2: 104, 3: 99}
    assert_conserved(hand)


def test_rule_3_uncalled_chips_go_back_over_a_short_all_in_call() -> None:
    """RULES.md 3: "Uncalled chips go back to the player who bet them." Seat 2 calls
    a bet of 4 all-in for 1: 3 go back to seat 1."""
    hands = {1: "Ks Kh | Kc | Kd | 9s | 9h | 3s", 2: "Qc Jd | 2c | 3d | 7s | Th | 9c"}
    hand = start(hands, stacks={2: 4})
    play(hand, "2 bring-in, 1 call")
    events = play(hand, "1 bet 4, 2 call")
    assert events[1:3] == [Called(2, 1, 1, all_in=True), UncalledBetReturned(1, 3)]
    assert hand.result is not None  # nobody left to bet: dealt out to the showdown
    assert hand.contributed(1) == hand.contributed(2) == 4
    # Seat 1's four kings take the pot of 8.
    assert hand.result.stacks == {1: 104, 2: 0}
    assert_dealt(hand, hands)
    assert_conserved(hand)
