"""For load balancers and the operator: ``GET /health`` (liveness) and ``GET /ready``.

``/health`` answers 200 ``{"ok": true}`` as long as the process serves at all (it
touches nothing but the event loop). ``/ready`` answers 200 only when the room can
do its work: its database answers and its writer keeps up (a no-op job through the
writer's queue, behind everything already handed to it, committed within
:data:`READY_SECONDS`); else 503 with ``Retry-After`` and what is wrong. A room in
memory is always ready.
"""

from __future__ import annotations

import asyncio
import time

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.http.errors import DATABASE_BUSY, RETRY_AFTER_BUSY, ServiceUnavailable
from stud8.server.http.requests import room_of

__all__ = ["READY_SECONDS", "health", "ready"]

READY_SECONDS = 2.0


async def read_own_writes(request: Request) -> None:
    """Wait for the room's writes so far (a hand just finished, a chat line, a
    buy-in): what is read next includes them. A database too busy to drain them
    within :data:`READY_SECONDS` is a 503."""
    room = room_of(request)
    if room.flush is not None:
        try:
            await asyncio.wait_for(room.flush(), READY_SECONDS)
        except TimeoutError:
            raise ServiceUnavailable("the room's database is busy: try again in a moment") from None


async def health(request: Request) -> Response:
    """``GET /health``: the process is alive."""
    return JSONResponse({"ok": True})


async def ready(request: Request) -> Response:
    """``GET /ready``: the database answers and the writer keeps up (see the module)."""
    room = room_of(request)
    if room.flush is None:
        return JSONResponse({"ok": True, "database": "in memory"})
    started = time.monotonic()
    try:
        await asyncio.wait_for(room.flush(), READY_SECONDS)
    except TimeoutError:
        problem = f"the database writer is behind: no commit in {READY_SECONDS:.0f} s"
    except DATABASE_BUSY as exc:
        problem = f"the database is unavailable: {type(exc).__name__}"
    else:
        took = round(time.monotonic() - started, 3)
        return JSONResponse({"ok": True, "database": "ok", "writer_seconds": took})
    return JSONResponse(
        {"ok": False, "error": problem},
        status_code=503,
        headers={"Retry-After": str(RETRY_AFTER_BUSY)},
    )
