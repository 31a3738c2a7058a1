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

The table is made of parts it holds, each given a small frozen context of what it
needs: :class:`~stud8.server.table.seating.Seating` (seats, connections, who is away
too long), :class:`~stud8.server.table.turns.TurnClock` (the turn's timers, RULES.md
section 6, the bots' turns), the hand's :class:`~stud8.server.table.handlog.HandLog`,
:class:`~stud8.server.table.waiting.BookWrites` (the books' writes, why it is paused),
the waiting list, the chat, the :class:`~stud8.server.table.feed.Feed`, the lobby's
:class:`~stud8.server.table.status.StatusBoard` and its
:class:`~stud8.server.table.play.Play` (a cash game, or a tournament's). The table
keeps its queue and what each message does, the hand's life and its snapshot.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, TypeVar

from stud8.core.actions import LegalAction
from stud8.core.cards import Deck
from stud8.core.errors import Stud8Error
from stud8.core.events import Event
from stud8.core.hand import Hand
from stud8.server.clock import Clock, TimerHandle
from stud8.server.table.books import BooksFenced, HandEnd, HandNote, TableBooks
from stud8.server.table.chat import TableChat
from stud8.server.table.commands import (
    Act,
    Answers,
    Chat,
    Command,
    Connect,
    Disconnect,
    JoinWaitlist,
    LeaveWaitlist,
    Refused,
    Reply,
)
from stud8.server.table.divergence import end_durably, seated_after
from stud8.server.table.events import (
    AnyEvent,
    HandFinished,
    HandRefunded,
    HandStarted,
    Numbered,
    SatOut,
    SatOutReason,
    TimerStarted,
)
from stud8.server.table.feed import Feed, Listener
from stud8.server.table.handlog import HandLog, new_hand_id
from stud8.server.table.play import CashGame, Play, PlayContext
from stud8.server.table.rotation import GameRotation
from stud8.server.table.seating import SEAT_COMMANDS, Seating, SeatingContext
from stud8.server.table.snapshot import CatchUp, TableSnapshot, seat_snapshot
from stud8.server.table.spec import TableConfig
from stud8.server.table.state import (
    AwayCheck,
    BotTurn,
    Cancel,
    CatchUpRequest,
    Internal,
    Message,
    ObserversDue,
    OfferTimeout,
    Order,
    Seat,
    StartHand,
    Tick,
)
from stud8.server.table.status import StatusBoard, TableStatus
from stud8.server.table.turns import TurnClock, TurnContext
from stud8.server.table.waiting import BookWrites, WritesContext
from stud8.server.table.waitlist import WaitingList
from stud8.server.tasks import cancel_and_wait

__all__ = ["Table"]

log = logging.getLogger("stud8.server")

A = TypeVar("A")  # the type of the table's answer to a message

# The messages of a hand in play: they change who is away only by ending the hand.
_IN_HAND = (Act, BotTurn, Tick)


class Table:
    """One table; :meth:`start` runs its owner task, :meth:`stop` ends it. ``play``
    makes the kind of game it deals (a cash game by default)."""

    def __init__(
        self,
        config: TableConfig,
        *,
        books: TableBooks,
        clock: Clock,
        deck_source: Callable[[], Deck] = Deck.shuffled,
        hand_ids: Callable[[], str] = new_hand_id,
        bot_seed: int | None = None,
        play: Callable[[PlayContext], Play] = CashGame,
    ) -> None:
        self.config = config
        self.rules = config.rules
        self.table_id = config.table_id
        self._books = books
        self._clock = clock
        self._deck_source = deck_source
        self._hand_ids = hand_ids
        # each message with the future of its answer (a Reply, a CatchUp), if it has one
        self._queue: asyncio.Queue[tuple[Message, asyncio.Future[Any] | None]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.hand: Hand | None = None
        self._hand_players: Mapping[int, str] = MappingProxyType({})
        self._log = HandLog()
        self._held: list[Event] = []  # the hand's events not sent yet (its end, until durable)
        self._start_timer: TimerHandle | None = None
        self._results_until = 0.0  # no deal before then: the showdown stays on the screen
        self._feed = Feed(config.history_size, config.first_seq)
        self._games = GameRotation(config.rules, config.rotation, config.hands_dealt)
        self.waiting = WaitingList(
            clock=clock, seconds=config.offer_seconds, emit=self._emit, post=self._post
        )
        self.seating = Seating(
            SeatingContext(
                config=config,
                rules=lambda: self.rules,
                books=books,
                clock=clock,
                emit=self._emit,
                post=self._post,
                waiting=self.waiting,
                in_hand=self._in_hand,
                deal_soon=self._schedule_start,
                reconnected=lambda number: self._turns.reconnected(number),
                sat_out=lambda number: self._turns.sat_out(number),
                bot_rng=random.Random(bot_seed),
            )
        )
        self._play = play(
            PlayContext(
                table_id=self.table_id,
                seating=self.seating,
                emit=self._emit,
                deal_soon=self._schedule_start,
                clock=clock,
                rules=self._games.rules,  # the next hand's: a mixed table's game turns
            )
        )
        self._turns = TurnClock(
            TurnContext(
                config=config,
                rules=lambda: self.rules,
                clock=clock,
                emit=self._emit,
                post=self._post,
                hand=lambda: self.hand,
                seats=self.seating.seats,
                times_out_sitting_out=self._play.times_out_sitting_out,
            )
        )
        self._answers = Answers(config.remembered_commands)
        self._away_dirty = True  # who is away must be checked again
        self.hands_played = 0
        self._refunded: tuple[HandRefunded, ...] = ()  # hands a restart cancelled here
        self.fenced: str | None = None  # why another node owns the table now (it stopped)
        self._handing_over = False  # no more hands: the table moves to another node
        self._no_hand = asyncio.Event()  # set while no hand is in play
        self._no_hand.set()
        self._board = StatusBoard(self.table_id, clock, self._post)
        self._writes = BookWrites(
            WritesContext(self.table_id, books, clock, self._board, self.status)
        )
        self.chat = TableChat(
            self.table_id,
            books,
            clock,
            self._emit,
            observer_chat=config.observer_chat,
            rate=config.chat_rate,
        )

    # ------------------------------------------------------------ the parts' views
    @property
    def seats(self) -> dict[int, Seat]:
        """The seats, by number (the seating's)."""
        return self.seating.seats

    @property
    def paused(self) -> str | None:
        """Why the table has stopped dealing (its books cannot be written), or None."""
        return self._writes.paused

    def seat_of(self, player: str) -> int | None:
        return self.seating.seat_of(player)

    def restore_seat(
        self, seat: int, player: str, chips: int, *, bot: str | None = None, top_up_to: int = 0
    ) -> None:
        """Before :meth:`start`: seat ``player`` again in ``seat`` with ``chips``
        that are already his at this table (:meth:`Seating.restore`)."""
        if self._task is not None:
            raise RuntimeError("seats are restored before the table starts")
        self.seating.restore(seat, player, chips, bot=bot, top_up_to=top_up_to)

    def restore_waiting(self, players: Sequence[str]) -> None:
        """Before :meth:`start`, after the seats: the waiting list its last owner
        left, a room on several nodes (:meth:`Seating.restore_waiting`)."""
        if self._task is not None:
            raise RuntimeError("the waiting list is restored before the table starts")
        self.seating.restore_waiting(players)

    def restore_refunded(self, hands: Sequence[HandRefunded]) -> None:
        """Before :meth:`start`: the hands of this table a restart or a failover
        cancelled (the recovery's, read from the hand store): told when the table
        starts, and in its snapshots from then on."""
        if self._task is not None:
            raise RuntimeError("the refunded hands are restored before the table starts")
        self._refunded = tuple(hands)

    def _in_hand(self, number: int) -> bool:
        return self.hand is not None and number in self._hand_players

    def _post(self, message: Message) -> None:
        self._queue.put_nowait((message, None))

    # ------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name=f"table {self.table_id}"
            )
            # the hands the restart cancelled here: told before anything else
            for refunded in self._refunded:
                self._emit(refunded)
            # seats restored before the start are counted away from now
            self._queue.put_nowait((AwayCheck(), None))
            # restored bots play on by themselves: nobody's arrival will deal for them
            self._schedule_start()

    async def stop(self) -> None:
        """End the owner task and the timers (the hand, if any, stays as it is)."""
        self._turns.cancel()
        self.waiting.stop()
        self.seating.stop()
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
    def _ask(self, message: Message, answer: type[A]) -> asyncio.Future[A]:
        """Queue ``message``; the future of the table's answer to it (an ``answer``)."""
        fut: asyncio.Future[A] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((message, fut))
        return fut

    def post(self, command: Command) -> asyncio.Future[Reply]:
        """Queue a command; the future of its reply (when the table has handled it)."""
        return self._ask(command, Reply)

    async def submit(self, command: Command) -> Reply:
        """Queue a command and wait for its reply."""
        return await self.post(command)

    async def cancel_hand(self, reason: str = "") -> Reply:
        """Cancel the hand in play: every chip goes back (RULES.md section 7)."""
        return await self._ask(Cancel(reason), Reply)

    async def catch_up(self, last_seen: int | None = None) -> CatchUp:
        """The events after ``last_seen`` if the history still has them all, else
        (or without ``last_seen``) a snapshot; answered in turn with the commands,
        so it matches the events exactly (never an event held back)."""
        return await self._ask(CatchUpRequest(last_seen), CatchUp)

    def order(self, order: Order) -> None:
        """Queue an order for the table's play (a tournament director's): applied in
        turn, in the order given."""
        self._post(order)

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Hand every event from now on to ``listener``; returns the way to stop."""
        return self._feed.listen(listener)

    def on_status(self, listener: Callable[[TableStatus], None]) -> None:
        """Call ``listener`` with the table's status now and whenever what the lobby
        shows of it changes."""
        self._board.listen(listener, self.status())

    @property
    def last_seq(self) -> int:
        return self._feed.last_seq

    def events_since(self, last_seen: int) -> list[Numbered] | None:
        """The events after ``last_seen``, whole; None if the history lost some."""
        return self._feed.since(last_seen)

    def status(self) -> TableStatus:
        return self._board.status(
            players=tuple(s.player for _, s in sorted(self.seats.items())),
            waiting=len(self.waiting.players),
            hands_played=self.hands_played,
            paused=self.paused,
            observers=self.seating.observers(),
            watchers=self.seating.watchers(),
            # the hand in play's game, else the next hand's (a mixed table's turns)
            game=(self.rules if self.hand is not None else self._games.rules()).game.value,
        )

    def snapshot(self) -> TableSnapshot:
        """The whole table now (see :mod:`stud8.server.table.snapshot`)."""
        hand = self.hand
        turn = self._turns.turn
        waiting, offer = self.waiting.snapshot()
        players = self._hand_players
        snapshot = TableSnapshot(
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
            hand_log=self._feed.on_table(),
            refunded=self._refunded,
            mixed=self._games.info(),
        )
        return self._play.snapshot(snapshot)

    # ------------------------------------------------------------ the owner task
    async def _run(self) -> None:
        while True:
            message, fut = await self._queue.get()
            try:
                answer: object = None
                if isinstance(message, Command):
                    answer = await self._command(message)
                elif isinstance(message, CatchUpRequest):
                    answer = self._feed.catch_up(message.last_seen, self.snapshot)
                elif isinstance(message, Cancel):
                    answer = await self._refusing(self._cancel, message.reason)
                else:
                    await self._internal(message)
                if self._away_dirty or not isinstance(message, _IN_HAND):
                    # who is away changes with the seats, the hands' ends and the clock,
                    # not with an action in a hand
                    self._away_dirty = False
                    if self._play.stands_up:
                        await self.seating.check_away()
                if self._board.changed:
                    self._board.publish(self.status)
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

    async def _refusing(self, handler: Callable[..., object], *args: object) -> Reply:
        try:
            result = handler(*args)
            if asyncio.iscoroutine(result):
                await result
        except Refused as refusal:
            return Reply(False, str(refusal), self.last_seq)
        return Reply(True, "", self.last_seq)

    async def _command(self, cmd: Command) -> Reply:
        first = self._answers.first(cmd)
        if first is not None:
            return first
        reply = await self._refusing(self._handle, cmd)
        self._answers.remember(cmd, reply)
        return reply

    async def _handle(self, cmd: Command) -> None:
        self._play.admit(cmd)
        seating = self.seating
        if isinstance(cmd, Act):
            await self._act(cmd)
        elif isinstance(cmd, SEAT_COMMANDS):
            await seating.command(cmd)
            if isinstance(cmd, (Connect, Disconnect)):  # a viewer came or went
                self._board.observers_changed()
        elif isinstance(cmd, JoinWaitlist):
            seated = seating.seat_of(cmd.player) is not None
            self.waiting.join(cmd.player, seated=seated, free_seats=seating.free_seats())
        elif isinstance(cmd, LeaveWaitlist):
            self.waiting.leave(cmd.player, seating.free_seats())
        elif isinstance(cmd, Chat):
            hand_id = self.hand.hand_id if self.hand is not None else None
            await self.chat.say(cmd, seat=self.seat_of(cmd.player), hand_id=hand_id)
        else:
            raise Refused(f"unknown command {type(cmd).__name__}")

    async def _internal(self, message: Internal | Order) -> None:
        if isinstance(message, AwayCheck):
            self.seating.away_timer_fired(message)  # _run checks after every message
        elif isinstance(message, StartHand):
            self._start_timer = None
            await self._start_hand()
        elif isinstance(message, OfferTimeout):
            self.waiting.expired(message.token, self.seating.free_seats())
        elif isinstance(message, ObserversDue):
            self._board.observers_due()
        elif isinstance(message, Order):
            self._play.order(message)
        else:
            await self._turn_ended(message)

    async def _turn_ended(self, message: Tick | BotTurn) -> None:
        """A turn's timer ran out, or a bot's turn came."""
        outcome = self._turns.fired(message)
        hand = self.hand
        if outcome is None or hand is None:
            return
        seat = outcome.timed_out
        player = self.seating.timed_out(seat) if seat is not None else None
        if player is not None:
            self._log.sat_out(len(hand.events), player)
        await self._progress(outcome.events)
        if seat is not None and player is not None:
            self._emit(SatOut(seat, SatOutReason.TIMED_OUT))

    # ------------------------------------------------------------ events
    def _emit(
        self,
        event: AnyEvent,
        seats: Mapping[int, str] | None = None,
        legal: tuple[LegalAction, ...] | None = None,
    ) -> None:
        self._board.saw(event)
        self._feed.emit(event, seats, legal)

    # ------------------------------------------------------------ commands
    async def _act(self, cmd: Act) -> None:
        hand = self.hand
        number, _ = self.seating.seated(cmd.player)
        if hand is None or not self._in_hand(number):
            raise Refused("you are not in a hand")
        if hand.to_act != number:
            raise Refused(f"it is not your turn (seat {hand.to_act} is to act)")
        try:
            events = hand.apply(cmd.action)
        except Stud8Error as exc:
            raise Refused(str(exc)) from None
        self._turns.cancel()
        await self._progress(events)

    async def _cancel(self, reason: str) -> None:
        hand = self.hand
        if hand is None:
            raise Refused("no hand is in play")
        if hand.is_over:
            raise Refused("the hand is over")
        self._turns.cancel()
        await self._progress(hand.cancel(reason))

    # ------------------------------------------------------------ the hand
    def _schedule_start(self) -> None:
        if self.hand is not None or self._start_timer is not None or self._task is None:
            return
        if self._handing_over or self._writes.halted or not self._play.ready():
            return
        self._deal_at(max(self._clock.now() + self.config.between_hands, self._results_until))

    def _deal_at(self, when: float) -> None:
        self._start_timer = self._clock.call_at(when, lambda: self._post(StartHand()))

    async def _start_hand(self) -> None:
        if self.hand is not None or self._handing_over or self._writes.halted:
            return
        deal = self._play.deal()
        if deal is None:
            return
        self.rules = deal.rules
        seats = self.seating.seats
        stacks = {number: chips for number, _, chips in deal.seats}
        for number, chips in stacks.items():
            seats[number].chips = chips  # a tournament's director's (the same but for a restart)
        hand_id = self._hand_ids()
        started_at = self._clock.wall()
        # noted (durably) before a card is dealt, so a restart can cancel it; a
        # hand-over meanwhile waits for this hand (noted, it is played out here)
        note = HandNote(
            hand_id=hand_id, table_id=self.table_id, seats=deal.seats, started_at=started_at
        )
        self._no_hand.clear()
        if not await self._writes.noted(note):
            self._no_hand.set()
            self._deal_at(self._clock.now() + max(1.0, self.config.between_hands))
            return
        self._play.dealt(deal)
        self._hand_players = MappingProxyType({n: player for n, player, _ in deal.seats})
        self._log.start(started_at, deal.idle, self._games.mixed)
        hand = Hand.start(
            rules=self.rules, stacks=stacks, deck=self._deck_source(), hand_id=hand_id
        )
        self.hand = hand
        self._emit(HandStarted(hand_id, tuple(stacks.items())), self._hand_players)
        for told in self._games.dealt():  # a mixed table's game, and its change to come
            self._emit(told, self._hand_players)
        await self._progress(list(hand.events))

    async def _progress(self, new: list[Event]) -> None:
        """Take the hand's new events (what :meth:`Hand.apply` returned): send them
        and start the next turn, or, if they end the hand, keep the hand's end
        durably first (then send them)."""
        hand = self.hand
        assert hand is not None
        self._log.happened(len(new), self._clock.wall())
        self._held.extend(new)
        if hand.is_over:
            await self._finish_hand(hand)
            return
        self._send_held()
        if hand.to_act is not None:
            self._turns.start(hand.to_act)

    def _send_held(self) -> None:
        held, self._held = self._held, []
        emit, players = self._feed.emit, self._hand_players
        for event in held:
            emit(event, players)

    async def _finish_hand(self, hand: Hand) -> None:
        self._turns.hand_ended()
        players = self._hand_players
        record = self._log.record(hand, players, self.table_id)
        final = dict(hand.setup.stacks) if hand.result is None else dict(hand.result.stacks)
        seats = self.seating.seats
        end = HandEnd.of(hand, players, record, stacks=seated_after(seats, final))
        ended = await end_durably(self._writes, end, final, seats)  # durable before it is seen
        if not ended.shown:
            self._held = []  # the end the ledger refused is never shown
        self._send_held()
        for number, chips in ended.final.items():
            seats[number].chips = chips
        self._emit(HandFinished(hand.hand_id, ended.cancelled), players)
        self.hand = None
        self._no_hand.set()
        self._away_dirty = True
        self.hands_played += 1
        self._results_until = self._clock.now() + self.config.results_pause(hand.events)
        if not hand.cancelled:
            self._board.hand_finished(sum(end.payouts.values()) + end.rake)
        # between hands: the leaving leave, the disconnected and the broke are dealt out
        await self.seating.hand_ended(
            players, stand_up=self._play.stands_up, top_up=self._play.buys_chips
        )
        self._schedule_start()
