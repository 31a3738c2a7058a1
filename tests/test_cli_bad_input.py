"""Every ``stud8`` command given bad input: a clear message, a non-zero exit, no traceback.

Each subcommand (found from the parser, so a new one is covered at once) is run
with an option it does not have; then each with bad values of its own: files that
do not exist or are not hand histories, cards that cannot be read, stakes, counts
and ports out of range, a database that is not SQLite or PostgreSQL, and a missing
extra. Most run in process (``main`` returns the exit code; an exception escaping
it would be the traceback); ``serve`` runs as its own process, as a user runs it
(it sets up logging and the process for serving).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from stud8.cli import build_parser, main


def leaf_commands(
    parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()
) -> list[tuple[str, ...]]:
    """Every runnable subcommand, as its words (``("hh", "verify")``)."""
    leaves: list[tuple[str, ...]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                leaves += leaf_commands(sub, (*prefix, name)) or [(*prefix, name)]
    return leaves


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


def test_every_subcommand_is_found() -> None:
    leaves = leaf_commands(build_parser())
    for expected in [("play",), ("hh", "verify"), ("hh", "convert"), ("hh", "show"), ("equity",)]:
        assert expected in leaves
    assert {("simulate",), ("serve",), ("admin", "audit")} <= set(leaves)


@pytest.mark.parametrize("words", leaf_commands(build_parser()), ids=" ".join)
def test_every_subcommand_refuses_an_unknown_option(
    capsys: pytest.CaptureFixture[str], words: tuple[str, ...]
) -> None:
    code, text = run(capsys, *words, "--no-such-option")
    assert code == 2
    assert "usage: stud8" in text
    # argparse names what is missing first, else the option it does not know
    assert "error: the following arguments are required" in text or (
        "error: unrecognized arguments: --no-such-option" in text
    ), text
    assert "Traceback" not in text


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("bad")
    (where / "junk.bin").write_bytes(b"\x00\x01\xffjunk")
    (where / "record.jsonl").write_text('{"v": 1}\n')
    (where / "latin1.txt").write_bytes("PokerStars Hand #1: caf\xe9".encode("latin-1"))
    return where


CASES: list[tuple[str, str]] = [
    ("play --bots 9", "argument --bots: must be from 1 to 7, got 9"),
    ("play --stakes 1/2", "argument --stakes: stakes are four whole numbers"),
    ("play --stack 0", "argument --stack: must be at least 1, got 0"),
    ("play --seed x", "argument --seed: invalid int value: 'x'"),
    ("play --bot-kind shark", "argument --bot-kind: invalid choice: 'shark'"),
    ("hh", "usage: stud8 hh"),
    ("hh verify {d}/none.txt", "cannot read it: No such file or directory"),
    ("hh verify {d}", "is a directory, not a file"),
    ("hh verify {d}/junk.bin", "cannot tell the format"),
    ("hh verify {d}/record.jsonl", "the hand record has no 'events'"),
    ("hh convert {d}/none.txt --to json", "cannot read it: No such file or directory"),
    ("hh convert {d}/record.jsonl --to pokerstars", "the hand record has no 'events'"),
    ("hh convert {d}/junk.bin --to xml", "argument --to: invalid choice: 'xml'"),
    ("hh show --file {d}/none.jsonl", "no hands saved yet"),
    ("hh show --last 0", "argument --last: must be at least 1, got 0"),
    ("hh show --file {d}/record.jsonl", "the hand record has no 'events'"),
    ("equity As", "equity needs 2 to 8 players, got 1"),
    ("equity Zz 2c", "cannot read card 'Zz'"),
    ("equity As As", "As"),
    ("equity --trials 0 As 2c", "argument --trials: must be at least 1, got 0"),
    ("equity --community maybe As 2c", "community: cannot read card 'maybe'"),
    ("simulate --bots nonsense --hands 1", "unknown bot 'nonsense'"),
    ("simulate --players 9", "argument --players: must be from 2 to 8, got 9"),
    ("simulate --hands 0", "argument --hands: must be at least 1, got 0"),
    ("simulate --out {d}/junk.bin --hands 1", "exists and is not a directory"),
    ("simulate --chart {d}/none/x.png --hands 2", "does not exist"),
    ("simulate --format xml", "argument --format: invalid choice: 'xml'"),
    ("tournament simulate --players 1", "argument --players: must be from 2"),
    ("tournament simulate --bots shark --players 4", "shark"),
    ("tournament simulate --out {d}/junk.bin --players 4", "junk.bin"),
    ("admin", "usage: stud8 admin"),
    ("admin drain", "the following arguments are required: NAME"),
    ("admin audit --database mysql://u:secret@localhost/x", "not mysql: give sqlite:///FILE"),
    ("admin audit --database nonsense", "'nonsense' is not a database URL"),
    ("admin audit --database sqlite:///{d}/none/x.db", "there is no database file"),
    ("nonsense", "invalid choice: 'nonsense'"),
]


@pytest.mark.parametrize(("line", "message"), CASES, ids=[line for line, _ in CASES])
def test_bad_input_gets_a_message_and_a_non_zero_exit(
    capsys: pytest.CaptureFixture[str], files: Path, line: str, message: str
) -> None:
    code, text = run(capsys, *line.format(d=files).split())
    assert code != 0, text
    assert "Traceback" not in text
    assert message in text, text
    assert "secret" not in text  # a database password is never echoed


@pytest.mark.parametrize(
    ("database", "message"),
    [
        ("mysql://u:secret@localhost/x", "not mysql: give sqlite:///FILE or postgresql://"),
        ("nonsense", "'nonsense' is not a database URL"),
        ("oracle+cx_oracle://u@h/x", "not oracle"),
    ],
)
def test_serve_refuses_a_database_it_cannot_use(database: str, message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "stud8", "serve", "--port", "0", "--database", database],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stdout + done.stderr
    assert message in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("line", "missing", "extra"),
    [
        ("equity As 2c", "numpy", "tools"),
        ("simulate --bots equity --hands 1", "numpy", "tools"),
        ("admin audit", "sqlalchemy", "server"),
        ("admin rng-report --deals 10 --no-progress", "scipy", "tools"),
    ],
)
def test_a_missing_extra_is_named(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    line: str,
    missing: str,
    extra: str,
) -> None:
    # As if the extra were not installed: the module cannot be imported, and the
    # stud8 modules that import it are imported again.
    monkeypatch.setitem(sys.modules, missing, None)
    for name in list(sys.modules):
        if name.startswith(("stud8.tools", "stud8.server")):
            monkeypatch.delitem(sys.modules, name)
    code, text = run(capsys, *line.split())
    assert code == 2
    assert "Traceback" not in text
    assert f"pip install 'stud8[{extra}]'" in text, text
    assert f"{missing} is not installed" in text, text


def test_text_in_another_encoding_is_read_not_refused(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A history saved in Latin-1 or Windows' code page (other sites write them) is
    decoded; this one's only hand is of no game stud8 plays: skipped, said so."""
    code = main(["hh", "verify", str(files / "latin1.txt")])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert "skipped: not a Seven Card Stud" in out and "café" in out
    assert code == 0
