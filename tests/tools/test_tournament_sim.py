"""``stud8 tournament simulate``: whole tournaments played by the bots through the
director, with the engine's real hands; the command line as a user types it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stud8.cli import main
from stud8.core import Game
from stud8.tools.tournament_report import run_tournament_simulate
from stud8.tools.tournament_sim import (
    TournamentSimConfig,
    TournamentSimError,
    simulate_tournament,
)
from stud8.tournament.director import Director
from stud8.tournament.events import DealHand, Decision, Finished
from tournament.driver import check_invariants


class Watch:
    """Checks the director's invariants after every event, and that every hand dealt is
    played from the chips the director dealt it (none made, none lost)."""

    def __init__(self) -> None:
        self.deals = 0
        self.last: tuple[Decision, ...] = ()

    def __call__(self, td: Director, decisions: tuple[Decision, ...]) -> None:
        check_invariants(td, decisions)
        self.deals += sum(isinstance(d, DealHand) for d in decisions)
        self.last = decisions


@settings(max_examples=12)
@given(
    players=st.integers(2, 40),
    size=st.integers(2, 8),
    structure=st.sampled_from(("regular", "turbo", "hyper")),
    game=st.sampled_from(list(Game)),
    seed=st.integers(0, 2**16),
)
def test_bots_play_random_tournaments_to_the_end_keeping_every_invariant(
    players: int, size: int, structure: str, game: Game, seed: int
) -> None:
    watch = Watch()
    config = TournamentSimConfig(
        players=players, table_size=size, structure=structure, game=game, seed=seed
    )
    result = simulate_tournament(config, observe=watch)
    assert result.hands == watch.deals > 0
    assert [r.place for r in result.results if r.shared == 1] == sorted(
        r.place for r in result.results if r.shared == 1
    )
    assert sum(r.prize for r in result.results) == result.prize_pool == 100 * players
    assert {r.player for r in result.results} == set(config.names())


def test_a_simulated_tournament_is_reproducible_from_its_seed() -> None:
    def run(seed: int) -> list[tuple[str, int, int]]:
        config = TournamentSimConfig(players=20, table_size=6, structure="hyper", seed=seed)
        return [(r.player, r.place, r.prize) for r in simulate_tournament(config).results]

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_a_multi_table_tournament_balances_breaks_and_ends_at_a_final_table(
    tmp_path: Path,
) -> None:
    config = TournamentSimConfig(players=30, table_size=6, seed=3, out=tmp_path)
    result = simulate_tournament(config)
    assert len(result.tables) >= 5
    finals = [t for t in result.tables if t.final]
    assert len(finals) == 1 and finals[0].broken_at is None
    assert all(t.broken_at is not None for t in result.tables if not t.final)
    assert sum(t.moved_out for t in result.tables) == sum(t.moved_in for t in result.tables) > 0
    assert sum(t.busted for t in result.tables) == 29
    assert [lv.level for lv in result.levels if not lv.break_minutes] == list(
        range(1, len(result.levels) + 1)
    )
    assert sum(lv.hands for lv in result.levels) == result.hands
    # the log: every event and decision, one a line, replayable into a new director
    lines = [json.loads(x) for x in (tmp_path / "tournament.jsonl").read_text().splitlines()]
    kinds = {x["kind"] for x in lines}
    assert {"Register", "DealHand", "HandFinished", "Moved", "TableBroken", "Finished"} <= kinds
    assert sum(x["kind"] == "HandFinished" for x in lines) == result.hands
    saved = json.loads((tmp_path / "result.json").read_text())
    assert saved["results"][0]["place"] == 1 and saved["prize_pool"] == 3000


def test_the_finished_decision_carries_places_with_no_gaps() -> None:
    watch = Watch()
    simulate_tournament(TournamentSimConfig(players=12, table_size=4, seed=8), observe=watch)
    (finished,) = [d for d in watch.last if isinstance(d, Finished)]
    covered = sorted(
        p
        for r in finished.results
        for p in range(r.place, r.place + r.shared)
        if r.entry == min(x.entry for x in finished.results if x.place == r.place)
    )
    assert covered == list(range(1, 13))


def test_the_command_prints_places_and_prizes() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = run_tournament_simulate(
        players=18,
        table_size=6,
        structure="turbo",
        bots="rules,calling-station",
        seed=3,
        stdout=out,
        stderr=err,
    )
    assert code == 0 and err.getvalue() == ""
    text = out.getvalue()
    assert text.startswith("Stud Hi/Lo tournament (simulated): 18 players, 6-handed tables")
    assert "prize pool 1,800" in text
    rows = [x.split() for x in text.splitlines() if x.strip()[:1].isdigit() and "-" in x]
    assert [int(r[0]) for r in rows if r[0].isdigit()][:3] == [1, 2, 3]
    assert "rules: 9 players" in text and "calling-station: 9 players" in text
    assert "hands/s" in text


def test_the_command_in_json_gives_every_level_and_table() -> None:
    out = io.StringIO()
    code = run_tournament_simulate(
        players=18, table_size=6, structure="turbo", seed=3, as_json=True, stdout=out
    )
    assert code == 0
    data = json.loads(out.getvalue())
    assert [r["place"] for r in data["results"]] == list(range(1, 19))
    assert sum(r["prize"] for r in data["results"]) == data["prize_pool"] == 1800
    assert data["levels"][0] == {**data["levels"][0], "level": 1, "stakes": [5, 10, 20, 40]}
    assert {t["table"] for t in data["tables"]} == {1, 2, 3}
    assert all(
        {"opened_at", "broken_at", "hands", "moved_in", "final"} <= set(t) for t in data["tables"]
    )


def test_the_command_line_runs_the_issue_s_example(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "tournament",
            "simulate",
            "--players",
            "6",
            "--table-size",
            "6",
            "--structure",
            "hyper",
            "--bots",
            "rules,equity",
            "--equity-trials",
            "30",
            "--seed",
            "3",
        ]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "equity: 3 players" in captured.out and "rules: 3 players" in captured.out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--bots", "rules,shark"], "unknown bot 'shark'"),
        (["--bots", "rules,"], "none empty"),
        (["--game", "holdem"], "invalid choice"),
        (["--structure", "slow"], "invalid choice"),
        (["--players", "1"], "players"),
        (["--table-size", "9"], "table-size"),
        (["--buy-in", "-5"], "buy-in"),
        (["--seed", "x"], "seed"),
    ],
)
def test_bad_settings_end_in_a_clear_error_not_a_traceback(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["tournament", "simulate", "--players", "4", *argv])
    captured = capsys.readouterr()
    assert code == 2
    assert says in captured.err and "Traceback" not in captured.err


def test_an_out_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    err = io.StringIO()
    code = run_tournament_simulate(players=4, seed=1, out=f, stderr=err)
    assert code == 2 and "exists and is not a directory" in err.getvalue()


def test_the_config_refuses_what_cannot_be_played() -> None:
    with pytest.raises(TournamentSimError, match="2 to 10000 players"):
        TournamentSimConfig(players=1, seed=1)
    with pytest.raises(TournamentSimError, match="table_size"):
        TournamentSimConfig(players=10, seed=1, table_size=10)
    with pytest.raises(TournamentSimError, match="unknown structure"):
        TournamentSimConfig(players=10, seed=1, structure="deep")


def test_the_command_help_lists_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament"]) == 2
    assert "simulate" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["stud-hi-lo", "razz"])
def test_the_hands_are_written_as_pokerstars_tournament_text_and_fpdb_takes_them(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--format pokerstars: every hand in hands.txt as the room writes a tournament's
    hands (its number, buy-in and level; the table NUMBER TABLE; a date), each one
    reproducing in stud8, and fpdb (through the oracle) takes them with our totals."""
    from stud8.formats.pokerstars.read import read_file
    from stud8.formats.pokerstars.record import record_of_pokerstars
    from trackercheck import fpdb_check, totals_are_ours

    out = tmp_path / "run"
    argv = ["tournament", "simulate", "--players", "6", "--seed", "7", "--game", game]
    assert main([*argv, "--out", str(out), "--format", "pokerstars", "--fee", "10"]) == 0
    said = capsys.readouterr().out
    assert f"{out / 'hands.txt'}" in said
    text = (out / "hands.txt").read_text(encoding="utf-8")
    result = json.loads((out / "result.json").read_text())
    heads = [line for line in text.split("\n") if line.startswith("PokerStars Hand #")]
    assert len(heads) == result["hands"] > 10
    assert all(" Tournament #7, $100+$10 USD " in h and " - Level " in h for h in heads)
    assert "1970/01/01" not in text and "Table '7 1' 8-max" in text
    assert main(["hh", "verify", str(out / "hands.txt")]) == 0
    assert f"hands: {len(heads)}  reproduced: {len(heads)}" in capsys.readouterr().out
    records = [record_of_pokerstars(h) for h in read_file(out / "hands.txt")]  # type: ignore[arg-type]
    totals_are_ours(text, records)
    assert f"hands.txt: {len(heads)} hands, fpdb accepted {len(heads)}" in fpdb_check(
        [out / "hands.txt"]
    )


def test_format_needs_out(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "simulate", "--players", "3", "--seed", "1", "--format", "pokerstars"]
    assert main(argv) == 2
    assert "give --out DIR too" in capsys.readouterr().err
