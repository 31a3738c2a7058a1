"""Who sits where at a table: :class:`Seating`, a part of the table.

Sitting down buys in through the table's books (:mod:`stud8.server.table.books`:
the chips and the seat in one durable step); leaving cashes out (at the end of the
hand if he is in one); sitting out, coming back, connecting and disconnecting
change whether the seat is dealt in (RULES.md section 6: a player disconnected
between hands is dealt out, his chips his own, and dealt in again when he comes
back). :meth:`Seating.restore` puts back, before the table starts, a
player seated when the server stopped, with the chips the ledger still holds for
him at the table (no buy-in: the chips never left the table).

**Auto top-up** (his account's setting, issue 28 item 7): the edge tells the
table with each ``Connect``, and the room tells it again with ``AutoTopUp`` when he
changes it.
At the end of each hand (never during one) a seat dealt in whose player has it on
and fewer chips than the buy-in he chose here (his buy-in, or the most he topped
up to; the table's maximum at most) is topped up to it from his bank, through the
books as his own ``top_up`` is (one ledger transaction): what the bank holds if
that is less, nothing if it is empty (said once, until it pays again). A seat a
restart brought back tops up to the same: the books keep it with the seat (its
buy-in, raised by his top-ups); a seat kept before they did, to the chips it came
back with.

A player kept out of the hands (sat out, disconnected, reseated after a restart
and not back yet, or without chips) for the table's ``sit_out_seconds`` is stood
up, as real rooms do: once he is in no hand, he leaves the table (a ``leave``
event, reason ``sat_out``), his chips back to his account, and the seat goes to
the waiting list. :meth:`Seating.check_away` keeps that count; the table
runs it after every message that can change who is away (not after an action in a
hand), and a timer wakes it when a count is due. A player whose chips cannot go
back now (the books cannot be written) stays seated, dealt out, and is stood up
by a later check, at most every ``STAND_RETRY`` seconds.

Seating never runs by itself: the table's owner task calls it, and it reaches the
rest of the table only through its :class:`SeatingContext`.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from stud8.core.rules import TableRules
from stud8.formats.record import SeatRecord
from stud8.server.clock import Clock, TimerHandle
from stud8.server.table.books import BooksFenced, BooksRefused, TableBooks
from stud8.server.table.commands import (
    ANONYMOUS,
    AutoTopUp,
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
    LeaveReason,
    Reconnected,
    SatOut,
    SatOutReason,
    SeatLeft,
    SeatTaken,
    ToppedUp,
)
from stud8.server.table.feed import Emit
from stud8.server.table.spec import TableConfig
from stud8.server.table.state import AwayCheck, Message, Seat
from stud8.server.table.waitlist import WaitingList
from stud8.tools.bots import BOTS, Bot, make_bot

__all__ = ["STAND_RETRY", "SeatCommand", "Seating", "SeatingContext"]

log = logging.getLogger("stud8.server")

STAND_RETRY = 5.0  # seconds before trying again to stand up one the books refused

SeatCommand = Sit | SeatBot | TopUp | Leave | SitOut | ComeBack | Connect | Disconnect | AutoTopUp
SEAT_COMMANDS = (Sit, SeatBot, TopUp, Leave, SitOut, ComeBack, Connect, Disconnect, AutoTopUp)


@dataclass(frozen=True, slots=True)
class SeatingContext:
    """What seating needs of its table: the books (buy-ins, cash-outs), the clock,
    the way to tell events and to post itself a message, the waiting list, the
    table's rules now, whether a seat is dealt into the hand in play (``in_hand``),
    a call to deal when enough players are ready (``deal_soon``), and the turn
    clock's word that a seat is connected again or sat out."""

    config: TableConfig
    rules: Callable[[], TableRules]
    books: TableBooks
    clock: Clock
    emit: Emit
    post: Callable[[Message], None]
    waiting: WaitingList
    in_hand: Callable[[int], bool]
    deal_soon: Callable[[], None]
    reconnected: Callable[[int], None]
    sat_out: Callable[[int], None]  # he asked, maybe in his turn
    bot_rng: random.Random


