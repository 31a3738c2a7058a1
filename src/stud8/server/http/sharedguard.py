"""The accounts' guard of a room on several nodes: the same limits as
:class:`~stud8.server.http.guard.Guard`, counted in Redis (:class:`SharedGuard`).

Counted in each node, N nodes behind a load balancer would let an attacker try N
times as many passwords (and open N times as many accounts) as one process does.
Here every node counts in the room's Redis, with the same sliding logs: a sorted set
per key (``<prefix>guard:login:<account>``, ``guard:addr:<address>``,
``guard:signup:<address>``, and for invitation codes ``guard:code:<account>`` and
``guard:codeaddr:<address>``), one member per attempt scored with Redis's own clock (the
nodes' clocks need not agree), kept no longer than its period. Checking the limits
and counting the attempt is one Lua script, so a burst of attempts on several nodes
at once cannot slip past the limit. The addresses an account logged in from are a
set per account (``guard:known:<account>``, kept :data:`KNOWN_SECONDS` after the last
log-in), as known to every node.

If Redis does not answer, the node counts on its own (a
:class:`~stud8.server.http.guard.Guard` of its own, and a warning in the log) rather
than refusing every log-in or letting every attempt through uncounted.
"""

from __future__ import annotations

import logging
import uuid

from redis.asyncio import Redis
from redis.exceptions import RedisError

from stud8.server.http.guard import Guard
from stud8.server.settings import Settings

__all__ = ["KNOWN_SECONDS", "SharedGuard"]

log = logging.getLogger("stud8.server.guard")

KNOWN_SECONDS = 90 * 24 * 3600  # an address an account logged in from stays known so long

# KEYS: the sliding logs to check and count into; ARGV[1]: the attempt's member,
# then each log's limit and period (ms). Returns {wait_ms, reached...}: the wait if
# any log is full (nothing counted then), else 0 and, per log, 1 if this attempt
# filled it.
_ATTEMPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local wait = 0
for i, key in ipairs(KEYS) do
    local limit = tonumber(ARGV[2 * i])
    local period = tonumber(ARGV[2 * i + 1])
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now - period)
    if redis.call('ZCARD', key) >= limit then
        local oldest = redis.call('ZRANGE', key, -limit, -limit, 'WITHSCORES')
        local left = tonumber(oldest[2]) + period - now
        if left > wait then wait = left end
    end
end
local result = {wait}
if wait > 0 then return result end
for i, key in ipairs(KEYS) do
    local limit = tonumber(ARGV[2 * i])
    redis.call('ZADD', key, now, ARGV[1] .. ':' .. now)
    redis.call('PEXPIRE', key, ARGV[2 * i + 1])
    result[i + 1] = redis.call('ZCARD', key) >= limit and 1 or 0
