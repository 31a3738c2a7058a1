"""A turn's clock and the bots' turns: :class:`TurnClock`, a part of the table.

RULES.md section 6: a player's turn runs ``action_seconds``, then a visible
``time_bank_seconds`` countdown, then the engine's timeout rule
(:meth:`~stud8.core.hand.Hand.time_out`). Each phase is a ``timer`` event, and it
carries the legal actions of the player to act, so that the edge can tell him his
turn without reading the hand. A player who reconnects during his turn gets
``reconnect_seconds`` more, once a turn. A bot acts after ``bot_delay``, from its
seat's window onto the hand (kept up to date as the hand goes), or from a view of
it if it cannot decide from a window.

The clock's timers post their messages to the table's queue; the table hands them
back (:meth:`TurnClock.fired`), and gets the hand's new events to take in. The
clock never runs by itself: it is called from the table's owner task only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from stud8.core.errors import Stud8Error
from stud8.core.events import Event
from stud8.core.hand import Hand
from stud8.core.rules import TableRules
from stud8.server.clock import Clock
from stud8.server.table.events import TimerStarted, TurnPhase
from stud8.server.table.feed import Emit
from stud8.server.table.spec import TableConfig
from stud8.server.table.state import BotTurn, Message, Seat, Tick, Turn
from stud8.tools.bots.base import FastBot
from stud8.tools.bots.window import HandWindows

__all__ = ["TurnClock", "TurnContext", "TurnOutcome"]


@dataclass(frozen=True, slots=True)
class TurnContext:
    """What the turn clock needs of its table: the clock, the way to tell events and
    to post itself a message, the table's rules now (a tournament's change with its
    levels), the hand in play and the seats (read, never changed).
    ``times_out_sitting_out``: a player sitting out (he asked) times out at once
    when his turn comes, as a tournament's tables do."""

    config: TableConfig
    rules: Callable[[], TableRules]
    clock: Clock
    emit: Emit
    post: Callable[[Message], None]
    hand: Callable[[], Hand | None]
    seats: Mapping[int, Seat]
    times_out_sitting_out: bool = False


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    """What a turn's end did to the hand: its new ``events``; ``timed_out``: the seat
    of the player whose clock ran out (not a bot's), if that ended the turn."""

    events: list[Event]
    timed_out: int | None = None


class TurnClock:
    """The clock of the turn in play, and the bots' windows onto the hand."""

    def __init__(self, context: TurnContext) -> None:
        self._ctx = context
        self.turn: Turn | None = None
        self._token = 0
        self._windows: HandWindows | None = None  # the bots' windows onto the hand
        self._windows_of: Hand | None = None

    def start(self, number: int) -> None:
        """Seat ``number`` is to act: start his clock (or his bot's delay)."""
        ctx = self._ctx
        self.cancel()
        self._token += 1
        token = self._token
        seat = ctx.seats[number]
        if seat.bot is not None:
            self.turn = Turn(number, token, TurnPhase.BOT, ctx.clock.now() + ctx.config.bot_delay)
            message = BotTurn(token)
            if ctx.config.bot_delay <= 0:
                ctx.post(message)
            else:
                self.turn.timer = ctx.clock.call_at(self.turn.deadline, lambda: ctx.post(message))
            return
        if ctx.times_out_sitting_out and seat.sitting_out and seat.connected:
            # sitting out (he asked): he times out at once, as the big rooms do
            self.turn = Turn(number, token, TurnPhase.TIME_BANK, ctx.clock.now())
            ctx.post(Tick(token))
            return
        turn = Turn(number, token, TurnPhase.ACTION, 0.0)
        self.turn = turn
        self._set_phase(turn, TurnPhase.ACTION, ctx.clock.now() + ctx.rules().action_seconds)

    def cancel(self) -> None:
        turn, self.turn = self.turn, None
        if turn is not None and turn.timer is not None:
            turn.timer.cancel()

    def reconnected(self, number: int) -> None:
        """Seat ``number`` is connected again: if it is his turn, he gets
        ``reconnect_seconds`` more (once a turn)."""
        turn = self.turn
        if turn is not None and turn.seat == number and not turn.extended:
            turn.extended = True
            more = self._ctx.rules().reconnect_seconds
            self._set_phase(turn, turn.phase, turn.deadline + more, TurnPhase.RECONNECT)

    def sat_out(self, number: int) -> None:
        """Seat ``number`` sat out: at a table where one sitting out times out at
        once, so does he if it is his turn now."""
        turn = self.turn
        if self._ctx.times_out_sitting_out and turn is not None and turn.seat == number:
            self.start(number)

    def hand_ended(self) -> None:
        self.cancel()
        self._windows = self._windows_of = None

    def fired(self, message: Tick | BotTurn) -> TurnOutcome | None:
        """A turn's timer ran out, or a bot's turn came: what it did to the hand
        (None: a stale timer or bot turn, nothing)."""
        turn, hand = self.turn, self._ctx.hand()
        if turn is None or hand is None or message.token != turn.token:
            return None
        if isinstance(message, BotTurn):
            bot = self._ctx.seats[turn.seat].bot
            assert bot is not None
            self.turn = None
            try:
                # a bot that can decides from its seat's window onto the hand, kept up
                # to date as the hand goes, not from a view rebuilt at every decision
                if isinstance(bot, FastBot):
                    if self._windows is None or self._windows_of is not hand:
                        self._windows, self._windows_of = HandWindows(hand), hand
                    action = bot.decide(self._windows.seat(turn.seat))
                else:
                    action = bot.act(hand.view(turn.seat))
                return TurnOutcome(hand.apply(action))
            except Stud8Error:
                return TurnOutcome(hand.time_out())
        bank = self._ctx.rules().time_bank_seconds
        if turn.phase is TurnPhase.ACTION and bank > 0:
            self._set_phase(turn, TurnPhase.TIME_BANK, self._ctx.clock.now() + bank)
            return None
        self.turn = None
        return TurnOutcome(hand.time_out(), timed_out=turn.seat)

    def _set_phase(
        self, turn: Turn, phase: TurnPhase, deadline: float, shown: TurnPhase | None = None
    ) -> None:
        ctx = self._ctx
        if turn.timer is not None:
            turn.timer.cancel()
        turn.phase, turn.deadline = phase, deadline
        now = ctx.clock.now()
        hand = ctx.hand()
        legal = tuple(hand.legal_actions()) if hand is not None else ()
        ctx.emit(TimerStarted(turn.seat, shown or phase, deadline - now, deadline), None, legal)
        tick = Tick(turn.token)
        turn.timer = ctx.clock.call_at(deadline, lambda: ctx.post(tick))
