"""Other sites' Stud Hi/Lo structures we have no real sample of (tournaments, another
game name, UTF-16/CRLF/cp1252): built from fpdb's header patterns on the real cash
hands (tests/data/hh/fpdb-regex-samples/README.md), read and verified like the real
ones, converted to PokerStars text as tournament hands that fpdb imports."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud8.cli import main
from stud8.formats.pokerstars import PokerStarsHand
from stud8.formats.registry import Status
from stud8.formats.sites import detect
from stud8.formats.sites._text import decode
from stud8.terminal.hh import check_file
from trackercheck import fpdb_check

DATA = Path(__file__).resolve().parents[1] / "data" / "hh" / "fpdb-regex-samples"
# file: (site, tournament id as read, chips: small bet/big bet, the bytes it starts with)
SAMPLES = {
    "fulltilt_tournament_sit-and-go.txt": ("fulltilt", "212345678", (200, 400), b"Full Tilt"),
    "ongame_tournament_chips.txt": ("ongame", "T-1234567", (25, 50), b"*****"),
    "winamax_tournament_7stud8_utf16.txt": (
        "winamax",
        "Stud Hi/Lo Sunday",
        (2500, 5000),
        b"\xff\xfe",
    ),
    "absolute_tournament.txt": ("absolute", "7654321", (2, 4), b"Stage #"),
    "bovada_tournament_crlf.txt": ("bovada", "8765432", (25, 50), b"Bovada"),
}


def test_every_sample_is_listed_and_the_readme_says_they_are_built() -> None:
    assert {p.name for p in DATA.glob("*.txt")} == set(SAMPLES)
    readme = (DATA / "README.md").read_text()
    assert "not real hands" in readme and all(name in readme for name in SAMPLES)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_structure_reads_as_a_tournament_hand_and_verifies(name: str) -> None:
    site_name, tournament, (small, big), start = SAMPLES[name]
    data = (DATA / name).read_bytes()
    assert data.startswith(start)
    text = decode(data)
    site = detect(text)
    assert site is not None and site.name == site_name
    (hand,) = site.read(text, name)
    assert isinstance(hand, PokerStarsHand), hand
    assert hand.tournament == tournament
    assert (hand.small_bet, hand.big_bet, hand.currency) == (small, big, "")
    assert [c.status for c in check_file(DATA / name)] == [Status.REPRODUCED]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_hh_verify_and_convert_them_as_the_command_does(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["hh", "verify", str(DATA / name)]) == 0
    assert "reproduced: 1  mismatched: 0" in capsys.readouterr().out
    assert main(["hh", "convert", str(DATA / name), "--to", "pokerstars", "--all-cards"]) == 0
    text = capsys.readouterr().out
    assert ": Tournament #" in text.split("\n", 1)[0]
    again = tmp_path / "again.txt"
    again.write_text(text)
    assert main(["hh", "verify", str(again)]) == 0


def test_fpdb_imports_them_written_as_pokerstars_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    texts = []
    # Absolute's names no table: it is written as the table "Hand N" (N the hand's number).
    for name in sorted(SAMPLES):
        assert main(["hh", "convert", str(DATA / name), "--to", "pokerstars", "--all-cards"]) == 0
        texts.append(capsys.readouterr().out.strip())
    path = tmp_path / "tournaments.txt"
    path.write_text("\n\n\n".join(texts) + "\n")
    report = fpdb_check([path])
    assert f"{path.name}: 5 hands, fpdb accepted 5" in report, report
