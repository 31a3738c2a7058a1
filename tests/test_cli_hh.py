"""`stud8 hh verify | convert | show`, run as the command runs them."""

from __future__ import annotations

from pathlib import Path

import pytest

from sharedhh import NEEDED, SHARED_HH, STARS_BIG, STARS_CASH, files_in
from stud8.cli import main
from stud8.terminal.hh import hands_file, sniff

REAL = files_in(SHARED_HH, "*.txt")
CASH = STARS_CASH
RAKED = STARS_BIG


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@NEEDED
def test_verify_every_real_hand_reproduces(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hh", "verify", *map(str, REAL))
    lines = out.splitlines()
    assert (
        lines[-1] == "files: 4  hands: 10  reproduced: 10  mismatched: 0  skipped: 0  unreadable: 0"
    )
    # a line per file: its site and its hands
    assert len(lines) == 5 and all("  PokerStars  hands: " in line for line in lines[:4])
    assert code == 0


@NEEDED
def test_verify_reports_a_changed_amount_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = CASH.read_bytes().decode("utf-8")
    assert "rdiezchang collected $0.12 from pot" in text
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace("collected $0.12 from pot", "collected $0.13 from pot", 1))
    code, out, _ = run(capsys, "hh", "verify", str(bad))
    lines = out.splitlines()
    assert (
        lines[-1] == "files: 1  hands: 7  reproduced: 6  mismatched: 1  skipped: 0  unreadable: 0"
    )
    assert len(lines) == 2 and "mismatched" in lines[0] and "$0.13" in lines[0]
    assert code == 1


@NEEDED
def test_verify_goes_on_after_a_corrupt_hand_and_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = CASH.read_bytes().decode("utf-8")
    # truncate the first hand in the middle of 4th street: the others still count
    first, rest = text.split("*** 4th STREET ***", 1)
    second_hand = rest[rest.index("PokerStars Game #") :]
    bad = tmp_path / "cut.txt"
    bad.write_text(first + "*** 4th STREET ***\n\n\n" + second_hand)
    code, out, _ = run(capsys, "hh", "verify", str(bad))
    lines = out.splitlines()
    assert (
        lines[-1] == "files: 1  hands: 7  reproduced: 6  mismatched: 0  skipped: 0  unreadable: 1"
    )
    assert lines[0].startswith(f"{bad}:")  # the file and the line where it breaks off
    assert "truncated" in lines[0] and ": unreadable: " in lines[0]
    assert code == 4  # a hand that cannot be read is not a hand that does not reproduce


@NEEDED
def test_verify_counts_a_hold_em_hand_as_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    holdem = (
        "PokerStars Hand #1: Hold'em No Limit ($0.01/$0.02 USD) - 2020/01/01 10:00:00 ET\n"
        "Table 'X' 6-max Seat #1 is the button\n"
        "Seat 1: a ($2 in chips)\nSeat 2: b ($2 in chips)\n"
        "a: posts small blind $0.01\nb: posts big blind $0.02\n*** HOLE CARDS ***\n"
        "a: folds\nUncalled bet ($0.01) returned to b\nb collected $0.02 from pot\n"
        "*** SUMMARY ***\nTotal pot $0.02 | Rake $0\n\n\n"
    )
    mixed = tmp_path / "mixed.txt"
    mixed.write_text(holdem + RAKED.read_bytes().decode("utf-8").replace("\r\n", "\n"))
    code, out, _ = run(capsys, "hh", "verify", str(mixed))
    assert out.splitlines()[-1] == (
        "files: 1  hands: 2  reproduced: 1  mismatched: 0  skipped: 1  unreadable: 0"
    )
    assert "skipped" in out.splitlines()[0]
    assert code == 0


@NEEDED
@pytest.mark.parametrize("to", ["json", "phh", "pokerstars"])
def test_convert_keeps_every_hand_verifiable(
    to: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "hh", "convert", str(CASH), "--to", to)
    assert code == 0, err
    converted = tmp_path / f"hands.{to}"
    converted.write_text(out)
    assert sniff(out) == to
    code, out, _ = run(capsys, "hh", "verify", str(converted))
    assert out == "files: 1  hands: 7  reproduced: 7  mismatched: 0  skipped: 0  unreadable: 0\n"
    assert code == 0


@NEEDED
def test_convert_keeps_the_sites_rake_and_hides_unknown_cards(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "hh", "convert", str(RAKED), "--to", "pokerstars")
    assert code == 0
    assert "Total pot $3320 | Rake $2" in out and "Hero collected $3318 from pot" in out
    code, out, _ = run(capsys, "hh", "convert", str(RAKED), "--to", "phh")
    assert code == 0
    # Player0's down cards are not in the file: they stay unknown
    assert '"d dh p2 ????Ts"' in out


