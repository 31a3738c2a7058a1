"""The report as one HTML page with its plots (PNGs embedded in base64: one file to
keep or mail), for the operator who would rather look than read."""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from typing import Any

import numpy as np

from stud8.core.cards import CARDS
from stud8.tools.fairness.battery import Family
from stud8.tools.fairness.report import FairnessReport, Judged, Verdict
from stud8.tools.fairness.starting import PROBABILITIES, StartingKind
from stud8.tools.fairness.stats import rencontres
from stud8.tools.fairness.tally import STREETS

__all__ = ["write_page"]

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px;
       padding: 0 1em; color: #1d1d1f; }
h1 { font-size: 1.5em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
.verdict { font-size: 1.3em; font-weight: bold; padding: .5em .8em; border-radius: 6px; }
.pass { background: #e3f4e6; color: #14532d; } .fail { background: #fde2e1; color: #7f1d1d; }
.notrun { background: #eee; color: #444; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 2px 8px; border-bottom: 1px solid #eee; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.FAIL td { background: #fde2e1; }
img { max-width: 100%; }
"""


def _png(fig: Any) -> str:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90)
    plt.close(fig)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="" src="data:image/png;base64,{data}">'


def _plots(report: FairnessReport) -> list[tuple[str, str]]:
    """(caption, <img>) of each plot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = report.tally
    n = t.deals
    out: list[tuple[str, str]] = []
    if n:
        expected = n / 52
        residual = (t.positions - expected) / np.sqrt(expected)
        fig, ax = plt.subplots(figsize=(10, 8))
        image = ax.imshow(residual, cmap="RdBu_r", vmin=-4, vmax=4, aspect="auto")
        ax.set_yticks(range(0, 52, 4), [str(CARDS[c]) for c in range(0, 52, 4)])
        ax.set_xlabel("place in the deck (0: dealt first)")
        ax.set_ylabel("card")
        ax.set_title("each card at each place: (observed - expected) / sqrt(expected)")
        fig.colorbar(image, ax=ax, label="standardised residual (fair: mostly within +-2)")
        fig.tight_layout()
        out.append(("Every card at every place of the deck", _png(fig)))
    p_values = [
        r.finding.p_value
        for r in report.results
        if r.finding.p_value is not None and not r.finding.check
    ]
    if p_values:
        fig, ax = plt.subplots(figsize=(10, 3.5))
        ax.hist(p_values, bins=20, range=(0, 1), color="#4b7bb5", edgecolor="white")
        ax.axhline(len(p_values) / 20, color="black", linestyle="--", label="fair: flat")
        ax.set_xlabel("p-value")
        ax.set_ylabel("tests")
        ax.set_title(f"the {len(p_values)} p-values (a fair shuffle spreads them evenly)")
        ax.legend()
        fig.tight_layout()
        out.append(("The p-values", _png(fig)))
    seats = [s for s in range(1, 9) if t.starting[s].any()]
    if seats:
        fig, ax = plt.subplots(figsize=(10, 4))
        odds = np.array(PROBABILITIES)
        width = 0.8 / len(seats)
        for i, seat in enumerate(seats):
            row = t.starting[seat]
            dealt = row.sum()
            ratio = row / (odds * dealt)
            error = 2 / np.sqrt(odds * dealt)
            x = np.arange(len(odds)) + (i - len(seats) / 2) * width
            ax.bar(x, ratio - 1, width, yerr=error, label=f"seat {seat}", capsize=1)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(odds)), [k.value for k in StartingKind])
        ax.set_ylabel("observed / expected - 1")
        ax.set_title("3rd-street hands by seat against their odds (bars: +-2 standard errors)")
        ax.legend(ncol=4, fontsize="small")
        fig.tight_layout()
        out.append(("Starting hands by seat", _png(fig)))
    if t.pairs:
        fig, ax = plt.subplots(figsize=(10, 3.5))
        k = np.arange(8)
        fair = np.array(rencontres(52)[:8]) * t.pairs
        ax.bar(k - 0.2, t.matches[:8], 0.4, label="observed")
        ax.bar(k + 0.2, fair, 0.4, label="fair (rencontres)")
        ax.set_yscale("log")
        ax.set_xlabel("cards at the same place in two consecutive deals")
        ax.set_ylabel("pairs of deals")
        ax.legend()
        fig.tight_layout()
        out.append(("Consecutive deals", _png(fig)))
    if n:
        fig, ax = plt.subplots(figsize=(10, 3.5))
        ax.bar(range(120), t.first_five, color="#4b7bb5")
        ax.axhline(n / 120, color="black", linestyle="--")
        band = 2 * np.sqrt(n / 120)
        ax.axhspan(n / 120 - band, n / 120 + band, color="grey", alpha=0.25)
        ax.set_xlabel("order of the first five cards dealt (one of 120)")
        ax.set_ylabel("deals")
        ax.set_title("short deck: the 5! orders (grey: +-2 standard errors)")
        fig.tight_layout()
        out.append(("The first five cards' orders", _png(fig)))
    if t.next_observed is not None and t.next_expected is not None:
        fig, ax = plt.subplots(figsize=(10, 3.5))
        for street in STREETS:
            seen = t.next_expected[street]
            if seen.sum():
                ratio = t.next_observed[street] / np.where(seen > 0, seen, 1)
                ax.plot(range(10), ratio - 1, marker="o", label=f"street {street}")
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xlabel("tenth of the cards not yet dealt (by code) the dealt card was in")
        ax.set_ylabel("observed / expected - 1")
        ax.legend(ncol=5, fontsize="small")
        fig.tight_layout()
        out.append(("Each card as dealt, street by street", _png(fig)))
    return out


def _rows(results: Sequence[Judged]) -> str:
    def p(x: float | None) -> str:
        return "" if x is None else f"{x:.4f}" if x >= 1e-4 else f"{x:.1e}"

    rows = []
    for r in results:
        f = r.finding
        stat = "" if f.p_value is None else f"{f.statistic:,.2f}"
        rows.append(
            f'<tr class="{r.verdict.name}"><td>{r.verdict.value}</td>'
            f"<td>{html.escape(f.family.value)}</td><td>{html.escape(f.title)}</td>"
            f'<td class="num">{stat}</td><td class="num">{f.df if f.df is not None else ""}</td>'
            f'<td class="num">{p(f.p_value)}</td><td class="num">{p(r.adjusted)}</td>'
            f'<td class="num">{f.sample:,}</td><td>{html.escape(f.note)}</td></tr>'
        )
    return "\n".join(rows)


def _section(report: FairnessReport) -> str:
    s = report.source
    verdict = report.verdict
    css = {Verdict.PASS: "pass", Verdict.FAIL: "fail", Verdict.NOT_RUN: "notrun"}[verdict]
    failed = ", ".join(r.finding.key for r in report.failed[:10])
    said = {
        Verdict.PASS: "PASS: no test failed",
        Verdict.FAIL: f"FAIL: {len(report.failed)} test(s) failed ({failed})",
        Verdict.NOT_RUN: "NOT RUN: too few deals",
    }[verdict]
    load = " ".join(f"{x:.2f}" for x in s.load)
    plots = "\n".join(
        f"<h3>{html.escape(caption)}</h3>\n{image}" for caption, image in _plots(report)
    )
    questions = "".join(f"<li><b>{f.value}</b>: {html.escape(f.question)}</li>" for f in Family)
    return f"""
<h2>{html.escape(s.description)}</h2>
<p class="verdict {css}">{html.escape(said)}</p>
<p>{s.deals:,} {"deals" if s.kind == "offline" else "stored hands"} in {s.seconds:.1f} s
({s.processes} process(es); load average at the start {load or "unknown"}).
Significance {report.alpha:g} for the whole report, Holm's correction over {report.tests}
tests: a fair shuffle fails it at most {report.alpha:.0%} of the time.<br>
Power: {html.escape(report.power)}.</p>
<ul>{questions}</ul>
{plots}
<h3>Every test</h3>
<table><thead><tr><th>verdict</th><th>family</th><th>test</th><th>statistic</th><th>df</th>
<th>p</th><th>adjusted p</th><th>sample</th><th>note</th></tr></thead>
<tbody>{_rows(report.results)}</tbody></table>
"""


def write_page(reports: Sequence[FairnessReport]) -> str:
    """The HTML page of one or more reports (the shuffle's own, the stored hands')."""
    made = reports[0].made_at.isoformat(timespec="seconds") if reports else ""
    body = "\n".join(_section(r) for r in reports)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>stud8 rng-report</title><style>{_STYLE}</style></head>
<body><h1>The shuffle's fairness: stud8 rng-report, {made}</h1>
<p>What is tested, what a pass means and what it cannot show: docs/fairness.md.</p>
{body}
</body></html>
"""
