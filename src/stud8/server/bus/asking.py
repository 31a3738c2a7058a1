"""This node's requests to the others, each waiting for its answer (:class:`Asking`).

A request (:mod:`stud8.server.bus.requests`) is numbered, sent, and waits
:data:`~stud8.server.bus.redis.REPLY_SECONDS` for its answer. Then it is not given
up at once: its answer may have come, unread behind what Redis sent before it (a
busy loop reads a backlog a read at a time), so it is late only once the link is
read up to now (or a wait after). A node whose table is still on it (a sit waits
for the books, however many sit at once) answers ``working`` every half of that
wait (:func:`serve_telling`): the request waits on, up to :data:`WORKING_SECONDS`
in all. A dead or moving owner says nothing, and the wait runs out as before: a
command is answered "try again" (its id makes a repeat safe), anything else fails
with :class:`TableMoving`.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from typing import Any

from stud8.server.bus import NoSuchTable
from stud8.server.bus.requests import (
    Answer,
    BusCounts,
    Pending,
    Refusal,
    Request,
    SendRequest,
    pack,
    read_answer,
)
from stud8.server.table.commands import Reply

__all__ = [
    "CLOSED",
    "MOVED",
    "NOT_ANSWERED",
    "WORKING_SECONDS",
    "Asking",
    "TableMoving",
    "serve_telling",
]

# a request its table is still working on is waited on, up to this long in all
WORKING_SECONDS = 60.0

NOT_ANSWERED = "the table did not answer in time (it may be moving); try again"
MOVED = "the table has moved to another node; try again"
CLOSED = "the table is closed"


class TableMoving(NoSuchTable):
    """The table did not answer: it is moving to another node (or its node is gone)."""


class Asking:
    """The requests this node sent and their answers (see the module). ``send``
    publishes a request to a node; ``caught_up`` calls back once the link is read up
    to now (False: the link is down)."""

    def __init__(
        self,
        *,
        send: Callable[[str, bytes], None],
        caught_up: Callable[[Callable[[], None]], bool],
        reply_seconds: float,
        counts: BusCounts,
    ) -> None:
        self._send = send
        self._caught_up = caught_up
        self.reply_seconds = reply_seconds
        self.counts = counts
        self._pending: dict[int, Pending] = {}
        self._ids = itertools.count(1)

    def ask(
        self,
        node: str,
        make: Callable[[int], Request],
        payload: bytes,
        decode: Callable[[bytes], Any],
        seconds: float | None = None,
    ) -> asyncio.Future[Any]:
        """Send ``node`` the request ``make`` makes with its number, and ``payload``;
        the future of its answer's body (read by ``decode``)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        request_id = next(self._ids)
        request = make(request_id)
        wait = seconds or self.reply_seconds
        sent_at = loop.time()
        last = sent_at + max(WORKING_SECONDS, wait)  # however often it is "working"
        deadline = sent_at + wait  # moved on by each "working", never past ``last``
        timer: asyncio.TimerHandle | None = None

        def wait_on() -> None:
            nonlocal deadline
            deadline = min(loop.time() + wait, last)

        def expire() -> None:
            nonlocal timer
            timer = None
            if request_id not in self._pending:
                return
            if loop.time() < deadline:  # told it is worked on since: wait on
                timer = loop.call_at(deadline, expire)
            elif self._caught_up(give_up):  # (late only once read up to now)
                loop.call_later(self.reply_seconds, give_up)
            else:
                give_up()

        def give_up() -> None:
            if loop.time() < deadline:
                return
            pending = self._pending.pop(request_id, None)
            if pending is not None and not pending.future.done():
                self.counts.unanswered += 1
                if isinstance(pending.request, SendRequest):
                    pending.future.set_result(Reply(False, NOT_ANSWERED))
                else:
                    pending.future.set_exception(TimeoutError(NOT_ANSWERED))

        def done(_future: asyncio.Future[Any]) -> None:
            if timer is not None:
                timer.cancel()

        timer = loop.call_at(deadline, expire)
        self._pending[request_id] = Pending(request, future, decode, sent_at, wait_on)
        future.add_done_callback(done)
        self._send(node, pack(request, payload))
        return future

    def answered(self, data: bytes) -> None:
        """An answer came (a "working" one: its request waits on)."""
        answer, body = read_answer(data)
        if answer.working:
            waiting = self._pending.get(answer.id)
            if waiting is not None:
                waiting.wait_on()
            return
        pending = self._pending.pop(answer.id, None)
        if pending is None or pending.future.done():
            return  # answered after its time ran out
        counts = self.counts
        counts.answered += 1
        counts.answer_seconds += asyncio.get_running_loop().time() - pending.sent_at
        future = pending.future
        if answer.error is None:
            future.set_result(pending.decode(body))
        elif isinstance(pending.request, SendRequest):  # a command is answered, refused
            future.set_result(Reply(False, MOVED if answer.error is Refusal.MOVED else CLOSED))
        else:
            future.set_exception(TableMoving(answer.table))

    def cancel_all(self) -> None:
        """The bus stops: nothing waits for an answer any more."""
        for pending in self._pending.values():
            if not pending.future.done():
                pending.future.cancel()
        self._pending.clear()


async def serve_telling(
    request: Request,
    answer: Awaitable[tuple[Answer, bytes]],
    reply: Callable[[bytes], None],
    every: float,
) -> None:
    """Answer ``request`` (``reply`` publishes to its asker), telling it ``working``
    every ``every`` seconds until the answer is ready."""
    loop = asyncio.get_running_loop()
    working = pack(Answer(request.id, request.table, working=True))
    timer: asyncio.TimerHandle

    def still_working() -> None:
        nonlocal timer
        reply(working)
        timer = loop.call_later(every, still_working)

    timer = loop.call_later(every, still_working)
    try:
        done, body = await answer
    finally:
        timer.cancel()
    reply(pack(done, body))
