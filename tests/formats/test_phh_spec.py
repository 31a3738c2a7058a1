"""PHH by the specification (phh-std): PokerKit's own Stud Hi/Lo files verify,
optional fields are optional, unknown stacks (``inf``) and unknown cards (``??``,
partly shown hands) are read, unknown up cards leave the bring-in to the record,
and raked hands are written so that PokerKit's replay, given the rake the
finishing stacks imply, ends at our stacks."""

from __future__ import annotations

import random
import re
import warnings
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from pokerkit import HandHistory
from test_phh import play_random_hand, pokerkit_mask

from sharedhh import NEEDED, POKERKIT_PHH, files_in
from stud8.core import Hand
from stud8.core.pots import build_pots
from stud8.formats.phh import PhhError, hand_to_phh, read_phh, read_phh_file
from stud8.formats.phh.verify import verify_phh

DATA = Path(__file__).resolve().parents[1] / "data" / "phh"
POKERKIT_FILES = files_in(POKERKIT_PHH, "pokerkit_wsop_*.phh")


def _verdict(text: str) -> str:
    verdict = verify_phh(read_phh(text))
    return f"{verdict.status}: {verdict.detail}"


@NEEDED
def test_pokerkits_own_stud_hi_lo_files_verify() -> None:
    """PokerKit's WSOP hands: no finishing stacks, unknown down and up cards."""
    assert len(POKERKIT_FILES) == 4
    for path in POKERKIT_FILES:
        (hand,) = read_phh_file(path.read_text(encoding="utf-8"), source=path.name)
        assert not isinstance(hand, Exception), hand
        assert hand.finishing_stacks is None and hand.winnings is None
        verdict = verify_phh(hand)
        assert verdict.reproduced, verdict
        assert verdict.hand is not None and verdict.hand.is_over


@NEEDED
def test_an_unknown_up_card_leaves_the_bring_in_to_the_record() -> None:
    """In hand 53 p5's cards are all unknown: the first filling makes his up card
    the lowest, but the record says p4 brings in, and the known cards allow it."""
    text = (POKERKIT_PHH / "pokerkit_wsop_2023_43_5_53.phh").read_text(encoding="utf-8")
    hand = verify_phh(read_phh(text)).hand
    assert hand is not None and hand.decisions[0] == (4, hand.decisions[0][1])
    # known cards that forbid it: p2's known up card 2c is lower than p4's 4c
    bad = text.replace("'d dh p2 6s'", "'d dh p2 2d'")
    assert _verdict(bad).startswith("mismatched: line 8: p4 (seat 4) acts (p4 pb)")


BASE = """variant = "F7S/8"
antes = [1, 1]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = STACKS
actions = ["d dh p1 AsKs2c", "d dh p2 QhQd9h", "p1 pb", "p2 cbr 2", "p1 f"ACTIONS]
"""


def _hand(stacks: str = "[50, 50]", actions: str = "", extra: str = "") -> str:
    return BASE.replace("STACKS", stacks).replace("ACTIONS", actions) + extra


def test_optional_fields_are_optional() -> None:
    assert _verdict(_hand()) == "reproduced: "
    assert _verdict(_hand(extra="finishing_stacks = [48, 52]\n")) == "reproduced: "
    assert _verdict(_hand(extra="winnings = [0, 4]\n")) == "reproduced: "
    assert _verdict(_hand(extra="finishing_stacks = [48, 53]\n")).startswith(
        "mismatched: p2 (seat 2) finishing stack 53, stud8 52 (1 less)"
    )


def test_unknown_stacks_are_inf() -> None:
    assert _verdict(_hand("[inf, 50]", extra="finishing_stacks = [inf, 52]\n")) == "reproduced: "
    assert _verdict(_hand("[50, inf]", extra="finishing_stacks = [48, inf]\n")) == "reproduced: "
    assert _verdict(_hand("[inf, inf]")) == "reproduced: "
    assert _verdict(_hand("[inf, 50]", extra="finishing_stacks = [inf, 51]\n")).startswith(
        "mismatched: p2"
    )
    with pytest.raises(ValueError, match="antes must be a list of numbers"):
        read_phh(_hand().replace("antes = [1, 1]", "antes = [inf, 1]"))


def test_a_voluntary_show_and_a_partly_shown_hand_are_read() -> None:
    """The winner of an uncontested pot shows (all his cards, or some: ``??``);
    nothing else changes."""
    for shown in ("QhQd9h", "??Qd9h", "Qh????"):
        assert _verdict(_hand(actions=f', "p2 sm {shown}"')) == "reproduced: "
    # cards he was not dealt: the file contradicts itself
    with pytest.raises(PhhError, match="p2 shows Qc, dealt Qd"):
        _verdict(_hand(actions=', "p2 sm QhQc9h"'))


