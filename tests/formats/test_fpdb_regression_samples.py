"""Real hand histories from fpdb's regression-test files (../shared/hh/fpdb-regression/,
see its SOURCES.md): every Stud Hi/Lo hand verifies, a file's other games (Stud high,
Hold'em in a mixed-game file) are skipped cleanly, ``hh verify`` and ``hh convert``
take them as a user runs them. (fpdb importing them converted to PokerStars text:
tests/formats/test_sites_pokerstars.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from sharedhh import FPDB_REGRESSION, NEEDED
from stud8.cli import main
from stud8.formats.pokerstars import PokerStarsHand, Skipped
from stud8.formats.pokerstars.read import parse_text
from stud8.formats.registry import Status
from stud8.terminal.hh import check_file, load_records

pytestmark = NEEDED
DATA = FPDB_REGRESSION

# file: (site as hh verify names it, hands, reproduced, skipped)
EXPECTED = {
    "bovada_stud8_7-StudHL-USD-RING-5-10-1.25Ante-201404.txt": ("bovada", 1, 1, 0),
    "merge_stud8_HORSE-8max-USD-0.25-0.50-201409.new.format.txt": ("merge", 3, 3, 0),
    # 18 Stud Hi/Lo hands, the 7 Card Stud hand before them (verified too: stud8 plays
    # Seven Card Stud) and a Hold'em hand after them (skipped)
    "pokerstars_stud8_8-Game-2max-STT-play-100-201306.homeGame.shootout.stud8-level.txt": (
        "pokerstars",
        20,
        19,
        1,
    ),
    # Seven Card Stud high, read and verified like the rest of the family (the Bovada
    # tournament hand is of the older form: no street lines, `Big blind/Bring in`, `Call`)
    "bovada_stud_7-Stud-USD-MTT-10-1-201206.first.hand.txt": ("bovada", 1, 1, 0),
    "fulltilt_stud_7-StudHL-USD-2-4-201006.Steal.examples.first.hand.txt": ("fulltilt", 1, 1, 0),
}


def test_every_file_is_listed_here_and_in_sources() -> None:
    files = {p.name for p in DATA.iterdir() if p.name != "SOURCES.md"}
    assert files == set(EXPECTED)
    sources = (DATA / "SOURCES.md").read_text()
    assert all(name in sources for name in EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hh_verify_each_file(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    site, hands, reproduced, skipped = EXPECTED[name]
    checks = list(check_file(DATA / name))
    assert len(checks) == hands
    assert sum(c.status is Status.REPRODUCED for c in checks) == reproduced
    assert sum(c.status is Status.SKIPPED for c in checks) == skipped
    assert main(["hh", "verify", str(DATA / name)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == (
        f"files: 1  hands: {hands}  reproduced: {reproduced}  mismatched: 0  "
        f"skipped: {skipped}  unreadable: 0"
    )
    assert main(["hh", "verify", "--json", str(DATA / name)]) == 0
    assert f'"{site}"' in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if e[2]))
def test_hh_convert_each_file_to_pokerstars_text_that_verifies_again(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["hh", "convert", str(DATA / name), "--to", "pokerstars", "--all-cards"]) == 0
    text = capsys.readouterr().out
    hands = [h for h in parse_text(text) if isinstance(h, PokerStarsHand)]
    assert len(hands) == EXPECTED[name][2]
    again = tmp_path / "again.txt"
    again.write_text(text)
    assert main(["hh", "verify", str(again)]) == 0
    out = capsys.readouterr().out
    assert f"reproduced: {EXPECTED[name][2]}  mismatched: 0" in out


def test_bovada_completion_written_as_a_raise_and_the_unwritten_rake() -> None:
    (record,) = load_records(DATA / "bovada_stud8_7-StudHL-USD-RING-5-10-1.25Ante-201404.txt")
    assert not isinstance(record, Exception)
    assert (record.rules.ante, record.rules.bring_in) == (125, 250)
    assert (record.rules.small_bet, record.rules.big_bet) == (500, 1000)
    assert record.rake == 300  # $150 in, $73.50 paid to each half
    assert sum(p.amount for p in record.pots) == 14700


def test_a_merge_cash_horse_hand_is_read_by_its_multigametype() -> None:
    path = DATA / "merge_stud8_HORSE-8max-USD-0.25-0.50-201409.new.format.txt"
    records = list(load_records(path))
    assert len(records) == 3
    for r in records:
        assert not isinstance(r, Exception)
        assert (r.mixed, r.currency, r.tournament) == ("HORSE", "USD", None)


def test_a_mixed_game_file_skips_its_other_games_by_name() -> None:
    from stud8.formats.pokerstars.read import read_file

    items = read_file(
        DATA / "pokerstars_stud8_8-Game-2max-STT-play-100-201306.homeGame.shootout.stud8-level.txt"
    )
    skipped = [i for i in items if isinstance(i, Skipped)]
    assert [s.hand_id for s in skipped] == ["99632692350"]
    assert "Hold'em No Limit" in skipped[0].reason
    hands = [i for i in items if isinstance(i, PokerStarsHand)]
    assert all(h.tournament == "743144019" for h in hands)
    assert sum("Hi/Lo" in h.game for h in hands) == 18


@pytest.mark.parametrize("other", ["1", "35", "4"])  # hold'em, Omaha Hi/Lo, Omaha
def test_a_merge_horse_table_skips_its_other_games(other: str) -> None:
    """The same HORSE cash table dealing another game of the mix (its multigametype
    changed, fpdb's numbers): each hand is skipped with the game named, none read."""
    from stud8.formats.sites import decode, detect

    path = DATA / "merge_stud8_HORSE-8max-USD-0.25-0.50-201409.new.format.txt"
    text = decode(path.read_bytes()).replace('multigametype="43"', f'multigametype="{other}"')
    site = detect(text)
    assert site is not None and site.name == "merge"
    items = site.read(text, "horse.xml")
    assert len(items) == 3
    assert all(isinstance(i, Skipped) for i in items)
    assert all(f"gametype {other}" in i.reason for i in items if isinstance(i, Skipped))


@pytest.mark.parametrize(
    ("other", "game"),
    [("38", "7 Card Stud"), ("41", "7 Card Stud"), ("46", "Razz"), ("49", "Razz")],
)
def test_a_merge_horse_table_reads_its_stud_and_razz_hands(other: str, game: str) -> None:
    """The Stud and Razz rounds of a HORSE table (fpdb's multigametype numbers) are
    read as that game, with the same seats, antes and actions."""
    from stud8.formats.sites import decode, detect

    path = DATA / "merge_stud8_HORSE-8max-USD-0.25-0.50-201409.new.format.txt"
    text = decode(path.read_bytes()).replace('multigametype="43"', f'multigametype="{other}"')
    site = detect(text)
    assert site is not None
    items = site.read(text, "horse.xml")
    base = site.read(decode(path.read_bytes()), "horse.xml")
    assert len(items) == len(base) == 3
    for hand, hi_lo in zip(items, base, strict=True):
        assert isinstance(hand, PokerStarsHand) and isinstance(hi_lo, PokerStarsHand)
        assert (hand.game, hi_lo.game) == (game, "7 Card Stud Hi/Lo")
        assert hand.actions == hi_lo.actions and hand.antes == hi_lo.antes


def test_a_home_game_tournament_stays_a_tournament_when_written_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    name = "pokerstars_stud8_8-Game-2max-STT-play-100-201306.homeGame.shootout.stud8-level.txt"
    assert main(["hh", "convert", str(DATA / name), "--to", "pokerstars", "--all-cards"]) == 0
    heads = [line for line in capsys.readouterr().out.splitlines() if line.startswith("PokerStars")]
    assert len(heads) == 19
    assert all(": Tournament #743144019, 100+9 8-Game (" in h for h in heads), heads[0]
    assert (
        sum("(7 Card Stud Hi/Lo Limit) - Level VI (40/80) - 2013/06/06" in h for h in heads) == 18
    )
