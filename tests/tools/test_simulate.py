"""Tests of ``stud8 simulate`` (stud8.tools.simulate, simulate_report) and of the seat
windows the bots decide from in it (stud8.tools.bots.window)."""

from __future__ import annotations

import io
import json
import math
import random
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from stud8.cli import main
from stud8.core import BettingStructure, Deck, Game, Hand, TableRules
from stud8.core.actions import Action
from stud8.formats.phh import PhhHand, read_phh_file
from stud8.formats.pokerstars import PokerStarsHand
from stud8.formats.pokerstars.read import parse_text
from stud8.formats.record import HandRecord, read_file
from stud8.formats.registry import Status
from stud8.terminal.hh import check_file
from stud8.tools import simulate as simulate_module
from stud8.tools import simulate_report
from stud8.tools.bots import BOTS, Bot, CallingStation, RuleBasedBot, make_bot, play_hand
from stud8.tools.bots.window import HandWindows, play_fast
from stud8.tools.simulate import SimulationConfig, SimulationError, simulate, stats_of

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
Z = 1.959963984540054


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["simulate", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# ------------------------------------------------------------- reproducible
def test_the_same_seed_gives_the_same_hands() -> None:
    config = SimulationConfig(hands=120, bots=("rules", "random", "calling-station"), seed=21)
    first, again = simulate(config), simulate(config)
    assert first.nets == again.nets
    assert first.decisions == again.decisions
    other = simulate(SimulationConfig(hands=120, bots=config.bots, seed=22))
    assert other.nets != first.nets


def test_the_number_of_jobs_does_not_change_the_hands(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(simulate_module, "BLOCK", 40)  # 150 hands: four blocks
    bots = ("rules", "equity", "random", "rules", "calling-station")
    runs = {}
    for jobs in (1, 2):
        config = SimulationConfig(
            hands=150, bots=bots, seed=5, jobs=jobs, equity_trials=40, out=tmp_path / f"j{jobs}"
        )
        runs[jobs] = simulate(config)
    assert runs[1].nets == runs[2].nets
    assert runs[1].decisions == runs[2].decisions
    one, two = runs[1].written, runs[2].written
    assert one is not None and two is not None
    assert one.read_bytes() == two.read_bytes()  # every hand, card for card


def test_chips_are_conserved_in_every_hand(tmp_path: Path) -> None:
    # Short stacks: all-ins and side pots.
    config = SimulationConfig(
        hands=200,
        bots=("random", "rules", "calling-station", "random", "rules", "random", "rules"),
        seed=3,
        stack=30,
        out=tmp_path,
    )
    result = simulate(config)
    for hand in zip(*result.nets, strict=True):
        assert sum(hand) == 0
    assert any(min(hand) == -30 for hand in zip(*result.nets, strict=True))  # busted
    assert result.written is not None
    records = read_file(result.written)
    assert len(records) == 200
    for record, nets in zip(records, zip(*result.nets, strict=True), strict=True):
        start = {s.seat: s.stack for s in record.seats}
        final = dict(record.final_stacks)
        assert sum(final.values()) == sum(start.values())
        assert [final[s] - start[s] for s in sorted(start)] == list(nets)


# ----------------------------------------------------------------- the report
def independent_stats(per_hand: list[float], big_bet: int) -> tuple[float, float]:
    mean = statistics.fmean(per_hand)
    half = Z * statistics.stdev(per_hand) / math.sqrt(len(per_hand))
    return mean * 100 / big_bet, half * 100 / big_bet


def test_the_report_agrees_with_the_hands_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "--hands",
        "300",
        "--bots",
        "rules,equity,rules,random",
        "--seed",
        "9",
        "--stakes",
        "1/2/5/10",
        "--stack",
        "400",
        "--equity-trials",
        "50",
        "--out",
        str(tmp_path),
    ]
    code, out, err = run_cli([*argv, "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    records = read_file(tmp_path / "hands.jsonl")
    assert len(records) == report["hands"] == 300
    assert report["stack"] == 400 and report["stakes"] == [1, 2, 5, 10]
    per_seat: dict[int, list[int]] = {s: [] for s in range(1, 5)}
    for record in records:
        final = dict(record.final_stacks)
        for s in record.seats:
            assert s.stack == 400  # reset before every hand
            per_seat[s.seat].append(final[s.seat] - s.stack)
    for seat, row in zip(range(1, 5), report["seats"], strict=True):
        bb, half = independent_stats([float(x) for x in per_seat[seat]], 10)
        assert row["hands"] == 300
        assert row["net"] == sum(per_seat[seat])
        assert row["bb_per_100"] == pytest.approx(bb, abs=1e-9)
        low, high = row["ci95"]
        assert low == pytest.approx(bb - half, abs=1e-9)
        assert high == pytest.approx(bb + half, abs=1e-9)
    # The rule-based bot plays seats 1 and 3: per hand, the average of the two.
    rules = next(r for r in report["by_bot"] if r["label"] == "rules")
    both = [(a + b) / 2 for a, b in zip(per_seat[1], per_seat[3], strict=True)]
    bb, half = independent_stats(both, 10)
    assert rules["seats"] == 2
    assert rules["net"] == sum(per_seat[1]) + sum(per_seat[3])
    assert rules["bb_per_100"] == pytest.approx(bb, abs=1e-9)
    assert rules["ci95"][1] - rules["ci95"][0] == pytest.approx(2 * half, abs=1e-9)
    assert report["hands_per_second"] == pytest.approx(300 / report["seconds"])
    # The text report says the same.
    code, text, err = run_cli(argv, capsys)
    assert code == 0
    line = next(x for x in text.splitlines() if x.startswith("seat 2 equity"))
    seat2 = report["seats"][1]
    assert f"{seat2['net']:+,}" in line
    assert f"{seat2['bb_per_100']:+,.2f}" in line
    assert f"{seat2['ci95'][0]:+,.2f} to {seat2['ci95'][1]:+,.2f}" in line
    assert "reset to 400 chips (40 big bets) before each hand" in text
    assert "hands/s" in text
    assert "simulated 300 hands" in err  # the final line, always on stderr


def test_stats_of_a_few_hands() -> None:
    s = stats_of("x", [8, -8, 16, 0], big_bet=8)
    assert s.hands == 4 and s.net == 16
    assert s.bb_per_100 == pytest.approx(50.0)
    sd = statistics.stdev([1.0, -1.0, 2.0, 0.0])  # in big bets
    assert s.ci == pytest.approx(Z * sd / 2 * 100)
    one = stats_of("y", [5], big_bet=8)
    assert one.ci is None and one.low is None


# ------------------------------------------------------------ writing hands
@pytest.mark.parametrize("fmt", ["json", "pokerstars", "phh"])
def test_every_hand_is_written_and_reads_back(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--hands", "25", "--players", "5", "--seed", "12", "--bots", "rules"]
    code, _, err = run_cli([*argv, "--out", str(tmp_path), "--format", fmt], capsys)
    assert code == 0, err
    (path,) = tmp_path.iterdir()
    assert path.name == {"json": "hands.jsonl", "pokerstars": "hands.txt", "phh": "hands.phhs"}[fmt]
    text = path.read_text(encoding="utf-8")
    if fmt == "json":
        hands: list[Any] = read_file(path)
        assert all(isinstance(h, HandRecord) for h in hands)
        assert [h.hand_id for h in hands] == [f"sim12-{i}" for i in range(1, 26)]
        assert hands[0].names == {s: f"rules-{s}" for s in range(1, 6)}
    elif fmt == "pokerstars":
        hands = parse_text(text, file=str(path))
        assert all(isinstance(h, PokerStarsHand) for h in hands)
    else:
        hands = read_phh_file(text, source=str(path))
        assert all(isinstance(h, PhhHand) for h in hands)
    assert len(hands) == 25
    checks = Counter(c.status for c in check_file(path))
    assert checks == {Status.REPRODUCED: 25}


# ------------------------------------------------------------- bad arguments
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "rules,nobody"], "unknown bot 'nobody': choose from"),
        (["--players", "3", "--bots", "rules,rules"], "2 bots for 3 players"),
        (["--bots", "rules,,rules"], "an empty name"),
        (["--players", "9"], "must be from 2 to 8, got 9"),
        (["--players", "1"], "must be from 2 to 8, got 1"),
        (["--hands", "0"], "must be at least 1, got 0"),
        (["--hands", "many"], "not a whole number: 'many'"),
        (["--stakes", "1/2/4"], "stakes are four whole numbers"),
        (["--stakes", "1/2/8/4"], "must not be below the small bet"),
        (["--stack", "0"], "must be at least 1, got 0"),
        (["--jobs", "0"], "must be from 1 to 256, got 0"),
        (["--format", "phh"], "give --out DIR as well"),
        (["--format", "html", "--out", "x"], "invalid choice: 'html'"),
        (["--chart", "winnings.jpg"], "the chart is a PNG file"),
        (["--chart", "/no/such/dir/w.png"], "does not exist"),
        (["--equity-trials", "0"], "must be at least 1, got 0"),
    ],
)
def test_bad_arguments_are_refused_clearly(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(["--hands", "5", *argv], capsys)
    assert code == 2
    assert message in err
    assert out == ""


def test_an_output_path_that_is_a_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "taken"
    target.write_text("not a directory")
    code, _, err = run_cli(["--hands", "5", "--out", str(target)], capsys)
    assert code == 2
    assert "exists and is not a directory" in err
    assert target.read_text() == "not a directory"


def test_config_refuses_bad_settings() -> None:
    with pytest.raises(SimulationError, match="2 to 8 players"):
        SimulationConfig(hands=5, bots=("rules",), seed=1)
    with pytest.raises(SimulationError, match="unknown bot"):
        SimulationConfig(hands=5, bots=("rules", "shark"), seed=1)
    with pytest.raises(SimulationError, match="stakes 1/9/4/8"):
        SimulationConfig(hands=5, bots=("rules", "rules"), seed=1, stakes=(1, 9, 4, 8))


# -------------------------------------------------------- chart and progress
def test_the_chart_is_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chart = tmp_path / "winnings.png"
    argv = ["--hands", "40", "--bots", "rules,calling-station", "--seed", "1"]
    code, out, err = run_cli([*argv, "--chart", str(chart)], capsys)
    if simulate_report.chart_available():
        assert code == 0, err
        assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"chart written to {chart}" in out
    else:  # matplotlib is an optional dependency: a clear refusal, before any work
        assert code == 2
        assert "--chart needs matplotlib" in err
        assert not chart.exists()


def test_without_matplotlib_the_chart_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(simulate_report, "chart_available", lambda: False)
    code, out, err = run_cli(["--hands", "5", "--chart", str(tmp_path / "w.png")], capsys)
    assert code == 2
    assert "--chart needs matplotlib, which is not installed: pip install 'stud8[tools]'" in err
    assert out == ""


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_progress_bar_on_a_terminal_and_a_final_line_always() -> None:
    def run(err: io.StringIO) -> str:
        code = simulate_report.run_simulate(
            hands=1200,
            players=3,
            bots="rules",
            seed=2,
            stakes=(1, 2, 4, 8),
            stack=None,
            jobs=1,
            out=None,
            fmt=None,
            chart=None,
            equity_trials=None,
            as_json=False,
            stdout=io.StringIO(),
            stderr=err,
        )
        assert code == 0
        return err.getvalue()

    plain = run(io.StringIO())
    assert plain.startswith("simulated 1,200 hands in ") and plain.count("\n") == 1
    tty = run(_Terminal())
    assert "1,200/1,200 hands" in tty and "[####" in tty
    assert tty.rstrip().splitlines()[-1].lstrip("\r ").startswith("simulated 1,200 hands")


def test_a_seed_is_chosen_and_shown_when_none_is_given(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run_cli(["--hands", "3", "--players", "2", "--json"], capsys)
    assert code == 0
    seed = json.loads(out)["seed"]
    assert f"seed {seed})" in err


# ------------------------------------------------------------ seat windows
def random_table(rng: random.Random) -> tuple[TableRules, dict[int, int]]:
    n = rng.randint(2, 8)
    seats = sorted(rng.sample(range(1, 9), n))
    rules = TableRules(
        ante=rng.choice((0, 1, 2)),
        bring_in=2,
        small_bet=4,
        big_bet=8,
        structure=rng.choice(list(BettingStructure)),
        game=rng.choice(list(Game)),
    )
    return rules, {s: rng.choice((2, 5, 20, 60, 300, 800)) for s in seats}


def test_a_window_shows_what_the_view_shows_and_no_more() -> None:
    """At every decision of many random hands, every seat's window answers exactly as
    that seat's HandView: its own down cards, nobody else's."""
    rng = random.Random("windows")
    checked = 0
    for _ in range(60):
        rules, stacks = random_table(rng)
        hand = Hand.start(rules=rules, stacks=stacks, deck=Deck.shuffled(rng))
        windows = HandWindows(hand)
        bots: dict[int, Bot] = {s: BOTS[rng.choice(sorted(BOTS))](rng) for s in stacks}
        while hand.to_act is not None:
            for seat in hand.seats:
                view = hand.view(seat)
                w = windows.seat(seat)
                assert w.seat == seat and w.seats == tuple(s.seat for s in view.seats)
                assert (w.street, w.to_act, w.pot, w.current_bet, w.community_card) == (
                    view.street,
                    view.to_act,
                    view.pot,
                    view.current_bet,
                    view.community_card,
                )
                assert w.legal_actions == view.legal_actions
                assert w.live_seats() == tuple(s.seat for s in view.seats if not s.folded)
                assert w.down_cards == view.seat(seat).down_cards
                assert w.own_cards() == hand.cards(seat)  # its own, as dealt
                assert dict(w.shown()) == {s.seat: s.up_cards for s in view.seats}
                counts = [0] * 15
                for s, up in zip(view.seats, w.all_up_cards(), strict=True):
                    assert up == s.up_cards == w.up_cards(s.seat)
                    assert w.others_down(s.seat) == s.down_cards
                    if s.seat != seat:
                        assert all(c is None for c in w.others_down(s.seat))
                    assert (w.street_bet(s.seat), w.stack(s.seat), w.contributed(s.seat)) == (
                        s.bet,
                        s.stack,
                        s.contributed,
                    )
                    assert (w.is_folded(s.seat), w.is_all_in(s.seat)) == (s.folded, s.all_in)
                    for c in up:
                        counts[c.rank] += 1
                assert w.up_rank_counts() == tuple(counts)
                assert w.view() == view
                checked += 1
            seat = hand.to_act
            action = bots[seat].act(hand.view(seat))
            hand.apply(action if rng.random() < 0.9 else hand.legal_actions()[0].action())
    assert checked > 1000


def test_the_rule_based_bot_decides_the_same_from_a_window() -> None:
    rng = random.Random("rules-window")
    decisions = 0
    for _ in range(300):
        rules, stacks = random_table(rng)
        hand = Hand.start(rules=rules, stacks=stacks, deck=Deck.shuffled(rng))
        windows = HandWindows(hand)
        seed = rng.random()
        # made for the table's game: a view does not say it, a window does
        by_view = {s: RuleBasedBot(random.Random(f"{seed}/{s}"), game=rules.game) for s in stacks}
        by_window = {s: RuleBasedBot(random.Random(f"{seed}/{s}")) for s in stacks}
        while hand.to_act is not None:
            seat = hand.to_act
            action = by_view[seat].act(hand.view(seat))
            assert by_window[seat].decide(windows.seat(seat)) == action
            hand.apply(action)
            decisions += 1
    assert decisions > 2000


def test_fast_play_gives_the_same_hands_as_play_hand() -> None:
    rng = random.Random(31)
    kinds = sorted(BOTS)
    for _ in range(40):
        rules, stacks = random_table(rng)
        deck = Deck.shuffled(rng)
        names = {s: rng.choice(kinds) for s in stacks}
        seed = rng.random()

        def bots(
            names: dict[int, str] = names, seed: float = seed, game: Game = rules.game
        ) -> dict[int, Bot]:
            return {
                s: make_bot(k, random.Random(f"{seed}/{s}"), game=game) for s, k in names.items()
            }

        slow = Hand.start(rules=rules, stacks=stacks, deck=deck)
        fast = Hand.start(rules=rules, stacks=stacks, deck=deck)
        assert play_hand(slow, bots()) == play_fast(fast, bots())
        assert slow.decisions == fast.decisions


def test_through_windows_the_rule_based_bot_ignores_hidden_cards() -> None:
    """Seat 1's decisions, made from its window, stay the same when the other seats'
    hidden cards change."""
    base = list(Deck.seeded(11).cards)
    other = base.copy()
    for pos, unused in zip((1, 2, 4, 5, 19, 20), range(40, 46), strict=True):
        other[pos], other[unused] = other[unused], other[pos]

    def decisions(deck: Deck) -> list[Action]:
        hand = Hand.start(rules=RULES, stacks={1: 500, 2: 500, 3: 500}, deck=deck)
        bots: dict[int, Bot] = {
            1: RuleBasedBot(random.Random(5)),
            2: CallingStation(random.Random(0)),
            3: CallingStation(random.Random(0)),
        }
        play_fast(hand, bots)
        return [a for s, a in hand.decisions if s == 1 and a is not None]

    first = decisions(Deck(tuple(base)))
    assert len(first) == 5  # one decision on every street
    assert decisions(Deck(tuple(other))) == first


def test_a_window_is_only_for_seats_in_the_hand() -> None:
    hand = Hand.start(rules=RULES, stacks={1: 50, 3: 50}, deck=Deck.seeded(1))
    windows = HandWindows(hand)
    assert windows.seat(3).seat == 3
    with pytest.raises(KeyError, match="seat 2 is not in this hand"):
        windows.seat(2)
    waiting = windows.seat(1 if hand.to_act == 3 else 3)
    assert waiting.legal_actions == ()
    with pytest.raises(ValueError, match="own turn"):
        RuleBasedBot(random.Random(0)).decide(waiting)
