"""Tests of the ``stud8`` command and its terminal table, ``stud8 play``.

The table is driven through its input: in process, by a line reader that answers
each prompt (it reads the prompt from the captured output), and once as a real
``python -m stud8 play`` with its standard input piped.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from stud8.cli import build_parser, main
from stud8.core import Deck
from stud8.core.actions import ActionKind, BringIn, Call, Check, Complete, LegalAction, Raise
from stud8.play import PlayOptions, TerminalTable, parse_stakes, play
from stud8.terminal.commands import prompt_text, read_action
from stud8.tools.bots import BOTS

Answer = Callable[[str], str | None]


class Player:
    """A line reader that answers each prompt with ``answer(prompt)``; None is the
    end of input. It keeps the prompts it was asked."""

    def __init__(self, out: io.StringIO, answer: Answer, limit: int = 500) -> None:
        self.out = out
        self.answer = answer
        self.prompts: list[str] = []
        self.limit = limit
        self.read_to = 0  # output before this was written before the last answer

    def __call__(self) -> str:
        text = self.out.getvalue()
        prompt = text[self.read_to :].rsplit("\n", 1)[-1]
        self.read_to = len(text)
        assert prompt.startswith(("Your action ", "Fold anyway? ")), prompt
        self.prompts.append(prompt)
        assert len(self.prompts) < self.limit, "the session does not end"
        reply = self.answer(prompt)
        if reply is None:
            raise EOFError
        return reply


def session(
    answer: Answer,
    *,
    deck_source: Callable[[], Deck] | None = None,
    color: bool = False,
    **options: object,
) -> tuple[int, str, Player]:
    """Play a session; returns the exit code, the whole output and the reader."""
    out = io.StringIO()
    reader = Player(out, answer)
    opts = PlayOptions(**{"bots": 3, "seed": 7, "hands": 3, **options})  # type: ignore[arg-type]
    table = TerminalTable(opts, read_line=reader, out=out, color=color, deck_source=deck_source)
    code = table.run()
    return code, out.getvalue(), reader


def calls(prompt: str) -> str:
    return "c"  # calls a bet, checks when there is nothing to call


def lines_after(text: str, marker: str) -> list[str]:
    """The lines of ``text`` from the first one holding ``marker``."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if marker in line:
            return lines[i:]
    raise AssertionError(f"{marker!r} not in the output:\n{text}")


# ------------------------------------------------------------------- a session
def test_a_session_plays_the_hands_and_ends_with_a_summary() -> None:
    code, out, reader = session(calls)
    assert code == 0
    assert out.count("===== Hand ") == 3
    assert reader.prompts, "the user was asked to act"
    assert "Your action [f]old, [c]all 2, c[o]mplete to 4 > " in reader.prompts
    assert "--- Fourth street ---" in out
    assert "Everyone antes 1." in out
    assert re.search(r"Bot \d \(seat \d\): brings in 2", out)
    assert "[?? ??]" in out  # the bots' down cards are hidden
    assert re.search(r"Seat 1  You     \[\w\w \w\w\] \w\w", out)  # ours are shown
    summary = lines_after(out, "Summary")
    assert summary[1] == "  Hands played: 3"
    assert summary[2].startswith("  You bought in for 200 and leave with ")
    stack = int(summary[2].split()[-1].rstrip("."))
    net = stack - 200
    assert summary[3] == f"  Net result: {'+' if net > 0 else ''}{net}"


def test_every_hand_ends_with_the_stacks_and_chips_are_kept() -> None:
    code, out, _ = session(calls, hands=4)
    assert code == 0
    stacks = [line for line in out.split("\n") if line.startswith("Stacks: ")]
    assert len(stacks) == 4
    for line in stacks:
        chips = [int(part.split()[-1]) for part in line[len("Stacks: ") :].split(", ")]
        assert sum(chips) == 4 * 200  # no rake by default
    last = dict(part.rsplit(" ", 1) for part in stacks[-1][len("Stacks: ") :].split(", "))
    assert f"leave with {last['You']}." in out


def test_the_same_seed_plays_the_same_game() -> None:
    first = session(calls, hands=3)[1]
    assert session(calls, hands=3)[1] == first
    assert session(calls, hands=3, seed=8)[1] != first


