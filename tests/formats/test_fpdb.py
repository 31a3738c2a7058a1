"""fpdb, the open-source tracker, imports every hand we write in PokerStars text,
with the pot, rake and collected amounts we computed: simulated hands, random
engine hands at every kind of table (rake, all-ins and side pots, timeouts), each
from every view (the operator's, a player's, an observer's), tournament and
mixed-game hands with a local time zone, table lines and voluntary shows, and the
real PokerStars hands read and written back. (The room's hands over
``/api/v1/hands``: tests/server/books/test_hands_fpdb.py.)"""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from test_record import random_hand, random_rules, record_of

from sharedhh import NEEDED, SHARED_HH, files_in
from stud8.core.events import HandShown, PotAwarded
from stud8.core.rules import BettingStructure, TableRules
from stud8.formats.pokerstars import PokerStarsHand
from stud8.formats.pokerstars.read import read_file
from stud8.formats.pokerstars.record import record_of_pokerstars
from stud8.formats.pokerstars.write import HAND_SEPARATOR, to_pokerstars
from stud8.formats.record import HandRecord, TableLine, Tournament, VoluntaryShow
from stud8.tools.simulate import SimulationConfig, simulate
from trackercheck import fpdb_check, totals_are_ours, trackable


def _dealt_at_pokerstars(rng: random.Random, every_option: bool) -> TableRules:
    """A random table PokerStars could deal: fixed limit, the big bet twice the small
    (fpdb knows a PokerStars cash game by its big bet, from PokerStars' own list of
    stakes, and refuses the pot-limit and no-limit stud PokerStars never dealt; see
    test_fpdb_refuses_only_tables_pokerstars_never_dealt)."""
    rules = random_rules(rng, every_option=every_option)
    return dataclasses.replace(
        rules, structure=BettingStructure.FIXED_LIMIT, big_bet=2 * rules.small_bet
    )


def _write(path: Path, texts: list[str]) -> Path:
    path.write_text(HAND_SEPARATOR.join(texts), encoding="utf-8")
    return path


def _dressed(record: HandRecord, rng: random.Random) -> HandRecord:
    """The record with what a site's history adds: a tournament or a mixed game, a
    local zone, a seat sitting out, table lines, a voluntary show."""
    extras: dict[str, object] = {
        "started_at": datetime(2026, 11, 26, 7, 15, tzinfo=UTC)
        + timedelta(minutes=rng.randrange(10**6)),
        "time_zone": rng.choice(("", "CET", "PT")),
        "mixed": rng.choice(("", "HORSE", "8-Game")),
        "table_lines": (
            TableLine(0, f"{record.seats[0].name} joins the table at seat #{record.seats[0].seat}"),
            TableLine(len(record.events) // 2, f'{record.seats[-1].name} said, "nh"'),
        ),
    }
    if rng.random() < 0.5:
        extras["tournament"] = Tournament(str(rng.randrange(10**9)), "$0.98+$0.12 USD", "V")
        extras["currency"] = ""
    winners = {e.seat for e in record.events if isinstance(e, PotAwarded)}
    if winners and not any(isinstance(e, HandShown) for e in record.events):
        seat = min(winners)
        extras["shows"] = (VoluntaryShow(seat, record.replay().cards(seat)[:3]),)
    return dataclasses.replace(record, **extras)  # type: ignore[arg-type]


@NEEDED
def test_fpdb_imports_every_hand_we_write(tmp_path: Path) -> None:
    rng = random.Random(18)
    files: list[Path] = []
    # simulated hands, short stacks (all-ins, side pots), as `stud8 simulate` writes them
    config = SimulationConfig(
        hands=40,
        bots=("random", "rules", "calling-station", "random", "rules"),
        seed=18,
        stack=60,
        out=tmp_path / "sim",
        fmt="pokerstars",
    )
    written = simulate(config).written
    assert written is not None
    files.append(written)
    # random engine hands at random tables (rake, timeouts), every view, cash and chips
    records = [
        record_of(random_hand(rng, _dealt_at_pokerstars(rng, every), timeouts=0.1), rng, cur)
        for every in (False, True)
        for cur in ("USD", "")
        for _ in range(25)
    ]
    records = [r for r in records if trackable(r)]
    assert len(records) > 80
    operator = [to_pokerstars(r, everything=True) for r in records]
    totals_are_ours(HAND_SEPARATOR.join(operator), records)
    files.append(_write(tmp_path / "operator.txt", operator))
    files.append(
        _write(tmp_path / "player.txt", [to_pokerstars(r, seat=r.seats[-1].seat) for r in records])
    )
    files.append(_write(tmp_path / "observer.txt", [to_pokerstars(r) for r in records]))
    # tournament and mixed-game hands, local zones, table lines, voluntary shows
    dressed = [_dressed(r, rng) for r in records[:40]]
    texts = [to_pokerstars(r, everything=True) for r in dressed]
    totals_are_ours(HAND_SEPARATOR.join(texts), dressed)
    assert any("Tournament #" in t for t in texts) and any(": shows [" in t for t in texts)
    files.append(_write(tmp_path / "dressed.txt", texts))
    # the real hands, read and written back from the hero's view and the operator's
    real = [h for p in files_in(SHARED_HH, "*.txt") for h in read_file(p)]
    assert real and all(isinstance(h, PokerStarsHand) for h in real)
    back = [record_of_pokerstars(h) for h in real if isinstance(h, PokerStarsHand)]
    heroes = [h.hero for h in real if isinstance(h, PokerStarsHand)]
    texts = [to_pokerstars(r, seat=hero) for r, hero in zip(back, heroes, strict=True)]
    texts += [to_pokerstars(r, everything=True) for r in back]
    totals_are_ours(HAND_SEPARATOR.join(texts), back + back)
    files.append(_write(tmp_path / "real.txt", texts))
    report = fpdb_check(files)
    for path in files:
        assert f"{path.name}: " in report, report


def test_fpdb_refuses_only_tables_pokerstars_never_dealt(tmp_path: Path) -> None:
    """What fpdb does not import is a table PokerStars never dealt (so no tracker
    knows it): pot-limit or no-limit stud, or a fixed-limit cash game whose big bet
    is not one of PokerStars' stakes. The same hand at PokerStars' stakes imports."""
    rng = random.Random(7)
    hand = random_hand(rng, TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8))
    good = record_of(hand, rng, "USD")
    odd = [
        dataclasses.replace(good, rules=dataclasses.replace(good.rules, **change))
        for change in (
            {"structure": BettingStructure.POT_LIMIT},
            {"structure": BettingStructure.NO_LIMIT},
            {"big_bet": 12},
        )
    ]
    path = _write(tmp_path / "odd.txt", [to_pokerstars(r, everything=True) for r in odd])
    ok = _write(tmp_path / "ok.txt", [to_pokerstars(good, everything=True)])
    fpdb_check([ok])
    with pytest.raises(AssertionError, match=r"fpdb-3: 0/3 hands accepted") as refused:
        fpdb_check([path])
    assert refused.value.args[0].count("refused: odd.txt") == 3
