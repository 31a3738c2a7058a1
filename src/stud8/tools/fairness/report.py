"""The report: every test's p-value, Holm's correction over them, a plain verdict, and
what the sample could see; as text and as JSON (what a console shows).

A fair shuffle fails a report at most ``alpha`` of the time (the family-wise error
that Holm's correction holds whatever the tests' dependence); each test's own
p-value is given beside its adjusted one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum
from typing import Any, TextIO

from stud8.tools.fairness import DEFAULT_ALPHA
from stud8.tools.fairness.battery import Family, Finding, findings
from stud8.tools.fairness.stats import detectable_position_bias, holm
from stud8.tools.fairness.tally import Tally

__all__ = ["FairnessReport", "Judged", "Source", "Verdict", "judge"]

FORMAT = 1  # the JSON's version
LOW_POWER = 0.5  # a position bias of 50% or more unseen: the sample is small


class Verdict(Enum):
    PASS = "pass"
    FAIL = "fail"
    NOT_RUN = "not run"


@dataclass(frozen=True, slots=True)
class Source:
    """What was tested and how: ``kind`` is ``offline`` (the shuffle run here) or
    ``stored`` (the room's stored hands)."""

    kind: str
    description: str
    deals: int
    seconds: float
    processes: int = 1
    load: tuple[float, ...] = ()  # the machine's load averages (1, 5, 15 min) at the start
    load_after: tuple[float, ...] = ()
    left_out: int = 0  # stored hands without a record (cancelled by a restart)


@dataclass(frozen=True, slots=True)
class Judged:
    finding: Finding
    adjusted: float | None
    verdict: Verdict


@dataclass(frozen=True, slots=True)
class FairnessReport:
    source: Source
    alpha: float
    results: tuple[Judged, ...]
    made_at: datetime
    tally: Tally = field(compare=False, repr=False)

    @property
    def tests(self) -> int:
        """How many tests the correction is over."""
        return sum(1 for r in self.results if r.finding.p_value is not None and not r.finding.check)

    @property
    def failed(self) -> list[Judged]:
        return [r for r in self.results if r.verdict is Verdict.FAIL]

    @property
    def verdict(self) -> Verdict:
        if self.failed:
            return Verdict.FAIL
        if not any(r.verdict is Verdict.PASS for r in self.results):
            return Verdict.NOT_RUN
        return Verdict.PASS

    @property
    def detectable_bias(self) -> float:
        """The position bias the sample catches half the time (see ``docs/fairness.md``)."""
        return detectable_position_bias(self.source.deals, self.alpha / max(self.tests, 1))

    @property
    def power(self) -> str:
        b = self.detectable_bias
        if math.isinf(b):
            return "no deals: nothing could be seen"
        said = (
            f"at {self.source.deals:,} deals, a card {b:.1%} more (or less) likely at one "
            "place of the deck than 1/52 fails its position test half the time"
        )
        if b >= LOW_POWER:
            said += "; few deals, low power: a pass here says little"
        return said

    # -------------------------------------------------------------- text
    def write_text(self, out: TextIO) -> None:
        s = self.source
        out.write(f"stud8 rng-report: {s.description}\n")
        noun = "deals" if s.kind == "offline" else "stored hands"
        how = f"{s.deals:,} {noun} in {s.seconds:.1f} s"
        if s.kind == "offline":
            how += f" on {s.processes} process{'es' if s.processes != 1 else ''}"
        if s.load:
            how += f"; load average {' '.join(f'{x:.2f}' for x in s.load)} at the start"
            if s.load_after:
                how += f", {' '.join(f'{x:.2f}' for x in s.load_after)} at the end"
        out.write(how + "\n")
        if s.left_out:
            out.write(f"{s.left_out:,} stored hand(s) without a record (cancelled) left out\n")
        out.write(
            f"significance {self.alpha:g} for the whole report: Holm's correction over "
            f"{self.tests} tests (a fair shuffle fails the report at most "
            f"{self.alpha:.0%} of the time)\n"
        )
        out.write(f"power: {self.power}\n")
        verdict = self.verdict
        failed = self.failed
        line = {
            Verdict.PASS: "PASS: no test failed",
            Verdict.FAIL: f"FAIL: {len(failed)} test(s) failed: "
            + ", ".join(r.finding.key for r in failed[:8])
            + (" ..." if len(failed) > 8 else ""),
            Verdict.NOT_RUN: "NOT RUN: too few deals for any test",
        }[verdict]
        out.write(f"\nVERDICT {line}\n")
        for family in Family:
            rows = [r for r in self.results if r.finding.family is family]
            if not rows:
                continue
            out.write(f"\n{family.value}: {family.question}\n")
            for r in rows:
                out.write("  " + _line(r) + "\n")

    # -------------------------------------------------------------- JSON
    def to_json(self) -> dict[str, Any]:
        """The report as JSON (``--json``; what the operator's console shows)."""
        s = self.source
        t = self.tally
        return {
            "report": "stud8 rng-report",
            "format": FORMAT,
            "made_at": self.made_at.isoformat(timespec="seconds"),
            "source": {
                "kind": s.kind,
                "description": s.description,
                "deals": s.deals,
                "seconds": round(s.seconds, 3),
                "processes": s.processes,
                "load_average": list(s.load),
                "load_average_after": list(s.load_after),
                "left_out": s.left_out,
            },
            "alpha": self.alpha,
            "correction": "holm",
            "tests_corrected": self.tests,
            "verdict": self.verdict.value,
            "failed": [r.finding.key for r in self.failed],
            "power": {
                "detectable_position_bias": _number(self.detectable_bias),
                "said": self.power,
            },
            "tests": [_test_json(r) for r in self.results],
            "counts": {
                "positions": t.positions.tolist(),
                "suit_orders": t.suit_orders.tolist(),
                "first_five": t.first_five.tolist(),
                "starting": {
                    str(seat): t.starting[seat].tolist()
                    for seat in range(1, 9)
                    if t.starting[seat].any()
                },
                "same_place": t.matches.tolist(),
            },
        }


def _number(x: float | None) -> float | None:
    return None if x is None or math.isnan(x) or math.isinf(x) else x


def _test_json(r: Judged) -> dict[str, Any]:
    f = r.finding
    return {
        "key": f.key,
        "family": f.family.value,
        "title": f.title,
        "statistic": _number(f.statistic),
        "df": f.df,
        "p_value": _number(f.p_value),
        "adjusted_p": _number(r.adjusted),
        "verdict": r.verdict.value,
        "sample": f.sample,
        "note": f.note,
    }


def _p(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.4f}" if x >= 1e-4 else f"{x:.1e}"


def _line(r: Judged) -> str:
    f = r.finding
    word = {Verdict.PASS: "pass", Verdict.FAIL: "FAIL", Verdict.NOT_RUN: "----"}[r.verdict]
    if f.p_value is None:
        return f"{word}  {f.title}: not run ({f.note})"
    if f.check:
        return f"{word}  {f.title}: {f.note} ({f.sample:,} hands)"
    stat = f"chi2 {f.statistic:,.1f} df {f.df}" if f.df is not None else f"{f.statistic:,.3f}"
    note = f"; {f.note}" if f.note else ""
    return f"{word}  {f.title}: {stat}, p {_p(f.p_value)} (adjusted {_p(r.adjusted)}){note}"


def judge(source: Source, tally: Tally, alpha: float = DEFAULT_ALPHA) -> FairnessReport:
    """The report on a tally: its tests, Holm-corrected at ``alpha``."""
    found = findings(tally)
    tested = [i for i, f in enumerate(found) if f.p_value is not None and not f.check]
    adjusted = dict(zip(tested, holm([found[i].p_value or 0.0 for i in tested]), strict=True))
    results = []
    for i, f in enumerate(found):
        if f.p_value is None:
            results.append(Judged(f, None, Verdict.NOT_RUN))
        elif f.check:
            results.append(Judged(f, None, Verdict.FAIL if f.statistic else Verdict.PASS))
        else:
            a = adjusted[i]
            results.append(Judged(f, a, Verdict.FAIL if a < alpha else Verdict.PASS))
    return FairnessReport(source, alpha, tuple(results), datetime.now(UTC), tally)
