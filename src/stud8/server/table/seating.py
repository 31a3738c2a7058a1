"""Who sits where at a table: the seat commands (a base of :class:`stud8.server.table.owner.Table`).

Sitting down buys in through the table's books (:mod:`stud8.server.table.books`:
the chips and the seat in one durable step); leaving cashes out (at the end of the
hand if he is in one); sitting out, coming back, connecting and disconnecting
change whether the seat is dealt in (RULES.md section 6: a player disconnected
between hands is dealt out, his chips his own, and dealt in again when he comes
back). :meth:`TableSeating.restore_seat` puts back, before the table starts, a
player seated when the server stopped, with the chips the ledger still holds for
him at the table (no buy-in: the chips never left the table).

A player kept out of the hands (sat out, disconnected, reseated after a restart
and not back yet, or without chips) for the table's ``sit_out_seconds`` is stood
up, as real rooms do: once he is in no hand, he leaves the table (a ``leave``
event, reason ``sat_out``), his chips back to his account, and the seat goes to
the waiting list. :meth:`TableSeating._check_away` keeps that count; the table
runs it after every message that can change who is away (not after an action in a
hand), and a timer wakes it when a count is due. A player whose chips cannot go
back now (the books cannot be written) stays seated, dealt out, and is stood up
by a later check, at most every ``STAND_RETRY`` seconds.

These methods run in the table's owner task only, like the rest of it.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from stud8.core.hand import Hand
from stud8.core.rules import TableRules
from stud8.server.clock import Clock, TimerHandle
from stud8.server.table.books import BooksFenced, BooksRefused, TableBooks
from stud8.server.table.commands import (
    ComeBack,
    Connect,
    Disconnect,
    Leave,
    Refused,
    SeatBot,
    Sit,
    SitOut,
    TopUp,
)
from stud8.server.table.events import (
    CameBack,
    Disconnected,
    Reconnected,
    SatOut,
    SeatLeft,
    SeatTaken,
    ToppedUp,
)
from stud8.server.table.spec import TableConfig
from stud8.server.table.state import AwayCheck, Seat, Turn
from stud8.server.table.turns import TableTurns
from stud8.server.table.waitlist import WaitingList
from stud8.tools.bots import BOTS, Bot, make_bot

log = logging.getLogger("stud8.server")

STAND_RETRY = 5.0  # seconds before trying again to stand up one the books refused


class TableSeating(TableTurns):
    """The seat commands; :class:`~stud8.server.table.owner.Table` provides the rest."""

    table_id: str
    rules: TableRules
    config: TableConfig
    seats: dict[int, Seat]
    connections: Counter[str]
    _stand_later: dict[int, str]  # seats to stand up when the books can be written
    _retry_stand_at: float
    hand: Hand | None
    waiting: WaitingList
    _hand_players: Mapping[int, str]
    _books: TableBooks
    _clock: Clock
    _queue: asyncio.Queue[tuple[Any, Any]]
    _away_timer: TimerHandle | None
    _away_due: float | None
    _away_token: int
    _bot_rng: random.Random
    _turn: Turn | None
    _task: asyncio.Task[None] | None
    _emit: Callable[..., None]

    def _schedule_start(self) -> None:
        raise NotImplementedError

    def restore_seat(self, seat: int, player: str, chips: int, *, bot: str | None = None) -> None:
        """Before :meth:`start`: seat ``player`` again in ``seat`` with ``chips``
        that are already his at this table (nothing is bought in). A bot (``bot``
        is its policy) plays at once; a player is not connected yet, so he is
        dealt out until he connects (RULES.md section 6)."""
        if self._task is not None:
            raise RuntimeError("seats are restored before the table starts")
        if not 1 <= seat <= self.rules.max_seats or seat in self.seats:
            raise ValueError(f"seat {seat} is not free at {self.table_id}")
        if self.seat_of(player) is not None:
            raise ValueError(f"{player} is already seated at {self.table_id}")
        if isinstance(chips, bool) or not isinstance(chips, int) or chips <= 0:
            raise ValueError(f"a seat comes back with chips, not {chips!r}")
        robot: Bot | None = None
        if bot is not None:
            if bot not in BOTS:
                raise ValueError(f"no bot policy {bot!r}")
            robot = make_bot(
                bot, random.Random(self._bot_rng.getrandbits(64)), game=self.rules.game
            )
        absent = robot is None
        self.seats[seat] = Seat(
            player,
            chips,
            robot,
            sitting_out=absent,
            out_reason="disconnected" if absent else "",
            connected=not absent,
        )
        self._emit(SeatTaken(seat, player, chips, robot is not None))
        if absent:
            self._emit(SatOut(seat, "disconnected"))

    def seat_of(self, player: str) -> int | None:
        for number, seat in self.seats.items():
            if seat.player == player:
                return number
        return None

    def _seat_of(self, player: str) -> tuple[int, Seat]:
        for number, seat in self.seats.items():
            if seat.player == player:
                return number, seat
        raise Refused(f"{player} is not seated at this table")

    def _in_hand(self, number: int) -> bool:
        return self.hand is not None and number in self._hand_players

    async def _sit(self, cmd: Sit | SeatBot) -> None:
        rules, config = self.rules, self.config
        if not 1 <= cmd.seat <= rules.max_seats:
            raise Refused(f"seats run from 1 to {rules.max_seats}, not {cmd.seat}")
        if cmd.seat in self.seats:
            raise Refused(f"seat {cmd.seat} is taken")
        if self.seat_of(cmd.player) is not None:
            raise Refused(f"{cmd.player} is already seated at this table")
        self.waiting.check_sit(cmd.seat, cmd.player)
        if not isinstance(cmd.amount, int) or not (
            config.min_buy_in <= cmd.amount <= config.max_buy_in
        ):
            raise Refused(
                f"the buy-in is {config.min_buy_in} to {config.max_buy_in} chips, not {cmd.amount}"
            )
        bot: Bot | None = None
        if isinstance(cmd, SeatBot):
            if cmd.policy not in BOTS:
                raise Refused(f"no bot policy {cmd.policy!r} (there are {', '.join(BOTS)})")
            seed = cmd.seed if cmd.seed is not None else self._bot_rng.getrandbits(64)
            bot = make_bot(cmd.policy, random.Random(seed), game=self.rules.game)
        try:
            await self._books.sit(
                self.table_id, cmd.seat, cmd.player, cmd.amount, bot=bot is not None
            )
        except BooksRefused as exc:
            raise Refused(str(exc)) from None
        except BooksFenced:
            raise  # not our table any more: the owner task stops
        except Exception as exc:  # the books are down: nothing was written
            log.warning("table %s: %s could not sit: %s", self.table_id, cmd.player, exc)
            raise Refused(f"the room cannot take your buy-in now, try again ({exc})") from None
        self.seats[cmd.seat] = Seat(cmd.player, cmd.amount, bot)
        self._emit(SeatTaken(cmd.seat, cmd.player, cmd.amount, bot is not None))
        self.waiting.sat(cmd.player, self._free_seats())
        self._schedule_start()

    async def _top_up(self, cmd: TopUp) -> None:
        number, seat = self._seat_of(cmd.player)
        if self._in_hand(number):
            raise Refused("you may top up between hands only")
        amount = cmd.amount
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise Refused(f"a top-up must be a positive number of chips, got {amount!r}")
        if seat.chips + amount > self.config.max_buy_in:
            raise Refused(
                f"you may have at most {self.config.max_buy_in} chips at this table; "
                f"you have {seat.chips}"
            )
        try:
            await self._books.top_up(self.table_id, number, cmd.player, amount)
        except BooksRefused as exc:
            raise Refused(str(exc)) from None
        except BooksFenced:
            raise  # not our table any more: the owner task stops
        except Exception as exc:  # the books are down: nothing was written
            log.warning("table %s: %s could not top up: %s", self.table_id, cmd.player, exc)
            raise Refused(f"the room cannot take your top-up now, try again ({exc})") from None
        seat.chips += amount
        self._emit(ToppedUp(number, amount, seat.chips))
        self._schedule_start()

    async def _leave(self, cmd: Leave) -> None:
        number, seat = self._seat_of(cmd.player)
        if self._in_hand(number):
            # He plays this hand out (the timers act for him) and leaves at its end.
            if not seat.leaving:
                seat.leaving = True
                self._emit(SatOut(number, "leaving"))
            return
        if not await self._remove(number, cmd.reason) and not seat.leaving:
            # the books cannot be written now: he is dealt out, and stood up (his
            # chips back) as soon as they can
            seat.leaving = True
            self._emit(SatOut(number, "leaving"))

    async def _remove(self, number: int, reason: str) -> bool:
        """Stand the player in seat ``number`` up, his chips back to his account. If
        the books cannot be written now he stays seated, dealt out, and the table
        tries again (every few seconds, after its next messages); False."""
        seat = self.seats[number]
        try:
            await self._books.stand(self.table_id, number, seat.player, seat.chips)
        except BooksFenced:
            raise
        except Exception as exc:
            log.error(
                "table %s: cannot stand %s up (%s): %s", self.table_id, seat.player, reason, exc
            )
            self._stand_later[number] = reason
            self._retry_stand_at = self._clock.now() + STAND_RETRY
            self._clock.call_at(
                self._retry_stand_at, lambda: self._queue.put_nowait((AwayCheck(), None))
            )
            return False
        self._stand_later.pop(number, None)
        del self.seats[number]
        self._emit(SeatLeft(number, seat.player, seat.chips, reason))
        self.waiting.offer_next(self._free_seats())
        return True

    def restore_waiting(self, players: Sequence[str]) -> None:
        """Before :meth:`start`, after the seats: the waiting list its last owner
        left (a room on several nodes), without the players seated here now; the
        lowest free seat is held for the first of them."""
        if self._task is not None:
            raise RuntimeError("the waiting list is restored before the table starts")
        waiting = [p for p in players if self.seat_of(p) is None]
        self.waiting.restore(waiting, self._free_seats())

    def _free_seats(self) -> list[int]:
        return [n for n in range(1, self.rules.max_seats + 1) if n not in self.seats]

    def _sit_out(self, cmd: SitOut) -> None:
        number, seat = self._seat_of(cmd.player)
        if seat.sitting_out:
            raise Refused("you are already sitting out")
        seat.sitting_out, seat.out_reason = True, "asked"
        self._emit(SatOut(number, "asked"))

    def _come_back(self, cmd: ComeBack) -> None:
        number, seat = self._seat_of(cmd.player)
        if seat.leaving:
            raise Refused("you are leaving the table")
        if not seat.sitting_out and seat.connected:
            raise Refused("you are not sitting out")
        seat.connected = True
        seat.sitting_out, seat.out_reason = False, ""
        self._emit(CameBack(number))
        self._schedule_start()

    def _connect(self, cmd: Connect) -> None:
        self.connections[cmd.player] += 1
        number = self.seat_of(cmd.player)
        if number is None:
            return  # counted: he is connected if he sits
        seat = self.seats[number]
        if seat.connected:
            return
        seat.connected = True
        self._emit(Reconnected(number))
        turn = self._turn
        if turn is not None and turn.seat == number and not turn.extended:
            turn.extended = True
            self._set_phase(
                turn, turn.phase, turn.deadline + self.rules.reconnect_seconds, "reconnect"
            )
        if seat.sitting_out and seat.out_reason == "disconnected":
            seat.sitting_out, seat.out_reason = False, ""
            self._emit(CameBack(number))
            self._schedule_start()

    def _disconnect(self, cmd: Disconnect) -> None:
        left = self.connections[cmd.player] - 1
        if left > 0:
            self.connections[cmd.player] = left
            return  # another window of his is still open
        del self.connections[cmd.player]
        number = self.seat_of(cmd.player)
        if number is None:
            return
        seat = self.seats[number]
        if not seat.connected:
            return
        seat.connected = False
        self._emit(Disconnected(number))
        if not self._in_hand(number):
            self._deal_out(number, seat, "disconnected")

    def _deal_out(self, number: int, seat: Seat, reason: str) -> None:
        if not seat.sitting_out:
            seat.sitting_out, seat.out_reason = True, reason
            self._emit(SatOut(number, reason))

    # ------------------------------------------------------------ away too long
    async def _check_away(self) -> None:
        """Note when each player's seat stopped being dealt in; stand up those
        away ``sit_out_seconds`` or more who are in no hand; set the timer for the
        next one due (one still in the hand goes when the hand ends: the table
        checks again after it)."""
        now, limit = self._clock.now(), self.config.sit_out_seconds
        if self._stand_later and now >= self._retry_stand_at:
            for number, reason in list(self._stand_later.items()):
                if number in self.seats and not self._in_hand(number):
                    await self._remove(number, reason)
                elif number not in self.seats:
                    del self._stand_later[number]
        for seat in self.seats.values():
            if not seat.away:
                seat.away_since = None
            elif seat.away_since is None:
                seat.away_since = now
        for number, seat in list(self.seats.items()):
            since = seat.away_since
            due_out = since is not None and now - since >= limit
            if due_out and not self._in_hand(number) and number not in self._stand_later:
                await self._remove(number, "sat_out")
        due = min(
            (
                s.away_since + limit
                for s in self.seats.values()
                if s.away_since is not None and s.away_since + limit > now
            ),
            default=None,
        )
        if due == self._away_due:
            return
        self._stop_away_timer()
        if due is not None:
            self._away_token += 1
            message = AwayCheck(self._away_token)
            self._away_due = due
            self._away_timer = self._clock.call_at(
                due, lambda: self._queue.put_nowait((message, None))
            )

    def _away_timer_fired(self, message: AwayCheck) -> None:
        if message.token == self._away_token:
            self._away_timer = self._away_due = None

    def _stop_away_timer(self) -> None:
        timer, self._away_timer, self._away_due = self._away_timer, None, None
        if timer is not None:
            timer.cancel()
