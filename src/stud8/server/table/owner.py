"""The table's owner: one asyncio task owns a table and alone changes it.

Everything a table is asked comes through its queue, in order: a command
(:mod:`stud8.server.table.commands`, answered with a :class:`Reply`: ok, or a
refusal that says why and changed nothing), a viewer's catch-up request, and the
messages its own timers and bots post. A command that carries a ``command_id``
already seen from that player is not applied again: it gets the first answer
again (the table keeps the last ``remembered_commands`` answers; this is the only
place a repeat is recognised).

What the table does, it tells as events (:mod:`stud8.server.table.events`): each
is numbered, kept in a bounded history and handed whole to the table's listeners
(the bus, :mod:`stud8.server.bus`); the edge decides what each viewer may see of
it. The engine's events are the ones :meth:`Hand.apply` returns. A turn's clock
(``timer``) carries the legal actions of the player to act, so the edge never has
to read the hand. When something the lobby shows changes, the table publishes its
:class:`~stud8.server.table.status.TableStatus`.

Everything that must outlive the table (buy-ins, cash-outs, each hand's note and
its end) goes through its :class:`~stud8.server.table.books.TableBooks`, awaited
until durable. **A finished hand is announced only once its end is durable**: the
events of the action that ends a hand (the showdown, the pots awarded) are held
back until :meth:`TableBooks.hand_ended` has returned, then numbered and sent
with ``hand_finish``. A restart can therefore cancel only a hand nobody saw end.
If the books cannot be written, the table stops dealing, says why
(:attr:`Table.paused`, in its status and the log) and tries again until the
hand's end lands.

Timers follow RULES.md section 6, with the times of the table's
:class:`~stud8.core.rules.TableRules`: ``action_seconds``, then a visible
``time_bank_seconds`` countdown, then the engine's timeout rule
(:meth:`Hand.time_out`); a player who reconnects during his turn gets
``reconnect_seconds`` more, once a turn; a player disconnected or leaving is
dealt out of the next hands, his chips his own; one dealt out for the table's
``sit_out_seconds`` is stood up (:mod:`stud8.server.table.seating`). The waiting
list and the seat it holds are :class:`~stud8.server.table.waitlist.WaitingList`'s.
"""

from __future__ import annotations

import asyncio
import logging
import random
import uuid
from collections import Counter, OrderedDict, deque
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from itertools import repeat
from types import MappingProxyType

from stud8.core.actions import LegalAction
from stud8.core.cards import Deck
from stud8.core.errors import Stud8Error
from stud8.core.events import Event
from stud8.core.hand import Hand
from stud8.formats.record import HandRecord
from stud8.server.clock import Clock, TimerHandle
from stud8.server.table.books import BooksFenced, HandEnd, HandNote, TableBooks
from stud8.server.table.chat import TableChat
from stud8.server.table.commands import (
    Act,
    Chat,
    ComeBack,
    Command,
    Connect,
    Disconnect,
    JoinWaitlist,
    Leave,
    LeaveWaitlist,
    Refused,
    Reply,
    SeatBot,
    Sit,
    SitOut,
    TopUp,
)
from stud8.server.table.events import (
    AnyEvent,
    HandFinished,
    HandStarted,
    Numbered,
    SeatLeft,
    SeatTaken,
    TimerStarted,
    WaitingListChanged,
)
from stud8.server.table.feed import Feed, Listener
from stud8.server.table.seating import TableSeating
from stud8.server.table.snapshot import CatchUp, TableSnapshot, seat_snapshot
from stud8.server.table.spec import TableConfig
from stud8.server.table.state import (
    AwayCheck,
    BotTurn,
    Cancel,
    CatchUpRequest,
    Message,
    OfferTimeout,
    Seat,
    StartHand,
    Tick,
    Turn,
)
from stud8.server.table.status import TableStatus
from stud8.server.table.waitlist import WaitingList
from stud8.server.tasks import cancel_and_wait
from stud8.tools.bots.window import HandWindows

