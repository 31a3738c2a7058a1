"""Voluntary shows: the winner of an uncontested pot shows his cards, or a player
who mucked shows them afterwards. Read, replayed and written in PokerStars text
and in PHH, through every conversion, and fpdb imports them."""

from __future__ import annotations

from pathlib import Path

import pytest

from sharedhh import NEEDED, STARS_BIG, STARS_CASH
from stud8.core.cards import parse_cards
from stud8.formats.phh import read_phh
from stud8.formats.phh.verify import record_of_phh, verify_phh
from stud8.formats.pokerstars import PokerStarsHand
from stud8.formats.pokerstars.read import parse_text
from stud8.formats.pokerstars.record import record_of_pokerstars
from stud8.formats.pokerstars.write import to_pokerstars
from stud8.formats.record import HandRecord, VoluntaryShow
from stud8.formats.registry import View, writers
from stud8.formats.verify import verify_pokerstars
from trackercheck import fpdb_check

RAKED = STARS_BIG
CASH = STARS_CASH


def _one(text: str) -> PokerStarsHand:
    (hand,) = parse_text(text)
    assert isinstance(hand, PokerStarsHand), str(hand)
    return hand


def _uncontested_show(shown: str) -> str:
    """The real $400/$800 hand, where Hero wins uncontested on 5th street, with
    Hero showing instead of not showing."""
    text = RAKED.read_bytes().decode("utf-8").replace("\r\n", "\n")
    assert "Hero: doesn't show hand" in text
    return text.replace("Hero: doesn't show hand", f"Hero: shows [{shown}]")


@NEEDED
@pytest.mark.parametrize(
    "shown", ["7s 7c Ah Jh Jd", "7s 7c", "Jd"], ids=["all", "down cards", "one"]
)
def test_the_winner_of_an_uncontested_pot_shows(shown: str) -> None:
    hand = _one(_uncontested_show(shown))
    verdict = verify_pokerstars(hand)
    assert verdict.reproduced, verdict
    record = record_of_pokerstars(hand)
    assert record.shows == (VoluntaryShow(1, parse_cards(shown)),)
    assert HandRecord.loads(record.dumps()) == record
    record.replay()
    # written again: the show where it was, for every view (the cards are public)
    for view in ({"seat": 1}, {"seat": 3}, {"everything": True}, {}):
        text = to_pokerstars(record, **view)
        assert f"Hero: shows [{shown}]" in text and "doesn't show hand" not in text
        again = record_of_pokerstars(_one(text))
        assert again.shows == record.shows
    # and in PHH: pN sm after the end, the cards not shown unknown
    phh = writers()["phh"].write(record, View(everything=True))
    line = next(a for a in phh.splitlines() if " sm " in a)
    assert line.strip().startswith('"p1 sm') and line.count("??") == 5 - len(shown.split())
    read = read_phh(phh)
    assert verify_phh(read).reproduced
    assert record_of_phh(read).shows == record.shows


@NEEDED
def test_a_show_of_cards_he_was_not_dealt_is_refused() -> None:
    verdict = verify_pokerstars(_one(_uncontested_show("7s 7c Ah Jh Qd")))
    assert not verdict.reproduced and "Qd" in verdict.problems[0]
    with pytest.raises(ValueError, match="not the cards he was dealt"):
        record = record_of_pokerstars(_one(_uncontested_show("7s 7c")))
        HandRecord.loads(
            record.dumps().replace('"shows":[[1,"7s 7c"]]', '"shows":[[1,"Qd"]]')
        ).replay()


@NEEDED
def test_a_muck_shown_afterwards_concedes_and_is_kept() -> None:
    """123smoothie mucks at the showdown and shows his hand afterwards: he still
    concedes (the pot is paid as if he had not shown), and the show is kept."""
    first = CASH.read_bytes().decode("utf-8").split("\n\n\n\n")[1]
    assert "123smoothie: mucks hand" in first
    cards = "9c Jc 9h Ah 5d 4c Qc"
    text = first.replace(
        "No low hand qualified", f"No low hand qualified\n123smoothie: shows [{cards}]"
    )
    hand = _one(text)
    assert verify_pokerstars(hand).reproduced
    record = record_of_pokerstars(hand)
    assert record.shows == (VoluntaryShow(2, parse_cards(cards)),)
    out = to_pokerstars(record, seat=5)
    assert "123smoothie: mucks hand" in out and f"123smoothie: shows [{cards}]" in out
    assert f"Seat 2: 123smoothie mucked [{cards}]" in out
    assert record_of_pokerstars(_one(out)).shows == record.shows


@NEEDED
def test_fpdb_imports_hands_with_voluntary_shows(tmp_path: Path) -> None:
    texts = []
    for shown in ("7s 7c Ah Jh Jd", "7s 7c"):
        record = record_of_pokerstars(_one(_uncontested_show(shown)))
        texts.append(to_pokerstars(record, seat=1))
    path = tmp_path / "shows.txt"
    path.write_text("\n\n\n".join(texts), encoding="utf-8")
    fpdb_check([path])
