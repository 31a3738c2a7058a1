"""Rate limits: a token bucket (a connection's, an account's, an address's messages)
and a throttle (a sliding log of events per key: failed log-ins, sign-ups)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

__all__ = ["Throttle", "TokenBucket"]


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


class Throttle:
    """At most ``limit`` events per ``period`` seconds for each key (a sliding log):
    :meth:`wait` says how long a key must wait before its next event is allowed
    (0: now), :meth:`note` records one. At most ``max_keys`` keys are kept (the
    oldest are forgotten first), so an attacker's many keys cost bounded memory.

    >>> t = [0.0]
    >>> logins = Throttle(2, 60, now=lambda: t[0])
    >>> logins.note("ann"); logins.note("ann"); logins.wait("ann"), logins.wait("bob")
    (60.0, 0.0)
    >>> t[0] = 59.5; logins.wait("ann")
    0.5
    >>> t[0] = 60.0; logins.wait("ann")
    0.0
    """

    def __init__(
        self,
        limit: int,
        period: float,
        *,
        now: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        if limit < 1 or period <= 0:
            raise ValueError(f"a throttle needs a limit >= 1 and a period > 0: {limit}/{period}")
        self.limit = limit
        self.period = period
        self._now = now
        self._max_keys = max_keys
        self._events: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float] | None:
        events = self._events.get(key)
        if events is None:
            return None
        since = self._now() - self.period
        while events and events[0] <= since:
            events.popleft()
        if not events:
            del self._events[key]
            return None
        return events

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may have another event (0.0: now)."""
        events = self._recent(key)
        if events is None or len(events) < self.limit:
            return 0.0
        return max(0.0, events[-self.limit] + self.period - self._now())

    def count(self, key: str) -> int:
        """The events of ``key`` in the last period."""
        events = self._recent(key)
        return 0 if events is None else len(events)

    def note(self, key: str) -> None:
        """One event of ``key``, now."""
        events = self._recent(key)
        if events is None:
            if len(self._events) >= self._max_keys:
                self._forget()
            events = self._events[key] = deque(maxlen=self.limit)
        events.append(self._now())

    def unnote(self, key: str) -> None:
        """Take back the latest event of ``key`` (it turned out not to count)."""
        events = self._recent(key)
        if events:
            events.pop()

    def clear(self, key: str) -> None:
        self._events.pop(key, None)

    def _forget(self) -> None:
        for key in list(self._events)[: max(1, len(self._events) // 10)]:
            del self._events[key]
