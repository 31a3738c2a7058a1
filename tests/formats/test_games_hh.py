"""Hand histories of the three games the room deals (RULES.md 8): Seven Card Stud
Hi/Lo, Seven Card Stud and Razz, each written and read back in PokerStars text
(its own header and showdown words) and PHH (its phh-std variant code), through
``stud8 hh verify`` and ``hh convert`` as a user runs them, and fpdb imports our
PokerStars text of each game with the totals we computed. (PokerKit replays our
PHH of each game: tests/formats/test_phh.py.)"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from test_record import random_hand, record_of

from stud8.cli import main
from stud8.core.events import HandShown
from stud8.core.rules import Game, TableRules, TimeoutPolicy
from stud8.formats.phh import hand_to_phh, read_phh_file
from stud8.formats.phh.verify import record_of_phh, verify_phh
from stud8.formats.pokerstars import PokerStarsHand
from stud8.formats.pokerstars.read import parse_text
from stud8.formats.pokerstars.record import record_of_pokerstars
from stud8.formats.pokerstars.write import HAND_SEPARATOR, to_pokerstars
from stud8.formats.record import HandRecord
from stud8.terminal.hh import sniff
from trackercheck import fpdb_check, totals_are_ours, trackable

#: Each game: its PokerStars header name, its PHH variant code, and the words of a
#: hand shown down ("shows [...] (...)") and of a summary line ("... with ...").
GAMES = {
    Game.STUD_HI_LO: (
        "7 Card Stud Hi/Lo Limit",
        "F7S/8",
        r"\((HI: .+; LO: \d|[A-Z2-9],[A-Z2-9],[A-Z2-9],[A-Z2-9],[A-Z2-9]\)|HI: .+\))",
        r"and (won|lost) .*with (HI: |a |high card|two pair|three|four|.+, .+)",
    ),
    Game.STUD_HIGH: (
        "7 Card Stud Limit",
        "F7S",
        r"\((high card|a pair of|two pair|three of a kind|a straight|a flush|a full house"
        r"|four of a kind|a straight flush|a Royal Flush)[^;]*\)$",
        r"and (won|lost) .*with (high card|a pair|two pair|three|a straight|a flush|a full"
        r"|four|a Royal)",
    ),
    Game.RAZZ: (
        "Razz Limit",
        "FR",
        r"\(Lo: [2-9TJQKA](,[2-9TJQKA]){4}\)$",
        r"and (won|lost) .*with Lo: [2-9TJQKA](,[2-9TJQKA]){4}$",
    ),
}
IDS = [g.value for g in GAMES]


def records(game: Game, count: int, seed: int) -> list[HandRecord]:
    """``count`` finished random hands of ``game`` at PokerStars' stakes, cash and
    play chips, short stacks to deep (all-ins, side pots), timeouts."""
    rng = random.Random(seed)
    out: list[HandRecord] = []
    while len(out) < count:
        small = rng.choice((2, 4, 10))
        rules = TableRules(
            ante=rng.choice((0, 1, small // 2)),
            bring_in=rng.choice((1, small // 2)),
            small_bet=small,
            big_bet=2 * small,
            game=game,
            timeout_policy=TimeoutPolicy.CHECK_OR_FOLD,
        )
        record = record_of(random_hand(rng, rules, timeouts=0.05), rng, rng.choice(("USD", "")))
        if trackable(record):
            out.append(record)
    return out


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", list(GAMES), ids=IDS)
def test_pokerstars_text_of_each_game_has_its_header_and_showdown_words(game: Game) -> None:
    name, _, shows, summary = GAMES[game]
    hands = records(game, 60, seed=8_000 + list(GAMES).index(game))
    shown_down = 0
    for record in hands:
        text = to_pokerstars(record, everything=True)
        header = text.split("\n", 1)[0]
        assert re.search(rf"^PokerStars Hand #\d+:  {re.escape(name)} \(", header), header
        for line in text.splitlines():
            if ": shows [" in line:
                assert re.search(shows, line), line
            if " showed [" in line:
                assert re.search(summary, line), line
        shown_down += any(isinstance(e, HandShown) for e in record.events)
        # read back: the same game, the same hand, and it verifies
        (back,) = parse_text(text)
        assert isinstance(back, PokerStarsHand), back
        assert back.game == name.removesuffix(" Limit")
        again = record_of_pokerstars(back)
        assert again.rules.game is game
        assert again.replay().result == record.replay().result
    assert shown_down > 15


@pytest.mark.parametrize("game", list(GAMES), ids=IDS)
def test_phh_of_each_game_reads_back_as_the_same_hand(game: Game) -> None:
    _, code, _, _ = GAMES[game]
    for record in records(game, 40, seed=9_000 + list(GAMES).index(game)):
        hand = record.replay()
        text = record_text(record)
        assert text.startswith(f'variant = "{code}"\n'), text
        (phh,) = read_phh_file(text)
        assert not isinstance(phh, Exception), phh
        assert verify_phh(phh).reproduced
        back = record_of_phh(phh).replay()
        assert back.rules.game is game
        assert back.events == hand.events and back.result == hand.result


def record_text(record: HandRecord) -> str:
    return hand_to_phh(record.replay(), names=record.names, hand_id=record.hand_id)


@pytest.mark.parametrize("game", list(GAMES), ids=IDS)
def test_hh_verify_and_convert_every_pair_of_formats_for_each_game(
    game: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name, code, _, _ = GAMES[game]
    hands = records(game, 25, seed=10_000 + list(GAMES).index(game))
    source = tmp_path / "hands.txt"
    source.write_text(HAND_SEPARATOR.join(to_pokerstars(r, everything=True) for r in hands))
    total = f"files: 1  hands: {len(hands)}  reproduced: {len(hands)}  mismatched: 0  skipped: 0"
    status, out, err = run(capsys, "hh", "verify", str(source))
    assert status == 0 and out.splitlines()[-1].startswith(total), out + err
    for first in ("phh", "json", "pokerstars"):
        status, text, err = run(capsys, "hh", "convert", str(source), "--to", first)
        assert status == 0, err
        assert sniff(text) == first
        if first == "phh":
            assert text.count(f'variant = "{code}"') == len(hands)
        if first == "pokerstars":
            assert text.count(f"  {name} (") == len(hands)
        converted = tmp_path / f"hands.{first}"
        converted.write_text(text)
        status, out, err = run(capsys, "hh", "verify", str(converted))
        assert status == 0 and out.splitlines()[-1].startswith(total), out + err
        for second in ("phh", "json", "pokerstars"):
            status, again, err = run(capsys, "hh", "convert", str(converted), "--to", second)
            assert status == 0, err
            back = tmp_path / f"{first}-to.{second}"
            back.write_text(again)
            status, out, err = run(capsys, "hh", "verify", str(back))
            assert status == 0 and out.splitlines()[-1].startswith(total), (first, second, out)


@pytest.mark.parametrize("game", list(GAMES), ids=IDS)
def test_a_hand_read_as_another_game_departs(game: Game) -> None:
    """The game is read from the file and decides the hand: the same PHH actions
    under another game's code do not reproduce (the bring-in or the winner moves)."""
    _, code, _, _ = GAMES[game]
    departed = 0
    for record in records(game, 30, seed=11_000 + list(GAMES).index(game)):
        text = record_text(record)
        for other, (_, other_code, _, _) in GAMES.items():
            if other is game:
                continue
            (phh,) = read_phh_file(text.replace(f'"{code}"', f'"{other_code}"', 1))
            assert not isinstance(phh, Exception)
            departed += not verify_phh(phh).reproduced
    assert departed > 30


def test_fpdb_imports_our_pokerstars_text_of_each_game(tmp_path: Path) -> None:
    files = []
    for game in GAMES:
        hands = records(game, 40, seed=12_000 + list(GAMES).index(game))
        everything = [to_pokerstars(r, everything=True) for r in hands]
        player = [to_pokerstars(r, seat=r.seats[0].seat) for r in hands]
        totals_are_ours(HAND_SEPARATOR.join(everything), hands)
        path = tmp_path / f"{game.value}.txt"
        path.write_text(HAND_SEPARATOR.join(everything + player), encoding="utf-8")
        files.append(path)
    report = fpdb_check(files)
    for path in files:
        assert re.search(rf"{path.name}: 80 hands, fpdb accepted 80\b", report), report
