"""Everleaf Gaming's text hand histories (formats/sites/everleaf.py), read end to end
from our own samples (tests/data/hh/everleaf/: written by stud8 in the format's
shapes, not real hands; README.md there): the site is told, each hand read replays
through the engine to the file's own wins and totals, the record it makes verifies
again, an informational line is kept as a table line and a line of the play that
cannot be read is refused, naming it. (The replayer's upload of these files is tested
with the server, tests/server/http/test_replays.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from stud8.cli import main
from stud8.formats.pokerstars import PokerStarsHand, ReadError, Skipped
from stud8.formats.pokerstars.read import parse_text
from stud8.formats.record import HandRecord
from stud8.formats.registry import reader_for
from stud8.formats.site_readers import site_reader
from stud8.formats.sites import SITES, decode, detect, site_named, verify_hand

DATA = Path(__file__).resolve().parents[1] / "data" / "hh" / "everleaf"

# file: (game, hands read, reproduced, skipped)
EXPECTED = {
    "everleaf_stud8_new_format.txt": ("7 Card Stud Hi/Lo", 3, 2, 1),
    "everleaf_razz_old_format.txt": ("Razz", 2, 2, 0),
    "everleaf_stud_eur_side_pot.txt": ("7 Card Stud", 1, 1, 0),
}


def _text(name: str) -> str:
    return decode((DATA / name).read_bytes())


def _hands(text: str, name: str = "f") -> list[PokerStarsHand]:
    return [h for h in site_named("everleaf").read(text, name) if isinstance(h, PokerStarsHand)]


def test_every_sample_is_listed() -> None:
    assert {p.name for p in DATA.glob("*.txt")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_sample_is_everleaf_and_nobody_else_claims_it(name: str) -> None:
    text = _text(name)
    site = detect(text)
    assert site is not None and site.name == "everleaf"
    assert [s for s in SITES if site_named(s).detect(text[:4000])] == ["everleaf"]
    assert reader_for(text).name == "everleaf"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_hand_replays_through_the_engine_to_the_files_wins(name: str) -> None:
    game, read_n, reproduced, skipped = EXPECTED[name]
    site = site_named("everleaf")
    items = site.read(_text(name), name)
    assert len(items) == read_n
    hands = [h for h in items if isinstance(h, PokerStarsHand)]
    assert [str(v) for h in hands if not (v := verify_hand(site, h)).reproduced] == []
    assert len(hands) == reproduced and {h.game for h in hands} == {game}
    assert sum(isinstance(i, Skipped) for i in items) == skipped
    assert not any(isinstance(i, ReadError) for i in items)
    for hand in hands:  # the totals: every chip put in is won or raked
        assert sum(c.amount for c in hand.collected) + hand.rake == hand.total_pot


def test_the_side_pot_hand_reads_its_stakes_pots_rake_and_uncalled_bet() -> None:
    (hand,) = _hands(_text("everleaf_stud_eur_side_pot.txt"))
    assert (hand.currency, hand.small_bet, hand.big_bet) == ("EUR", 5, 10)
    assert (hand.total_pot, hand.rake, hand.pots) == (112, 4, (86, 22))
    assert [(hand.name(s), x) for s, x in hand.uncalled] == [("Ben", 10)]
    assert {(hand.name(c.seat), c.amount, c.pot) for c in hand.collected} == {
        ("Ben", 86, 0),
        ("Ben", 22, 1),
    }
    assert hand.name(hand.hero or 0) == "Ben"
    assert hand.date.startswith("2026/11/30 20:00:05 UTC")


def test_the_older_form_deals_nothing_in_the_open_and_the_up_cards_are_filled_in() -> None:
    site = site_named("everleaf")
    folded, contested = reversed(_hands(_text("everleaf_razz_old_format.txt")))
    assert contested.hero is None and contested.filled_in  # Player1's, who folded
    assert verify_hand(site, contested).reproduced
    assert verify_hand(site, folded).reproduced
    # the split of the hi/lo hand: Bruno's pair high, Hero's seven low, 4 cents raked
    split = _hands(_text("everleaf_stud8_new_format.txt"))[0]
    assert {split.name(c.seat): c.amount for c in split.collected} == {"Bruno": 52, "Hero": 52}
    assert split.rake == 4


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hh_verify_and_convert_take_the_samples(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, read_n, reproduced, skipped = EXPECTED[name]
    assert main(["hh", "verify", str(DATA / name)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"files: 1  hands: {read_n}  reproduced: {reproduced}  mismatched: 0  "
        f"skipped: {skipped}  unreadable: 0"
    )
    main(["hh", "convert", str(DATA / name), "--to", "json"])
    out = tmp_path / "hands.jsonl"
    out.write_text(capsys.readouterr().out)
    assert main(["hh", "verify", str(out)]) == 0
    main(["hh", "convert", str(DATA / name), "--to", "pokerstars", "--all-cards"])
    written = [h for h in parse_text(capsys.readouterr().out) if isinstance(h, PokerStarsHand)]
    assert len(written) == reproduced
    assert all(verify_hand(site_named("everleaf"), h).reproduced for h in written)


def test_informational_lines_are_table_lines_of_the_record() -> None:
    want = {
        "everleaf_stud8_new_format.txt": ["Alice is sitting out", 'Bruno said, "good luck all"'],
        "everleaf_razz_old_format.txt": ["The dealer reminds you: Razz is played for the low hand"],
        "everleaf_stud_eur_side_pot.txt": ["Dealer: Ana is all-in"],
    }
    for name, lines in want.items():
        text = _text(name)
        assert [n.text for h in _hands(text) for n in h.notes] == lines
        records = site_reader(site_named("everleaf")).records(text, name)
        kept = [t.text for r in records if isinstance(r, HandRecord) for t in r.table_lines]
        assert kept == lines


def test_a_line_of_the_play_that_cannot_be_read_is_refused_naming_it() -> None:
    text = _text("everleaf_stud8_new_format.txt")
    for bad in ("Hero raises [$ lots USD]", "Hero completes the hand", "Bruno wins the day"):
        lines = text.split("\n")
        at = lines.index("Bruno calls [$ 0.03 USD]")
        lines.insert(at + 1, bad)
        items = site_named("everleaf").read("\n".join(lines), "f")
        assert isinstance(items[0], ReadError), bad
        assert items[0].line == at + 2
        assert isinstance(items[1], PokerStarsHand)  # the other hands are still read


def test_a_cut_off_hand_says_where_it_stops() -> None:
    text = _text("everleaf_stud8_new_format.txt")
    cut = text[: text.index("** Dealing 5th Street **")]
    (error,) = site_named("everleaf").read(cut, "f")
    assert isinstance(error, ReadError)
    assert error.message == "the hand is truncated: it stops on 4th street"


def test_a_text_that_is_not_everleaf_is_not_read_as_it() -> None:
    assert not site_named("everleaf").detect("Everleaf is a forest\nGame #1")
    (error,) = site_named("everleaf").read("nothing here\n", "f")
    assert isinstance(error, ReadError) and error.message == "no Everleaf hand found"