def test_a_showdown_is_shown() -> None:
    _, out, _ = session(calls)
    shown = re.findall(r"^(?:You show|Bot \d \(seat \d\) shows) (.*)$", out, re.M)
    assert shown
    for text in shown:
        # the cards, all face up, then the high hand and the low (or "no low")
        assert re.match(
            r"\[\w\w \w\w\]( \w\w)+ \[\w\w\]: [A-Z][\w ,]+; (no low|[2-8A-](-[2-8A]){4} low)$", text
        ), text
    assert "High half of the pot" in out or "No qualifying low" in out


# -------------------------------------------------------- a rigged showdown
# Two players: seat 1 (you) and seat 2 (a calling station). Dealing order: the first
# down card to each seat, the second to each, the up card to each, then 4th to 7th.
FULL_HOUSE_VS_LOW = "Kd Ac Ks 2d Kh 8h 4c 6c 9s Qd 4s 4d Jc Td"
NO_LOW = "Kd Qc Ks Qd Kh 9h 4c 9c 9s Jd 4s Jh Jc Th"


def rigged(*orders: str) -> Callable[[], Deck]:
    decks: Iterator[Deck] = iter([Deck.from_cards(o) for o in orders])
    return lambda: next(decks)


def test_the_showdown_names_the_hands_and_who_won_which_half() -> None:
    code, out, _ = session(
        calls, bots=1, hands=1, bot_kind="calling-station", deck_source=rigged(FULL_HOUSE_VS_LOW)
    )
    assert code == 0
    assert "Bot 1 (seat 2) has the low card (8h) and must bring in." in out
    assert "Bot 1 (seat 2): brings in 2" in out
    assert "You: call 2" in out
    assert "You act first (king high showing)." in out
    assert "You show [Kd Ks] Kh 4c 9s 4s [Jc]: Full house, kings full of fours; no low" in out
    assert "Bot 1 (seat 2) shows [Ac 2d] 8h 6c Qd 4d [Td]: High card, ace; 8-6-4-2-A low" in out
    result = lines_after(out, "High half of the pot")
    assert result[:4] == [
        "High half of the pot: 3",
        "  You win 3 with Full house, kings full of fours",
        "Low half of the pot: 3",
        "  Bot 1 (seat 2) wins 3 with 8-6-4-2-A low",
    ]
    assert result[4] == "Stacks: You 200, Bot 1 200"


def test_without_a_low_the_high_hand_takes_the_whole_pot() -> None:
    _, out, _ = session(
        calls,
        bots=1,
        hands=2,
        bot_kind="calling-station",
        deck_source=rigged(FULL_HOUSE_VS_LOW, NO_LOW),
    )
    result = lines_after(out, "No qualifying low")
    assert result[0] == "No qualifying low: the best high hand takes all of the pot (6)."
    assert result[1] == "  You win 6 with Full house, kings full of fours"
    assert "You won 3 this hand." in result[3]
    assert "Hands played: 2" in out


def test_a_hand_won_without_a_showdown() -> None:
    def folds(prompt: str) -> str:
        return "f" if "[f]old" in prompt else "c"

    _, out, _ = session(folds, bots=1, hands=1, bot_kind="rules", deck_source=rigged(NO_LOW))
    # The bot, with queens and the low card, completes; you fold your rolled-up kings.
    assert "Bot 1 (seat 2): completes to 4\n" in out
    tail = lines_after(out, "You: fold")
    assert tail[1:5] == [
        "4 uncalled returned to Bot 1 (seat 2).",
        "Bot 1 (seat 2) wins the pot (2)",
        "Stacks: You 199, Bot 1 201",
        "You lost 1 this hand.",
    ]


# --------------------------------------------------------------- bad input
def test_an_unknown_word_is_answered_and_the_prompt_repeats() -> None:
    replies = iter(["xyzzy"])
    code, out, reader = session(lambda p: next(replies, "c"), hands=1)
    assert code == 0
    after = lines_after(out, "xyzzy")
    assert after[0].startswith(reader.prompts[0])
    assert "unknown action 'xyzzy'" in after[0] + after[1]
    assert reader.prompts[1] == reader.prompts[0]
    assert "Traceback" not in out


