"""The fairness report (``stud8 admin rng-report``) can fail, and the room's shuffle
passes it.

The broken shuffles are seeded: what they deal, and so their verdicts, are the same
every run. The room's shuffle is not (it is the system's CSPRNG, as a table deals):
its test runs the report at a significance of 1e-6, so that, by Holm's bound, a fair
shuffle fails it at most once in a million runs (the chi-square approximation's own
error, with every expected count here 14 or more, is far smaller than that margin
would need to matter: even a hundredfold error in the tail is one run in 10,000).
"""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from stud8.cli import main
from stud8.core.cards import CARDS
from stud8.tools.fairness import Shuffle, run
from stud8.tools.fairness.battery import Family
from stud8.tools.fairness.report import Verdict
from stud8.tools.fairness.run import ProgressLine, run_offline
from stud8.tools.fairness.shuffles import Dealer
from stud8.tools.fairness.starting import HANDS, StartingKind, classify
from stud8.tools.fairness.stats import chi_square, holm, rencontres
from stud8.tools.fairness.tally import Tally

STRICT = 1e-6  # the real shuffle's test: a false failure at most once in 10**6 runs
DEALS = 6000


def failed_keys(shuffle: Shuffle, deals: int = DEALS, alpha: float = STRICT) -> set[str]:
    report = run_offline(deals, shuffle, seed=7, jobs=1, alpha=alpha)
    assert report.source.deals == deals
    return {r.finding.key for r in report.failed}


def test_the_room_s_shuffle_passes() -> None:
    report = run_offline(DEALS, Shuffle.ROOM, jobs=1, alpha=STRICT)
    assert report.verdict is Verdict.PASS, [r.finding.key for r in report.failed]
    keys = {r.finding.key for r in report.results}
    # every family ran, every card and every rank had its test
    assert {f"position.{c}" for c in CARDS} <= keys
    assert {"position.all", "order.first-five", "serial.same-place", "repeats.first-20"} <= keys
    assert {f"starting.seat-{s}" for s in range(1, 9)} <= keys
    assert all(r.finding.p_value is not None for r in report.results)
    assert report.tests == len(report.results) == 52 + 1 + 13 + 1 + 8 + 3 + 1


def test_a_naive_swap_shuffle_fails_where_its_bias_is() -> None:
    failed = failed_keys(Shuffle.NAIVE)
    assert "position.all" in failed
    assert sum(k.startswith("position.") for k in failed) >= 20  # the aces and kings most
    assert {"position.As", "position.Ah", "position.Kc"} <= failed
    assert "repeats.first-20" not in failed  # it makes as many decks as a fair one


def test_a_16_bit_seed_fails_the_repeats() -> None:
    """65,536 decks: 6,000 deals repeat some 270 of them. No test of a card's place
    sees it at this sample: only the repeats do (as docs/fairness.md says)."""
    report = run_offline(DEALS, Shuffle.WEAK_SEED, seed=7, jobs=1, alpha=STRICT)
    failed = {r.finding.key for r in report.failed}
    assert "repeats.first-20" in failed
    repeats = next(r for r in report.results if r.finding.key == "repeats.first-20")
    assert 200 < repeats.finding.statistic < 350  # about 6000**2 / 2 / 65536 = 275
    assert "equally likely decks" in repeats.finding.note


def test_dependent_deals_fail_the_serial_tests() -> None:
    failed = failed_keys(Shuffle.CUT)
    assert "serial.same-place" in failed


def test_the_default_significance_says_fail_too() -> None:
    out = io.StringIO()
    report = run_offline(3000, Shuffle.NAIVE, seed=3, jobs=1)
    report.write_text(out)
    text = out.getvalue()
    assert report.alpha == 0.01
    assert "VERDICT FAIL" in text
    assert "Holm's correction over 79 tests" in text
    assert re.search(r"FAIL  As: its place in the deck .* p \d", text)


def test_every_process_s_deals_are_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "BLOCK", 2000)
    report = run_offline(9000, Shuffle.NAIVE, seed=2, jobs=2)
    t = report.tally
    assert report.source.processes == 2
    assert t.deals == 9000 and int(t.positions.sum()) == 9000 * 52
    assert (t.positions.sum(axis=0) == 9000).all() and (t.positions.sum(axis=1) == 9000).all()
    assert t.pairs == 9000 - 5  # five blocks (4 x 2,000 + 1,000), five chains
    assert int(t.first_five.sum()) == 9000 and int(t.suit_orders.sum()) == 13 * 9000
    alone = run_offline(9000, Shuffle.NAIVE, seed=2, jobs=1).tally  # the same blocks
    assert (alone.positions == t.positions).all() and alone.matches.tolist() == t.matches.tolist()


