"""A token bucket: the rate limit of one connection's messages."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["TokenBucket"]


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
