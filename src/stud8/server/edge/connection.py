"""The edge: one :class:`Connection` per websocket, between a client and a table.

It parses each client message once (:func:`stud8.server.wire.schemas.parse_command`),
rate-limits them (a token bucket per connection), answers a repeated command id
with the first answer without applying it again, and forwards commands to the
table's queue. Events come from the table already projected for this viewer
(:func:`stud8.server.table.events.project`: a player sees his own down cards, an
observer none; an operator's connection, ``everything``, sees every card, except
in a hand he is dealt into himself), are encoded once and sent in order with the
replies, through one outgoing queue. A player whose turn starts gets a
``turn`` message with his legal actions.

On connect, with ``last_seen`` the missed events are sent (or a snapshot if the
table's history no longer has them); without it, a snapshot. A seated player's
connection tells the table ``Connect``; when his last connection to the table
closes, ``Disconnect`` (RULES.md section 6 does the rest).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from stud8.server.room.lobby import TableEntry
from stud8.server.table.commands import (
    Act,
    ComeBack,
    Command,
    Connect,
    Disconnect,
    JoinWaitlist,
    Leave,
    LeaveWaitlist,
    Reply,
    Sit,
    SitOut,
    TopUp,
)
from stud8.server.table.events import Numbered, TimerStarted
from stud8.server.wire.schemas import (
    MAX_MESSAGE_BYTES,
    ActMessage,
    ClientMessage,
    ComeBackMessage,
    JoinWaitlistMessage,
    LeaveMessage,
    LeaveWaitlistMessage,
    PingMessage,
    ProtocolError,
    SitMessage,
    SitOutMessage,
    TopUpMessage,
    envelope,
    event_message,
    legal_json,
    parse_command,
    snapshot_message,
)

Receive = Callable[[], Coroutine[Any, Any, str | bytes | None]]  # None: the client is gone
Send = Callable[[str], Awaitable[None]]


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved; a message takes one.

    >>> t = [0.0]
    >>> bucket = TokenBucket(2, 3, now=lambda: t[0])
    >>> [bucket.take() for _ in range(4)]
    [True, True, True, False]
    >>> t[0] = 0.5; bucket.take(), bucket.take()
    (True, False)
    """

    def __init__(self, rate: float, burst: int, now: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._now = now
        self._tokens = float(burst)
        self._last = now()

    def take(self) -> bool:
        now = self._now()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False


def to_command(message: ClientMessage, player: str) -> Command:
    """The table command a parsed client message asks for."""
    if isinstance(message, ActMessage):
        return Act(player=player, kind=message.kind, amount=message.amount, command_id=message.id)
    if isinstance(message, SitMessage):
        return Sit(player=player, seat=message.seat, amount=message.amount, command_id=message.id)
    if isinstance(message, TopUpMessage):
        return TopUp(player=player, amount=message.amount, command_id=message.id)
    if isinstance(message, SitOutMessage):
        return SitOut(player=player, command_id=message.id)
    if isinstance(message, ComeBackMessage):
        return ComeBack(player=player, command_id=message.id)
    if isinstance(message, LeaveMessage):
        return Leave(player=player, command_id=message.id)
    if isinstance(message, JoinWaitlistMessage):
        return JoinWaitlist(player=player, command_id=message.id)
    if isinstance(message, LeaveWaitlistMessage):
        return LeaveWaitlist(player=player, command_id=message.id)
    raise ProtocolError(f"{message.t} is not a table command")


def reply_message(command_id: str, reply: Reply) -> str:
    if reply.ok:
        return envelope("ack", reply.seq, {"id": command_id})
    return envelope("reject", reply.seq, {"id": command_id, "reason": reply.reason})


def reject_message(command_id: str | None, reason: str, seq: int | None = None) -> str:
    return envelope("reject", seq, {"id": command_id, "reason": reason})


class Connection:
    """One client connected to one table, as ``player`` (None: an observer);
    ``everything``: an operator, who is shown every card (see the module)."""

    def __init__(
        self,
        entry: TableEntry,
        player: str | None,
        send: Send,
        *,
        everything: bool = False,
        rate: float = 20.0,
        burst: int = 40,
        now: Callable[[], float] = time.monotonic,
        remembered: int = 128,  # answers kept (the table keeps more, across reconnects)
        max_outgoing: int = 10_000,
    ) -> None:
        self.entry = entry
        self.table = entry.table
        self.player = player
        self.everything = everything
        self._send = send
        self._bucket = TokenBucket(rate, burst, now)
        # A command's answer: its future while the table works on it, then its text
        # (a string, which the garbage collector does not track; a done future it does).
        self._answers: OrderedDict[str, asyncio.Future[str] | str] = OrderedDict()
        self._remembered = remembered
        self._outgoing: asyncio.Queue[str | None] = asyncio.Queue()
        self._max_outgoing = max_outgoing
        self._replaying = False
        self._pending: set[asyncio.Task[None]] = set()
        self.closed = asyncio.Event()  # set when the connection must end (too slow)

    # ------------------------------------------------------------ outgoing
    def _queue(self, text: str) -> None:
        if self._outgoing.qsize() >= self._max_outgoing:
            self.closed.set()  # the client does not read: drop it
            return
        self._outgoing.put_nowait(text)

    def _my_seat(self) -> int | None:
        return None if self.player is None else self.table.seat_of(self.player)

    def _deliver(self, item: Numbered) -> None:
        self._queue(event_message(item))
        event = item.event
        if (
            isinstance(event, TimerStarted)
            and not self._replaying
            and item.seq == self.table.last_seq
            and event.seat == self._my_seat()
        ):
            self._send_turn()

    def _send_turn(self) -> None:
        hand, seat = self.table.hand, self._my_seat()
        if hand is None or seat is None or hand.to_act != seat:
            return
        data = {"seat": seat, "legal": legal_json(hand.legal_actions())}
        self._queue(envelope("turn", self.table.last_seq, data))

    async def _writer(self) -> None:
        while True:
            text = await self._outgoing.get()
            if text is None:
                return
            await self._send(text)

    # ------------------------------------------------------------ the connection
    async def run(self, receive: Receive, last_seen: int | None = None) -> None:
        """Serve the connection until the client goes (or must go)."""
        table, player = self.table, self.player
        self._queue(
            envelope(
                "welcome",
                None,
                {
                    "table_id": table.table_id,
                    "player": player,
                    "seat": self._my_seat(),
                    "table": self.entry.info(),
                },
            )
        )
        self._replaying = True
        sub = table.subscribe(player, self._deliver, last_seen, everything=self.everything)
        self._replaying = False
        if sub.snapshot is not None:
            self._queue(snapshot_message(sub.snapshot))
        self._send_turn()
        writer = asyncio.create_task(self._writer())
        if player is not None:
            self.entry.connections[player] += 1
            if table.seat_of(player) is not None and not self.entry.closed:
                await table.submit(Connect(player=player))
        closed = asyncio.create_task(self.closed.wait())
        try:
            while True:
                incoming = asyncio.create_task(receive())
                done, _ = await asyncio.wait(
                    {incoming, closed, writer}, return_when=asyncio.FIRST_COMPLETED
                )
                if incoming not in done:
                    incoming.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await incoming
                    break
                text = incoming.result()
                if text is None:
                    break
                self.handle(text)
        finally:
            sub.close()
            closed.cancel()
            for task in list(self._pending):
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(task), 5)
            # the client is gone (or must go): what is still queued is dropped
            writer.cancel()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await writer
            if player is not None:
                self.entry.connections[player] -= 1
                if self.entry.connections[player] <= 0:
                    del self.entry.connections[player]
                    if table.seat_of(player) is not None and not self.entry.closed:
                        with contextlib.suppress(Exception):
                            await table.submit(Disconnect(player=player))

    # ------------------------------------------------------------ incoming
    def handle(self, text: str | bytes) -> None:
        """Take one client message: answer it now or when the table has."""
        size = len(text.encode() if isinstance(text, str) else text)
        if size > MAX_MESSAGE_BYTES:
            self._queue(
                reject_message(
                    None, f"message too large: {size} bytes (the limit is {MAX_MESSAGE_BYTES})"
                )
            )
            return
        allowed = self._bucket.take()
        try:
            message = parse_command(text)
        except ProtocolError as exc:
            reason = exc.reason if allowed else "rate limit: too many messages, slow down"
            self._queue(reject_message(exc.command_id, reason))
            return
        command_id = getattr(message, "id", None)
        assert isinstance(command_id, str)
        if not allowed:
            self._queue(reject_message(command_id, "rate limit: too many messages, slow down"))
            return
        if isinstance(message, PingMessage):
            self._queue(envelope("pong", self.table.last_seq, {"id": command_id}))
            return
        first = self._answers.get(command_id)
        if isinstance(first, str):
            self._queue(first)
            return
        if first is not None:
            self._later(self._repeat(first))
            return
        if self.player is None:
            self._queue(reject_message(command_id, "observers cannot play: log in to sit"))
            return
        if self.entry.closed:
            self._queue(reject_message(command_id, "the table is closed"))
            return
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._answers[command_id] = answer
        while len(self._answers) > self._remembered:
            self._answers.popitem(last=False)
        command = to_command(message, self.player)
        # submit now, so commands reach the table in the order they came
        submitted = asyncio.ensure_future(self.table.submit(command))
        self._later(self._answer(command_id, submitted, answer))

    def _later(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _answer(
        self, command_id: str, submitted: asyncio.Future[Reply], answer: asyncio.Future[str]
    ) -> None:
        try:
            reply = await submitted
        except Exception as exc:  # the table stopped
            text = reject_message(command_id, f"the table could not take it: {exc or 'stopped'}")
        else:
            text = reply_message(command_id, reply)
        if not answer.done():
            answer.set_result(text)
        if self._answers.get(command_id) is answer:
            self._answers[command_id] = text  # stays where it was in the order
        self._queue(text)

    async def _repeat(self, first: asyncio.Future[str]) -> None:
        self._queue(await asyncio.shield(first))
