"""Asking fpdb (the open-source tracker, its live Python 3 fork fpdb-3) whether it
imports the PokerStars text we write: ``../shared/oracles/fpdb-check`` runs fpdb's
own PokerStars parser on the files, in a venv of its own (made on first use, from
PyPI), and compares its pot, rake and collected amounts with the text's. fpdb is
never imported here.

The oracle lives beside the repository (``../shared``), as on the CI machine; if it
is missing the tests that need it fail in CI and are skipped elsewhere. fpdb-3's own
code is not kept there: the oracle runs a copy of jejellyroll-fr/fpdb-3 named by
``FPDB3_SRC`` and exits 77 without one, and then the tests are skipped, in CI too.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from stud8.core.events import HandCancelled, PotAwarded
from stud8.formats.pokerstars.write import CURRENCY_SYMBOLS, format_money
from stud8.formats.record import HandRecord

ORACLE = Path(__file__).resolve().parents[2] / "shared" / "oracles" / "fpdb-check"
#: The first run builds fpdb's venv (numpy and a few more, from PyPI).
TIMEOUT = 1200
#: fpdb-check's exit code when fpdb-3 is not on this machine: its code is never kept
#: beside the project, so a run without ``FPDB3_SRC`` (CI's too) skips these checks.
FPDB3_ABSENT = 77


def run_oracle(paths: Sequence[Path]) -> subprocess.CompletedProcess[str]:
    """fpdb-check run on the files; the test is skipped when fpdb-3 is not on this
    machine (exit 77, in CI too), and skipped (failed in CI) when the oracle is not."""
    if not ORACLE.is_file():
        message = f"fpdb's oracle is not at {ORACLE}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    run = subprocess.run(
        [str(ORACLE), *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    if run.returncode == FPDB3_ABSENT:  # fpdb-3 itself is brought by hand (FPDB3_SRC), in CI too
        pytest.skip(f"fpdb-check: {(run.stdout + run.stderr).strip()}")
    return run


def fpdb_check(paths: Sequence[Path]) -> str:
    """fpdb-check's report on the files; the test fails unless every hand was
    accepted with totals equal to the text's."""
    run = run_oracle(paths)
    report = run.stdout + run.stderr
    assert run.returncode == 0, report
    found = re.search(r"fpdb-3: (\d+)/(\d+) hands accepted, (\d+) with equal totals", report)
    assert found is not None, report
    accepted, written, agree = map(int, found.groups())
    assert accepted == written == agree > 0, report
    return report


def totals_are_ours(text: str, records: Sequence[HandRecord]) -> None:
    """Each hand's ``Total pot X | Rake Y`` and ``collected`` lines are the record's
    own pots, rake and awards (so that fpdb agreeing with the text is fpdb
    agreeing with us)."""
    hands = [h for h in re.split(r"\n\n\n+(?=PokerStars Hand #)", text.strip()) if h]
    assert len(hands) == len(records)
    for hand, record in zip(hands, records, strict=True):
        symbol = CURRENCY_SYMBOLS.get(record.currency)
        total = sum(p.amount for p in record.pots) + record.rake
        m = re.search(r"^Total pot (\S+)(?: .*)? \| Rake (\S+) ?$", hand, re.MULTILINE)
        assert m is not None, hand
        assert (m.group(1), m.group(2)) == (
            format_money(total, symbol),
            format_money(record.rake, symbol),
        ), hand
        collected: dict[str, int] = {}
        names = record.names
        for award in record.events:
            if isinstance(award, PotAwarded):
                name = names[award.seat]
                collected[name] = collected.get(name, 0) + award.amount
        written: dict[str, int] = {}
        for name, amount in re.findall(r"^(?!Seat \d+: )(.+) collected (\S+) from ", hand, re.M):
            cents = amount.lstrip("$€£")
            whole, _, frac = cents.partition(".")
            chips = int(whole) * 100 + int(frac.ljust(2, "0")) if symbol else int(cents)
            written[name] = written.get(name, 0) + chips
        assert written == collected, hand


def trackable(record: HandRecord) -> bool:
    """A hand a tracker imports: not a cancelled one (PokerStars' own cancelled
    hands are not imported either)."""
    return not any(isinstance(e, HandCancelled) for e in record.events)
