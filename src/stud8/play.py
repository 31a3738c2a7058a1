"""The terminal table: ``stud8 play`` seats you with bots at a fixed-limit table.

You sit in seat 1, the bots in seats 2 and up; hand follows hand until the hands
asked for are played, you quit (``q``, end of input, Ctrl-C) or you bust. A bot
who busts leaves and a new one sits down with a fresh stack. Everything goes out
through one text stream and comes in through one line reader, so that a test can
drive a whole session:

>>> import io
>>> lines = iter(["c", "garbage", "quit"])
>>> out = io.StringIO()
>>> play(PlayOptions(bots=2, seed=7, hands=1), read_line=lambda: next(lines), out=out)
0
>>> "Hands played:" in out.getvalue()
True
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from stud8.core import Deck, Game, Hand, HandResult, TableRules
from stud8.core.actions import ActionKind
from stud8.core.errors import IllegalActionError, Stud8Error
from stud8.formats.record import HandRecord, write_file
from stud8.terminal.commands import (
    FOLD_PROMPT,
    HELP,
    HELP_WORDS,
    QUIT_WORDS,
    TABLE_WORDS,
    folds_for_nothing,
    prompt_text,
    read_action,
    reason,
)
from stud8.terminal.render import Narrator, Style, cards_text
from stud8.tools.bots import BOTS, Bot, make_bot
from stud8.tools.bots.base import is_legal, passive_action

#: Reads one line of input (without its prompt); raises EOFError at the end of input.
LineReader = Callable[[], str]


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """The settings of a terminal session (see ``stud8 play --help``)."""

    bots: int = 5
    stack: int = 200
    stakes: tuple[int, int, int, int] = (1, 2, 4, 8)  # ante, bring-in, small bet, big bet
    seed: int | None = None  # None: a cryptographic shuffle every hand
    hands: int | None = None  # None: until you quit or bust
    bot_kind: str = "rules"
    save_to: Path | None = None  # a JSON-lines file each finished hand is added to
    game: Game = Game.STUD_HI_LO

    def rules(self) -> TableRules:
        ante, bring_in, small, big = self.stakes
        return TableRules(
            ante=ante, bring_in=bring_in, small_bet=small, big_bet=big, game=self.game
        )


#: Each game's title at the table (the games by their ``--game`` names: ``GAMES``).
TITLES: dict[Game, str] = {
    Game.STUD_HI_LO: "Seven Card Stud Hi/Lo, eight or better: fixed limit",
    Game.STUD_HIGH: "Seven Card Stud, high only: fixed limit",
    Game.RAZZ: "Razz, Seven Card Stud for the ace-to-five low: fixed limit",
}
#: How each game is won, said once at the start.
HOW_TO_WIN: dict[Game, str] = {
    Game.STUD_HI_LO: "The best high hand and the best low (eight or better) split each pot.",
    Game.STUD_HIGH: "The best high hand takes each pot; the lowest up card brings in.",
    Game.RAZZ: "The lowest hand takes each pot (aces low, straights and flushes do not "
    "count); the highest up card brings in.",
}


def parse_stakes(text: str) -> tuple[int, int, int, int]:
    """``"1/2/4/8"`` -> ``(1, 2, 4, 8)``: ante, bring-in, small bet, big bet.

    >>> parse_stakes("1/2/4/8")
    (1, 2, 4, 8)
    """
    parts = text.replace(",", "/").split("/")
    if len(parts) != 4 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(
            f"stakes are four whole numbers ante/bring-in/small/big, like 1/2/4/8; got {text!r}"
        )
    ante, bring_in, small, big = (int(p) for p in parts)
    TableRules(ante=ante, bring_in=bring_in, small_bet=small, big_bet=big)  # validates
    return ante, bring_in, small, big


class _Quit(Exception):
    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why  # "quit", "eof" or "interrupt"


@dataclass(slots=True)
class _Player:
    seat: int
    name: str
    stack: int
    bought_in: int
    bot: Bot | None  # None: the human


class TerminalTable:
    """A session at the table: you in seat 1, bots in the other seats.

    ``read_line`` gives the player's lines, ``out`` takes all the text; ``deck_source``
    makes each hand's deck (default: from the seed, else a cryptographic shuffle).
    """

    def __init__(
        self,
        options: PlayOptions,
        *,
        read_line: LineReader,
        out: TextIO,
        color: bool = False,
        echo: bool = False,
        deck_source: Callable[[], Deck] | None = None,
    ) -> None:
        if not 1 <= options.bots <= 7:
            raise ValueError(f"a table seats 1 to 7 bots besides you, got {options.bots}")
        if options.stack < 1:
            raise ValueError(f"the starting stack must be at least 1 chip, got {options.stack}")
        if options.bot_kind not in BOTS:
            raise ValueError(f"unknown bot kind {options.bot_kind!r}: one of {', '.join(BOTS)}")
        self.options = options
        self.rules = options.rules()
        self.read_line = read_line
        self.out = out
        self.echo = echo  # write each line read after its prompt (input not from a terminal)
        self.style = Style(color)
        self.deck_rng = random.Random(options.seed) if options.seed is not None else None
        self.deck_source = deck_source or self._shuffle
        self.user = _Player(1, "You", options.stack, options.stack, None)
        self.players: dict[int, _Player] = {1: self.user}
        self.names: dict[int, str] = {1: "You"}
        self.narrator = Narrator(out, self.style, self.user.seat, self.names)
        self.bots_seated = 0
        for seat in range(2, options.bots + 2):
            self._seat_bot(seat)
        self.hands_played = 0
        self.hand_number = 0  # the hand being played, counting from 1
        self.hand: Hand | None = None

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def _shuffle(self) -> Deck:
        """From the seed, or else a fresh cryptographic shuffle, as at a live table."""
        return Deck.shuffled(self.deck_rng) if self.deck_rng is not None else Deck.shuffled()

    # -------------------------------------------------------------- session
    def _seat_bot(self, seat: int) -> None:
        self.bots_seated += 1
        number = self.bots_seated
        seed = self.options.seed
        rng = random.Random(f"stud8-play-{seed}-bot-{number}") if seed is not None else None
        bot = make_bot(self.options.bot_kind, rng or random.Random(), game=self.options.game)
        stack = self.options.stack
        self.players[seat] = _Player(seat, f"Bot {number}", stack, stack, bot)
        self.names[seat] = f"Bot {number}"

    def run(self) -> int:
        """Play until the hands are done, you quit or you bust; returns the exit code:
        0, or 130 after Ctrl-C."""
        o = self.options
        ante, bring_in, small, big = o.stakes
        self.say(self.style.bold(TITLES[o.game]))
        self.say(HOW_TO_WIN[o.game])
        self.say(
            f"Ante {ante}, bring-in {bring_in}, bets {small}/{big}. You sit in seat 1 with "
            f"{o.stack} chips against {o.bots} bot{'s' if o.bots > 1 else ''} ({o.bot_kind})."
        )
        self.say("Type h for help, q to quit.")
        code = 0
        try:
            while o.hands is None or self.hands_played < o.hands:
                if self.user.stack <= 0:
                    self.say("You are out of chips.")
                    break
                self.play_hand()
                self._replace_busted_bots()
        except _Quit as q:
            code = self._leave(q.why)
        except KeyboardInterrupt:
            code = self._leave("interrupt")
        self._summary()
        return code

    def _leave(self, why: str) -> int:
        self.say()
        self.say(
            {
                "eof": "End of input: you leave the table.",
                "interrupt": "Interrupted: you leave the table.",
            }.get(why, "You leave the table.")
        )
        hand, seat = self.hand, self.user.seat
        if hand is not None and hand.result is not None and self.hands_played < self.hand_number:
            self._settle(hand.result)  # interrupted just as the hand ended
        elif hand is not None and not hand.is_over and seat in hand.seats:
            in_pot = hand.contributed(seat)
            self.user.stack = hand.stack(seat)
            self.say(
                f"You leave during hand {self.hand_number}: your {in_pot} in the pot stay there."
            )
        return 130 if why == "interrupt" else 0

    def _summary(self) -> None:
        net = self.user.stack - self.user.bought_in
        self.say(self.style.bold("Summary"))
        self.say(f"  Hands played: {self.hands_played}")
        self.say(f"  You bought in for {self.user.bought_in} and leave with {self.user.stack}.")
        text = f"Net result: {'+' if net > 0 else ''}{net}"
        self.say(
            "  " + (self.style.good(text) if net > 0 else self.style.bad(text) if net else text)
        )

    def _replace_busted_bots(self) -> None:
        for seat, p in sorted(self.players.items()):
            if p.bot is not None and p.stack <= 0:
                old = p.name
                self._seat_bot(seat)
                new = self.players[seat]
                self.say(
                    f"{old} is out of chips and leaves; {new.name} sits down in seat {seat} "
                    f"with {new.stack}."
                )

    # ------------------------------------------------------------------ hand
    def play_hand(self) -> HandResult:
        """Deal one hand and play it to the end."""
        stacks = {s: p.stack for s, p in self.players.items() if p.stack > 0}
        deck = self.deck_source()
        number = self.hands_played + 1
        self.say()
        self.say(self.style.bold(f"===== Hand {number} ====="))
        started = datetime.now(UTC).replace(microsecond=0)
        hand_id = f"{started:%Y%m%d%H%M%S}-{number}"
        self.hand_number = number
        hand = Hand.start(rules=self.rules, stacks=stacks, deck=deck, hand_id=hand_id)
        self.hand = hand
        self.narrator.start(hand)
        self.narrator.show_new_events()
        while hand.to_act is not None:
            seat = hand.to_act
            bot = self.players[seat].bot
            if bot is None:
                self._user_turn(hand)
            else:
                view = hand.view(seat)
                action = bot.act(view)
                if not is_legal(action, view):  # a faulty bot: stay in as cheaply as possible
                    action = passive_action({a.kind: a for a in view.legal_actions})
                hand.apply(action)
            self.narrator.show_new_events()
        assert hand.result is not None
        self._settle(hand.result)
        self._save(hand, started)
        return hand.result

    def _save(self, hand: Hand, started: datetime) -> None:
        """Add the hand to the saved hands (``stud8 hh show`` reads them)."""
        path = self.options.save_to
        if path is None:
            return
        record = HandRecord.from_hand(
            hand, names=self.names, table="stud8 play", started_at=started
        )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_file(path, [record], append=True)
        except OSError as e:  # the game goes on; say once that hands are not kept
            self.say(f"(could not save the hand to {path}: {e.strerror or e}; saving stops)")
            self.options = replace(self.options, save_to=None)

    def _settle(self, result: HandResult) -> None:
        for seat, chips in result.stacks.items():
            self.players[seat].stack = chips
        self.hands_played += 1

    def _user_turn(self, hand: Hand) -> None:
        """Ask for an action until a legal one is given, and apply it."""
        seat = self.user.seat
        view = hand.view(seat)
        legal = view.legal_actions
        call = next((a for a in legal if a.kind is ActionKind.CALL), None)
        to_call = f", {call.adds} to call" if call is not None else ""
        mine = cards_text(view.seat(seat), self.style)
        self.say(f"Pot {view.pot}{to_call}. Your cards: {mine}")
        prompt = prompt_text(legal)
        while True:
            text = self._ask(prompt)
            word = text.lower()
            if not word:
                self.say("  Type an action (h for help).")
            elif word in QUIT_WORDS:
                raise _Quit("quit")
            elif word in HELP_WORDS:
                self.say(HELP)
            elif word in TABLE_WORDS:
                self.narrator.show_table()
            else:
                try:
                    action = read_action(text, legal)
                    if folds_for_nothing(action, legal) and not self._confirm_fold():
                        continue
                    hand.apply(action)
                    return
                except IllegalActionError as e:
                    self.say(f"  Not allowed: {reason(e)}")
                except Stud8Error as e:
                    self.say(f"  {e}")

    def _confirm_fold(self) -> bool:
        """Ask before folding a hand that could check for free."""
        self.say("  You can check for free.")
        return self._ask(FOLD_PROMPT).lower() in ("y", "yes")

    def _ask(self, prompt: str) -> str:
        """Write the prompt and read a line; the end of input or Ctrl-C leaves the table."""
        self.out.write(prompt)
        self.out.flush()
        try:
            text = self.read_line().strip()
        except EOFError:
            raise _Quit("eof") from None
        except KeyboardInterrupt:
            raise _Quit("interrupt") from None
        if self.echo:
            self.say(text)
        return text


def _stdin_reader() -> str:
    return input()


def play(
    options: PlayOptions,
    *,
    read_line: LineReader | None = None,
    out: TextIO | None = None,
    color: bool | None = None,
) -> int:
    """Run a terminal session; returns the exit code (0, or 130 after Ctrl-C).

    Defaults: standard input and output, with colour when the output is a terminal
    and ``NO_COLOR`` is not set. Input read from standard input that is not a
    terminal is echoed after its prompt, so that a piped session reads well.
    """
    stream = out if out is not None else sys.stdout
    if color is None:
        color = stream.isatty() and not os.environ.get("NO_COLOR")
    echo = read_line is None and not sys.stdin.isatty()
    table = TerminalTable(
        options, read_line=read_line or _stdin_reader, out=stream, color=color, echo=echo
    )
    return table.run()
