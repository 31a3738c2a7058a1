"""Clocks for the table runtime: the real one, and a manual one for tests.

A table never reads the time or sleeps by itself: it asks its :class:`Clock`.
``now()`` is a monotonic time in seconds (for deadlines), ``wall()`` the real
date and time (for the records), and ``call_at(when, callback)`` runs a plain
callback at a monotonic time (the table's timers post a command to its queue).

:class:`ManualClock` moves only when a test calls :meth:`ManualClock.advance`,
so timer tests run instantly and exactly.

>>> clock = ManualClock(0.0)
>>> fired = []
>>> _ = clock.call_at(5.0, lambda: fired.append(clock.now()))
>>> clock.advance(4.0); fired
[]
>>> clock.advance(1.0); fired
[5.0]
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol


class TimerHandle(Protocol):
    """A scheduled callback that may still be cancelled."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """What the table needs of time."""

    def now(self) -> float:
        """Monotonic seconds (only differences mean anything)."""
        ...

    def wall(self) -> datetime:
        """The real date and time (UTC), for the hand records."""
        ...

    def call_at(self, when: float, callback: Callable[[], None]) -> TimerHandle:
        """Run ``callback`` once ``now()`` reaches ``when`` (at once if already past)."""
        ...

    async def sleep_until(self, when: float) -> None:
        """Wait until ``now()`` reaches ``when``."""
        ...


class AsyncioClock:
    """The real clock: the running event loop's monotonic time and its timers."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def wall(self) -> datetime:
        return datetime.now(UTC)

    def call_at(self, when: float, callback: Callable[[], None]) -> TimerHandle:
        return asyncio.get_running_loop().call_at(when, callback)

    async def sleep_until(self, when: float) -> None:
        delay = when - self.now()
        await asyncio.sleep(max(0.0, delay))


class _ManualTimer:
    __slots__ = ("callback", "cancelled", "when")

    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told to: for tests.

    Timers fire, in order of their time (then of scheduling), during
    :meth:`advance`; a timer set for a time already reached fires at the next
    ``advance`` (``advance(0)`` will do).
    """

    def __init__(self, start: float = 1000.0, wall_start: datetime | None = None) -> None:
        self._now = start
        self._start = start
        self._wall_start = wall_start or datetime(2026, 1, 1, tzinfo=UTC)
        self._heap: list[tuple[float, int, _ManualTimer]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def wall(self) -> datetime:
        return self._wall_start + timedelta(seconds=self._now - self._start)

    def call_at(self, when: float, callback: Callable[[], None]) -> TimerHandle:
        timer = _ManualTimer(when, callback)
        heapq.heappush(self._heap, (when, next(self._order), timer))
        return timer

    async def sleep_until(self, when: float) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not done.done():
                done.set_result(None)

        timer = self.call_at(when, wake)
        try:
            await done
        finally:
            timer.cancel()

    def pending(self) -> int:
        """How many timers are still to fire (cancelled ones excluded)."""
        return sum(1 for _, _, t in self._heap if not t.cancelled)

    def next_deadline(self) -> float | None:
        """The time of the next live timer, if any."""
        while self._heap and self._heap[0][2].cancelled:
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    def advance(self, seconds: float) -> None:
        """Move the time on by ``seconds``, firing every timer that comes due."""
        if seconds < 0:
            raise ValueError(f"time does not go back: advance({seconds})")
        target = self._now + seconds
        while self._heap and self._heap[0][0] <= target:
            when, _, timer = heapq.heappop(self._heap)
            if timer.cancelled:
                continue
            self._now = max(self._now, when)
            timer.cancelled = True
            timer.callback()
        self._now = target
