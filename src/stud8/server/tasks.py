"""Stopping the room's background tasks for sure.

A task's loop (a node's rounds, a table's owner, a writer of waiting lists) is
stopped by cancelling it and waiting for it. One cancellation is not always
enough: Python 3.11's :func:`asyncio.wait_for` returns the result of what it
waited for when that completed in the same turn of the loop as the cancellation,
and the cancellation is lost (fixed in 3.12); a loop that goes on after it runs
forever, and whoever waited for it waits forever (a node's clean stop hung so in
the cluster tests, once every few runs). :func:`cancel_and_wait` cancels again
until the task has ended.
"""

from __future__ import annotations

import asyncio
from typing import Any

__all__ = ["cancel_and_wait"]

AGAIN_SECONDS = 0.5  # a task still running this long after its cancellation: again


async def cancel_and_wait(task: asyncio.Task[Any], *, again: float = AGAIN_SECONDS) -> None:
    """Cancel ``task`` and return once it has ended, cancelling it again every
    ``again`` seconds while it goes on. What it raised, other than its
    cancellation, is raised here.

    >>> async def main() -> bool:
    ...     task = asyncio.get_running_loop().create_task(asyncio.sleep(60))
    ...     await cancel_and_wait(task)
    ...     return task.cancelled()
    >>> asyncio.run(main())
    True
    """
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=again)
    if not task.cancelled():
        task.result()
