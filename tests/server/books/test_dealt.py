"""The fairness report on the hands a room stored (``stud8 admin rng-report
--database URL``): each table's hands in the order dealt, the decks and the cards as
dealt by seat and street tested; a weak shuffle and a misdealt hand are caught; the
sample is stated, and a small one is said to have low power.

Runs on SQLite, and on PostgreSQL too when ``STUD8_TEST_POSTGRES_URL`` is set. The
room's shuffle is tested at a significance of 1e-6: a false failure once in a million
runs at most by Holm's bound, were the chi-square exact; with about 10 deals expected
in each card's place its tail may be a few times off, which still leaves fewer than one
false failure in 100,000 runs. The weak shuffle is seeded and fails every time.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, update

from stud8.cli import main
from stud8.core import Hand
from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.rules import TableRules
from stud8.formats.record import HandRecord
from stud8.server.admin import NoSchemaError, rng_report
from stud8.server.books.dealt import count_stored, stored_deals
from stud8.server.books.fairness import FairnessReports
from stud8.server.books.hands import HandStore, InProgress, SeatEntry
from stud8.server.storage.db import upgrade
from stud8.server.storage.models import StoredHand
from stud8.terminal.rng_report import KEPT_BY
from stud8.tools.fairness.report import Verdict

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
HANDS = 500


def played(deck: Deck, hand_id: str, seats: int, table: str) -> HandRecord:
    """A hand on the engine: a player folds at his first chance one time in three, the
    others check, call or bring in to the end (so hands end on every street)."""
    names = {s: f"p{s}" for s in range(1, seats + 1)}
    hand = Hand.start(rules=RULES, stacks=dict.fromkeys(names, 100), deck=deck, hand_id=hand_id)
    folding = random.Random(hand_id)
    while not hand.is_over:
        legal = {a.kind for a in hand.legal_actions()}
        if ActionKind.FOLD in legal and folding.random() < 0.33:
            kind = ActionKind.FOLD
        else:
            kind = next(
                k for k in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN) if k in legal
            )
        hand.apply(make_action(kind.value, None))
    return HandRecord.from_hand(
        hand, names=names, table=table, started_at=datetime(2026, 1, 2, tzinfo=UTC)
    )


def store_hands(engine: Engine, decks: list[Deck]) -> list[HandRecord]:
    """The hands of two tables (eight seats and five), dealt in turn, stored."""
    records = []
    with engine.begin() as conn:
        for i, deck in enumerate(decks):
            table, seats = ("t1", 8) if i % 2 == 0 else ("t2", 5)
            record = played(deck, f"h{i}", seats, table)
            HandStore.store_in(conn, record)
            records.append(record)
    return records


def test_the_stored_hands_are_read_table_by_table_in_the_order_dealt(engine: Engine) -> None:
    records = store_hands(engine, [Deck.shuffled() for _ in range(6)])
    got = [(table, HandRecord.loads(text).hand_id) for table, text in stored_deals(engine)]
    assert got == [
        (t, f"h{i}") for t, i in (("t1", 0), ("t1", 2), ("t1", 4), ("t2", 1), ("t2", 3), ("t2", 5))
    ]
    assert count_stored(engine).hands == len(records)


def test_the_room_s_dealt_hands_pass(engine: Engine, migrated_url: str) -> None:
    store_hands(engine, [Deck.shuffled() for _ in range(HANDS)])
    report = rng_report(migrated_url, alpha=1e-6)
    assert report.verdict is Verdict.PASS, [r.finding.key for r in report.failed]
    assert report.source.kind == "stored" and report.source.deals == HANDS
    found = {r.finding.key: r for r in report.results}
    assert found["dealt.as-shuffled"].verdict is Verdict.PASS
    assert found["dealt.as-shuffled"].finding.sample == HANDS
    # the cards as dealt, street by street: 3rd street always, 7th when a hand got there
    assert found["dealt.street-3"].finding.sample == 3 * (8 + 5) * HANDS // 2
    assert found["dealt.street-7"].finding.sample > 0
    # the seats: 1 to 5 at both tables, 6 to 8 at the first only
    assert found["starting.seat-1"].finding.sample == HANDS
    assert found["starting.seat-8"].finding.sample == HANDS // 2
    assert found["serial.same-place"].finding.sample == HANDS - 2  # two tables, two chains
    # 500 deals cannot test the 120 orders of five cards (4.2 expected in each): said so
    assert found["order.first-five"].verdict is Verdict.NOT_RUN
    assert "low power" in report.power


def test_a_weak_shuffle_and_a_misdeal_fail(engine: Engine, migrated_url: str) -> None:
    """Decks from a generator seeded with 8 bits (256 decks) repeat; a hand whose record
    says it dealt other cards than its deck's is misdealt."""
    seeds = random.Random(11)
    decks = [Deck.shuffled(random.Random(seeds.getrandbits(8))) for _ in range(200)]
    records = store_hands(engine, decks)
    other = replace(played(Deck.shuffled(), "h-odd", 3, "t3"), deck=records[0].deck)
    HandStore(engine).store(other)
    report = rng_report(migrated_url, alpha=0.01)
    failed = {r.finding.key for r in report.failed}
    assert "repeats.first-20" in failed and "dealt.as-shuffled" in failed
    misdealt = next(r for r in report.results if r.finding.key == "dealt.as-shuffled")
    assert "h-odd" in misdealt.finding.note