@pytest.mark.parametrize("confirm", ["n", "", "y"])
def test_folding_when_one_can_check_asks_first(confirm: str) -> None:
    tried: list[str] = []

    def answer(prompt: str) -> str:
        if prompt.startswith("Fold anyway?"):
            return confirm
        if "chec[k]" in prompt and not tried:
            tried.append(prompt)
            return "f"
        return "c"

    code, out, reader = session(answer)
    assert tried, "the user was never offered a check"
    assert "[f]old" not in tried[0]  # not offered when checking is free
    i = reader.prompts.index(tried[0])
    assert reader.prompts[i + 1] == "Fold anyway? [y/N] > "
    assert "  You can check for free." in out
    if confirm == "y":
        assert "You: fold" in out
    else:
        assert reader.prompts[i + 2] == tried[0]  # asked again
        assert "You: fold" not in out
    assert code == 0


def test_a_wrong_amount_is_refused_and_the_right_one_accepted() -> None:
    asked: list[int] = []

    def answer(prompt: str) -> str:
        m = re.search(r"\[(?:r)\]aise to (\d+)|\[b\]et (\d+)|c\[o\]mplete to (\d+)", prompt)
        if m and len(asked) < 2:
            amount = int(next(g for g in m.groups() if g))
            asked.append(amount)
            return f"r {amount + 1}" if len(asked) == 1 else f"raise to {amount}"
        return "c"

    code, out, _ = session(answer)
    assert len(asked) == 2
    assert f"the amount must be exactly {asked[0]}" in out
    assert re.search(rf"You: (raise to|bet|complete to) {asked[1]}\n", out)
    assert code == 0


def test_calling_with_an_amount_is_explained() -> None:
    replies = iter(["call 4000"])
    _, out, _ = session(lambda p: next(replies, "c"), hands=1)
    assert "'call' takes no amount" in out


def test_blank_help_and_table_lines() -> None:
    replies = iter(["", "h", "t"])
    code, out, reader = session(lambda p: next(replies, "c"), hands=1)
    assert code == 0
    assert "  Type an action (h for help)." in out
    assert "Actions: f / fold" in out
    assert len({*reader.prompts[:4]}) == 1  # the same prompt four times
    after_table = lines_after(out, "Actions: f / fold")
    assert any("  Seat 1  You     [" in line for line in after_table[:12])


def test_end_of_input_leaves_cleanly_with_a_summary() -> None:
    code, out, _ = session(lambda p: None)
    assert code == 0
    assert "End of input: you leave the table." in out
    assert re.search(r"You leave during hand 1: your \d+ in the pot stay there\.", out)
    assert "  Hands played: 0" in out
    assert "Traceback" not in out


def test_quit_leaves_with_a_summary() -> None:
    replies = iter(["c", "c", "quit"])
    code, out, _ = session(lambda p: next(replies, "c"), hands=None)
    assert code == 0
    assert "You leave the table." in out
    assert "Summary" in out


def test_ctrl_c_leaves_with_a_summary() -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    code, out, _ = session(interrupt)
    assert code == 130
    assert "Interrupted: you leave the table." in out
    assert "Summary" in out


def test_busted_bots_are_replaced_and_a_busted_user_stops() -> None:
    code, out, _ = session(calls, stack=12, hands=None, bot_kind="calling-station", seed=1)
    assert code == 0
    assert re.search(
        r"Bot \d is out of chips and leaves; Bot [4-9] sits down in seat \d with 12", out
    )
    assert "You are out of chips." in out
    assert "leave with 0." in out
    assert "Net result: -12" in out