# ------------------------------------------------------------------ the pieces
def test_starting_hands_are_classified_with_their_exact_odds() -> None:
    assert sum(HANDS) == math.comb(52, 3)
    code = {str(c): c.code for c in CARDS}
    kind = {k.value: k for k in StartingKind}

    def of(text: str) -> str:
        a, b, c = (code[x] for x in text.split())
        return classify(a, b, c).value

    assert of("7s 7h 7d") == "trips"
    assert of("As Ad 2c") == "pair"
    assert of("2h 9h Kh") == "flush draw"
    assert of("4h 5h 6h") == "flush draw"  # a straight flush draw is a flush draw first
    assert of("Ah 2d 3c") == of("Qs Kd Ac") == of("9c Td Jh") == "straight draw"
    assert of("Kd As 2c") == "other"  # no wrap-around
    assert of("Ac 4d 8h") == "three low"
    assert of("Ac 4d 9h") == "other"
    assert kind["three low"].index == 4


def test_the_chi_square_pools_rare_cells_and_catches_the_impossible() -> None:
    found = chi_square([3, 1, 50, 46], [3.0, 3.0, 47.0, 47.0])  # 3 + 3: one cell of 6
    assert found is not None and found.df == 2 and found.pooled == 2
    found = chi_square([3, 1, 50, 46], [2.0, 2.0, 48.0, 48.0])  # 2 + 2: into the smallest
    assert found is not None and found.df == 1
    assert chi_square([1, 2], [1.0, 2.0]) is None  # too few to test
    impossible = chi_square([1, 99], [0.0, 100.0])
    assert impossible is not None and impossible.p_value == 0.0
    assert holm([0.5]) == [0.5]
    assert abs(sum(rencontres(52)) - 1) < 1e-12
    assert abs(rencontres(52)[0] - math.exp(-1)) < 1e-12


def test_repeats_are_counted_as_pairs() -> None:
    decks = Dealer(Shuffle.NAIVE, 5).deal(4)
    t = Tally.empty()
    t.add_decks(np.vstack([decks, decks[:1], decks[:1], decks[2:3]]))
    assert t.repeated_pairs() == 3 + 1  # three copies of the first deck: 3 pairs; two of the third


def test_the_families_ask_their_questions() -> None:
    for family in Family:
        assert family.question.endswith("?")


# ------------------------------------------------------------------ progress
class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_a_bar_on_a_terminal_and_plain_lines_elsewhere() -> None:
    term = _Terminal()
    bar = ProgressLine(term, "deals")
    bar(50, 100)
    bar(100, 100)
    bar.close()
    assert "\r[" in term.getvalue() and "100/100 deals" in term.getvalue()
    log = io.StringIO()
    line = ProgressLine(log, "deals", every=3600)
    line(10, 100)
    line(20, 100)  # within the hour: not written
    line(100, 100)  # the end always is
    lines = log.getvalue().splitlines()
    assert len(lines) == 2 and "\r" not in log.getvalue()
    assert lines[0].startswith("rng-report: 10/100 deals")


# ------------------------------------------------------------------ the command
def test_the_command_prints_json_writes_a_page_and_exits_1_on_a_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "fair.html"
    args = ["admin", "rng-report", "--deals", "3000", "--shuffle", "naive", "--jobs", "1"]
    assert main([*args, "--json", "--html", str(page)]) == 1
    captured = capsys.readouterr()
    body = json.loads(captured.out)
    assert body["verdict"] == "fail"
    (report,) = body["reports"]
    assert report["source"]["kind"] == "offline" and report["source"]["deals"] == 3000
    assert report["correction"] == "holm" and report["alpha"] == 0.01
    assert "position.all" in report["failed"]
    tests = {t["key"]: t for t in report["tests"]}
    assert tests["position.all"]["verdict"] == "fail"
    assert 0 <= tests["position.As"]["p_value"] <= 1
    assert len(report["counts"]["positions"]) == 52
    assert captured.err.count("rng-report: ") >= 2  # a plain progress line, and the page's
    html = page.read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") >= 5
    assert "FAIL" in html and "Holm" in html


def test_the_command_refuses_what_it_cannot_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["admin", "rng-report", "--deals", "0"]) == 2
    assert "nothing to test" in capsys.readouterr().err
    assert main(["admin", "rng-report", "--deals", "-5"]) == 2
    assert main(["admin", "rng-report", "--deals", "10", "--alpha", "2"]) == 2
    missing = tmp_path / "no" / "page.html"
    assert main(["admin", "rng-report", "--deals", "10", "--html", str(missing)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not missing.parent.exists()
