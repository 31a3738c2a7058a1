"""The garbage collector, paced so that the room never stops for long.

Every table shares one event loop, so while CPython collects, no table moves. Left
to itself, CPython collects the young generation when allocations minus
deallocations pass a threshold. In a room most objects die young, so that count
grows slowly, and when a collection finally comes the young generation holds tens
of thousands of survivors: 60 to 80 ms here, with a 1,000-player load, every 20 to
30 seconds, and the middle generation 130 to 190 ms every few minutes.

So a serving room collects on its own clock instead: the young generation every
second (about 10 ms under that load), the middle one every tenth second (about
40 ms), and the whole heap when the oldest generation's count passes its
threshold (every 100 middle collections, about 17 minutes; CPython's own rule
also waits for the survivors to be a quarter of the heap, which Python cannot read).
CPython's thresholds are raised so that its own collections are only a backstop
for a burst of allocations. Tests and embedders who do not call
:func:`tune_for_serving` keep CPython's defaults, and the room does not pace.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

__all__ = ["PAUSE_LOGGED", "collect_regularly", "paced", "tune_for_serving"]

log = logging.getLogger("stud8.server")

PAUSE_LOGGED = 0.05  # seconds: a collection this long stalls every table; it is logged
BACKSTOP_THRESHOLDS = (50_000, 50, 100)  # CPython's own collections, while paced

_paced = False
_started = 0.0


def tune_for_serving() -> None:
    """Prepare this process's collector for serving a room (``stud8 serve``).

    What is alive now (modules, the evaluator's tables) is frozen out of
    collection; CPython's thresholds become a backstop; long collections are
    logged; and rooms started from now on pace the collector
    (:func:`collect_regularly`). Calling it again changes nothing more.
    """
    global _paced
    if _paced:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(*BACKSTOP_THRESHOLDS)
    gc.callbacks.append(_log_long_collections)
    _paced = True


def paced() -> bool:
    """Whether :func:`tune_for_serving` has run in this process."""
    return _paced


async def collect_regularly(every: float = 1.0, middle_every: int = 10) -> None:
    """Collect the young generation every ``every`` seconds, the middle one every
    ``middle_every``-th time, and the whole heap when the oldest generation's count
    passes its threshold; until cancelled."""
    if every <= 0 or middle_every < 1:
        raise ValueError(f"collect every {every} s, the middle every {middle_every}: not > 0")
    ticks = 0
    while True:
        await asyncio.sleep(every)
        ticks += 1
        if gc.get_count()[2] > gc.get_threshold()[2]:
            gc.collect(2)
        elif ticks % middle_every == 0:
            gc.collect(1)
        else:
            gc.collect(0)


def _log_long_collections(phase: str, info: dict[str, int]) -> None:
    """Log a collection that stopped the room for a while."""
    global _started
    if phase == "start":
        _started = time.perf_counter()
        return
    paused = time.perf_counter() - _started
    if paused >= PAUSE_LOGGED:
        log.warning(
            "garbage collection of generation %d stopped the room %.0f ms (%d collected)",
            info.get("generation", -1),
            paused * 1000,
            info.get("collected", 0),
        )
