"""``stud8 play --game``: the terminal table deals Stud Hi/Lo, Seven Card Stud or Razz,
with each game's words: its title and how it is won, who brings in (the low card, in
Razz the high card), who acts first (the best board: in Razz the lowest, "8-6 low"),
the hands shown (high only; the razz low) and who takes the pot. The bots are made
for the game and the hands saved are the game's."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import pytest

from stud8.cli import build_parser, main
from stud8.core import Game
from stud8.formats.record import read_file
from stud8.tools.bots import RuleBasedBot
from stud8.tools.simulate import GAMES
from test_cli_play import FULL_HOUSE_VS_LOW, calls, lines_after, rigged, session


def test_seven_card_stud_is_won_by_the_high_hand_alone() -> None:
    code, out, _ = session(
        calls,
        bots=1,
        hands=1,
        bot_kind="calling-station",
        deck_source=rigged(FULL_HOUSE_VS_LOW),
        game=Game.STUD_HIGH,
    )
    assert code == 0
    assert out.startswith(
        "Seven Card Stud, high only: fixed limit\n"
        "The best high hand takes each pot; the lowest up card brings in.\n"
    )
    assert "Bot 1 (seat 2) has the low card (8h) and must bring in." in out
    assert "You act first (king high showing)." in out
    assert "You show [Kd Ks] Kh 4c 9s 4s [Jc]: Full house, kings full of fours\n" in out
    assert "Bot 1 (seat 2) mucks." in out  # ace high is beaten: in Hi/Lo it shows its low
    assert "low" not in out.split("--- Third street ---")[1].replace("low card", "")
    result = lines_after(out, "The best high hand takes the pot")
    assert result[:3] == [
        "The best high hand takes the pot (6).",
        "  You win 6 with Full house, kings full of fours",
        "Stacks: You 203, Bot 1 197",
    ]


def test_razz_is_won_by_the_lowest_hand_and_the_high_card_brings_in() -> None:
    code, out, _ = session(
        calls,
        bots=1,
        hands=1,
        bot_kind="calling-station",
        deck_source=rigged(FULL_HOUSE_VS_LOW),
        game=Game.RAZZ,
    )
    assert code == 0
    assert out.startswith("Razz, Seven Card Stud for the ace-to-five low: fixed limit\n")
    assert "The lowest hand takes each pot (aces low" in out
    assert "You have the high card (Kh) and must bring in." in out
    assert "Bot 1 (seat 2) acts first (8-6 low showing)." in out
    assert "Bot 1 (seat 2) acts first (Q-8-6-4 low showing)." in out
    assert "You show [Kd Ks] Kh 4c 9s 4s [Jc]: A pair of fours, K-J-9-4-4\n" in out
    assert "Bot 1 (seat 2) shows [Ac 2d] 8h 6c Qd 4d [Td]: 8-6-4-2-A low\n" in out
    result = lines_after(out, "The best low hand takes the pot")
    assert result[:3] == [
        "The best low hand takes the pot (6).",
        "  Bot 1 (seat 2) wins 6 with 8-6-4-2-A low",
        "Stacks: You 197, Bot 1 203",
    ]
    assert "Full house" not in out


@pytest.mark.parametrize("name", ["hilo", "stud", "razz"])
def test_the_command_takes_the_game_and_saves_its_hands(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "hands.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("c\n" * 300))
    argv = ["play", "--game", name, "--seed", "5", "--hands", "3", "--bots", "3"]
    assert main([*argv, "--save", str(saved)]) == 0
    out = capsys.readouterr().out
    title = {"hilo": "Seven Card Stud Hi/Lo", "stud": "Seven Card Stud, high", "razz": "Razz"}
    assert out.startswith(title[name])
    assert "Hands played: 3" in out
    records = [r for r in read_file(saved) if not isinstance(r, Exception)]
    assert len(records) == 3 and all(r.rules.game is GAMES[name] for r in records)


def test_the_bots_at_the_table_are_made_for_its_game() -> None:
    from stud8.play import PlayOptions, TerminalTable

    table = TerminalTable(
        PlayOptions(bots=3, seed=1, game=Game.RAZZ), read_line=lambda: "q", out=io.StringIO()
    )
    bots = [p.bot for p in table.players.values() if p.bot is not None]
    assert len(bots) == 3
    assert all(isinstance(b, RuleBasedBot) and b.game is Game.RAZZ for b in bots)


def test_the_game_choices_are_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for command in ("play", "simulate"):
        games = next(a for a in sub.choices[command]._actions if a.dest == "game").choices
        assert games is not None and sorted(games) == sorted(GAMES)
    assert main(["play", "--game", "omaha"]) == 2
    assert "invalid choice: 'omaha'" in capsys.readouterr().err
