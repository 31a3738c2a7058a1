"""An answer that came in time is not refused as late because a busy loop had not
read it yet (issue 30, the seats refused "the table did not answer in time" under
load): a node reads what Redis sends it a socket's read at a turn of the loop, so
after the loop was held up past a request's deadline its answer may still be unread
behind the events Redis sent before it, while the request's timer is due at once.
The request is late only if still unanswered once the node has read up to then.

Needs redis-server (the session's, emptied before the test).
"""

from __future__ import annotations

import asyncio
import time

import redis
from redis.asyncio import Redis

from stud8.server.bus.local import LocalBus
from stud8.server.bus.redis import RedisBus
from stud8.server.bus.requests import RemoteHandlers

BACKLOG = 48  # messages of CHUNK bytes: many reads of a socket (256 KiB each)
CHUNK = 64 * 1024
DEADLINE = 0.5  # the request's time
HELD_UP = 1.0  # the loop busy past it, with the answer in the asker's socket


def test_an_answer_unread_behind_a_backlog_when_its_time_runs_out_is_taken(
    redis_url: str,
) -> None:
    flood = redis.Redis.from_url(redis_url)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        async with Redis.from_url(redis_url) as client:
            asker = RedisBus(client, "asker", LocalBus(), url=redis_url)
            owner = RedisBus(client, "owner", LocalBus(), url=redis_url)

            async def answer(payload: bytes) -> bytes:
                # what Redis sends the asker before the answer: a backlog of events
                for _ in range(BACKLOG):
                    flood.publish(asker.channels.wake, b"x" * CHUNK)
                # the loop held up once the answer has gone to Redis (the answer is
                # published at the end of this turn, the hold-up at the next)
                loop.call_soon(loop.call_soon, time.sleep, HELD_UP)
                return b"seated " + payload

            async def close(_table: str) -> None:
                return None

            woken: list[int] = []
            for bus, handlers in (
                (asker, RemoteHandlers(close=close, wake=lambda: woken.append(1))),
                (owner, RemoteHandlers(close=close, wake=lambda: None, tournament=answer)),
            ):
                await bus.start(handlers)
            try:
                started = loop.time()
                answered = await asker.ask("owner", b"ann", DEADLINE)
                took = loop.time() - started
            finally:
                for bus in (asker, owner):
                    await bus.close()
            assert answered == b"seated ann"
            assert took > HELD_UP  # its time had run out while the loop was busy
            assert len(woken) == BACKLOG  # read in order: the whole backlog first
            assert asker.counts.unanswered == 0

    try:
        asyncio.run(asyncio.wait_for(main(), 30))
    finally:
        flood.close()