def _pokerkit_stacks(text: str, hand: Hand) -> list[int] | None:
    """PokerKit's replay of our PHH, raked as the file says: the specification
    keeps the rake in the finishing stacks and winnings (after it), so the chips
    missing from the finishing stacks are the rake, taken from the main pot first.
    PokerKit asks its rake function for each pot by its amount (and may ask more
    than once): the function maps each pot's amount to its rake (None when two
    pots of one amount would be raked differently)."""
    fields = dict(re.findall(r"^(starting_stacks|finishing_stacks) = \[(.*)\]$", text, re.M))
    start, finish = (list(map(int, fields[k].split(", "))) for k in fields)
    total = sum(start) - sum(finish)
    pots = build_pots({s: hand.contributed(s) for s in hand.seats}, frozenset(hand.live_seats()))
    seen: list[int] = []

    def probe(amount: int, state: object = None) -> tuple[int, int]:
        seen.append(amount)
        return 0, amount

    _replayed(text, probe)
    if seen[-len(pots) :] != [p.amount for p in pots]:
        # PokerKit built other pots (a level for a folded player's chips too,
        # merged again at the end): the rake of one of them cannot be told from
        # its amount. Those hands are checked by stud8's reader only.
        return None
    raked: dict[int, int] = {}
    left = total
    for pot in pots:
        taken = min(left, pot.amount)
        left -= taken
        if raked.setdefault(pot.amount, taken) != taken:
            return None

    def rake(amount: int, state: object = None) -> tuple[int, int]:
        taken = raked.get(amount, 0)
        return taken, amount - taken

    return _replayed(text, rake)


def _replayed(text: str, rake: Callable[[int, object], tuple[int, int]]) -> list[int]:
    history = HandHistory.loads(text, rake=rake)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, state = history
    assert not state.status
    return list(state.stacks)


def test_raked_hands_replay_in_pokerkit_to_our_stacks() -> None:
    rng = random.Random(18)
    compared = raked = skipped = 0
    seed = 0
    while compared < 150:
        seed += 1
        base = play_random_hand(18_000 + seed, for_pokerkit=True)
        rules = replace(
            base.rules,
            rake_percent=Fraction(rng.choice((5, 10, 25))),
            rake_cap=rng.choice((None, 1, 3, 50)),
            rake_third_street=rng.random() < 0.5,
        )
        hand = Hand.replay(replace(base.setup, rules=rules), base.decisions)
        if pokerkit_mask(hand):
            continue
        assert hand.result is not None
        text = hand_to_phh(hand)
        ours = [hand.result.stacks[s] for s in hand.seats]
        theirs = _pokerkit_stacks(text, hand)
        if theirs is None:
            skipped += 1
            assert verify_phh(read_phh(text)).reproduced
            continue
        assert theirs == ours, f"seed {18_000 + seed}:\n{text}"
        # read back by stud8, with or without stud8's own rake options
        assert verify_phh(read_phh(text)).reproduced
        plain = re.sub(r"^_stud8_rules = .*\n", "", text, flags=re.M)
        verdict = verify_phh(read_phh(plain))
        assert verdict.reproduced, verdict
        if hand.result.rake:
            assert (
                verdict.detail
                == f"a rake of {hand.result.rake} (the finishing stacks are after it)"
            )
            raked += 1
        compared += 1
    assert raked > 50 and skipped < compared, (raked, skipped)


def _stars_header(phh_text: str) -> str:
    from stud8.formats.phh.verify import record_of_phh
    from stud8.formats.pokerstars.write import to_pokerstars

    record = record_of_phh(read_phh(phh_text))
    return to_pokerstars(record, everything=True).split("\n", 1)[0]


def test_the_date_a_phh_gives_is_the_date_written_in_pokerstars_text() -> None:
    """year, month, day, time and time_zone (phh-std's optional fields) become the
    hand's start: no 1970/01/01 header when the file says when it was played."""
    base = (DATA / "folds_on_third_street.phh").read_text(encoding="utf-8")
    assert "1970/01/01" in _stars_header(base)  # a file that gives no date
    dated = "year = 2023\nmonth = 6\nday = 22\n" + base
    assert _stars_header(dated).endswith(" - 2023/06/22 0:00:00 ET")
    timed = 'time = 12:30:00\ntime_zone = "Europe/London"\n' + dated
    assert _stars_header(timed).endswith(" - 2023/06/22 7:30:00 ET")  # BST is ET + 5
    # a date that is no date is not a reason to refuse the hand
    assert "1970/01/01" in _stars_header("year = 2023\nmonth = 13\nday = 40\n" + base)


@NEEDED
def test_pokerkits_own_files_keep_their_date() -> None:
    text = (POKERKIT_PHH / "pokerkit_wsop_2023_43_5_50.phh").read_text(encoding="utf-8")
    assert "day = 22" in text and "month = 6" in text and "year = 2023" in text
    assert " - 2023/06/22 " in _stars_header(text)


def test_a_fixed_limit_raise_capped_at_what_the_opponent_can_call_is_the_full_raise() -> None:
    """PokerKit's older versions write a raise facing a short stack as ``cbr`` to what
    the opponent can call (9 here, he has 9 behind the ante), not the full raise (12):
    stud8 reads the full raise with the 3 nobody calls returned; the stacks agree."""
    from stud8.core import ActionKind, Deck, TableRules

    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
    hand = Hand.start(rules=rules, stacks={1: 100, 2: 10}, deck=Deck.seeded(0))
    for kind, to in ((ActionKind.COMPLETE, 4), (ActionKind.RAISE, 8), (ActionKind.RAISE, 12)):
        hand.apply(next(a for a in hand.legal_actions() if a.kind is kind).action(to))
    while not hand.is_over:
        hand.apply(next(a for a in hand.legal_actions() if a.kind is ActionKind.CALL).action())
    text = hand_to_phh(hand)
    assert '"p1 cbr 12"' in text and '"p2 cc"' in text
    assert verify_phh(read_phh(text)).reproduced
    capped = text.replace('"p1 cbr 12"', '"p1 cbr 9"')
    verdict = verify_phh(read_phh(capped))
    assert verdict.reproduced, verdict
    # a raise short of the full one where the opponent could call more stays refused
    short = text.replace('"p1 cbr 12"', '"p1 cbr 10"')
    assert not verify_phh(read_phh(short)).reproduced