# ------------------------------------------------------------ input reading
def test_short_forms_are_read_against_the_legal_actions() -> None:
    bring = (LegalAction(ActionKind.BRING_IN, adds=2), LegalAction(ActionKind.COMPLETE, 4, 4))
    facing = (
        LegalAction(ActionKind.FOLD),
        LegalAction(ActionKind.CALL, 4, 4, adds=4),
        LegalAction(ActionKind.RAISE, 8, 8, adds=8),
    )
    unopened = (
        LegalAction(ActionKind.FOLD),
        LegalAction(ActionKind.CHECK),
        LegalAction(ActionKind.BET, 4, 4, adds=4),
    )
    assert read_action("b", bring) == BringIn()
    assert read_action("c", bring) == BringIn()
    assert read_action("o", bring) == Complete()
    assert read_action("r", bring) == Complete()
    assert read_action("c", facing) == Call()
    assert read_action("b 8", facing) == Raise(8)
    assert read_action("c", unopened) == Check()
    assert read_action("k", facing) == Check()  # not legal: left for the hand to refuse
    assert prompt_text(facing) == "Your action [f]old, [c]all 4, [r]aise to 8 > "
    assert prompt_text(unopened) == "Your action chec[k], [b]et 4 > "


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="1 to 7 bots"):
        TerminalTable(PlayOptions(bots=8), read_line=lambda: "", out=io.StringIO())
    with pytest.raises(ValueError, match="unknown bot kind"):
        TerminalTable(PlayOptions(bot_kind="shark"), read_line=lambda: "", out=io.StringIO())
    assert parse_stakes("2/3/6/12") == (2, 3, 6, 12)
    with pytest.raises(ValueError, match="bring_in"):
        parse_stakes("1/8/4/8")


# ----------------------------------------------------------------- colour
class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    def run(out: io.StringIO) -> str:
        play(PlayOptions(bots=1, seed=1, hands=1), read_line=Player(out, calls), out=out)
        return out.getvalue()

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "\x1b[" not in run(io.StringIO())
    assert "\x1b[1m" in run(_Terminal())
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in run(_Terminal())


# ------------------------------------------------------------- the command
def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == "stud8 0.1.0"


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "play" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "8"], "--bots: must be from 1 to 7"),
        (["--bots", "x"], "--bots: not a whole number"),
        (["--stakes", "1/2/4"], "--stakes: stakes are four whole numbers"),
        (["--stack", "0"], "--stack: must be at least 1"),
        (["--bot-kind", "shark"], "--bot-kind: invalid choice"),
    ],
)
def test_bad_options_are_usage_errors(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *args]) == 2
    assert message in capsys.readouterr().err


def test_bot_kinds_offered_are_the_registry() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    play_parser = sub.choices["play"]
    kinds = next(a for a in play_parser._actions if a.dest == "bot_kind").choices
    assert kinds is not None
    assert sorted(kinds) == sorted(BOTS)


def test_play_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("xyz\n" + "c\n" * 200))
    assert main(["play", "--seed", "7", "--hands", "2", "--bots", "2"]) == 0
    out = capsys.readouterr().out
    assert "> xyz\n  unknown action 'xyz'" in out  # piped input is echoed after its prompt
    assert "Hands played: 2" in out


def test_the_command_imports_lightly() -> None:
    code = "import sys, stud8.cli; print(sorted(m for m in sys.modules if m.startswith('stud8')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['stud8', 'stud8.cli']"


def test_python_m_stud8_play_with_piped_input(tmp_path: Path) -> None:
    lines = "xyz\n" + "c\n" * 200
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["STUD8_HOME"] = str(tmp_path)  # the hands played are saved there
    done = subprocess.run(
        [sys.executable, "-m", "stud8", "play", "--seed", "7", "--hands", "3", "--bots", "3"],
        input=lines,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "Your action [f]old, [c]all 2, c[o]mplete to 4 > xyz" in out
    assert "unknown action 'xyz': use fold, check, call" in out
    assert re.search(r"(You show|\) shows) \[", out)
    assert "High half of the pot" in out or "No qualifying low" in out
    assert "Summary\n  Hands played: 3\n" in out
    # every hand played is saved, and `stud8 hh show` shows it again, as the player saw it
    saved = (tmp_path / "hands.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(saved) == 3
    shown = subprocess.run(
        [sys.executable, "-m", "stud8", "hh", "show", "--last", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.count("*** 3rd STREET ***") == 2
    assert shown.stdout.count("*** SUMMARY ***") == 2
    assert "Dealt to You [" in shown.stdout
    checked = subprocess.run(
        [sys.executable, "-m", "stud8", "hh", "verify", str(tmp_path / "hands.jsonl")],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.strip() == (
        "files: 1  hands: 3  reproduced: 3  mismatched: 0  skipped: 0  unreadable: 0"
    )
    assert "\x1b[" not in out  # not a terminal: no colour
