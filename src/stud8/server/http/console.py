"""The operator's console, now: the room's tables and tournaments, its nodes (drain
and undo), the books audited (``/api/v1/admin/...``; operators only, as :mod:`~.http.admin`).

A table's figures come from the bus's directory (every node's tables, as their
owners last published them) and the rake of today from the ledger; a tournament's
from its owner task on this node, or as its owner last wrote it in the database
(every node writes its tournaments' state with each change), its node from its lease; a node's from
its heartbeat (:class:`~stud8.server.http.services.NodeConsole`), or, for a room
in one process, from this process.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.books.consistency import hands_and_seats
from stud8.server.http.admin import console_of, query_of
from stud8.server.http.errors import BadRequest, NotFound
from stud8.server.http.requests import room_of
from stud8.server.http.services import RoomServices
from stud8.server.tournaments.manager import Tournaments
from stud8.server.wire import admin as wire
from stud8.server.wire.codec import to_json

__all__ = ["audit", "drain_node", "nodes", "tables", "tournaments", "undrain_node"]

log = logging.getLogger("stud8.server")

ONE_PROCESS = "this room"  # the node's name of a room in one process


async def tables(request: Request) -> Response:
    """``GET /api/v1/admin/tables``: every table of the room now."""
    _, room, _, books = await console_of(request)
    query_of(request, set())
    listed = {
        table_id: entry
        for table_id, entry in room.lobby.room_bus.directory().items()
        if table_id not in room.lobby.hidden
    }
    today = datetime.now(UTC).date()
    raked = await asyncio.to_thread(books.rake, wire.RakeBy.TABLE, day=today)
    rake_today = {line.key: line.rake for line in raked}
    owners: dict[str, str | None] = {}
    if room.nodes is not None:
        owners = await room.nodes.owners(sorted(listed))
    lines = []
    for table_id in sorted(listed):
        entry = listed[table_id]
        status, spec = entry.status, entry.spec
        lines.append(
            wire.ConsoleTable(
                table_id=table_id,
                name=entry.name or table_id,
                private=spec.private,
                small_bet=spec.small_bet,
                big_bet=spec.big_bet,
                seats=spec.seats,
                players=list(status.players),
                waiting=status.waiting,
                dealing=status.paused is None and len(status.players) >= 2,
                paused=status.paused,
                hands_played=status.hands_played,
                hands_per_hour=status.hands_per_hour,
                average_pot=status.average_pot,
                rake_today=rake_today.get(table_id, 0),
                node=owners.get(table_id),
            )
        )
    return JSONResponse(to_json(wire.ConsoleTables(lines)))


def _one_process(room: RoomServices) -> wire.NodeLines:
    directory = room.lobby.room_bus.directory()
    players = sum(len(entry.status.players) for entry in directory.values())
    line = wire.NodeLine(
        name=ONE_PROCESS,
        url="",
        tables=len(room.lobby.tables),
        players=players,
        leases=0,
        draining=False,
        beat_age=0.0,
    )
    return wire.NodeLines(clustered=False, nodes=[line])


async def _node_lines(room: RoomServices) -> wire.NodeLines:
    if room.nodes is None:
        return _one_process(room)
    return wire.NodeLines(clustered=True, nodes=await room.nodes.nodes())


async def nodes(request: Request) -> Response:
    """``GET /api/v1/admin/nodes``: the room's nodes."""
    _, room, _, _ = await console_of(request)
    query_of(request, set())
    return JSONResponse(to_json(await _node_lines(room)))


async def _drain(request: Request, *, undo: bool) -> Response:
    operator, room, _, _ = await console_of(request)
    name = request.path_params["node"]
    if room.nodes is None:
        raise BadRequest("a room in one process has no nodes to drain (stud8 serve --redis)")
    if not await room.nodes.drain(name, undo=undo):
        raise NotFound(f"no live node {name[:40]!r}")
    answer = await _node_lines(room)
    # the node reads its drain at its next round: say now what was asked
    shown = [
        msgspec.structs.replace(n, draining=not undo) if n.name == name else n for n in answer.nodes
    ]
    log.warning(
        "%s %s node %s", operator.name, "called off the drain of" if undo else "drained", name
    )
    return JSONResponse(to_json(wire.NodeLines(clustered=True, nodes=shown)))


async def drain_node(request: Request) -> Response:
    """``POST /api/v1/admin/nodes/{node}/drain``."""
    return await _drain(request, undo=False)


async def undrain_node(request: Request) -> Response:
    """``DELETE /api/v1/admin/nodes/{node}/drain``."""
    return await _drain(request, undo=True)


async def audit(request: Request) -> Response:
    """``GET /api/v1/admin/audit``: the books audited (``stud8 admin audit``)."""
    _, _, moderation, _ = await console_of(request)
    query_of(request, set())

    def check() -> wire.Audit:
        report = moderation.ledger.audit()
        problems = [*report.problems, *hands_and_seats(moderation.engine)]
        return wire.Audit(
            ok=not problems,
            issued=report.issued,
            held=report.held,
            banks=report.banks,
            tables=report.tables,
            pots=report.pots,
            rake=report.rake,
            prizes=report.prizes,
            fees=report.fees,
            accounts=report.accounts,
            transactions=report.transactions,
            entries=report.entries,
            problems=problems,
        )

    return JSONResponse(to_json(await asyncio.to_thread(check)))


async def tournaments(request: Request) -> Response:
    """``GET /api/v1/admin/tournaments``: the tournaments registering or running."""
    await console_of(request)
    room = room_of(request)
    query_of(request, set())
    manager: Tournaments | None = getattr(request.app.state, "tournaments", None)
    if manager is None:
        return JSONResponse(to_json(wire.ConsoleTournaments([])))
    stored = await asyncio.to_thread(manager.store.tournaments)
    lines = manager.now_running(stored)
    if room.nodes is not None and lines:
        owners = await room.nodes.tournament_owners([line.tournament_id for line in lines])
        lines = [
            msgspec.structs.replace(line, node=owners.get(line.tournament_id)) for line in lines
        ]
    return JSONResponse(to_json(wire.ConsoleTournaments(lines)))