__all__ = ["Table"]

log = logging.getLogger("stud8.server")

# The first retry of a write the books refused or could not take, then twice as
# long each time, up to the last.
RETRY_FIRST = 0.5
RETRY_LAST = 30.0
# The lobby's figures (average pot, hands an hour) are over this many seconds.
STATS_WINDOW = 3600.0
# The messages of a hand in play: they change who is away only by ending the hand.
_IN_HAND = (Act, BotTurn, Tick)
# Events that change what the lobby shows of a table.
_LISTED = (SeatTaken, SeatLeft, WaitingListChanged, HandFinished)


def _new_hand_id() -> str:
    return uuid.uuid4().hex


class Table(TableSeating):
    """One table; :meth:`start` runs its owner task, :meth:`stop` ends it."""

    def __init__(
        self,
        config: TableConfig,
        *,
        books: TableBooks,
        clock: Clock,
        deck_source: Callable[[], Deck] = Deck.shuffled,
        hand_ids: Callable[[], str] = _new_hand_id,
        bot_seed: int | None = None,
    ) -> None:
        self.config = config
        self.rules = config.rules
        self.table_id = config.table_id
        self._books = books
        self._clock = clock
        self._deck_source = deck_source
        self._hand_ids = hand_ids
        self._bot_rng = random.Random(bot_seed)
        self._queue: asyncio.Queue[tuple[Message, asyncio.Future[object] | None]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.seats: dict[int, Seat] = {}
        self.hand: Hand | None = None
        self._hand_players: Mapping[int, str] = MappingProxyType({})
        self._hand_started_at: datetime | None = None
        self._hand_times: list[datetime] = []  # when each event of the hand happened
        self._hand_lines, self._hand_idle = [], ()  # its history's sit-out lines
        self._held: list[Event] = []  # the hand's events not sent yet (its end, until durable)
        self._turn: Turn | None = None
        self._windows: HandWindows | None = None  # the bots' windows onto the hand
        self._windows_of: Hand | None = None
        self._token = 0
        self._start_timer: TimerHandle | None = None
        self._results_until = 0.0  # no deal before then: the showdown stays on the screen
        self._away_timer: TimerHandle | None = None
        self._away_due: float | None = None
        self._away_token = 0
        self._feed = Feed(config.history_size, config.first_seq)
        self.waiting = WaitingList(
            clock=clock,
            seconds=config.offer_seconds,
            emit=self._emit,
            post=lambda message: self._queue.put_nowait((message, None)),
        )
        self._answers: OrderedDict[tuple[str, str], Reply] = OrderedDict()
        self.connections: Counter[str] = Counter()  # open connections, by player
        self._stand_later: dict[int, str] = {}
        self._retry_stand_at = 0.0
        self._away_dirty = True  # who is away must be checked again
        self.hands_played = 0
        # Why the table has stopped dealing (its books cannot be written), or None.
        self.paused: str | None = None
        self.fenced: str | None = None  # why another node owns the table now (it stopped)
        self._handing_over = False  # no more hands: the table moves to another node
        self._no_hand = asyncio.Event()  # set while no hand is in play
        self._no_hand.set()
        self._opened = clock.now()
        self._pots: deque[tuple[float, int]] = deque(maxlen=500)  # (when, pot) of each hand
        self._status_listeners: list[Callable[[TableStatus], None]] = []
        self._listed_changed = True
        self.chat = TableChat(
            self.table_id, books, clock, self._emit,
            observer_chat=config.observer_chat, rate=config.chat_rate,
        )  # fmt: skip

    # ------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name=f"table {self.table_id}"
            )
            # seats restored before the start are counted away from now
            self._queue.put_nowait((AwayCheck(), None))
            # restored bots play on by themselves: nobody's arrival will deal for them
            self._schedule_start()

    async def stop(self) -> None:
        """End the owner task and the timers (the hand, if any, stays as it is)."""
        self._cancel_turn()
        self.waiting.stop()
        self._stop_away_timer()
        if self._start_timer is not None:
            self._start_timer.cancel()
            self._start_timer = None
        task, self._task = self._task, None
        if task is not None:
            await cancel_and_wait(task)
        while not self._queue.empty():
            _, fut = self._queue.get_nowait()
            if fut is not None and not fut.done():
                fut.cancel()

    async def settled(self) -> None:
        """Wait until every message queued so far (and what it caused) is handled."""
        task = self._task
        if task is None:
            raise RuntimeError("the table is not running")
        join = asyncio.ensure_future(self._queue.join())
        done, _ = await asyncio.wait({join, task}, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            join.cancel()
            task.result()  # raises what killed the table
            raise RuntimeError("the table stopped")

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def hand_over(self) -> None:
        """Deal no more hands: this node hands the table over to another (a drain,
        a clean shutdown). Returns once no hand is in play and none will be; the
        room then stops the table, and its next owner deals on. Nothing is cancelled.
        Returns too if the table stops meanwhile (stopped, or fenced: another node
        owns it now), its hand, if any, left as it is: that hand will not end here."""
        self._handing_over = True
        if self._start_timer is not None:
            self._start_timer.cancel()
            self._start_timer = None
        task = self._task
        if self._no_hand.is_set() or task is None or task.done():
            return
        no_hand = asyncio.ensure_future(self._no_hand.wait())
        try:
            await asyncio.wait({no_hand, task}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            no_hand.cancel()

    # ------------------------------------------------------------ what the room asks
    def _ask(self, message: Message) -> asyncio.Future[object]:
        """Queue ``message``; the future of the table's answer to it."""
        fut: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((message, fut))
        return fut

    def post(self, command: Command) -> asyncio.Future[Reply]:
        """Queue a command; the future of its reply (when the table has handled it)."""
        return self._ask(command)  # type: ignore[return-value]

    async def submit(self, command: Command) -> Reply:
        """Queue a command and wait for its reply."""
        return await self.post(command)

    async def cancel_hand(self, reason: str = "") -> Reply:
        """Cancel the hand in play: every chip goes back (RULES.md section 7)."""
        return await self._ask(Cancel(reason))  # type: ignore[return-value]

    async def catch_up(self, last_seen: int | None = None) -> CatchUp:
        """The events after ``last_seen`` if the history still has them all, else
        (or without ``last_seen``) a snapshot; answered in turn with the commands,
        so it matches the events exactly (never an event held back)."""
        return await self._ask(CatchUpRequest(last_seen))  # type: ignore[return-value]

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Hand every event from now on to ``listener``; returns the way to stop."""
        return self._feed.listen(listener)

    def on_status(self, listener: Callable[[TableStatus], None]) -> None:
        """Call ``listener`` with the table's status now and whenever what the lobby
        shows of it changes."""
        self._status_listeners.append(listener)
        listener(self.status())

    @property
    def last_seq(self) -> int:
        return self._feed.last_seq

    def events_since(self, last_seen: int) -> list[Numbered] | None:
        """The events after ``last_seen``, whole; None if the history lost some."""
        return self._feed.since(last_seen)

    def status(self) -> TableStatus:
        now = self._clock.now()
        recent = [pot for when, pot in self._pots if now - when <= STATS_WINDOW]
        elapsed = max(1.0, min(STATS_WINDOW, now - self._opened))
        return TableStatus(
            table_id=self.table_id,
            players=tuple(s.player for _, s in sorted(self.seats.items())),
            waiting=len(self.waiting.players),
            hands_played=self.hands_played,
            average_pot=round(sum(recent) / len(recent), 1) if recent else 0.0,
            hands_per_hour=round(len(recent) * 3600 / elapsed, 1),
            paused=self.paused,
        )

    def snapshot(self) -> TableSnapshot:
        """The whole table now (see :mod:`stud8.server.table.snapshot`)."""
        hand = self.hand
        turn = self._turn
        waiting, offer = self.waiting.snapshot()
        players = self._hand_players
        return TableSnapshot(
            table_id=self.table_id,
            seq=self.last_seq,
            seats=tuple(
                seat_snapshot(n, s, in_hand=hand is not None and n in players)
                for n, s in sorted(self.seats.items())
            ),
            hand=hand.view(everything=True) if hand is not None else None,
            hand_seats=dict(players) if hand is not None else {},
            turn=(
                TimerStarted(
                    turn.seat, turn.phase, turn.deadline - self._clock.now(), turn.deadline
                )
                if turn is not None
                else None
            ),
            waiting_list=waiting,
            offer=offer,
        )

    # ------------------------------------------------------------ the owner task
    async def _run(self) -> None:
        while True:
            message, fut = await self._queue.get()
            try:
                answer: object = None
                if isinstance(message, Command):
                    answer = await self._command(message)
                elif isinstance(message, CatchUpRequest):
                    answer = self._catch_up(message.last_seen)
                elif isinstance(message, Cancel):
                    answer = await self._refusing(self._cancel, message.reason)
                else:
                    await self._internal(message)
                if self._away_dirty or not isinstance(message, _IN_HAND):
                    # who is away changes with the seats, the hands' ends and the clock,
                    # not with an action in a hand
                    self._away_dirty = False
                    await self._check_away()
                if self._listed_changed:
                    self._publish_status()
                if answer is not None and fut is not None and not fut.done():
                    fut.set_result(answer)
            except BooksFenced as exc:
                # another node owns the table now: stop at once, touching nothing (its
                # hand and seats are the new owner's)
                log.warning("table %s: stopped here: %s", self.table_id, exc)
                self.fenced = str(exc)
                if fut is not None and not fut.done():
                    fut.set_result(Reply(False, "the table has moved; reconnect", self.last_seq))
                return
            except BaseException as exc:
                if fut is not None and not fut.done():
                    fut.set_exception(exc if isinstance(exc, Exception) else RuntimeError(exc))
                raise
            finally:
                self._queue.task_done()

    def _catch_up(self, last_seen: int | None) -> CatchUp:
        seq = self.last_seq
        if last_seen is not None:
            missed = self._feed.since(last_seen)
            if missed is not None:
                return CatchUp(seq, events=tuple(missed))
        return CatchUp(seq, snapshot=self.snapshot())

    def _publish_status(self) -> None:
        self._listed_changed = False
        if not self._status_listeners:
            return
        status = self.status()
        for listener in self._status_listeners:
            try:
                listener(status)
            except Exception:
                log.exception("table %s: a status listener failed", self.table_id)

    async def _refusing(self, handler: Callable[..., object], *args: object) -> Reply:
        try:
            result = handler(*args)
            if asyncio.iscoroutine(result):
                await result
        except Refused as refusal:
            return Reply(False, str(refusal), self.last_seq)
        return Reply(True, "", self.last_seq)

    async def _command(self, cmd: Command) -> Reply:
        key = (cmd.player, cmd.command_id) if cmd.command_id is not None else None
        if key is not None:
            first = self._answers.get(key)
            if first is not None:
                return first
        reply = await self._refusing(self._handle, cmd)
        if key is not None:
            self._answers[key] = reply
            while len(self._answers) > self.config.remembered_commands:
                self._answers.popitem(last=False)
        return reply

    async def _handle(self, cmd: Command) -> None:
        if isinstance(cmd, Act):
            await self._act(cmd)
        elif isinstance(cmd, (Sit, SeatBot)):
            await self._sit(cmd)
        elif isinstance(cmd, TopUp):
            await self._top_up(cmd)
        elif isinstance(cmd, Leave):
            await self._leave(cmd)
        elif isinstance(cmd, SitOut):
            self._sit_out(cmd)
        elif isinstance(cmd, ComeBack):
            self._come_back(cmd)
        elif isinstance(cmd, Connect):
            self._connect(cmd)
        elif isinstance(cmd, Disconnect):
            self._disconnect(cmd)
        elif isinstance(cmd, JoinWaitlist):
            seated = self.seat_of(cmd.player) is not None
            self.waiting.join(cmd.player, seated=seated, free_seats=self._free_seats())
        elif isinstance(cmd, LeaveWaitlist):
            self.waiting.leave(cmd.player, self._free_seats())
        elif isinstance(cmd, Chat):
            hand_id = self.hand.hand_id if self.hand is not None else None
            await self.chat.say(cmd, seat=self.seat_of(cmd.player), hand_id=hand_id)
        else:
            raise Refused(f"unknown command {type(cmd).__name__}")

    async def _internal(
        self, message: Tick | BotTurn | StartHand | OfferTimeout | AwayCheck
    ) -> None:
        if isinstance(message, AwayCheck):
            self._away_timer_fired(message)  # _run checks after every message
            return
        if isinstance(message, StartHand):
            self._start_timer = None
            await self._start_hand()
            return
        if isinstance(message, OfferTimeout):
            self.waiting.expired(message.token, self._free_seats())
            return
        await self._turn_message(message)

    # ------------------------------------------------------------ events
    def _emit(
        self,
        event: AnyEvent,
        seats: Mapping[int, str] | None = None,
        legal: tuple[LegalAction, ...] | None = None,
    ) -> None:
        if isinstance(event, _LISTED):
            self._listed_changed = True
        self._feed.emit(event, seats, legal)

    # ------------------------------------------------------------ commands
    async def _act(self, cmd: Act) -> None:
        hand = self.hand
        number, _ = self._seat_of(cmd.player)
        if hand is None or not self._in_hand(number):
            raise Refused("you are not in a hand")
        if hand.to_act != number:
            raise Refused(f"it is not your turn (seat {hand.to_act} is to act)")
        try:
            events = hand.apply(cmd.action)
        except Stud8Error as exc:
            raise Refused(str(exc)) from None
        self._cancel_turn()
        await self._progress(events)

    async def _cancel(self, reason: str) -> None:
        hand = self.hand
        if hand is None:
            raise Refused("no hand is in play")
        if hand.is_over:
            raise Refused("the hand is over")
        self._cancel_turn()
        await self._progress(hand.cancel(reason))

    # ------------------------------------------------------------ the hand
    def _schedule_start(self) -> None:
        if self.hand is not None or self._start_timer is not None or self._task is None:
            return
        if self._handing_over:
            return
        if sum(1 for s in self.seats.values() if s.ready) < 2:
            return
        self._start_timer = self._clock.call_at(
            max(self._clock.now() + self.config.between_hands, self._results_until),
            lambda: self._queue.put_nowait((StartHand(), None)),
        )

    async def _start_hand(self) -> None:
        if self.hand is not None or self._handing_over:
            return
        stacks = {n: s.chips for n, s in sorted(self.seats.items()) if s.ready}
        if len(stacks) < 2:
            return
        hand_id = self._hand_ids()
        players = {n: self.seats[n].player for n in stacks}
        started_at = self._clock.wall()
        # noted (durably) before a card is dealt, so a restart can cancel it
        note = HandNote(
            hand_id=hand_id,
            table_id=self.table_id,
            seats=tuple((n, players[n], chips) for n, chips in stacks.items()),
            started_at=started_at,
        )
        if not await self._noted(note):
            self._start_timer = self._clock.call_at(
                self._clock.now() + max(1.0, self.config.between_hands),
                lambda: self._queue.put_nowait((StartHand(), None)),
            )
            return
        self._hand_players = MappingProxyType(players)
        self._hand_started_at = started_at
        self._hand_times = []
        self._hand_lines, self._hand_idle = [], self._idle_seats(stacks)
        hand = Hand.start(
            rules=self.rules, stacks=stacks, deck=self._deck_source(), hand_id=hand_id
        )
        self.hand = hand
        self._no_hand.clear()
        self._emit(HandStarted(hand_id, tuple(stacks.items())), self._hand_players)
        await self._progress(list(hand.events))

    async def _progress(self, new: list[Event]) -> None:
        """Take the hand's new events (what :meth:`Hand.apply` returned): send them
        and start the next turn, or, if they end the hand, keep the hand's end
        durably first (then send them)."""
        hand = self.hand
        assert hand is not None
        self._hand_times.extend(repeat(self._clock.wall(), len(new)))
        self._held.extend(new)
        if hand.is_over:
            await self._finish_hand(hand)
            return
        self._send_held()
        if hand.to_act is not None:
            self._start_turn(hand.to_act)

    def _send_held(self) -> None:
        held, self._held = self._held, []
        emit, players = self._feed.emit, self._hand_players
        for event in held:
            emit(event, players)

    async def _finish_hand(self, hand: Hand) -> None:
        self._cancel_turn()
        players = self._hand_players
        record = self._with_table_lines(
            HandRecord.from_hand(
                hand,
                names=dict(players),
                table=self.table_id,
                started_at=self._hand_started_at,
                times=self._hand_times,
            )
        )
        end = HandEnd.of(hand, players, record)
        # durable before anyone sees how the hand ended
        await self._durably(f"the end of hand {hand.hand_id}", lambda: self._books.hand_ended(end))
        self._send_held()
        final = dict(hand.setup.stacks) if hand.result is None else dict(hand.result.stacks)
        for number, chips in final.items():
            self.seats[number].chips = chips
        self._emit(HandFinished(hand.hand_id, hand.cancelled), players)
        self.hand = None
        self._no_hand.set()
        self._windows = self._windows_of = None
        self._away_dirty = True
        self.hands_played += 1
        self._results_until = self._clock.now() + self.config.results_pause(hand.events)
        if not hand.cancelled:
            self._pots.append((self._clock.now(), sum(end.payouts.values()) + end.rake))
        # between hands: the leaving leave, the disconnected and the broke are dealt out
        for number in list(players):
            seat = self.seats[number]
            if seat.leaving:
                await self._remove(number, "left")
            elif seat.bot is not None and seat.chips == 0:
                await self._remove(number, "no_chips")
            elif not seat.connected:
                self._deal_out(number, seat, "disconnected")
        self._schedule_start()

    # ------------------------------------------------------------ the books
    async def _durably(self, what: str, write: Callable[[], Awaitable[None]]) -> None:
        """Run ``write`` until it lands. Meanwhile the table deals no hand and says
        why (:attr:`paused`, and the log); it never gives up on it."""
        delay = RETRY_FIRST
        while True:
            try:
                await write()
            except BooksFenced:
                raise
            except Exception as exc:
                log.error("table %s: %s could not be written: %s", self.table_id, what, exc)
                self._pause(f"{what} could not be written ({exc}); trying again")
                self._publish_status()
                await self._clock.sleep_until(self._clock.now() + delay)
                delay = min(2 * delay, RETRY_LAST)
                continue
            self._resume()
            return

    async def _noted(self, note: HandNote) -> bool:
        """Note a hand before its deal; False (paused, saying why) if the room cannot."""
        try:
            await self._books.hand_dealt(note)
        except BooksFenced:
            raise
        except Exception as exc:
            log.error("table %s: cannot note a new hand; trying again: %s", self.table_id, exc)
            self._pause(f"the room cannot note a new hand ({exc}); trying again")
            return False
        self._resume()
        return True

    def _pause(self, reason: str) -> None:
        if self.paused != reason:
            self.paused = reason
            self._listed_changed = True

    def _resume(self) -> None:
        if self.paused is not None:
            log.warning("table %s: its books are written again", self.table_id)
            self.paused = None
            self._listed_changed = True
