"""Stopping a background task for sure (``stud8.server.tasks``): a loop whose
cancellation was swallowed is cancelled again, so its stop ends."""

from __future__ import annotations

import asyncio
import contextlib
import sys

import pytest

from stud8.server.tasks import cancel_and_wait


def test_a_task_that_swallowed_its_cancellation_is_cancelled_again() -> None:
    rounds: list[int] = []

    async def node_rounds() -> None:
        # as a node's rounds did: its cancellation lost inside one round, the loop
        # went on to the next
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(10)
        while True:
            rounds.append(1)
            await asyncio.sleep(0.01)

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(node_rounds())
        await asyncio.sleep(0)
        task.cancel()  # the old stop: one cancellation, then wait
        done, _ = await asyncio.wait({task}, timeout=0.2)
        assert not done and rounds  # it goes on: that stop would wait forever
        await asyncio.wait_for(cancel_and_wait(task, again=0.05), 5)
        assert task.cancelled()

    asyncio.run(main())


def test_what_the_task_raised_is_raised_and_a_task_done_is_left_alone() -> None:
    async def fails() -> None:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            raise RuntimeError("it failed as it stopped") from None

    async def main() -> None:
        loop = asyncio.get_running_loop()
        task = loop.create_task(fails())
        await asyncio.sleep(0)
        with pytest.raises(RuntimeError, match="it failed as it stopped"):
            await cancel_and_wait(task)
        finished = loop.create_task(asyncio.sleep(0, result=7))
        await finished
        await cancel_and_wait(finished)
        assert finished.result() == 7 and not finished.cancelled()

    asyncio.run(main())


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="3.12's wait_for keeps the cancellation")
def test_python_3_11s_wait_for_loses_a_cancellation_that_comes_as_it_completes() -> None:
    """Why one cancellation is not enough on the Python CI runs (3.11)."""

    async def main() -> None:
        loop = asyncio.get_running_loop()
        inner: asyncio.Future[str] = loop.create_future()

        async def waits() -> str:
            return await asyncio.wait_for(inner, 10)

        task = loop.create_task(waits())
        await asyncio.sleep(0)
        inner.set_result("written")  # completes in the same turn as the cancellation
        task.cancel()
        assert await task == "written"  # the cancellation is lost
        assert not task.cancelled()

    asyncio.run(main())
