"""The native hand record: lossless JSON lines, and an exact replay.

:func:`random_hand` (also used by the PokerStars round trips) plays a seeded random
hand: 2 to 8 players in random seats, random stacks (tiny ones too, so that
all-ins for the ante, short bring-ins, short all-ins and side pots occur), random
legal actions and amounts, and, when asked, timeouts and cancellations.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta, timezone
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from stud8.core import (
    ActionKind,
    AllInLowCard,
    BettingStructure,
    BringIn,
    CommunityCardFirstToAct,
    Deck,
    FirstToActTie,
    Fold,
    Game,
    Hand,
    HeadsUpCap,
    OddChip,
    OddChipHalf,
    ShowOrderNoBet,
    TableRules,
    TimeoutPolicy,
)
from stud8.core import events as ev
from stud8.core.errors import Stud8Error
from stud8.formats import HandHistoryError
from stud8.formats.record import HandRecord, SeatRecord, read_file, write_file

SIZED = (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)


def random_rules(rng: random.Random, *, every_option: bool) -> TableRules:
    """A random table. Without ``every_option`` only what a PokerStars file carries
    varies (stakes, ante, bring-in, structure); the rest is the file's defaults."""
    small = rng.choice((2, 4, 10, 20, 25))
    big = 2 * small
    bring_in = rng.choice((1, small // 2, small - 1, small)) if small > 1 else 1
    ante = rng.choice((0, 1, 2, small // 4, 5))
    structure = rng.choices(list(BettingStructure), weights=(8, 1, 1))[0]
    if not every_option:
        return TableRules(
            ante=ante,
            bring_in=bring_in,
            small_bet=small,
            big_bet=big,
            structure=structure,
            timeout_policy=TimeoutPolicy.CHECK_OR_FOLD,
        )
    return TableRules(
        ante=ante,
        bring_in=bring_in,
        small_bet=small,
        big_bet=rng.choice((small, big, 3 * small)),
        game=rng.choices(list(Game), weights=(4, 1, 1))[0],
        open_pair_big_bet=rng.random() < 0.7,
        structure=structure,
        big_bet_street=rng.choice((4, 5, 6, 7)),
        raise_cap=rng.choice((3, None, 1, 4)),
        heads_up_cap=rng.choice(list(HeadsUpCap)),
        all_in_low_card=rng.choice(list(AllInLowCard)),
        first_to_act_tie=rng.choice(list(FirstToActTie)),
        community_card_first_to_act=rng.choice(list(CommunityCardFirstToAct)),
        show_order_no_bet=rng.choice(list(ShowOrderNoBet)),
        odd_chip=rng.choice(list(OddChip)),
        odd_chip_half=rng.choice(list(OddChipHalf)),
        rake_percent=Fraction(rng.randrange(0, 21), 2),
        rake_cap=rng.choice((None, 0, 3, 50)),
        rake_third_street=rng.random() < 0.5,
        timeout_policy=rng.choice(list(TimeoutPolicy)),
        action_seconds=rng.choice((10, 15)),
        max_seats=8,
    )


def random_hand(
    rng: random.Random,
    rules: TableRules,
    *,
    timeouts: float = 0.0,
    cancels: float = 0.0,
) -> Hand:
    """A seeded random hand played to its end (or cancelled)."""
    n = rng.choice((2, 2, 3, 4, 5, 6, 7, 8, 8))
    seats = sorted(rng.sample(range(1, rules.max_seats + 1), min(n, rules.max_seats)))
    forced = rules.ante + rules.bring_in
    stacks = {
        s: rng.choice(
            (
                rng.randint(1, forced + 1),
                rng.randint(1, rules.ante + 3 * rules.small_bet + 1),
                rng.randint(1, rules.ante + 8 * rules.big_bet),
                rng.randint(20 * rules.big_bet, 60 * rules.big_bet),
            )
        )
        for s in seats
    }
    hand = Hand.start(
        rules=rules, stacks=stacks, deck=Deck.shuffled(rng), hand_id=str(rng.randrange(10**11))
    )
    fold_p = rng.choice((0.0, 0.05, 0.15, 0.3))
    while not hand.is_over:
        if rng.random() < cancels:
            hand.cancel("the server failed")
            break
        if rng.random() < timeouts:
            hand.time_out()
            continue
        legal = hand.legal_actions()
        others = [a for a in legal if a.kind is not ActionKind.FOLD]
        if not others or (len(others) < len(legal) and rng.random() < fold_p):
            hand.apply(Fold())
            continue
        choice = rng.choice(others)
        if choice.kind in SIZED:
            assert choice.min_to is not None and choice.max_to is not None
            if rules.structure is BettingStructure.FIXED_LIMIT:  # one amount, or two (open pair)
                to = rng.choice((choice.min_to, choice.max_to))
            else:
                to = rng.randint(choice.min_to, choice.max_to)
            hand.apply(choice.action(to))
        else:
            hand.apply(choice.action())
    return hand


def record_of(hand: Hand, rng: random.Random | None = None, currency: str = "") -> HandRecord:
    names = {s: f"player {s}" for s in hand.seats}
    if rng is None:
        return HandRecord.from_hand(hand, names=names, table="Dawn II", currency=currency)
    start = datetime(2024, 3, 1, 12, 0, 0, 123456, tzinfo=timezone(timedelta(hours=-5)))
    times = [start + timedelta(seconds=i, microseconds=rng.randrange(10**6)) for i in range(20)]
    return HandRecord.from_hand(
        hand,
        names=names,
        table="Dawn II",
        started_at=start,
        times=[t if rng.random() < 0.8 else None for t in times][: len(hand.events)],
        currency=currency,
    )


def _floats(value: Any) -> list[Any]:
    if isinstance(value, float):
        return [value]
    if isinstance(value, dict):
        return [f for v in value.values() for f in _floats(v)]
    if isinstance(value, list):
        return [f for v in value for f in _floats(v)]
    return []


RECORDS = [
    record_of(
        random_hand(
            rng := random.Random(seed),
            random_rules(rng, every_option=True),
            timeouts=0.04 if seed % 3 == 0 else 0.0,
            cancels=0.01 if seed % 7 == 0 else 0.0,
        ),
        rng if seed % 2 else None,
        "USD" if seed % 5 == 0 else "",
    )
    for seed in range(400)
]


def test_the_sample_has_every_kind_of_event_and_hand() -> None:
    kinds = {type(e) for r in RECORDS for e in r.events}
    every = {
        cls
        for cls in vars(ev).values()
        if isinstance(cls, type) and issubclass(cls, ev.Event) and cls is not ev.Event
    }
    assert kinds == every
    assert any(r.cancelled for r in RECORDS)
    assert any(r.rake for r in RECORDS)
    assert any(len(r.pots) > 1 for r in RECORDS)
    assert any(d[1] is None for r in RECORDS for d in r.decisions)
    assert {
        r.rules.game for r in RECORDS if any(isinstance(e, ev.HandShown) for e in r.events)
    } == set(Game)


def test_dumps_loads_is_lossless() -> None:
    for r in RECORDS:
        line = r.dumps()
        assert "\n" not in line
        assert HandRecord.loads(line) == r


def test_money_is_integers_only() -> None:
    for r in RECORDS[:100]:
        assert _floats(json.loads(r.dumps())) == []


def test_replay_reproduces_every_recorded_hand() -> None:
    for r in RECORDS:
        hand = HandRecord.loads(r.dumps()).replay()
        assert tuple(hand.events) == r.events
        if hand.result is not None:
            assert hand.result.stacks == dict(r.final_stacks)


def test_the_record_holds_the_table_and_the_result() -> None:
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, rake_percent=Fraction(5))
    hand = Hand.start(rules=rules, stacks={2: 50, 5: 80}, deck=Deck.seeded(4), hand_id="h1")
    while not hand.is_over:
        kinds = {a.kind for a in hand.legal_actions()}
        hand.apply(BringIn() if ActionKind.BRING_IN in kinds else hand.legal_actions()[-1].action())
    t0 = datetime(2024, 5, 6, 7, 8, 9, tzinfo=UTC)
    r = HandRecord.from_hand(
        hand, names={2: "ann", 5: "bob"}, table="T", started_at=t0, times=[t0], currency="USD"
    )
    assert r.seats == (SeatRecord(2, "ann", 50), SeatRecord(5, "bob", 80))
    assert r.rules == rules and r.deck == Deck.seeded(4) and r.hand_id == "h1"
    assert r.times[0] == t0 and r.times[1:] == (None,) * (len(r.events) - 1)
    assert hand.result is not None
    assert r.pots == hand.result.pots and r.rake == hand.result.rake
    assert dict(r.final_stacks) == hand.result.stacks
    assert sum(s.stack for s in r.seats) == sum(c for _, c in r.final_stacks) + r.rake
    assert r.decisions[0] == (hand.decisions[0][0], BringIn())
    assert len(r.decisions) == len(hand.decisions)


def test_files_of_records(tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    assert write_file(path, RECORDS[:30]) == 30
    assert write_file(path, RECORDS[30:40], append=True) == 10
    assert read_file(path) == RECORDS[:40]


def test_a_corrupt_line_names_the_file_and_the_line(tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    lines = [r.dumps() for r in RECORDS[:4]]
    lines[2] = lines[2][:-40]  # truncated
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(HandHistoryError) as info:
        read_file(path)
    assert info.value.file == str(path) and info.value.line == 3
    assert f"{path}:3: not JSON" in str(info.value)
    assert isinstance(info.value, Stud8Error) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda o: o.update(v=2), "unknown record version 2"),
        (lambda o: o.pop("deck"), "no 'deck'"),
        (lambda o: o["events"].append({"k": "nonsense"}), "unknown event kind 'nonsense'"),
        (lambda o: o.update(rake=1.5), "rake must be a whole number"),
        (lambda o: o["rules"].update(ante=-1), "ante must be an integer of 0 or more"),
        (lambda o: o["events"][0].update(seat="1"), "must be a whole number"),
        (lambda o: o.update(deck="As Kd"), "a deck holds each of the 52 cards once"),
        (lambda o: o["seats"].append([9, "x"]), "a seat is [seat, name, stack]"),
    ],
)
def test_an_invalid_record_says_what_is_wrong(change: Any, message: str) -> None:
    obj = RECORDS[1].to_json()
    change(obj)
    with pytest.raises(HandHistoryError, match=message.replace("[", r"\[").replace("]", r"\]")):
        HandRecord.loads(json.dumps(obj))


def test_replay_catches_a_record_that_does_not_match_its_events() -> None:
    r = next(r for r in RECORDS if r.awards and not r.cancelled)
    obj = r.to_json()
    award = next(e for e in obj["events"] if e["k"] == "award")
    award["amount"] += 1
    tampered = HandRecord.loads(json.dumps(obj))
    with pytest.raises(HandHistoryError, match="differs"):
        tampered.replay()


def test_only_a_finished_hand_makes_a_record() -> None:
    hand = Hand.start(
        rules=TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8),
        stacks={1: 10, 2: 10},
        deck=Deck.seeded(1),
    )
    with pytest.raises(HandHistoryError, match="finished hand"):
        HandRecord.from_hand(hand)