def test_show_without_saved_hands_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STUD8_HOME", str(tmp_path))
    assert hands_file() == tmp_path / "hands.jsonl"
    code, out, err = run(capsys, "hh", "show")
    assert code == 1 and out == "" and "stud8 play" in err


@NEEDED
def test_show_prints_the_last_saved_hands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STUD8_HOME", str(tmp_path))
    code, out, _ = run(capsys, "hh", "convert", str(CASH), "--to", "json")
    hands_file().write_text(out)
    code, out, _ = run(capsys, "hh", "show", "--last", "3", "--seat", "5")
    assert code == 0
    assert out.count("*** SUMMARY ***") == 3
    assert "Dealt to Hero [" in out  # seat 5 is the file's hero


def test_a_file_of_no_known_format_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n")
    code, out, _ = run(capsys, "hh", "verify", str(junk))
    assert "cannot tell the format" in out
    assert out.splitlines()[-1] == (
        "files: 1 (1 cannot be read)  hands: 0  reproduced: 0  mismatched: 0  skipped: 0  "
        "unreadable: 0"
    )
    assert code == 4


def test_verify_reports_a_tampered_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Four stud8 records: one as written, one with a changed card, one with an altered
    # award, one with altered final stacks. Their decisions all replay; the three
    # whose stored events or results contradict the replay are reported as tampered.
    import json

    from stud8.core import Deck, Hand, TableRules
    from stud8.formats.record import HandRecord

    def record(n: int) -> dict[str, object]:
        rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
        hand = Hand.start(
            rules=rules, stacks={1: 60, 2: 60, 3: 60}, deck=Deck.seeded(n), hand_id=f"h{n}"
        )
        while not hand.is_over:
            hand.apply(hand.legal_actions()[1].action())  # check, call or bring in
        assert hand.result is not None and hand.result.showdown
        obj: dict[str, object] = HandRecord.from_hand(hand).to_json()
        return obj

    clean, card, award, stacks = (record(n) for n in range(4))
    deal = next(e for e in card["events"] if e["k"] == "deal")  # type: ignore[attr-defined]
    deal["card"] = "As" if deal["card"] != "As" else "Ks"
    won = next(e for e in award["events"] if e["k"] == "award")  # type: ignore[attr-defined]
    won["amount"] += 2
    stacks["final_stacks"][0][1] += 5  # type: ignore[index]
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in (clean, card, award, stacks)))
    code, out, _ = run(capsys, "hh", "verify", str(path))
    lines = out.splitlines()
    assert lines[-1] == (
        "files: 1  hands: 4  reproduced: 1  mismatched: 0  skipped: 0  unreadable: 0  tampered: 3"
    )
    told = [line for line in lines if "tampered" in line and "hand h" in line]
    assert all(line.count("hand h") == 1 for line in told), told  # the hand is named once
    assert [next(w for w in ("h1", "h2", "h3") if f"hand {w}" in line) for line in told] == [
        "h1",
        "h2",
        "h3",
    ]
    assert "differs" in told[0] and "pots, rake or stacks differ" in told[2]
    assert code == 1


def test_convert_to_phh_names_a_hand_phh_cannot_express_with_its_own_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A no-limit hand reproduces, but PHH's stud variants are fixed-limit: the hand
    is named, the others are written, and the exit is 8 (not 1: nothing departs)."""
    import json

    from stud8.core import BettingStructure, Deck, Hand, TableRules
    from stud8.formats.record import HandRecord

    def record(structure: BettingStructure, hand_id: str) -> str:
        rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, structure=structure)
        hand = Hand.start(
            rules=rules, stacks={1: 60, 2: 60, 3: 60}, deck=Deck.seeded(3), hand_id=hand_id
        )
        while not hand.is_over:
            hand.apply(hand.legal_actions()[1].action())  # check, call or bring in
        return json.dumps(HandRecord.from_hand(hand).to_json()) + "\n"

    path = tmp_path / "hands.jsonl"
    path.write_text(
        record(BettingStructure.FIXED_LIMIT, "fl")
        + record(BettingStructure.NO_LIMIT, "nl")
        + record(BettingStructure.POT_LIMIT, "pl")
    )
    assert run(capsys, "hh", "verify", str(path))[0] == 0  # every hand reproduces
    code, out, err = run(capsys, "hh", "convert", str(path), "--to", "phh")
    assert code == 8
    assert err.splitlines() == [
        "hand nl: cannot be written as phh: PHH's stud variants (F7S/8, F7S, FR) are "
        "fixed-limit; this table is no-limit",
        "hand pl: cannot be written as phh: PHH's stud variants (F7S/8, F7S, FR) are "
        "fixed-limit; this table is pot-limit",
    ]
    assert out.count('variant = "F7S/8"') == 1  # the fixed-limit hand, written
