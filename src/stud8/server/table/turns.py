"""A turn's clock and the bots' turns (a base of :class:`stud8.server.table.owner.Table`).

RULES.md section 6: a player's turn runs ``action_seconds``, then a visible
``time_bank_seconds`` countdown, then the engine's timeout rule
(:meth:`~stud8.core.hand.Hand.time_out`). Each phase is a ``timer`` event, and it
carries the legal actions of the player to act, so that the edge can tell him his
turn without reading the hand. A bot acts after ``bot_delay``, from its seat's
window onto the hand (kept up to date as the hand goes), or from a view of it if it
cannot decide from a window.

These methods run in the table's owner task only, like the rest of it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from stud8.core.errors import Stud8Error
from stud8.core.events import Event
from stud8.core.hand import Hand
from stud8.core.rules import TableRules
from stud8.formats.record import HandRecord, SeatRecord, TableLine
from stud8.server.clock import Clock
from stud8.server.table.events import SatOut, TimerStarted
from stud8.server.table.spec import TableConfig
from stud8.server.table.state import BotTurn, Seat, Tick, Turn
from stud8.tools.bots.base import FastBot
from stud8.tools.bots.window import HandWindows

__all__ = ["TableTurns"]


class TableTurns:
    """The turn's clock and the bots; :class:`~stud8.server.table.owner.Table` provides the rest."""

    rules: TableRules
    config: TableConfig
    seats: dict[int, Seat]
    hand: Hand | None
    _hand_players: Mapping[int, str]
    _clock: Clock
    _queue: asyncio.Queue[tuple[Any, Any]]
    _emit: Callable[..., None]
    _turn: Turn | None
    _token: int
    _windows: HandWindows | None
    _windows_of: Hand | None
    _hand_lines: list[TableLine]  # the hand history's table lines ("ann is sitting out")
    _hand_idle: tuple[SeatRecord, ...]  # seated, not dealt in: listed as sitting out

    async def _progress(self, new: list[Event]) -> None:
        raise NotImplementedError

    def _start_turn(self, number: int) -> None:
        self._cancel_turn()
        self._token += 1
        token = self._token
        seat = self.seats[number]
        if seat.bot is not None:
            self._turn = Turn(number, token, "bot", self._clock.now() + self.config.bot_delay)
            message = BotTurn(token)
            if self.config.bot_delay <= 0:
                self._queue.put_nowait((message, None))
            else:
                self._turn.timer = self._clock.call_at(
                    self._turn.deadline, lambda: self._queue.put_nowait((message, None))
                )
            return
        turn = Turn(number, token, "action", 0.0)
        self._turn = turn
        self._set_phase(turn, "action", self._clock.now() + self.rules.action_seconds)

    def _set_phase(self, turn: Turn, phase: str, deadline: float, shown: str = "") -> None:
        if turn.timer is not None:
            turn.timer.cancel()
        turn.phase, turn.deadline = phase, deadline
        now = self._clock.now()
        hand = self.hand
        legal = tuple(hand.legal_actions()) if hand is not None else ()
        self._emit(TimerStarted(turn.seat, shown or phase, deadline - now, deadline), None, legal)
        tick = Tick(turn.token)
        turn.timer = self._clock.call_at(deadline, lambda: self._queue.put_nowait((tick, None)))

    def _cancel_turn(self) -> None:
        turn, self._turn = self._turn, None
        if turn is not None and turn.timer is not None:
            turn.timer.cancel()

    async def _turn_message(self, message: Tick | BotTurn) -> None:
        """A turn's timer ran out, or a bot's turn came."""
        turn, hand = self._turn, self.hand
        if turn is None or hand is None or message.token != turn.token:
            return  # a stale timer or bot turn
        if isinstance(message, BotTurn):
            bot = self.seats[turn.seat].bot
            assert bot is not None
            self._turn = None
            try:
                # a bot that can decides from its seat's window onto the hand, kept up
                # to date as the hand goes, not from a view rebuilt at every decision
                if isinstance(bot, FastBot):
                    if self._windows is None or self._windows_of is not hand:
                        self._windows, self._windows_of = HandWindows(hand), hand
                    action = bot.decide(self._windows.seat(turn.seat))
                else:
                    action = bot.act(hand.view(turn.seat))
                events = hand.apply(action)
            except Stud8Error:
                events = hand.time_out()
            await self._progress(events)
        elif turn.phase == "action" and self.rules.time_bank_seconds > 0:
            self._set_phase(turn, "time_bank", self._clock.now() + self.rules.time_bank_seconds)
        else:
            self._turn = None
            events = hand.time_out()
            seat = self.seats.get(turn.seat)
            timed_out = (
                self.config.sit_out_on_timeout
                and seat is not None
                and seat.bot is None
                and not seat.sitting_out
                and not seat.leaving
            )
            if timed_out and seat is not None:
                # sat out from the next hand until "I'm back" (he may still act in this one)
                seat.sitting_out, seat.out_reason = True, "timed_out"
                line = TableLine(len(hand.events), f"{seat.player} is sitting out")
                self._hand_lines.append(line)
            await self._progress(events)
            if timed_out:
                self._emit(SatOut(turn.seat, "timed_out"))

    def _idle_seats(self, dealt: Mapping[int, int]) -> tuple[SeatRecord, ...]:
        """The seats with chips that are not dealt into the hand about to start: the
        hand's history lists them as sitting out."""
        return tuple(
            SeatRecord(n, s.player, s.chips, True)
            for n, s in sorted(self.seats.items())
            if n not in dealt and s.chips > 0
        )

    def _with_table_lines(self, record: HandRecord) -> HandRecord:
        """The hand's record with the seats sitting out and the table's lines."""
        return replace(record, idle=self._hand_idle, table_lines=tuple(self._hand_lines))
