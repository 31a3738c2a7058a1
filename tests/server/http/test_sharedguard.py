"""The shared guard (:mod:`stud8.server.http.sharedguard`) on a throwaway Redis: two
guards (two nodes) count together, what is taken back is taken back once, and with
Redis gone each counts on its own rather than refusing everyone or no one.

Needs redis-server (skipped without it, except under CI).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from redis.asyncio import Redis

from server.redisserver import redis_server
from stud8.server.http.sharedguard import SharedGuard
from stud8.server.settings import Settings

LIMITS = Settings(login_failures=3, address_failures=5, signups=2)


def test_two_guards_count_together_and_take_back_once(redis_url: str) -> None:
    async def main() -> None:
        async with Redis.from_url(redis_url) as one, Redis.from_url(redis_url) as two:
            a = SharedGuard(one, LIMITS, prefix="room1:")
            b = SharedGuard(two, LIMITS, prefix="room1:")
            other_room = SharedGuard(two, LIMITS, prefix="room2:")
            assert [await g.login_attempt("Ann", "10.0.0.1") for g in (a, b, a)] == [0.0] * 3
            wait = await b.login_attempt("ann", "10.0.0.2")
            assert 59 <= wait <= 60  # the oldest of the three ages out in a minute
            assert await other_room.login_attempt("ann", "10.0.0.2") == 0.0  # its own counts
            # an attempt that could not be checked is taken back (on the other node)
            assert await a.login_attempt("bob", "10.0.0.3") == 0.0
            await b.login_undone("bob", "10.0.0.3")
            assert [await g.login_attempt("bob", "10.0.0.4") for g in (a, b, a)] == [0.0] * 3
            assert await b.login_attempt("bob", "10.0.0.4") > 0
            # a right password: the address is known to both, only its own limit applies
            await a.login_succeeded("bob", "10.0.0.9")
            assert await b.login_attempt("bob", "10.0.0.9") == 0.0
            # the address's limit (5) counts every name
            for name in ("x1", "x2", "x3", "x4", "x5"):
                assert await a.login_attempt(name, "10.9.9.9") == 0.0
            assert await b.login_attempt("x6", "10.9.9.9") > 0
            # sign-ups; a failed one does not count
            assert await a.signup_attempt("10.1.1.1") == 0.0
            await b.signup_failed("10.1.1.1")
            assert [await g.signup_attempt("10.1.1.1") for g in (b, a)] == [0.0, 0.0]
            assert 3599 <= await b.signup_attempt("10.1.1.1") <= 3600

    asyncio.run(asyncio.wait_for(main(), 30))


def test_without_redis_each_node_counts_on_its_own(tmp_path: Path) -> None:
    async def main() -> None:
        with redis_server(tmp_path) as server:
            async with Redis.from_url(server.url) as redis:
                guard = SharedGuard(redis, LIMITS, prefix="room:")
                assert await guard.login_attempt("ann", "10.0.0.1") == 0.0
                server.stop()
                # counted here now: the limit still holds
                assert [await guard.login_attempt("ann", "10.0.0.1") for _ in range(3)] == [
                    0.0,
                    0.0,
                    0.0,
                ]
                assert await guard.login_attempt("ann", "10.0.0.1") > 0
                assert await guard.signup_attempt("10.1.1.1") == 0.0

    asyncio.run(asyncio.wait_for(main(), 60))
