"""The verifier: every real PokerStars hand reproduces in the engine, and any
departure (an amount, an action, a player out of turn) is found and named."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from sharedhh import (
    NEEDED,
    SHARED_HH,
    STARS_ALLIN,
    STARS_BIG,
    STARS_CASH,
    STARS_PT2,
    files_in,
    params,
)
from stud8.core import Check, Deck, Fold, Hand, TableRules
from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import parse_cards
from stud8.core.events import TimedOut
from stud8.core.hand import HandSetup
from stud8.core.rules import Game, TimeoutPolicy
from stud8.formats.pokerstars import PokerStarsHand, ReadError, Skipped
from stud8.formats.pokerstars.read import parse_text, read_file
from stud8.formats.pokerstars.write import GAME_NAMES, to_pokerstars
from stud8.formats.record import HandRecord
from stud8.formats.verify import (
    Verdict,
    pokerstars_deck,
    pokerstars_rules,
    verify_file,
    verify_pokerstars,
)

CASH = STARS_CASH
ALLIN = STARS_ALLIN
BIG = STARS_BIG
PT2 = STARS_PT2

REAL = [
    (path.name, item)
    for path in files_in(SHARED_HH, "*.txt")
    for item in read_file(path)
    if isinstance(item, PokerStarsHand)
]


@NEEDED
def test_the_test_data_holds_ten_real_hands() -> None:
    assert len(REAL) == 10
    assert all(
        isinstance(i, PokerStarsHand) for p in files_in(SHARED_HH, "*.txt") for i in read_file(p)
    )


@NEEDED
@pytest.mark.parametrize(
    "hand", params([h for _, h in REAL], ids=[f"{name}-{h.hand_id}" for name, h in REAL])
)
def test_every_real_hand_reproduces(hand: PokerStarsHand) -> None:
    verdict = verify_pokerstars(hand)
    assert verdict.reproduced, str(verdict)
    assert verdict.problems == ()
    assert str(verdict) == f"hand {hand.hand_id}: reproduced"
    assert verdict.hand is not None and verdict.hand.is_over


@NEEDED
def test_the_rules_come_from_the_file() -> None:
    by_id = {h.hand_id: h for _, h in REAL}
    cash = pokerstars_rules(by_id["35874487284"])
    assert (cash.ante, cash.bring_in, cash.small_bet, cash.big_bet, cash.max_seats) == (
        1,
        2,
        4,
        8,
        8,
    )
    big = pokerstars_rules(by_id["164954571644"])
    assert (big.ante, big.bring_in, big.small_bet, big.big_bet, big.max_seats) == (
        6000,
        12000,
        40000,
        80000,
        6,
    )
    tournament = pokerstars_rules(by_id["241636097024"])
    assert (tournament.ante, tournament.bring_in, tournament.small_bet) == (40, 60, 200)
    pt2 = pokerstars_rules(by_id["29356803849"])
    assert (pt2.ante, pt2.bring_in, pt2.small_bet, pt2.big_bet) == (5, 10, 25, 50)


@NEEDED
def test_the_deck_deals_the_cards_the_file_shows() -> None:
    hand = next(h for _, h in REAL if h.hand_id == "35874576282")
    deck = pokerstars_deck(hand).cards
    seats = hand.dealt_in
    assert len(seats) == 8
    # the up cards of 3rd street follow the two down cards of every seat
    assert deck[16:24] == parse_cards("Qs 4h 4c 8s 8d Ks 3h 5s")
    # Hero (seat 5) is dealt Ah Kd, then the up card 8d; gashpor (seat 3) shows 7h 2h 4c
    assert (deck[4], deck[12], deck[20]) == parse_cards("Ah Kd 8d")
    assert (deck[2], deck[10], deck[18]) == parse_cards("7h 2h 4c")


def _verdict(text: str) -> Verdict:
    (hand,) = [h for h in parse_text(text) if isinstance(h, PokerStarsHand)][:1]
    return verify_pokerstars(hand)


def _hand_text(path: Path, hand_id: str) -> str:
    text = path.read_text(encoding="utf-8")
    blocks = text.split("PokerStars ")
    return "PokerStars " + next(
        b for b in blocks if b.startswith(("Game #", "Hand #")) and hand_id in b
    )


def _changed(path: Path, hand_id: str, old: str, new: str) -> Verdict:
    text = _hand_text(path, hand_id)
    assert text.count(old) == 1, old
    return _verdict(text.replace(old, new))


@NEEDED
def test_a_collected_amount_one_cent_off_is_a_mismatch() -> None:
    verdict = _changed(
        CASH,
        "35874576282",
        "u.pressure collected $0.37 from pot",
        "u.pressure collected $0.38 from pot",
    )
    assert not verdict.reproduced
    assert verdict.problems[0] == "pot: site paid u.pressure $0.38, stud8 pays $0.37"
    assert str(verdict).startswith("hand 35874576282: pot: site paid u.pressure $0.38")


@NEEDED
def test_a_side_pot_half_one_chip_off_is_a_mismatch() -> None:
    verdict = _changed(
        ALLIN,
        "241636097024",
        "Player0 collected 150 from side pot",
        "Player0 collected 149 from side pot",
    )
    assert verdict.problems[0] == "side pot: site paid Player0 149, stud8 pays 150"
    verdict = _changed(
        ALLIN,
        "241636097024",
        "Seat 6: Hero showed [3h Ah 2s 4d 7d 5h 6d] and won (320)",
        "Seat 6: Hero showed [3h Ah 2s 4d 7d 5h 6d] and won (321)",
    )
    assert verdict.problems == ("summary: the file says Hero won 321, stud8 pays 320",)


@NEEDED
def test_the_halves_paid_to_the_wrong_players_are_a_mismatch() -> None:
    verdict = _changed(
        CASH, "35874676388", "Hero collected $0.40 from pot", "Hero collected $0.39 from pot"
    )
    assert verdict.problems[0] == "pot: site paid Hero $0.39, stud8 pays $0.40"
    text = _hand_text(PT2, "29356803849")
    moved = text.replace("Player2 collected 220 from pot", "Player1 collected 220 from pot")
    problems = _verdict(moved).problems
    assert "pot: site paid Player1 220, stud8 pays 0" in problems
    assert "pot: site paid Player2 0, stud8 pays 220" in problems


@NEEDED
def test_two_actions_swapped_are_a_mismatch() -> None:
    verdict = _changed(
        CASH,
        "35874487284",
        "gashpor: checks \npoconoman is connected \ndenny501: checks \n",
        "denny501: checks \npoconoman is connected \ngashpor: checks \n",
    )
    assert not verdict.reproduced
    assert str(verdict) == (
        "hand 35874487284: 4th street: expected gashpor to act first, the file has denny501"
    )
    verdict = _changed(
        CASH,
        "35874487284",
        "Hero: brings in for $0.02\nrdiezchang: calls $0.02\n",
        "rdiezchang: calls $0.02\nHero: brings in for $0.02\n",
    )
    assert verdict.problems == ("3rd street: expected Hero to bring in, the file has rdiezchang",)
    verdict = _changed(
        BIG,
        "164954571644",
        "Player0: raises $400 to $800\nHero: raises $400 to $1200\n",
        "Hero: raises $400 to $1200\nPlayer0: raises $400 to $800\n",
    )
    assert verdict.problems == ("3rd street: expected Player0 to act, the file has Hero",)


@NEEDED
@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (
            "rdiezchang: bets $0.08\ngashpor: folds",
            "rdiezchang: bets $0.04\ngashpor: folds",
            "6th street: rdiezchang bets $0.04 is not legal in stud8",
        ),
        (
            "rdiezchang: calls $0.02",
            "rdiezchang: calls $0.03",
            "3rd street: rdiezchang calls $0.03 in the file, the call is $0.02 in stud8",
        ),
        (
            "Hero: brings in for $0.02",
            "Hero: brings in for $0.02 and is all-in",
            "3rd street: Hero brings in for $0.02 is all-in in the file, not in stud8",
        ),
        (
            "Uncalled bet ($0.08) returned",
            "Uncalled bet ($0.07) returned",
            "uncalled bets: the file returns $0.07 to rdiezchang, "
            "stud8 returns $0.08 to rdiezchang",
        ),
        ("Total pot $0.12 |", "Total pot $0.13 |", "total pot: the file has $0.13, stud8 $0.12"),
        (
            "Hero: folds \nUncalled",
            "Uncalled",
            "6th street: the file's betting ends, stud8 waits for Hero",
        ),
        (
            "Dealt to Hero [5d Ks 2h] [9h]\n",
            "Dealt to Hero [5d Kd 2h] [9h]\n",
            "Hero on 4th street holds Kd, but Ks was dealt there",
        ),
        (
            "denny501: posts the ante $0.01",
            "denny501: posts the ante $0.01 and is all-in",
            "antes: denny501 posts $0.01 all-in in the file, $0.01 in stud8",
        ),
    ],
)
def test_each_departure_is_named(old: str, new: str, problem: str) -> None:
    verdict = _changed(CASH, "35874487284", old, new)
    assert not verdict.reproduced
    assert verdict.problems[0].startswith(problem), verdict.problems


@NEEDED
def test_a_card_dealt_twice_is_a_mismatch() -> None:
    text = _hand_text(CASH, "35874487284").replace("Dealt to Hero [5d Ks", "Dealt to Hero [5d Kc")
    assert _verdict(text).problems == ("the card Kc is dealt twice",)


@NEEDED
def test_a_second_deal_to_the_same_player_on_a_street_is_a_read_error() -> None:
    text = _hand_text(CASH, "35874487284")
    line = "Dealt to Hero [5d Ks 2h]\n"
    (error,) = parse_text(text.replace(line, line + line))
    assert isinstance(error, ReadError) and error.line == 15  # the second line
    assert error.message == "a second Dealt to line for Hero on 3rd street"


@NEEDED
def test_a_player_who_mucks_concedes_whatever_his_cards() -> None:
    """123smoothie mucked: even if his hidden cards (here four nines, as if the
    summary had listed them) beat the hand shown, he wins nothing."""
    verdict = _changed(
        CASH,
        "35874523510",
        "Seat 2: 123smoothie mucked [9c Jc 9h Ah 5d 4c Qc]",
        "Seat 2: 123smoothie mucked [9c 9s 9h Ah 5d 4c 9d]",
    )
    assert verdict.reproduced, str(verdict)
    assert verdict.hand is not None and verdict.hand.cards(2) == parse_cards("9c 9s 9h Ah 5d 4c 9d")


def test_a_player_may_fold_when_he_could_check() -> None:
    """PokerStars lets a player fold with no bet to him (hand 35874676388, 4th street)."""
    hand = Hand.start(
        rules=TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8),
        stacks={1: 50, 2: 50, 3: 50},
        deck=Deck.seeded(2),
    )
    while hand.street == 3:
        hand.apply(hand.legal_actions()[1].action())  # bring in, then call
    assert hand.street == 4 and hand.to_act is not None
    folder = hand.to_act
    hand.apply(Fold())
    assert hand.is_folded(folder) and not hand.is_over
    hand.apply(Check())


@NEEDED
def test_verify_file_keeps_the_order_and_passes_skips_and_errors_through(tmp_path: Path) -> None:
    holdem = (
        "PokerStars Hand #1:  Hold'em No Limit ($0.25/$0.50 USD) - 2020/02/07 19:15:13 ET\n"
        "Table 'T' 6-max\n"
    )
    broken = _hand_text(CASH, "35874487284").replace("Total pot $0.12 | Rake $0 \n", "")
    path = tmp_path / "all.txt"
    path.write_text(
        _hand_text(CASH, "35874523510")
        + "\n\n"
        + holdem
        + "\n\n"
        + broken
        + "\n\n"
        + PT2.read_text(),
        encoding="utf-8",
    )
    items = verify_file(path)
    assert [type(i).__name__ for i in items] == ["Verdict", "Skipped", "ReadError", "Verdict"]
    assert isinstance(items[0], Verdict) and items[0].reproduced and items[0].file == str(path)
    assert isinstance(items[1], Skipped) and "Hold'em" in items[1].reason
    assert isinstance(items[2], ReadError) and items[2].hand_id == "35874487284"
    assert isinstance(items[3], Verdict) and items[3].reproduced


@pytest.mark.parametrize("policy", list(TimeoutPolicy))
def test_stud8_hands_with_timeouts_verify_under_each_timeout_rule(policy: TimeoutPolicy) -> None:
    """RULES.md section 6: stud8's own hands, with players timing out at random,
    reproduce whichever timeout rule the table played (all-in protection leaves no
    line after the timeout; its fold, where check or fold would check, is tried)."""
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, timeout_policy=policy)
    rng = random.Random(policy.value)
    seen = {"all_in_protection": 0, "fold": 0, "check": 0}
    for i in range(150):
        n = rng.randint(2, 6)
        stacks = tuple((s, rng.randint(5, 80)) for s in range(1, n + 1))
        hand = Hand(HandSetup(rules=rules, stacks=stacks, deck=Deck.seeded(i), hand_id=f"{i + 1}"))
        while not hand.is_over:
            if rng.random() < 0.15:
                for e in hand.time_out():
                    if isinstance(e, TimedOut) and e.outcome in seen:
                        seen[e.outcome] += 1
                continue
            a = rng.choice(hand.legal_actions())
            sized = a.kind in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)
            hand.apply(make_action(a.kind, a.min_to if sized else None))
        record = HandRecord.from_hand(hand, names={s: f"p{s}" for s, _ in stacks}, table="t")
        [ps] = parse_text(to_pokerstars(record, everything=True))
        assert isinstance(ps, PokerStarsHand)
        verdict = verify_pokerstars(ps)
        assert verdict.reproduced, verdict
        if any(a.verb == "timed out" for a in ps.actions):
            assert verdict.hand is not None and verdict.hand.rules.timeout_policy in (
                policy,
                TimeoutPolicy.CHECK_OR_FOLD,  # the file cannot tell: a fold is both
            )
    assert seen["fold"] > 5
    if policy is TimeoutPolicy.ALL_IN_PROTECTION:
        assert seen["all_in_protection"] > 5 and seen["check"] == 0
    else:
        assert seen["check"] > 5 and seen["all_in_protection"] == 0


@pytest.mark.parametrize("game", [Game.STUD_HIGH, Game.RAZZ])
def test_seven_card_stud_and_razz_hands_verify_and_a_wrong_game_does_not(game: Game) -> None:
    """RULES.md section 8: a room's Seven Card Stud and Razz hands (timeouts
    included) reproduce from the operator's text and from a player's; read as
    another game of the family, the showdowns' payouts depart from the file."""
    rules = TableRules(game=game, ante=1, bring_in=2, small_bet=4, big_bet=8)
    rng = random.Random(game.value)
    other = "7 Card Stud Hi/Lo" if game is Game.RAZZ else "Razz"
    departed = 0
    for i in range(120):
        n = rng.randint(2, 8)
        stacks = tuple((s, rng.randint(5, 80)) for s in range(1, n + 1))
        hand = Hand(HandSetup(rules=rules, stacks=stacks, deck=Deck.seeded(i), hand_id=f"{i + 1}"))
        while not hand.is_over:
            if rng.random() < 0.05:
                hand.time_out()
                continue
            a = rng.choice([a for a in hand.legal_actions() if a.kind is not ActionKind.FOLD])
            sized = a.kind in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)
            hand.apply(make_action(a.kind, a.min_to if sized else None))
        record = HandRecord.from_hand(hand, names={s: f"p{s}" for s, _ in stacks}, table="t")
        for text in (to_pokerstars(record, everything=True), to_pokerstars(record, seat=1)):
            [ps] = parse_text(text)
            assert isinstance(ps, PokerStarsHand) and ps.game == GAME_NAMES[game]
            verdict = verify_pokerstars(ps)
            assert verdict.reproduced, verdict
            assert verdict.hand is not None and verdict.hand.rules.game is game
        [wrong] = parse_text(text.replace(GAME_NAMES[game], other, 1))
        assert isinstance(wrong, PokerStarsHand)
        if not verify_pokerstars(wrong).reproduced:
            departed += 1
    assert departed > 20  # the bring-in, who acts first or the payouts differ
