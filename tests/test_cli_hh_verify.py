"""`stud8 hh verify` and `stud8 hh convert` as a user meets them: the summary per
file and site, the exit codes, --json, the progress bar on a terminal only,
conversion between every pair of formats, and hostile files that must end in a
clear message, never a traceback."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from sharedhh import NEEDED, OTHER_SITES, STARS_ALLIN, STARS_CASH
from stud8.cli import main
from stud8.formats.registry import readers, writers
from stud8.terminal import hh as hh_module
from stud8.terminal.hh import load_records, verify

CASH = STARS_CASH
TOURNAMENT = STARS_ALLIN


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _mismatched_copy(tmp_path: Path) -> Path:
    bad = tmp_path / "bad.txt"
    text = CASH.read_bytes().decode("utf-8")
    bad.write_text(text.replace("collected $0.12 from pot", "collected $0.13 from pot", 1))
    return bad


@NEEDED
def test_exit_codes_tell_a_mismatch_from_a_file_that_cannot_be_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _mismatched_copy(tmp_path)
    missing = tmp_path / "missing.txt"
    assert run(capsys, "hh", "verify", str(CASH))[0] == 0
    assert run(capsys, "hh", "verify", str(bad))[0] == 1
    code, out, _ = run(capsys, "hh", "verify", str(missing))
    assert code == 4 and "cannot read it: No such file or directory" in out
    assert "hands: 0" in out.splitlines()[-1]  # a missing file is no hand at all
    code, out, _ = run(capsys, "hh", "verify", str(bad), str(missing), str(CASH))
    assert code == 5  # both
    lines = out.splitlines()
    assert lines[-1] == (
        "files: 3 (1 cannot be read)  hands: 14  reproduced: 13  mismatched: 1  skipped: 0  "
        "unreadable: 0"
    )
    assert any(line.startswith(str(missing)) and line.endswith("cannot be read") for line in lines)
    # a usage error is 2, as for every command
    assert run(capsys, "hh", "verify")[0] == 2


@NEEDED
def test_the_summary_is_per_file_and_per_site(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    phh = tmp_path / "cash.phh"
    code, out, _ = run(capsys, "hh", "convert", str(CASH), "--to", "phh")
    assert code == 0
    phh.write_text(out)
    code, out, _ = run(capsys, "hh", "verify", str(CASH), str(TOURNAMENT), str(phh))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(str(CASH)) and "  PokerStars  hands: 7  reproduced: 7" in lines[0]
    assert lines[1].startswith(str(TOURNAMENT)) and "  PokerStars  hands: 1  " in lines[1]
    assert lines[2].startswith(str(phh)) and "  PHH         hands: 7  reproduced: 7" in lines[2]
    assert "site PokerStars: files: 2  hands: 8  reproduced: 8" in out
    assert "site PHH: files: 1  hands: 7  reproduced: 7" in out


@NEEDED
def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _mismatched_copy(tmp_path)
    code, out, _ = run(capsys, "hh", "verify", "--json", str(bad), str(tmp_path / "gone.txt"))
    report = json.loads(out)  # one JSON document, nothing else
    assert code == report["exit"] == 5
    first, second = report["files"]
    assert (first["site"], first["format"], first["hands"], first["mismatched"]) == (
        "PokerStars",
        "pokerstars",
        7,
        1,
    )
    (problem,) = first["problems"]
    assert problem["status"] == "mismatched" and "$0.13" in problem["detail"]
    assert problem["hand"] == "35874487284" and problem["line"] == 1
    assert second["files_unreadable"] == 1 and second["hands"] == 0
    assert report["total"]["reproduced"] == 6
    assert report["sites"]["PokerStars"]["hands"] == 7


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@NEEDED
def test_a_progress_bar_on_a_terminal_only_and_not_in_ci(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"\n\n\n".join([CASH.read_bytes()] * 40))  # 280 hands
    monkeypatch.setattr(hh_module, "PROGRESS_BYTES", 1000)
    monkeypatch.setattr("stud8.terminal.hh.time.monotonic", iter(range(0, 10**6)).__next__)
    monkeypatch.delenv("CI", raising=False)
    out, tty = io.StringIO(), _Terminal()
    assert verify([big], out, tty) == 0
    drawn = tty.getvalue()
    assert "\rbig.txt [" in drawn and "%  " in drawn and " hands" in drawn
    assert drawn.endswith("\r\x1b[K")  # wiped before the summary
    assert "\r" not in out.getvalue()
    # not on a pipe, not in CI, not when asked not to, not for a small file
    pipe = io.StringIO()
    assert verify([big], io.StringIO(), pipe) == 0 and pipe.getvalue() == ""
    tty = _Terminal()
    assert verify([big], io.StringIO(), tty, progress=False) == 0 and tty.getvalue() == ""
    monkeypatch.setenv("CI", "true")
    tty = _Terminal()
    assert verify([big], io.StringIO(), tty) == 0 and tty.getvalue() == ""
    monkeypatch.delenv("CI")
    monkeypatch.setattr(hh_module, "PROGRESS_BYTES", 10**9)
    tty = _Terminal()
    assert verify([big], io.StringIO(), tty) == 0 and tty.getvalue() == ""


def _plays(path: Path) -> list[tuple[object, ...]]:
    """What each hand of a file is, as a game: its stakes, stacks, decisions, pots,
    rake and final stacks (the names, the deck's unseen cards apart)."""
    out: list[tuple[object, ...]] = []
    for rec in load_records(path):
        assert not isinstance(rec, Exception), str(rec)
        r = rec.rules  # the stakes (PokerStars text carries no site's own rule)
        out.append(
            (
                (r.ante, r.bring_in, r.small_bet, r.big_bet, r.structure, r.game),
                tuple((s.seat, s.stack) for s in rec.seats),
                rec.decisions,
                rec.pots,
                rec.rake,
                rec.final_stacks,
            )
        )
    return out


@NEEDED
@pytest.mark.parametrize("source", sorted({r.name for r in readers()} & set(writers())))
@pytest.mark.parametrize("target", sorted(writers()))
def test_convert_between_every_pair_of_formats(
    source: str, target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start = tmp_path / f"start.{source}"
    if source == "pokerstars":
        start.write_bytes(CASH.read_bytes())
    else:
        code, out, err = run(capsys, "hh", "convert", str(CASH), "--to", source)
        assert code == 0, err
        start.write_text(out)
    code, out, err = run(capsys, "hh", "convert", str(start), "--to", target)
    assert code == 0 and err == "", err
    converted = tmp_path / f"converted.{target}"
    converted.write_text(out)
    code, out, _ = run(capsys, "hh", "verify", str(converted))
    assert code == 0 and "hands: 7  reproduced: 7" in out
    assert _plays(converted) == _plays(start)


HOSTILE: dict[str, bytes] = {
    "empty.txt": b"",
    "blank.txt": b"\n \n\t\n",
    "binary.bin": bytes(range(256)) * 10,
    "png.png": b"\x89PNG\r\n\x1a\n" + b"\x00" * 100,
    "header-only.txt": b"PokerStars Hand #1:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD)\n",
    "bad-toml.phh": b'variant = "F7S/8"\nantes = [1, 1\n',
    "phh-no-actions.phh": b'variant = "F7S/8"\nantes = [1, 1]\nbring_in = 1\n',
    "phh-huge.phh": b'variant = "F7S/8"\nantes = [1, 1]\nbring_in = 1\nsmall_bet = 2\n'
    b"big_bet = 4\nstarting_stacks = [1e999999, 5]\nactions = []\n",
    "json-garbage.jsonl": b'{"v": 1}\n{not json\n[1, 2]\n',
    "json-deep.jsonl": b"{" + b'"a":[' * 100_000 + b"1" + b"]" * 100_000 + b"}\n",
    "json-types.jsonl": b'{"v": 1, "hand_id": 5, "events": "x", "seats": {}}\n',
    "utf16-junk.txt": "PokerStars Hand #x: 7 Card Stud Hi/Lo Limit\n".encode("utf-16"),
    "cp1252.txt": "PokerStars Hand #1:  7 Card Stud Hi/Lo Limit (€1/€2 EUR)\nTable 'é'\n".encode(
        "cp1252"
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_file_gets_a_message_not_a_traceback(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])
    code, out, _ = run(capsys, "hh", "verify", str(path))
    assert code == 4, out
    assert "Traceback" not in out and str(path) in out
    for target in writers():
        code, out, err = run(capsys, "hh", "convert", str(path), "--to", target)
        assert code in (1, 4, 5) and "Traceback" not in err and err.strip(), (target, err)
    code, out, _ = run(capsys, "hh", "verify", "--json", str(path))
    assert json.loads(out)["exit"] == code == 4


def test_a_directory_and_an_unreadable_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "hh", "verify", str(tmp_path))
    assert code == 4 and "is a directory" in out
    code, _, err = run(capsys, "hh", "convert", str(tmp_path), "--to", "json")
    assert code == 4 and "is a directory" in err


@NEEDED
def test_utf16_and_crlf_pokerstars_files_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = CASH.read_bytes().decode("utf-8").replace("\n", "\r\n")
    for encoding in ("utf-16", "utf-16-le", "utf-8-sig"):
        path = tmp_path / f"{encoding}.txt"
        path.write_bytes(text.encode(encoding))
        code, out, _ = run(capsys, "hh", "verify", str(path))
        assert code == 0 and "hands: 7  reproduced: 7" in out, (encoding, out)


SITES = OTHER_SITES


@NEEDED
@pytest.mark.parametrize("target", sorted(writers()))
def test_convert_other_sites_to_every_format(
    target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every site's sample whose hands all reproduce converts to every format we
    write, and the result reproduces, hand for hand, the same play."""
    done = 0
    for sample in sorted(SITES.glob("*_*")):
        if sample.suffix == ".md":
            continue
        code, out, _ = run(capsys, "hh", "verify", "--json", str(sample))
        if code != 0 or not json.loads(out)["total"]["reproduced"]:
            continue  # listed with its reasons in tests/formats/test_sites.py
        code, out, err = run(capsys, "hh", "convert", str(sample), "--to", target, "--all-cards")
        assert code == 0, err
        converted = tmp_path / f"{sample.stem}.{target}"
        converted.write_text(out)
        code, out, _ = run(capsys, "hh", "verify", str(converted))
        assert code == 0, out
        assert _plays(converted) == _plays(sample)
        done += 1
    assert done >= 8
