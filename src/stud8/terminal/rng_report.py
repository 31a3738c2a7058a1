"""``stud8 admin rng-report``: the shuffle's fairness, as a test lab would test it.

Without ``--database`` it deals ``--deals N`` decks (2,500,000 by default) from the
room's own shuffle on every core and tests them; with ``--database URL`` it tests the
hands the room stored (and the shuffle's own deals too if ``--deals`` is given).
Text on stdout (``--json``: the JSON a console shows), ``--html FILE`` a page with
plots; a progress bar on stderr. ``--keep`` (with ``--database``) keeps the reports in
the room's database: the last is then the console's last report on every node.
Exit 0 when every report passes, 1 when one fails, 2 on bad input. What the tests
are: ``docs/fairness.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from stud8.tools.fairness import DEFAULT_ALPHA, DEFAULT_DEALS, Shuffle  # (no numpy)

if TYPE_CHECKING:
    from stud8.tools.fairness.report import FairnessReport

__all__ = ["KEPT_BY", "add_rng_report"]

KEPT_BY = "stud8 admin rng-report"  # who ran a report kept with --keep


def _count(text: str) -> int:
    try:
        value = int(text.replace(",", "").replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def _alpha(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value <= 0.5:
        raise argparse.ArgumentTypeError(f"a significance is above 0 and at most 0.5: {value}")
    return value


def add_rng_report(admin: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    r = admin.add_parser(
        "rng-report",
        help="test the shuffle's fairness (its own deals, or the hands the room stored)",
        description="Test the shuffle as a test lab would: each card's place in the deck, "
        "the orders of short decks, 3rd-street hands by seat, consecutive deals, repeats "
        "(and on stored hands the cards as dealt), each with a p-value and a verdict "
        "under Holm's correction. See docs/fairness.md.",
    )
    r.add_argument(
        "--deals",
        type=_count,
        default=None,
        metavar="N",
        help=f"deal N decks from the room's shuffle and test them (default {DEFAULT_DEALS:,} "
        "without --database; 0: none)",
    )
    r.add_argument(
        "--database", default=None, metavar="URL", help="test the hands stored in this room"
    )
    r.add_argument(
        "--alpha",
        type=_alpha,
        default=DEFAULT_ALPHA,
        help=f"the significance of the whole report (default {DEFAULT_ALPHA})",
    )
    r.add_argument("--jobs", type=_count, default=0, metavar="N", help="processes (0: every core)")
    r.add_argument(
        "--shuffle",
        choices=[s.value for s in Shuffle],
        default="room",
        help="the shuffle to deal from: the room's (default), or a broken one to see a FAIL",
    )
    r.add_argument("--seed", type=_count, default=1, help="the broken shuffles' seed")
    r.add_argument("--json", action="store_true", help="print the report as JSON")
    r.add_argument("--html", type=Path, default=None, metavar="FILE", help="write a page")
    r.add_argument(
        "--keep",
        action="store_true",
        help="keep the reports in the room's database (--database): the console's last report",
    )
    r.add_argument("--no-progress", action="store_true", help="no progress on stderr")
    r.set_defaults(run=_run)


def _refuse(message: str) -> int:
    print(f"stud8 admin rng-report: error: {message}", file=sys.stderr)
    return 2


def _run(args: argparse.Namespace) -> int:
    import importlib.util

    deals = args.deals if args.deals is not None else 0 if args.database else DEFAULT_DEALS
    if deals == 0 and args.database is None:
        return _refuse("nothing to test: give --deals N (1 or more) or --database URL")
    if args.shuffle != "room" and deals == 0:
        return _refuse("--shuffle deals its own decks: give --deals N")
    if args.keep and args.database is None:
        return _refuse("--keep keeps the reports in a room's database: give --database URL")
    if args.keep:  # said now, not after a run of millions of deals
        from stud8.server.admin import NoSchemaError, check_keeps_fairness

        try:
            check_keeps_fairness(args.database)
        except NoSchemaError as exc:
            return _refuse(str(exc))
    html: Path | None = args.html
    if html is not None:
        if importlib.util.find_spec("matplotlib") is None:
            return _refuse("--html needs matplotlib: pip install 'stud8[tools]'")
        if not html.parent.is_dir():
            return _refuse(f"--html {html}: the directory {html.parent} does not exist")
    from stud8.tools.fairness.run import ProgressLine, run_offline

    reports: list[FairnessReport] = []
    if deals:
        bar = None if args.no_progress else ProgressLine(sys.stderr, "deals")
        try:
            reports.append(
                run_offline(
                    deals,
                    Shuffle(args.shuffle),
                    seed=args.seed,
                    jobs=args.jobs or None,
                    alpha=args.alpha,
                    progress=bar,
                )
            )
        finally:
            if bar is not None:
                bar.close()
    if args.database is not None:
        from stud8.server.admin import NoSchemaError, rng_report

        bar = None if args.no_progress else ProgressLine(sys.stderr, "hands")
        try:
            reports.append(rng_report(args.database, alpha=args.alpha, progress=bar))
        except NoSchemaError as exc:
            return _refuse(str(exc))
        finally:
            if bar is not None:
                bar.close()
    failed = any(r.verdict.value == "fail" for r in reports)
    if args.json:
        verdict = "fail" if failed else "pass"
        body = {"verdict": verdict, "reports": [r.to_json() for r in reports]}
        json.dump(body, sys.stdout, indent=1, allow_nan=False)
        sys.stdout.write("\n")
    else:
        for i, report in enumerate(reports):
            if i:
                sys.stdout.write("\n" + "=" * 78 + "\n\n")
            report.write_text(sys.stdout)
    if html is not None:
        from stud8.tools.fairness.page import write_page

        html.write_text(write_page(reports), encoding="utf-8")
        print(f"rng-report: the page is {html}", file=sys.stderr)
    if args.keep:
        from stud8.server.admin import keep_fairness

        kept = keep_fairness(args.database, [r.to_json() for r in reports], KEPT_BY)
        print(f"rng-report: {kept} report(s) kept for the console", file=sys.stderr)
    return 1 if failed else 0
