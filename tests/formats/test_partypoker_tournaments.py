"""PartyPoker's tournament game lines, in each form it writes (our own samples,
tests/data/hh/partypoker/: written by stud8, not real hands; README.md there): each
hand is read with its tournament, level, buy-in, stakes and date, and replays
through the engine; the one whose limits nothing says is skipped, saying why."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud8.cli import main
from stud8.formats.pokerstars import PokerStarsHand, Skipped
from stud8.formats.sites import decode, detect, verify_hand

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "hh" / "partypoker"
FILE = SAMPLE / "partypoker_tournament_forms.txt"

# hand: (game, tournament, level, buy-in, small bet, big bet, date's start)
WANT = {
    "990000001": ("7 Card Stud Hi/Lo", "500123", "3", "$10", 100, 200, "2026/03/02 20:15:00 CET"),
    "990000002": ("7 Card Stud Hi/Lo", "600777", "1", "$1", 20, 40, "2026/03/01 19:32:00 CET"),
    "990000003": ("Razz", "700001", "1", "€3", 20, 40, "2026/02/27 21:00:00 CET"),
    "990000004": ("7 Card Stud Hi/Lo", "800002", "", "", 20, 40, ""),
}


def _items() -> list[PokerStarsHand | Skipped]:
    text = decode(FILE.read_bytes())
    site = detect(text)
    assert site is not None and site.name == "partypoker"
    items = site.read(text, str(FILE))
    kept = [i for i in items if isinstance(i, PokerStarsHand | Skipped)]
    assert len(kept) == len(items) == 5  # nothing unreadable
    return kept


@pytest.mark.parametrize("hand_id", sorted(WANT))
def test_each_form_of_the_game_line_is_read(hand_id: str) -> None:
    hand = next(h for h in _items() if isinstance(h, PokerStarsHand) and h.hand_id == hand_id)
    game, tournament, level, buy_in, small, big, date = WANT[hand_id]
    assert (hand.game, hand.tournament, hand.level, hand.buy_in) == (
        game,
        tournament,
        level,
        buy_in,
    )
    assert (hand.small_bet, hand.big_bet, hand.currency) == (small, big, "")
    assert hand.date.startswith(date)
    assert hand.notes == ()  # the body's Trny/Blinds-Antes lines are read, not kept
    site = detect(decode(FILE.read_bytes()))
    assert site is not None
    verdict = verify_hand(site, hand)
    assert verdict.reproduced, verdict.problems


def test_a_hand_whose_limits_nothing_says_is_skipped_saying_why() -> None:
    (skipped,) = [i for i in _items() if isinstance(i, Skipped)]
    assert skipped.hand_id == "990000005"
    assert skipped.reason == (
        "a PartyPoker tournament hand that names no stakes and has no completion nor bet: "
        "its limits cannot be known"
    )


def test_hh_verify_reads_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hh", "verify", str(FILE)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "files: 1  hands: 5  reproduced: 4  mismatched: 0  skipped: 1  unreadable: 0"
    )
