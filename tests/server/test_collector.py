"""The garbage collector paced for serving (stud8.server.collector), and the room that
paces it while it serves."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Iterator

import pytest

from server.roomdb import serving
from stud8.server import collector
from stud8.server.accounts.auth import MemoryAuth
from stud8.server.books.memory import MemoryBooks
from stud8.server.runtime import room_app
from stud8.server.settings import Settings


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generations collected, in order, while the test runs; CPython's own
    collections are off and the collector's settings are restored after."""
    thresholds = gc.get_threshold()
    callbacks = list(gc.callbacks)
    was_enabled = gc.isenabled()
    seen: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    gc.disable()
    gc.set_threshold(700, 10, 1_000_000)
    gc.callbacks.append(record)
    try:
        yield seen
    finally:
        gc.callbacks[:] = callbacks
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        collector._paced = False
        if was_enabled:
            gc.enable()


async def run_for(collections: list[int], count: int, every: float, middle_every: int) -> None:
    task = asyncio.create_task(collector.collect_regularly(every, middle_every))
    try:
        while len(collections) < count:
            await asyncio.sleep(every)
    finally:
        task.cancel()


def test_the_young_generation_every_tick_and_the_middle_one_every_nth(
    collections: list[int],
) -> None:
    asyncio.run(asyncio.wait_for(run_for(collections, 7, 0.005, 3), 10))
    assert collections[:7] == [0, 0, 1, 0, 0, 1, 0]


def test_the_whole_heap_when_the_oldest_count_passes_its_threshold(
    collections: list[int],
) -> None:
    gc.set_threshold(700, 10, 0)
    gc.collect(1)  # the oldest generation's count is now 1, over 0
    collections.clear()
    asyncio.run(asyncio.wait_for(run_for(collections, 2, 0.005, 3), 10))
    assert collections[0] == 2  # and it resets the count: the next one is young
    assert collections[1] == 0


def test_pacing_periods_must_be_positive() -> None:
    for every, middle_every in ((0.0, 10), (-1.0, 10), (1.0, 0)):
        with pytest.raises(ValueError, match="not > 0"):
            asyncio.run(collector.collect_regularly(every, middle_every))


def test_tune_for_serving_freezes_what_is_alive_and_raises_the_thresholds(
    collections: list[int],
) -> None:
    assert not collector.paced()
    collector.tune_for_serving()
    assert collector.paced()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == collector.BACKSTOP_THRESHOLDS
    callbacks = len(gc.callbacks)
    collector.tune_for_serving()  # again: nothing more
    assert len(gc.callbacks) == callbacks


def test_a_long_collection_is_logged(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(collector, "PAUSE_LOGGED", 0.0)
    with caplog.at_level(logging.WARNING, logger="stud8.server"):
        collector._log_long_collections("start", {"generation": 1})
        collector._log_long_collections("stop", {"generation": 1, "collected": 3})
    assert "garbage collection of generation 1 stopped the room" in caplog.text
    assert "(3 collected)" in caplog.text
    caplog.clear()
    monkeypatch.setattr(collector, "PAUSE_LOGGED", 60.0)
    with caplog.at_level(logging.WARNING, logger="stud8.server"):
        collector._log_long_collections("start", {"generation": 0})
        collector._log_long_collections("stop", {"generation": 0, "collected": 0})
    assert caplog.text == ""  # a short one is not


def pacers() -> int:
    return sum(
        1
        for task in asyncio.all_tasks()
        if getattr(task.get_coro(), "__qualname__", "") == "collect_regularly"
    )


def test_a_serving_room_paces_the_collector_and_stops_pacing_when_it_stops(
    collections: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(collector, "_paced", True)  # as tune_for_serving leaves it

    async def body() -> None:
        books = MemoryBooks()
        app = room_app(
            Settings(default_tables=0), auth=MemoryAuth(), books=books, hands=books.hands
        )
        async with serving(app):
            assert pacers() == 1
            while not collections:  # the first tick, a second after startup
                await asyncio.sleep(0.05)
            assert collections[0] == 0
        await asyncio.sleep(0)
        assert pacers() == 0

    asyncio.run(asyncio.wait_for(body(), 20))


def test_an_unpaced_room_leaves_the_collector_alone(collections: list[int]) -> None:
    async def body() -> None:
        books = MemoryBooks()
        app = room_app(
            Settings(default_tables=0), auth=MemoryAuth(), books=books, hands=books.hands
        )
        async with serving(app):
            assert pacers() == 0

    asyncio.run(asyncio.wait_for(body(), 20))
