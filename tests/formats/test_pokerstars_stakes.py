"""Stakes PokerStars never dealt: fpdb's PokerStars importer refuses a fixed-limit
cash hand whose big bet is not one of PokerStars' stakes, and pot- or no-limit stud;
``why_trackers_refuse`` says exactly which hands those are (checked against fpdb
itself, hand by hand), ``stud8 hh convert`` names them, and the room's default
table, every other site's stakes we read and any tournament's stakes are accepted."""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest
from test_record import random_hand, record_of

from sharedhh import FPDB_REGRESSION, NEEDED, OTHER_SITES
from stud8.cli import main
from stud8.core.rules import BettingStructure, TableRules
from stud8.formats.pokerstars.stakes import LIMIT_BIG_BETS, why_trackers_refuse
from stud8.formats.pokerstars.write import HAND_SEPARATOR, to_pokerstars
from stud8.formats.record import HandRecord, Tournament
from stud8.server.table.spec import TableSpec
from stud8.terminal.hh import load_records
from trackercheck import fpdb_check, run_oracle

HH = Path(__file__).resolve().parents[1] / "data" / "hh"


def _hand_at(rng: random.Random, big: int, currency: str, **more: object) -> HandRecord:
    small = max(1, big // 2)
    rules = TableRules(ante=0, bring_in=max(1, small // 2), small_bet=small, big_bet=big, **more)  # type: ignore[arg-type]
    return record_of(random_hand(rng, rules), rng, currency)


def _stakes() -> list[tuple[int, str, str]]:
    """(big bet in chips, currency, structure): PokerStars' stakes and others."""
    out = []
    for text in sorted(LIMIT_BIG_BETS, key=float):
        chips = round(float(text) * 100)
        out.append((chips, "USD", "fixed_limit"))
        if float(text) >= 1:
            out.append((int(float(text)), "", "fixed_limit"))
    for chips in (3, 12, 30, 150, 300, 1200, 2500):  # $0.03 ... $25 big bets
        out.append((chips, "USD", "fixed_limit"))
    for chips in (3, 12, 24, 300, 1200, 5000):
        out.append((chips, "", "fixed_limit"))
    out += [(8, "USD", "pot_limit"), (8, "", "no_limit")]
    return out


def test_our_word_on_each_stake_is_fpdbs(tmp_path: Path) -> None:
    """For each stake, fpdb accepts the hand exactly when ``why_trackers_refuse``
    says nothing (each hand in a file of its own, so that each verdict is fpdb's)."""
    rng = random.Random(33)
    files: dict[Path, str] = {}
    for k, (big, currency, structure) in enumerate(_stakes()):
        record = _hand_at(rng, big, currency, structure=BettingStructure(structure))
        path = tmp_path / f"s{k}.txt"
        path.write_text(to_pokerstars(record, everything=True))
        files[path] = why_trackers_refuse(record.rules, currency, False)
    assert sum(1 for v in files.values() if v) == 15
    run = run_oracle(list(files))
    for path, reason in files.items():
        took = re.search(rf"^{path.name}: 1 hands, fpdb accepted (\d)", run.stdout, re.M)
        assert took is not None, run.stdout
        assert (took.group(1) == "1") == (reason == ""), (path.read_text()[:120], reason)
        if "limit cash game" in reason:
            assert re.search(rf"refused: {path.name}: .*Lim_Blinds has no lookup", run.stdout)
        elif reason:
            assert re.search(rf"refused: {path.name}: .*Unsupported game type", run.stdout)


def test_a_tournament_is_accepted_at_any_limit_stakes(tmp_path: Path) -> None:
    rng = random.Random(34)
    records = [_hand_at(rng, big, "") for big in (3, 12, 24, 300, 1200, 5000)]
    tour = Tournament("77", "$1+$0.10 USD", "II")
    texts = [
        to_pokerstars(dataclasses.replace(r, tournament=tour), everything=True) for r in records
    ]
    assert all(why_trackers_refuse(r.rules, "", True) == "" for r in records)
    path = tmp_path / "tournament.txt"
    path.write_text(HAND_SEPARATOR.join(texts))
    assert f"{path.name}: 6 hands, fpdb accepted 6" in fpdb_check([path])


@NEEDED
def test_the_rooms_default_table_and_every_sites_stakes_are_pokerstars_stakes() -> None:
    rules = TableSpec().rules()
    assert why_trackers_refuse(rules, "", False) == ""
    assert why_trackers_refuse(rules, "USD", False) == ""
    for folder in (OTHER_SITES, FPDB_REGRESSION, HH / "fpdb-regex-samples"):
        for path in sorted(folder.glob("*")):
            if path.suffix not in (".txt", ".xml"):
                continue
            for r in load_records(path):
                if isinstance(r, HandRecord):
                    reason = why_trackers_refuse(r.rules, r.currency, r.tournament is not None)
                    assert reason == "", (path.name, reason)


def test_hh_convert_names_a_hand_trackers_refuse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(35)
    odd = _hand_at(rng, 12, "")
    fine = _hand_at(rng, 8, "")
    path = tmp_path / "hands.txt"
    path.write_text(HAND_SEPARATOR.join(to_pokerstars(r, everything=True) for r in (odd, fine)))
    assert main(["hh", "convert", str(path), "--to", "pokerstars", "--all-cards"]) == 0
    captured = capsys.readouterr()
    notes = [line for line in captured.err.splitlines() if "trackers" in line]
    assert len(notes) == 1
    assert notes[0].endswith(
        "a limit cash game with a big bet of 12, which PokerStars never dealt: "
        "trackers (fpdb) refuse it"
    )
    assert captured.out.count("PokerStars Hand #") == 2  # written all the same
    main(["hh", "convert", str(path), "--to", "json"])
    assert "trackers" not in capsys.readouterr().err  # only PokerStars text is concerned
