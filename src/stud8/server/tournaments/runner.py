"""A tournament's owner task: one per tournament, like a table's, the only writer of it.

It runs the **same director** as the offline simulator
(:class:`stud8.tournament.director.Director`: the same code seats by random draw,
raises the levels, balances and breaks the tables and places the players) and does
what it decides in the room:

- its tables are room tables (:func:`~stud8.server.table.tournament.tournament_table`,
  on the room's bus, where the players' connections find them), opened and broken as
  the director says, dealt as it says (the level's stakes), their players seated,
  moved and taken out by its orders;
- each finished hand comes back through the table's books (this runner's
  :meth:`TournamentRunner.hand_ended`): the director takes it, and **its new state is
  written with the hand's record in one transaction** before the table shows anyone
  the hand's end; only then are its decisions carried out (the next deal, the
  busted, the moves, a new level). So after a crash the tournament's state and the
  hands kept always agree;
- every event is first tried on a copy of the director: the copy's state, and the
  money its decisions move (a buy-in, a refund, the prizes:
  :mod:`stud8.server.books.tournaments`), are written in one transaction, and only
  then does the copy become the director. A write that fails (the database is down)
  leaves the director as it was: the same event can come again;
- time: the director's clock is the room's wall clock in POSIX seconds; a timer wakes
  the runner when a level or a break ends (or a scheduled start is due). While it
  runs, the runner writes a heartbeat (:meth:`TournamentStore.touch_in`: the row's
  ``updated_at``, nothing else) when nothing was written for
  :data:`HEARTBEAT_SECONDS`. After a restart the runner lets the clock run up to the
  last heartbeat (a :class:`~stud8.tournament.events.Tick` at that time), then sends
  :class:`~stud8.tournament.events.Resume` (the time the room was down is not
  counted: same level, the same time left as at the crash, to about a second) and
  cancels the hand each table was playing (:class:`~stud8.tournament.events.HandCancelled`: every
  player's chips as they were at its deal); the tables come back with the same
  seats.

An operator's cancel (:meth:`TournamentRunner.cancel`) is the runner's, not the
director's: the buy-ins and fees go back (:meth:`TournamentStore.cancel_in`), the
hands in play are cancelled and the tables close.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol

from sqlalchemy import Connection

from stud8.formats.record import HandRecord, Tournament
from stud8.server.books.hands import HandStore
from stud8.server.books.tournaments import TournamentStore
from stud8.server.books.writer import Writes
from stud8.server.clock import Clock, TimerHandle
from stud8.server.table.books import BooksRefused, HandEnd
from stud8.server.table.events import HandRefunded, LeaveReason, TournamentInfo
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableSpec
from stud8.server.table.tournament import DealOrder, InfoOrder, SeatOrder, UnseatOrder
from stud8.server.tasks import cancel_and_wait
from stud8.server.tournaments.books import RunnerBooks, money_of
from stud8.server.tournaments.info import buy_in_text, roman, tournament_info
from stud8.tournament.director import Director, DirectorError, Phase
from stud8.tournament.events import (
    Busted,
    Cancelled,
    DealHand,
    Decision,
    Event,
    FinalTable,
    Finished,
    HandCancelled,
    HandFinished,
    LevelStarted,
    Moved,
    Register,
    Registered,
    Resume,
    Seated,
    Started,
    TableBroken,
    TableOpened,
    Tick,
    Unregister,
)

__all__ = [
    "HEARTBEAT_SECONDS",
    "TableHost",
    "TournamentRefused",
    "TournamentRunner",
    "room_table_of",
]

log = logging.getLogger("stud8.server")

# a running tournament writes something (its state, or a heartbeat) at least this often,
# so that after a crash its level's clock is right to about this much
HEARTBEAT_SECONDS = 1.0


class TournamentRefused(Exception):
    """A request the tournament refuses (the message says why); nothing changed."""


class TableHost(Protocol):
    """Where a tournament's tables run (on the room's bus):
    :class:`~stud8.server.tournaments.manager.Tournaments`."""

    def open_table(
        self,
        table_id: str,
        name: str,
        spec: TableSpec,
        books: Any,
        refunded: Sequence[HandRefunded] = (),
    ) -> Table:
        """Start a tournament's table on the room's bus; ``refunded``: the hands of it
        a restart or a failover cancelled, told when it starts and in its snapshots."""
        ...

    async def close_table(self, table: Table) -> None:
        """Stop it and take it off the bus."""
        ...


# What the owner task is asked (by the room, its tables and its own clock), one
# typed message each, as a table's commands are.
@dataclass(frozen=True, slots=True)
class _Register:
    player: str
    bot: str | None = None  # a bot's policy


@dataclass(frozen=True, slots=True)
class _Unregister:
    player: str


@dataclass(frozen=True, slots=True)
class _Cancel:
    pass


@dataclass(frozen=True, slots=True)
class _ClockTick:
    """A level's end, a break's or the heartbeat may be due."""


@dataclass(frozen=True, slots=True)
class _HandEnded:
    end: HandEnd


@dataclass(frozen=True, slots=True)
class _Resume:
    """After a restart: the hands in play when it stopped are cancelled."""


_Msg = _Register | _Unregister | _Cancel | _ClockTick | _HandEnded | _Resume


class TournamentRunner:
    """One tournament's owner task (see the module)."""

    def __init__(
        self,
        *,
        tournament_id: int,
        director: Director,
        host: TableHost,
        store: TournamentStore,
        writer: Writes,
        clock: Clock,
        spec: TableSpec,
        tables: dict[int, str] | None = None,
        bots: dict[str, str] | None = None,
        cancelled: bool = False,
    ) -> None:
        self.tournament_id = tournament_id
        self.director = director
        self.host = host
        self.store = store
        self.writer = writer
        self.clock = clock
        self.spec = spec  # the tables' pace and clocks; the stakes are the levels'
        self.tables: dict[int, str] = dict(tables or {})  # director's table -> room table id
        self.bots: dict[str, str] = dict(bots or {})  # a bot's name -> its policy
        self.cancelled = cancelled
        self.books = RunnerBooks(self)
        self.running: dict[str, Table] = {}  # the room tables open now
        self._levels: dict[int, int] = {}  # the level of the hand dealt at each table
        self._told: dict[str, TournamentInfo] = {}  # the info each table was last sent
        self._queue: asyncio.Queue[tuple[_Msg, asyncio.Future[Any] | None]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._timer: TimerHandle | None = None
        self._written_at = clock.now()  # the last write of the state or a heartbeat
        self._closing: set[asyncio.Task[None]] = set()
        # called with the director and its decisions after each event is carried out
        self.observers: list[Callable[[Director, tuple[Decision, ...]], None]] = []

    # ------------------------------------------------------------ reading
    @property
    def phase(self) -> Phase:
        return Phase.CANCELLED if self.cancelled else self.director.phase

    @property
    def over(self) -> bool:
        return self.phase in (Phase.FINISHED, Phase.CANCELLED)

    def room_table(self, number: int) -> str:
        return room_table_of(self.tournament_id, number, self.tables)

    def state(self, director: Director | None = None) -> dict[str, Any]:
        """The whole state to write: the director's, the room tables, the bots."""
        td = director or self.director
        # with the tables its decisions open now (carried out after the write): a
        # restart, or the node that takes it over, finds each table of its director
        tables = {**{n: self.room_table(n) for n in td.tables}, **self.tables}
        return {
            "director": td.to_dict(),
            "tables": {str(n): t for n, t in sorted(tables.items())},
            "bots": dict(sorted(self.bots.items())),
            "cancelled": self.cancelled,
        }

    def now(self) -> float:
        """The director's time: the room's wall clock, POSIX seconds."""
        return self.clock.wall().timestamp()

    # ------------------------------------------------------------ lifecycle
    def start(
        self,
        *,
        resume: bool = False,
        refunded: Mapping[str, Sequence[HandRefunded]] | None = None,
    ) -> None:
        """Run the owner task; ``resume``: after a restart, the tables come back with
        their seats, the clock resumes and the hands cut short are cancelled, each
        table telling those of its hands the restart cancelled (``refunded``, by room
        table, read from the stored hands: as a cash table tells them)."""
        if self._task is not None:
            return
        if resume and self.director.phase is Phase.RUNNING and not self.cancelled:
            told = refunded or {}
            for number, table in sorted(self.director.tables.items()):
                self._open(number, told.get(self.room_table(number), ()))
                for seat, entry in sorted(table.seats.items()):
                    e = self.director.entries[entry]
                    self._order(number, SeatOrder(seat, e.player, e.chips, self.bots.get(e.player)))
        self._task = asyncio.get_running_loop().create_task(
            self._run(), name=f"tournament {self.tournament_id}"
        )
        if resume and not self.over:
            self._queue.put_nowait((_Resume(), None))
        self._schedule()

    async def stop(self) -> None:
        """Stop the owner task and the tables as they are (a hand in play is left to
        the restart, which cancels it)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        task, self._task = self._task, None
        if task is not None:
            await cancel_and_wait(task)
            if self.director.phase is Phase.RUNNING and not self.over:
                with contextlib.suppress(Exception):  # the clock stops now, not a beat ago
                    await asyncio.wait_for(self._beat(), 5)
        for closing in list(self._closing):
            with contextlib.suppress(Exception):
                await closing
        for table_id in list(self.running):
            await self._close_now(table_id)

    async def settled(self) -> None:
        """Wait until every message queued so far is handled (tests)."""
        await self._queue.join()

    # ------------------------------------------------------------ requests
    async def _ask(self, msg: _Msg) -> Any:
        if self._task is None:
            raise TournamentRefused("the tournament is not running here")
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((msg, fut))
        return await fut

    async def register(self, player: str, *, bot: str | None = None) -> int:
        """Buy ``player`` in (a bot: ``bot`` is its policy); his entry's number."""
        return int(await self._ask(_Register(player, bot)))

    async def unregister(self, player: str) -> None:
        await self._ask(_Unregister(player))

    async def cancel(self) -> None:
        """The operator cancels: every buy-in and fee back, the tables closed."""
        await self._ask(_Cancel())

    async def hand_ended(self, end: HandEnd) -> None:
        """A hand of one of its tables is over (see the module)."""
        await self._ask(_HandEnded(end))

    # ------------------------------------------------------------ the owner task
    async def _run(self) -> None:
        while True:
            msg, fut = await self._queue.get()
            try:
                answer = await self._take(msg)
                if fut is not None and not fut.done():
                    fut.set_result(answer)
            except Exception as exc:
                if fut is not None and not fut.done():
                    fut.set_exception(exc)
                elif not isinstance(exc, TournamentRefused):
                    log.exception(
                        "tournament %s: %s failed", self.tournament_id, type(msg).__name__
                    )
            finally:
                self._queue.task_done()
                self._schedule()

    async def _take(self, msg: _Msg) -> object:
        if isinstance(msg, _HandEnded):
            await self._hand(msg.end)
        elif isinstance(msg, _ClockTick):
            deadline = self.director.next_deadline()
            if self.over:
                pass
            elif deadline is not None and deadline <= self.now():
                await self._event(lambda now: Tick(now=now))
            elif self.director.phase is Phase.RUNNING:
                await self._beat()
        elif isinstance(msg, _Resume):
            await self._resume()
        elif isinstance(msg, _Cancel):
            await self._cancel()
        elif self.over:
            raise TournamentRefused(f"the tournament is {self.phase}")
        elif isinstance(msg, _Register):
            return await self._register(msg)
        else:
            await self._event(lambda now: Unregister(now=now, player=msg.player))
        return None

    async def _register(self, msg: _Register) -> int:
        if msg.bot is not None:
            self.bots[msg.player] = msg.bot
        try:
            out = await self._event(lambda now: Register(now=now, player=msg.player))
        except BaseException:
            if msg.bot is not None:
                self.bots.pop(msg.player, None)
            raise
        return next(d.entry for d in out if isinstance(d, Registered))

    async def _event(
        self, make: Callable[[float], Event], record: HandRecord | None = None
    ) -> tuple[Decision, ...]:
        """The event on a copy of the director; its state and money written in one
        transaction; then the copy is the director and its decisions are carried out."""
        at = self.clock.wall()
        now = at.timestamp()
        trial = copy.deepcopy(self.director)
        try:
            decisions = trial.handle(make(now))
        except DirectorError as exc:
            raise TournamentRefused(str(exc)) from None
        state = self.state(trial)
        phase = Phase.CANCELLED if self.cancelled else trial.phase
        money = money_of(self.store, self.tournament_id, trial, decisions, self.bots)
        tid, store = self.tournament_id, self.store

        def work(conn: Connection) -> None:
            money(conn)
            if record is not None:
                HandStore.store_in(conn, record)
            store.save_in(conn, tid, phase, state, at=at)

        try:
            await self.writer.call(work, what=f"tournament {tid}")
        except (ValueError, BooksRefused) as exc:  # the ledger refused (cannot pay...)
            raise TournamentRefused(str(exc)) from None
        self._written_at = self.clock.now()
        before, self.director = self.director, trial
        self._dispatch(decisions, now, before)
        for observe in self.observers:
            observe(trial, decisions)
        return decisions

    # ------------------------------------------------------------ hands
    async def _hand(self, end: HandEnd) -> None:
        number = next((n for n, t in self.tables.items() if t == end.table_id), None)
        td = self.director
        table = td.tables.get(number) if number is not None else None
        record = end.record
        level = self._levels.get(number or 0, td.level)
        d = td.definition
        record = replace(
            record,
            tournament=Tournament(
                str(self.tournament_id), buy_in_text(d.buy_in, d.fee), roman(level)
            ),
        )
        if number is None or table is None or table.hand is None or self.over:
            # not the director's hand (an operator's cancel): keep its record only
            await self.writer.call(
                lambda conn: HandStore.store_in(conn, record), what=f"the end of hand {end.hand_id}"
            )
            return
        hand = table.hand
        if end.cancelled:
            await self._event(lambda now: HandCancelled(now=now, table=number, hand=hand), record)
            return
        stacks = tuple(sorted(record.final_stacks))
        try:
            await self._event(
                lambda now: HandFinished(now=now, table=number, hand=hand, stacks=stacks), record
            )
        except TournamentRefused as exc:  # never expected: the hand is kept, and the error said
            log.error(
                "tournament %s: the director refused hand %s: %s",
                self.tournament_id,
                end.hand_id,
                exc,
            )
            await self.writer.call(
                lambda conn: HandStore.store_in(conn, record), what=f"the end of hand {end.hand_id}"
            )

    async def _beat(self) -> None:
        """The heartbeat: the tournament was running at this time (see the module)."""
        tid, store, at = self.tournament_id, self.store, self.clock.wall()
        await self.writer.call(
            lambda conn: store.touch_in(conn, tid, at), what=f"tournament {tid}'s heartbeat"
        )
        self._written_at = self.clock.now()

    async def _resume(self) -> None:
        tid, store, td = self.tournament_id, self.store, self.director
        alive = await self.writer.call(
            lambda conn: store.alive_at_in(conn, tid), what=f"tournament {tid}'s last heartbeat"
        )
        last = td.last_now
        if alive is not None and td.phase is Phase.RUNNING and last is not None:
            # the clock ran until the room was last seen alive, and stopped there
            up_to = min(alive.timestamp(), self.now())
            if up_to > last:
                await self._event(lambda _now: Tick(now=up_to))
        await self._event(lambda now: Resume(now=now))
        for number, table in sorted(self.director.tables.items()):
            hand = table.hand
            if hand is not None:
                await self._event(partial(_cancelled, table=number, hand=hand))

    async def _cancel(self) -> None:
        if self.over:
            raise TournamentRefused(f"the tournament is {self.phase}")
        td, tid, store = self.director, self.tournament_id, self.store
        d = td.definition
        entries = [(e.entry, e.player) for e in td.entries.values()]
        self.cancelled = True
        state = self.state()

        def work(conn: Connection) -> None:
            store.cancel_in(conn, tid, entries, buy_in=d.buy_in, fee=d.fee)
            store.save_in(conn, tid, Phase.CANCELLED, state)

        try:
            await self.writer.call(work, what=f"tournament {tid} cancelled")
        except BaseException:
            self.cancelled = False
            raise
        self._inform("the tournament was cancelled: every buy-in and fee went back")
        for table_id in list(self.running):
            self._close_later(table_id, cancel_hand=True)

    # ------------------------------------------------------------ carrying out
    def _dispatch(self, decisions: tuple[Decision, ...], now: float, before: Director) -> None:
        td = self.director
        notice = ""
        broken: list[str] = []
        for x in decisions:
            if isinstance(x, TableOpened):
                self._open(x.table)
            elif isinstance(x, Seated):
                self._order(x.table, SeatOrder(x.seat, x.player, x.chips, self.bots.get(x.player)))
            elif isinstance(x, Moved):
                chips = td.entries[x.entry].chips
                self._order(
                    x.from_table,
                    UnseatOrder(
                        x.from_seat,
                        x.player,
                        LeaveReason.MOVED,
                        self.room_table(x.to_table),
                        x.to_seat,
                        x.reason,
                    ),
                )
                self._order(
                    x.to_table, SeatOrder(x.to_seat, x.player, chips, self.bots.get(x.player))
                )
            elif isinstance(x, Busted):
                seat = before.entries[x.entry].seat or 0
                self._order(x.table, UnseatOrder(seat, x.player, LeaveReason.BUSTED))
            elif isinstance(x, DealHand):
                self._deal(x)
            elif isinstance(x, TableBroken):
                broken.append(self.room_table(x.table))
            elif isinstance(x, LevelStarted):
                notice = (
                    f"a break of {x.break_minutes} minutes, then level {x.level}"
                    if x.break_minutes
                    else f"level {x.level}"
                )
            elif isinstance(x, Started):
                notice = f"the tournament starts: {x.entries} entries"
            elif isinstance(x, FinalTable):
                notice = "the final table"
            elif isinstance(x, Finished):
                notice = f"the tournament is over: {x.results[0].player} wins"
            elif isinstance(x, Cancelled):
                notice = f"the tournament is cancelled: {x.reason}"
        if decisions:
            self._inform(notice, now)
        for table_id in broken:
            self._close_later(table_id)
        if self.over:
            for table_id in list(self.running):
                self._close_later(table_id)

    def _deal(self, x: DealHand) -> None:
        td = self.director
        rules = td.definition.table_rules(x.level, players_left=td.players_left)
        s = self.spec
        rules = replace(
            rules,
            action_seconds=s.action_seconds,
            time_bank_seconds=s.time_bank_seconds,
            reconnect_seconds=s.reconnect_seconds,
        )
        seats = tuple((seat, td.entries[e].player, chips) for seat, e, chips in x.seats)
        self._levels[x.table] = x.level
        self._order(x.table, DealOrder(x.hand, rules, seats))

    def _open(self, number: int, refunded: Sequence[HandRefunded] = ()) -> None:
        table_id = self.room_table(number)
        self.tables[number] = table_id
        if table_id in self.running:
            return
        name = f"{self.director.definition.name} - table {number}"[:100]
        spec = replace(
            self.spec,
            seats=self.director.definition.table_size,
            game=self.director.definition.game.value,
        )
        self.running[table_id] = self.host.open_table(table_id, name, spec, self.books, refunded)

    def _order(self, number: int, order: SeatOrder | UnseatOrder | DealOrder) -> None:
        table = self.running.get(self.room_table(number))
        if table is None:
            log.error("tournament %s: no table %d for %r", self.tournament_id, number, order)
            return
        table.order(order)

    def _inform(self, notice: str, now: float | None = None) -> None:
        at = self.now() if now is None else now
        for number, table_id in sorted(self.tables.items()):
            table = self.running.get(table_id)
            if table is not None:
                info = tournament_info(
                    self.director,
                    tournament_id=self.tournament_id,
                    table_number=number,
                    phase=self.phase,
                    now=at,
                    notice=notice,
                )
                last = self._told.get(table_id)
                if last is not None and replace(last, seconds_left=info.seconds_left) == info:
                    continue  # nothing this table shows changed (its clock runs on by itself)
                self._told[table_id] = info
                table.order(InfoOrder(info))

    def _close_later(self, table_id: str, *, cancel_hand: bool = False) -> None:
        """Close a table once it has done what it was told (never from inside the
        runner's own handling: the table may be waiting for it)."""
        table = self.running.get(table_id)
        if table is None or any(t.get_name() == table_id for t in self._closing):
            return

        async def close() -> None:
            try:
                if cancel_hand and table.hand is not None and table.running:
                    with contextlib.suppress(Exception):
                        await table.cancel_hand("the tournament was cancelled")
                with contextlib.suppress(Exception):
                    await table.settled()
                await self._close_now(table_id)
            except Exception:
                log.exception("tournament %s: closing %s failed", self.tournament_id, table_id)

        task = asyncio.get_running_loop().create_task(close(), name=table_id)
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _close_now(self, table_id: str) -> None:
        table = self.running.pop(table_id, None)
        self._told.pop(table_id, None)
        if table is not None:
            await self.host.close_table(table)

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._task is None or self.over:
            return
        deadline = self.director.next_deadline()
        waits = [] if deadline is None else [max(0.0, deadline - self.now()) + 0.001]
        if self.director.phase is Phase.RUNNING:  # the heartbeat, when nothing was written
            waits.append(max(0.0, self._written_at + HEARTBEAT_SECONDS - self.clock.now()))
        if not waits:
            return  # nothing to count: a sit-and-go waits for its players
        tick = (_ClockTick(), None)
        self._timer = self.clock.call_at(
            self.clock.now() + min(waits), lambda: self._queue.put_nowait(tick)
        )


def room_table_of(tournament_id: int, number: int, tables: Mapping[int, str]) -> str:
    """The room table of the director's table ``number`` (``tables``: those opened)."""
    return tables.get(number) or f"T{tournament_id}-{number}"


def _cancelled(now: float, *, table: int, hand: int) -> HandCancelled:
    return HandCancelled(now=now, table=table, hand=hand)
