"""A request the other node is still working on waits on (issue 30, item 6: the
seats refused "the table did not answer in time" under load, when sitting took the
owner's books longer than the asker's wait): the owner answers ``working`` every
half of the wait until its answer goes, so the asker waits for it; an owner that
says nothing is given up on as before, and ``working`` never keeps a request
waiting past :data:`~stud8.server.bus.asking.WORKING_SECONDS`.

Needs redis-server (the session's, emptied before the test).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from redis.asyncio import Redis

from stud8.server.bus import asking
from stud8.server.bus.local import LocalBus
from stud8.server.bus.redis import RedisBus, TableMoving
from stud8.server.bus.requests import RemoteHandlers

WAIT = 1.0  # the asker's wait for an answer (the owner says "working" every half)
WORK = 3.0  # what the owner takes: three waits


def two_nodes(
    redis_url: str, client: Redis, tournament: Callable[[bytes], Awaitable[bytes]]
) -> tuple[RedisBus, RedisBus, list[RemoteHandlers]]:
    asker = RedisBus(client, "asker", LocalBus(), url=redis_url, reply_seconds=WAIT)
    owner = RedisBus(client, "owner", LocalBus(), url=redis_url, reply_seconds=WAIT)

    async def close(_table: str) -> None:
        return None

    handlers = [
        RemoteHandlers(close=close, wake=lambda: None),
        RemoteHandlers(close=close, wake=lambda: None, tournament=tournament),
    ]
    return asker, owner, handlers


def test_a_request_its_owner_works_on_longer_than_the_wait_is_answered(
    redis_url: str,
) -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()

        async def slow(payload: bytes) -> bytes:
            await asyncio.sleep(WORK)
            return b"seated " + payload

        async with Redis.from_url(redis_url) as client:
            asker, owner, handlers = two_nodes(redis_url, client, slow)
            for bus, handler in zip((asker, owner), handlers, strict=True):
                await bus.start(handler)
            try:
                started = loop.time()
                answered = await asker.ask("owner", b"ann", WAIT)
                took = loop.time() - started
            finally:
                for bus in (asker, owner):
                    await bus.close()
        assert answered == b"seated ann"
        assert WORK <= took < 2 * WORK  # waited on past its wait, not to the limit
        assert asker.counts.unanswered == 0 and asker.counts.answered == 1

    asyncio.run(asyncio.wait_for(main(), 30))


def test_a_silent_owner_is_given_up_on_and_working_has_a_limit(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(asking, "WORKING_SECONDS", WORK)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stuck = asyncio.Event()

        async def forever(_payload: bytes) -> bytes:
            await stuck.wait()  # "working", and never done
            return b""

        async with Redis.from_url(redis_url) as client:
            asker, owner, handlers = two_nodes(redis_url, client, forever)
            await asker.start(handlers[0])
            try:
                # nobody serves "owner": nothing says "working", the wait runs out
                started = loop.time()
                with pytest.raises(TableMoving):
                    await asker.ask("owner", b"ann", WAIT)
                assert WAIT <= loop.time() - started < WORK
                await owner.start(handlers[1])
                started = loop.time()
                with pytest.raises(TableMoving):
                    await asker.ask("owner", b"ann", WAIT)
                assert loop.time() - started >= WORK  # waited on, up to the limit
            finally:
                stuck.set()
                for bus in (asker, owner):
                    await bus.close()
        assert asker.counts.unanswered == 2

    asyncio.run(asyncio.wait_for(main(), 30))