class Seating:
    """The seats of one table, who is connected, and who is away too long."""

    def __init__(self, context: SeatingContext) -> None:
        self._ctx = context
        self._table_id = context.config.table_id
        self.seats: dict[int, Seat] = {}
        self.connections: Counter[str] = Counter()  # open connections, by player
        self._auto: dict[str, bool] = {}  # the auto top-up setting of each one connected
        self._stand_later: dict[
            int, LeaveReason
        ] = {}  # seats to stand up when the books can be written
        self._retry_stand_at = 0.0
        self._away_timer: TimerHandle | None = None
        self._away_due: float | None = None
        self._away_token = 0

    # ------------------------------------------------------------ who sits where
    def seat_of(self, player: str) -> int | None:
        for number, seat in self.seats.items():
            if seat.player == player:
                return number
        return None

    def _watching(self) -> Iterator[tuple[str, int]]:
        """Each viewer without a seat (``ANONYMOUS``: those not logged in) and his
        open connections."""
        seated = {seat.player for seat in self.seats.values()}
        return ((p, n) for p, n in self.connections.items() if p not in seated)

    def observers(self) -> int:
        """The connections of those who watch without a seat (not logged in too)."""
        return sum(n for _, n in self._watching())

    def watchers(self) -> tuple[str, ...]:
        """The logged-in players who watch without a seat (for the operator's console;
        the lobby shows only how many watch)."""
        return tuple(sorted(p for p, _ in self._watching() if p != ANONYMOUS))

    def seated(self, player: str) -> tuple[int, Seat]:
        """The seat of ``player``; refused if he is not seated here."""
        for number, seat in self.seats.items():
            if seat.player == player:
                return number, seat
        raise Refused(f"{player} is not seated at this table")

    def in_hand(self, number: int) -> bool:
        """Seat ``number`` is dealt into the hand in play."""
        return self._ctx.in_hand(number)

    def free_seats(self) -> list[int]:
        return [n for n in range(1, self._ctx.rules().max_seats + 1) if n not in self.seats]

    def ready(self) -> dict[int, int]:
        """The chips of each seat ready to be dealt in, by seat."""
        return {n: s.chips for n, s in sorted(self.seats.items()) if s.ready}

    def idle(self, dealt: Iterable[int]) -> tuple[SeatRecord, ...]:
        """The seats with chips that are not in ``dealt``: the hand's history lists
        them as sitting out."""
        dealt = set(dealt)
        return tuple(
            SeatRecord(n, s.player, s.chips, True)
            for n, s in sorted(self.seats.items())
            if n not in dealt and s.chips > 0
        )

    def new_bot(self, policy: str) -> Bot:
        """A bot of ``policy`` for the table's game, its seed from the table's."""
        seed = random.Random(self._ctx.bot_rng.getrandbits(64))
        return make_bot(policy, seed, game=self._ctx.rules().game)

    def restore(
        self, seat: int, player: str, chips: int, *, bot: str | None = None, top_up_to: int = 0
    ) -> None:
        """Before the table starts: seat ``player`` again in ``seat`` with ``chips``
        that are already his at this table (nothing is bought in), his auto top-up
        to ``top_up_to``, the stack he chose (kept with his seat; 0, a seat kept
        without it: to the chips he comes back with). A bot (``bot`` is its policy)
        plays at once; a player is not connected yet, so he is dealt out until he
        connects (RULES.md section 6)."""
        if not 1 <= seat <= self._ctx.rules().max_seats or seat in self.seats:
            raise ValueError(f"seat {seat} is not free at {self._table_id}")
        if self.seat_of(player) is not None:
            raise ValueError(f"{player} is already seated at {self._table_id}")
        if isinstance(chips, bool) or not isinstance(chips, int) or chips <= 0:
            raise ValueError(f"a seat comes back with chips, not {chips!r}")
        robot: Bot | None = None
        config = self._ctx.config
        top_up_to = min(max(top_up_to or chips, config.min_buy_in), config.max_buy_in)
        if bot is not None:
            if bot not in BOTS:
                raise ValueError(f"no bot policy {bot!r}")
            robot = self.new_bot(bot)
        absent = robot is None
        self.seats[seat] = Seat(
            player,
            chips,
            robot,
            sitting_out=absent,
            out_reason=SatOutReason.DISCONNECTED if absent else None,
            connected=not absent,
            top_up_to=top_up_to,
        )
        self._ctx.emit(SeatTaken(seat, player, chips, robot is not None))
        if absent:
            self._ctx.emit(SatOut(seat, SatOutReason.DISCONNECTED))

    def restore_waiting(self, players: Sequence[str]) -> None:
        """Before the table starts, after the seats: the waiting list its last owner
        left, without the players seated here now."""
        waiting = [p for p in players if self.seat_of(p) is None]
        self._ctx.waiting.restore(waiting, self.free_seats())

    # ------------------------------------------------------------ the seat commands
    async def command(self, cmd: SeatCommand) -> None:
        if isinstance(cmd, (Sit, SeatBot)):
            await self.sit(cmd)
        elif isinstance(cmd, TopUp):
            await self.top_up(cmd)
        elif isinstance(cmd, Leave):
            await self.leave(cmd)
        elif isinstance(cmd, SitOut):
            self._ctx.sat_out(self.sit_out(cmd))
        elif isinstance(cmd, ComeBack):
            self.come_back(cmd)
        elif isinstance(cmd, Connect):
            self.connect(cmd)
        elif isinstance(cmd, AutoTopUp):
            self.set_auto_top_up(cmd.player, cmd.on)
        else:
            self.disconnect(cmd)

    async def sit(self, cmd: Sit | SeatBot) -> None:
        ctx = self._ctx
        rules, config = ctx.rules(), ctx.config
        if not 1 <= cmd.seat <= rules.max_seats:
            raise Refused(f"seats run from 1 to {rules.max_seats}, not {cmd.seat}")
        if cmd.seat in self.seats:
            raise Refused(f"seat {cmd.seat} is taken")
        if self.seat_of(cmd.player) is not None:
            raise Refused(f"{cmd.player} is already seated at this table")
        ctx.waiting.check_sit(cmd.seat, cmd.player)
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
            seed = cmd.seed if cmd.seed is not None else ctx.bot_rng.getrandbits(64)
            bot = make_bot(cmd.policy, random.Random(seed), game=rules.game)
        try:
            await ctx.books.sit(
                self._table_id, cmd.seat, cmd.player, cmd.amount, bot=bot is not None
            )
        except BooksRefused as exc:
            raise Refused(str(exc)) from None
        except BooksFenced:
            raise  # not our table any more: the owner task stops
        except Exception as exc:  # the books are down: nothing was written
            log.warning("table %s: %s could not sit: %s", self._table_id, cmd.player, exc)
            raise Refused(f"the room cannot take your buy-in now, try again ({exc})") from None
        auto = bot is None and self._auto.get(cmd.player, False)
        self.seats[cmd.seat] = Seat(
            cmd.player, cmd.amount, bot, auto_top_up=auto, top_up_to=cmd.amount
        )
        ctx.emit(SeatTaken(cmd.seat, cmd.player, cmd.amount, bot is not None))
        ctx.waiting.sat(cmd.player, self.free_seats())
        ctx.deal_soon()

    async def top_up(self, cmd: TopUp) -> None:
        ctx = self._ctx
        number, seat = self.seated(cmd.player)
        if ctx.in_hand(number):
            raise Refused("you may top up between hands only")
        amount = cmd.amount
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise Refused(f"a top-up must be a positive number of chips, got {amount!r}")
        if seat.chips + amount > ctx.config.max_buy_in:
            raise Refused(
                f"you may have at most {ctx.config.max_buy_in} chips at this table; "
                f"you have {seat.chips}"
            )
        try:
            await ctx.books.top_up(self._table_id, number, cmd.player, amount)
        except BooksRefused as exc:
            raise Refused(str(exc)) from None
        except BooksFenced:
            raise  # not our table any more: the owner task stops
        except Exception as exc:  # the books are down: nothing was written
            log.warning("table %s: %s could not top up: %s", self._table_id, cmd.player, exc)
            raise Refused(f"the room cannot take your top-up now, try again ({exc})") from None
        seat.chips += amount
        seat.top_up_to = max(seat.top_up_to, seat.chips)  # the stack he chose to have
        ctx.emit(ToppedUp(number, amount, seat.chips))
        ctx.deal_soon()

    async def leave(self, cmd: Leave) -> None:
        number, seat = self.seated(cmd.player)
        if self._ctx.in_hand(number):
            # He plays this hand out (the timers act for him) and leaves at its end.
            if not seat.leaving:
                seat.leaving = True
                self._ctx.emit(SatOut(number, SatOutReason.LEAVING))
            return
        if not await self.remove(number, cmd.reason) and not seat.leaving:
            # the books cannot be written now: he is dealt out, and stood up (his
            # chips back) as soon as they can
            seat.leaving = True
            self._ctx.emit(SatOut(number, SatOutReason.LEAVING))

    async def remove(self, number: int, reason: LeaveReason) -> bool:
        """Stand the player in seat ``number`` up, his chips back to his account
        (for ``reason``). If
        the books cannot be written now he stays seated, dealt out, and the table
        tries again (every few seconds, after its next messages); False."""
        ctx = self._ctx
        seat = self.seats[number]
        try:
            await ctx.books.stand(self._table_id, number, seat.player, seat.chips)
        except BooksFenced:
            raise
        except Exception as exc:
            log.error(
                "table %s: cannot stand %s up (%s): %s", self._table_id, seat.player, reason, exc
            )
            self._stand_later[number] = reason
            self._retry_stand_at = ctx.clock.now() + STAND_RETRY
            ctx.clock.call_at(self._retry_stand_at, lambda: ctx.post(AwayCheck()))
            return False
        self._stand_later.pop(number, None)
        del self.seats[number]
        ctx.emit(SeatLeft(number, seat.player, seat.chips, reason))
        ctx.waiting.offer_next(self.free_seats())
        return True

    def sit_out(self, cmd: SitOut) -> int:
        """He asked to sit out; his seat."""
        number, seat = self.seated(cmd.player)
        if seat.sitting_out:
            raise Refused("you are already sitting out")
        seat.sitting_out, seat.out_reason = True, SatOutReason.ASKED
        self._ctx.emit(SatOut(number, SatOutReason.ASKED))
        return number

    def come_back(self, cmd: ComeBack) -> None:
        number, seat = self.seated(cmd.player)
        if seat.leaving:
            raise Refused("you are leaving the table")
        if not seat.sitting_out and seat.connected:
            raise Refused("you are not sitting out")
        seat.connected = True
        seat.sitting_out, seat.out_reason = False, None
        self._ctx.emit(CameBack(number))
        self._ctx.deal_soon()

    def connect(self, cmd: Connect) -> None:
        ctx = self._ctx
        self.connections[cmd.player] += 1
        self.set_auto_top_up(cmd.player, cmd.auto_top_up)
        number = self.seat_of(cmd.player)
        if number is None:
            return  # counted: he is connected if he sits
        seat = self.seats[number]
        if seat.connected:
            return
        seat.connected = True
        ctx.emit(Reconnected(number))
        ctx.reconnected(number)
        if seat.sitting_out and seat.out_reason is SatOutReason.DISCONNECTED:
            seat.sitting_out, seat.out_reason = False, None
            ctx.emit(CameBack(number))
            ctx.deal_soon()

    def disconnect(self, cmd: Disconnect) -> None:
        left = self.connections[cmd.player] - 1
        if left > 0:
            self.connections[cmd.player] = left
            return  # another window of his is still open
        del self.connections[cmd.player]
        self._auto.pop(cmd.player, None)  # a seat keeps its own
        number = self.seat_of(cmd.player)
        if number is None:
            return
        seat = self.seats[number]
        if not seat.connected:
            return
        seat.connected = False
        self._ctx.emit(Disconnected(number))
        if not self._ctx.in_hand(number):
            self._deal_out(number, seat, SatOutReason.DISCONNECTED)

    def timed_out(self, number: int) -> str | None:
        """The clock of seat ``number`` ran out: at a table that sits out who times
        out, a player (not a bot) not already out nor leaving sits out from the next
        hand until "I'm back" (he may still act in this one); his name, or None."""
        seat = self.seats.get(number)
        if (
            not self._ctx.config.sit_out_on_timeout
            or seat is None
            or seat.bot is not None
            or seat.sitting_out
            or seat.leaving
        ):
            return None
        seat.sitting_out, seat.out_reason = True, SatOutReason.TIMED_OUT
        return seat.player

    async def hand_ended(
        self, players: Iterable[int], *, stand_up: bool = True, top_up: bool = True
    ) -> None:
        """Between hands: of the seats dealt in (``players``), the leaving leave, the
        broke bots go, the disconnected are dealt out, and with ``top_up`` (a cash
        game's) the seats with auto top-up on are topped up. Without ``stand_up`` (a
        tournament's table) nobody is stood up: the leaving and the broke stay."""
        for number in list(players):
            seat = self.seats[number]
            if seat.leaving:
                if stand_up:
                    await self.remove(number, LeaveReason.LEFT)
            elif seat.bot is not None and seat.chips == 0:
                if stand_up:
                    await self.remove(number, LeaveReason.NO_CHIPS)
            elif not seat.connected:
                self._deal_out(number, seat, SatOutReason.DISCONNECTED)
        if top_up:
            await self._auto_top_ups(players)

    def set_auto_top_up(self, player: str, on: bool) -> None:
        """``player``'s auto top-up setting is ``on``: for his seat, and for the seat
        he takes while connected. Never refused (not here: nothing to keep)."""
        if player in self.connections:
            self._auto[player] = on
        number = self.seat_of(player)
        if number is not None:
            seat = self.seats[number]
            on = on and seat.bot is None
            if seat.auto_top_up != on:  # a change: an empty bank is said again
                seat.auto_top_up, seat.told_bank_empty = on, False

    async def _auto_top_ups(self, players: Iterable[int]) -> None:
        """Between hands: top up each seat of ``players`` that has auto top-up on and
        fewer chips than it tops up to (see the module)."""
        ctx = self._ctx
        for number in list(players):
            seat = self.seats.get(number)
            if seat is None or seat.leaving or not seat.auto_top_up:
                continue
            wanted = min(seat.top_up_to, ctx.config.max_buy_in) - seat.chips
            if wanted <= 0:
                continue
            try:
                moved = await ctx.books.top_up(
                    self._table_id, number, seat.player, wanted, partial=True
                )
            except BooksFenced:
                raise  # not our table any more: the owner task stops
            except Exception as exc:  # refused, or the books are down: the next hand's end
                log.warning("table %s: no auto top-up for %s: %s", self._table_id, seat.player, exc)
                continue
            if moved <= 0:  # his bank is empty: said once
                if not seat.told_bank_empty:
                    seat.told_bank_empty = True
                    ctx.emit(ToppedUp(number, 0, seat.chips, auto=True, short=wanted))
                continue
            seat.told_bank_empty = False
            seat.chips += moved
            ctx.emit(ToppedUp(number, moved, seat.chips, auto=True, short=wanted - moved))

    def _deal_out(self, number: int, seat: Seat, reason: SatOutReason) -> None:
        if not seat.sitting_out:
            seat.sitting_out, seat.out_reason = True, reason
            self._ctx.emit(SatOut(number, reason))

    # ------------------------------------------------------------ away too long
    async def check_away(self) -> None:
        """Note when each player's seat stopped being dealt in; stand up those
        away ``sit_out_seconds`` or more who are in no hand; set the timer for the
        next one due (one still in the hand goes when the hand ends: the table
        checks again after it)."""
        ctx = self._ctx
        in_hand = self.in_hand
        now, limit = ctx.clock.now(), ctx.config.sit_out_seconds
        if self._stand_later and now >= self._retry_stand_at:
            for number, reason in list(self._stand_later.items()):
                if number in self.seats and not in_hand(number):
                    await self.remove(number, reason)
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
            if due_out and not in_hand(number) and number not in self._stand_later:
                await self.remove(number, LeaveReason.SAT_OUT)
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
        self.stop()
        if due is not None:
            self._away_token += 1
            message = AwayCheck(self._away_token)
            self._away_due = due
            self._away_timer = ctx.clock.call_at(due, lambda: ctx.post(message))

    def away_timer_fired(self, message: AwayCheck) -> None:
        if message.token == self._away_token:
            self._away_timer = self._away_due = None

    def stop(self) -> None:
        """Stop the away timer."""
        timer, self._away_timer, self._away_due = self._away_timer, None, None
        if timer is not None:
            timer.cancel()