end
return result
"""


class SharedGuard:
    """The :class:`~stud8.server.http.guard.AccountGuard` of a room on several nodes
    (see the module); ``prefix`` starts every key (the room's)."""

    def __init__(self, redis: Redis, settings: Settings, *, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self.settings = settings
        self._attempt = redis.register_script(_ATTEMPT)
        self._local = Guard(settings)  # while Redis does not answer
        self._away = False

    # ------------------------------------------------------------ keys
    def _login_key(self, name: str) -> str:
        return f"{self.prefix}guard:login:{name.casefold()}"

    def _address_key(self, address: str) -> str:
        return f"{self.prefix}guard:addr:{address}"

    def _signup_key(self, address: str) -> str:
        return f"{self.prefix}guard:signup:{address}"

    def _known_key(self, name: str) -> str:
        return f"{self.prefix}guard:known:{name.casefold()}"

    # ------------------------------------------------------------ log-ins
    async def login_attempt(self, name: str, address: str) -> float:
        s = self.settings
        try:
            known = bool(await self.redis.sismember(self._known_key(name), address))
            keys = [self._address_key(address)]
            args: list[str | int] = [uuid.uuid4().hex, s.address_failures, _ms(s.address_period)]
            if not known:  # from a known address only the address's limit applies
                keys.append(self._login_key(name))
                args += [s.login_failures, _ms(s.login_period)]
            result = await self._attempt(keys=keys, args=args)
        except (RedisError, OSError) as exc:
            self._redis_away(exc)
            return await self._local.login_attempt(name, address)
        self._redis_back()
        wait = int(result[0]) / 1000
        if wait:
            log.debug("log-in for %r from %s refused: too many wrong passwords", name, address)
            return wait
        reached = [bool(int(r)) for r in result[1:]]
        if reached[0]:
            log.warning(
                "log-in: %d attempts from %s in %.0f s (the last for %r): the address is "
                "refused for up to %.0f s (counted by every node)",
                s.address_failures,
                address,
                s.address_period,
                name,
                s.address_period,
            )
        if len(reached) > 1 and reached[1]:
            log.warning(
                "log-in: %d attempts for %r in %.0f s (the last from %s): refused for up "
                "to %.0f s, but from the addresses it logged in from before (counted by "
                "every node)",
                s.login_failures,
                name,
                s.login_period,
                address,
                s.login_period,
            )
        return 0.0

    async def login_undone(self, name: str, address: str) -> None:
        """The attempt could not be checked: it does not count (the latest attempt
        of each of its logs taken back)."""
        try:
            known = bool(await self.redis.sismember(self._known_key(name), address))
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.zpopmax(self._address_key(address))
                if not known:
                    pipe.zpopmax(self._login_key(name))
                await pipe.execute()
        except (RedisError, OSError) as exc:
            self._redis_away(exc)
            await self._local.login_undone(name, address)

    async def login_succeeded(self, name: str, address: str) -> None:
        await self.login_undone(name, address)
        try:
            key = self._known_key(name)
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.sadd(key, address)
                pipe.expire(key, KNOWN_SECONDS)
                await pipe.execute()
        except (RedisError, OSError) as exc:
            self._redis_away(exc)
            await self._local.login_succeeded(name, address)

    # ------------------------------------------------------------ sign-ups
    async def signup_attempt(self, address: str) -> float:
        s = self.settings
        try:
            result = await self._attempt(
                keys=[self._signup_key(address)],
                args=[uuid.uuid4().hex, s.signups, _ms(s.signup_period)],
            )
        except (RedisError, OSError) as exc:
            self._redis_away(exc)
            return await self._local.signup_attempt(address)
        self._redis_back()
        wait = int(result[0]) / 1000
        if wait:
            log.debug("sign-up from %s refused: too many", address)
            return wait
        if int(result[1]):
            log.warning(
                "sign-up: %d accounts from %s in %.0f s: no more from there for up to %.0f s "
                "(counted by every node)",
                s.signups,
                address,
                s.signup_period,
                s.signup_period,
            )
        return 0.0

    async def signup_failed(self, address: str) -> None:
        try:
            await self.redis.zpopmax(self._signup_key(address))
        except (RedisError, OSError) as exc:
            self._redis_away(exc)
            await self._local.signup_failed(address)

    # ------------------------------------------------------------ invitation codes
    async def code_attempt(self, account: str, address: str) -> float:
        """As a log-in's: per account and per address, counted by every node."""
        s = self.settings
        keys = [self._code_key(account), self._code_address_key(address)]
        args: list[str | int] = [
            uuid.uuid4().hex,
            s.login_failures,
            _ms(s.login_period),
            s.address_failures,
            _ms(s.address_period),
        ]
        try:
            result = await self._attempt(keys=keys, args=args)
        except (RedisError, OSError) as exc:
            self._redis_away(exc)
            return await self._local.code_attempt(account, address)
        self._redis_back()
        wait = int(result[0]) / 1000
        if not wait and any(int(r) for r in result[1:]):
            log.warning(
                "invitation codes: too many tried by %r or from %s: refused for a while "
                "(counted by every node)",
                account,
                address,
            )
        return wait

    async def code_worked(self, account: str, address: str) -> None:
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.zpopmax(self._code_key(account))
                pipe.zpopmax(self._code_address_key(address))
                await pipe.execute()
        except (RedisError, OSError) as exc:
            self._redis_away(exc)
            await self._local.code_worked(account, address)

    def _code_key(self, account: str) -> str:
        return f"{self.prefix}guard:code:{account.casefold()}"

    def _code_address_key(self, address: str) -> str:
        return f"{self.prefix}guard:codeaddr:{address}"

    # ------------------------------------------------------------ the replayer's files
    def replay_attempt(self, address: str) -> float:
        """Counted by this node: a file is read and replayed by the node it was sent
        to, so the limit is on each node's work, not the room's."""
        return self._local.replay_attempt(address)

    def equity_attempt(self, address: str) -> float:
        """Counted by this node, as the files are: the node asked counts the equity."""
        return self._local.equity_attempt(address)

    # ------------------------------------------------------------ Redis away
    def _redis_away(self, exc: BaseException) -> None:
        if not self._away:
            self._away = True
            log.warning("the log-in limits are counted on this node only: Redis: %s", exc)

    def _redis_back(self) -> None:
        if self._away:
            self._away = False
            log.warning("the log-in limits are counted by every node again")


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))