def test_the_command_on_a_database(
    engine: Engine, migrated_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # seeded decks: the report's verdict is then the same every run (40 unseeded decks
    # fail its default 1% level about once in a hundred runs, as a fair shuffle should)
    store_hands(engine, [Deck.seeded(seed) for seed in range(40)])
    lost = InProgress("h-lost", "t1", datetime(2026, 1, 3, tzinfo=UTC), (SeatEntry(1, "p1", 100),))
    HandStore(engine).close_unfinished(lost, cancelled=True, note="cancelled by a restart")
    code = main(["admin", "rng-report", "--database", migrated_url, "--json", "--alpha", "1e-6"])
    body = json.loads(capsys.readouterr().out)
    assert code == 0 and body["verdict"] == "pass"
    (report,) = body["reports"]  # --database alone: the stored hands only
    assert report["source"]["kind"] == "stored"
    assert report["source"]["deals"] == 40 and report["source"]["left_out"] == 1
    assert "low power" in report["power"]["said"]
    assert main(["admin", "rng-report", "--database", migrated_url, "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "40 stored hands" in text and "1 stored hand(s) without a record" in text


def test_a_record_that_cannot_be_read_is_said(
    engine: Engine, migrated_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    store_hands(engine, [Deck.shuffled() for _ in range(3)])
    with engine.begin() as conn:
        conn.execute(update(StoredHand).where(StoredHand.hand_id == "h1").values(record='{"v": 1}'))
    assert main(["admin", "rng-report", "--database", migrated_url, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "a stored hand's record cannot be read" in err and "Traceback" not in err


def test_a_database_without_a_room(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'none.db'}"
    with pytest.raises(NoSchemaError):
        rng_report(url, alpha=0.01)
    assert main(["admin", "rng-report", "--database", url]) == 2
    assert "no database file" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


def test_the_command_keeps_its_report_for_the_console(
    engine: Engine, migrated_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    store_hands(engine, [Deck.seeded(seed) for seed in range(40)])
    assert main(["admin", "rng-report", "--deals", "10", "--keep", "--no-progress"]) == 2
    assert "--keep keeps the reports in a room's database" in capsys.readouterr().err
    assert FairnessReports(engine).last() is None
    argv = ["admin", "rng-report", "--database", migrated_url, "--deals", "1000", "--jobs", "1"]
    code = main([*argv, "--keep", "--json", "--alpha", "1e-6", "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0 and "2 report(s) kept for the console" in err
    printed = json.loads(out)["reports"]
    kept = FairnessReports(engine).last()  # the last of the two: the stored hands'
    assert kept is not None and kept.run_by == KEPT_BY and kept.deals == 40
    assert kept.report == printed[1] and kept.verdict == "pass"


def test_keep_on_a_database_older_than_the_reports_table_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0010")  # a room not yet restarted on the version that keeps reports
    argv = ["admin", "rng-report", "--database", url, "--deals", "100000", "--keep"]
    assert main([*argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "keeps no fairness reports yet: start the room on it once" in err
    assert "Traceback" not in err
