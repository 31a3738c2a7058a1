"""The console's fairness report (``/api/v1/admin/fairness``): the last one kept, and
a short one run on the operator's word.

``stud8 admin rng-report`` (:mod:`stud8.tools.fairness`) runs millions of deals on
every core; the console's is short (:data:`MAX_DEALS` at most: seconds) and runs in
a process of its own (spawned, one core), so the room's event loop keeps serving
meanwhile: the deals are counted in Python and numpy, which a thread would run
under the room's GIL. Each report is kept in the database with who ran it
(:class:`~stud8.server.books.fairness.FairnessReports`), so the last one is the same
on every node and survives a restart; whether one runs now is this node's (two nodes
may each run one at once: each is kept, the later one is the last).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.books.fairness import FairnessReports
from stud8.server.http.admin import console_of, query_of
from stud8.server.http.errors import BadRequest, Conflict, NotFound, ServiceUnavailable
from stud8.server.http.requests import json_body
from stud8.server.http.services import RoomServices
from stud8.server.wire import admin as wire
from stud8.server.wire.codec import read_object, to_json

__all__ = ["MAX_DEALS", "MIN_DEALS", "fairness", "report_of", "run_fairness"]

log = logging.getLogger("stud8.server")

MIN_DEALS = 1_000
MAX_DEALS = 200_000


def _run(deals: int) -> dict[str, Any]:
    """In the worker process: the report on ``deals`` deals of the room's shuffle."""
    from stud8.tools.fairness import Shuffle
    from stud8.tools.fairness.run import run_offline

    return run_offline(deals, Shuffle.ROOM, jobs=1).to_json()


def report_of(
    data: dict[str, Any], *, running: bool = False, run_by: str | None = None
) -> wire.FairnessReport:
    """The console's report from the report's JSON (``rng-report --json``)."""
    source = data["source"]
    return wire.FairnessReport(
        running=running,
        made_at=data["made_at"],
        run_by=run_by,
        description=source["description"],
        deals=source["deals"],
        seconds=source["seconds"],
        verdict=data["verdict"],
        failed=list(data["failed"]),
        power=data["power"]["said"],
        tests=[
            wire.FairnessTest(t["key"], t["title"], t["p_value"], t["adjusted_p"], t["verdict"])
            for t in data["tests"]
        ],
    )


def _reports(room: RoomServices) -> FairnessReports:
    if room.fairness is None:  # (console_of has refused a room in memory already)
        raise NotFound("a room in memory keeps no fairness reports")
    return room.fairness


async def _last(room: RoomServices) -> wire.FairnessReport:
    kept = await asyncio.to_thread(_reports(room).last)
    if kept is None:
        return wire.FairnessReport(running=room.fairness_running)
    return report_of(kept.report, running=room.fairness_running, run_by=kept.run_by)


async def fairness(request: Request) -> Response:
    """``GET /api/v1/admin/fairness``: the last report kept, and whether one runs here."""
    _, room, _, _ = await console_of(request)
    query_of(request, set())
    return JSONResponse(to_json(await _last(room)))


async def run_fairness(request: Request) -> Response:
    """``POST /api/v1/admin/fairness`` ``{"deals"}``: run one, keep it; its report."""
    operator, room, _, _ = await console_of(request)
    reports = _reports(room)
    body = read_object(wire.FairnessRequest, await json_body(request), "fairness")
    if isinstance(body.deals, bool) or not MIN_DEALS <= body.deals <= MAX_DEALS:
        raise BadRequest(f"deals is a whole number from {MIN_DEALS:,} to {MAX_DEALS:,}")
    if room.fairness_running:
        raise Conflict("a fairness report is running: wait for it")
    room.fairness_running = True  # the last one is still shown meanwhile
    log.warning("%s runs a fairness report on %d deals", operator.name, body.deals)
    # not `with`: its exit joins the worker, which would hold the event loop
    worker = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    try:
        data = await asyncio.get_running_loop().run_in_executor(worker, _run, body.deals)
    except Exception as exc:  # the worker could not start, or died: said, not a traceback
        log.error("the fairness report could not be run: %r", exc)
        raise ServiceUnavailable(f"the fairness report could not be run: {exc!r}"[:300]) from None
    finally:
        room.fairness_running = False
        worker.shutdown(wait=False, cancel_futures=True)
    # kept for every node (the database busy: a 503 saying so, errors.py)
    kept = await asyncio.to_thread(reports.keep, data, operator.name)
    return JSONResponse(to_json(report_of(kept.report, run_by=kept.run_by)))
