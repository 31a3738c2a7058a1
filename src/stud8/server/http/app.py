"""The ASGI application: the REST API and the table websockets, assembled in one place.

:func:`create_app` builds it from the room's :class:`~stud8.server.http.services.RoomServices`
(``stud8.server.runtime`` makes them, on a database or in memory); uvicorn
serves it (``stud8 serve``). The endpoints are module-level functions, one module
per concern, and find the room as ``request.app.state.room``; an endpoint raises a
typed error and :data:`~stud8.server.http.errors.EXCEPTION_HANDLERS` answers it.

==========================================  ========================================
``POST /api/v1/register``                   ``{"name", "password"}`` -> 201 the account
``POST /api/v1/login``                      ``{"name", "password"}`` -> ``{"token", "name",
                                            "operator"}``
``POST /api/v1/logout``                     ends the session of the bearer token
                                            (its websockets are closed, 4401)
``POST /api/v1/password``                   ``{"old", "new"}``: every session of the
                                            account ends (its websockets closed)
``POST /api/v1/accounts/{name}/ban``        an operator bans an account (its sessions
                                            end, its websockets closed, 4403)
``GET /api/v1/me``                          the account: name, role, bank balance
``GET /api/v1/notes``, ``PUT|DELETE /api/v1/notes/{player}``
                                            the account's private notes on players
``GET|PUT /api/v1/settings``                the account's settings
``GET /api/v1/tables``                      the lobby: ``{"tables": [...]}``
``POST /api/v1/tables``                     create a table (operators only)
``GET /api/v1/tables/options``              the options of RULES.md a table may have
``DELETE /api/v1/tables/{table_id}``        close a table (operators; a private
                                            table's creator)
``GET|POST|DELETE /api/v1/tables/{table_id}/invitation``
                                            a private table's code: see, renew,
                                            revoke (its creator, operators)
``POST /api/v1/invitations``                redeem an invitation code
``GET /api/v1/hands``                       hand histories, PokerStars text
``GET /api/v1/hands/list``                  the ids of those hands
``GET /api/v1/hands/{hand_id}/replay``      a hand to replay, with the cards its
                                            viewer may see (no login needed)
``POST /api/v1/replays``                    a hand history file read to replay it
``GET /api/v1/hands/{hand_id}/equity``      a hand's equity street by street, from
                                            the cards its viewer may see
``POST /api/v1/replays/equity``             a file's hand's equity (the body: its
                                            replay)
``/api/v1/admin/...``                       the operator's console (operators:
                                            :mod:`~.http.admin`)
``GET /api/v1/schemas``                     the protocol's JSON schemas
``GET /health``, ``GET /ready``             alive; able to work (database, writer)
``GET /metrics``                            the room measured, Prometheus text
                                            (operators; :mod:`~.http.metrics`)
``WS /ws/v1/tables/{table_id}``             play (the token as a subprotocol) or watch;
                                            ``&last_seen=N`` after a reconnection
``/``                                       the browser client (``src/stud8/web``)
==========================================  ========================================

REST requests carry the session token as ``Authorization: Bearer <token>``; a
websocket carries it in its subprotocols (``stud8.v1`` and ``stud8.token.<token>``:
a header, never in the URL), or as ``?token=`` (older clients). Errors are
``{"error": reason}`` with status 400 (bad request), 401 (no or unknown token, wrong
password), 403 (not an operator), 404, 409 (name taken), 413 (body too large), 429
(too many: ``Retry-After``) or 503 (the database locked or away: ``Retry-After``).
Every answer carries the security headers (:mod:`stud8.server.http.headers`).

The app's lifespan builds the evaluator's tables before it serves (built at the first
showdown instead, they would stop every table for a third of a second), paces the
garbage collector in a serving process (:mod:`stud8.server.collector`), runs the
room's startup (tables opened or restored), and at the end its shutdown (hands in
play cancelled, the writes drained).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from stud8.core.evaluate import build_tables
from stud8.server.collector import collect_regularly, paced
from stud8.server.http.accounts import ban, change_password, login, logout, register
from stud8.server.http.admin import (
    account_act,
    account_detail,
    journal,
    moderation_log,
    online_players,
    post_message,
    rake,
    withdraw_message,
)
from stud8.server.http.bodylimit import BodyLimit
from stud8.server.http.chat import silence, silenced, table_chat, unsilence
from stud8.server.http.console import (
    audit,
    drain_node,
    nodes,
    tables,
    undrain_node,
)
from stud8.server.http.console import tournaments as console_tournaments
from stud8.server.http.errors import EXCEPTION_HANDLERS
from stud8.server.http.fairness import fairness, run_fairness
from stud8.server.http.hands import hands
from stud8.server.http.headers import SecurityHeaders
from stud8.server.http.health import health, ready
from stud8.server.http.invitations import (
    redeem_invitation,
    renew_invitation,
    revoke_invitation,
    show_invitation,
)
from stud8.server.http.me import me
from stud8.server.http.metrics import MetricsListener, RoomMetrics, metrics
from stud8.server.http.notes import delete_note, list_notes, write_note
from stud8.server.http.preferences import keep_settings, show_settings
from stud8.server.http.replay_equity import file_equity, hand_equity
from stud8.server.http.replays import hand_list, hand_replay, replay_file
from stud8.server.http.services import RoomServices
from stud8.server.http.sockets import table_socket
from stud8.server.http.tables import close_table, create_table, list_tables, table_options
from stud8.server.http.tournaments import (
    add_bots,
    cancel_tournament,
    create_tournament,
    list_tournaments,
    show_tournament,
    summary,
)
from stud8.server.http.tournaments import (
    register as register_tournament,
)
from stud8.server.http.tournaments import (
    unregister as unregister_tournament,
)
from stud8.server.wire.limits import MAX_REPLAY_BYTES
from stud8.server.wire.schemas import json_schemas

__all__ = ["create_app"]

WEB = Path(__file__).resolve().parents[2] / "web"


async def schemas(request: Request) -> Response:
    """``GET /api/v1/schemas``: the protocol's JSON schemas."""
    return JSONResponse(json_schemas())


ROUTES = [
    Route("/api/v1/register", register, methods=["POST"]),
    Route("/api/v1/login", login, methods=["POST"]),
    Route("/api/v1/logout", logout, methods=["POST"]),
    Route("/api/v1/password", change_password, methods=["POST"]),
    Route("/api/v1/accounts/{name}/ban", ban, methods=["POST"]),
    Route("/api/v1/me", me, methods=["GET"]),
    Route("/api/v1/notes", list_notes, methods=["GET"]),
    Route("/api/v1/notes/{player}", write_note, methods=["PUT"]),
    Route("/api/v1/notes/{player}", delete_note, methods=["DELETE"]),
    Route("/api/v1/settings", show_settings, methods=["GET"]),
    Route("/api/v1/settings", keep_settings, methods=["PUT"]),
    Route("/api/v1/accounts/{name}/silence", silence, methods=["POST"]),
    Route("/api/v1/accounts/{name}/silence", unsilence, methods=["DELETE"]),
    Route("/api/v1/silenced", silenced, methods=["GET"]),
    Route("/api/v1/tables", list_tables, methods=["GET"]),
    Route("/api/v1/tables/options", table_options, methods=["GET"]),
    Route("/api/v1/tables", create_table, methods=["POST"]),
    Route("/api/v1/tables/{table_id}", close_table, methods=["DELETE"]),
    Route("/api/v1/tables/{table_id}/chat", table_chat, methods=["GET"]),
    Route("/api/v1/tables/{table_id}/invitation", show_invitation, methods=["GET"]),
    Route("/api/v1/tables/{table_id}/invitation", renew_invitation, methods=["POST"]),
    Route("/api/v1/tables/{table_id}/invitation", revoke_invitation, methods=["DELETE"]),
    Route("/api/v1/invitations", redeem_invitation, methods=["POST"]),
    Route("/api/v1/hands", hands, methods=["GET"]),
    Route("/api/v1/hands/list", hand_list, methods=["GET"]),
    Route("/api/v1/hands/{hand_id}/replay", hand_replay, methods=["GET"]),
    Route("/api/v1/replays", replay_file, methods=["POST"]),
    Route("/api/v1/hands/{hand_id}/equity", hand_equity, methods=["GET"]),
    Route("/api/v1/replays/equity", file_equity, methods=["POST"]),
    Route("/api/v1/tournaments", list_tournaments, methods=["GET"]),
    Route("/api/v1/tournaments", create_tournament, methods=["POST"]),
    Route("/api/v1/tournaments/{tournament_id}", show_tournament, methods=["GET"]),
    Route("/api/v1/tournaments/{tournament_id}", cancel_tournament, methods=["DELETE"]),
    Route("/api/v1/tournaments/{tournament_id}/register", register_tournament, methods=["POST"]),
    Route(
        "/api/v1/tournaments/{tournament_id}/unregister", unregister_tournament, methods=["POST"]
    ),
    Route("/api/v1/tournaments/{tournament_id}/bots", add_bots, methods=["POST"]),
    Route("/api/v1/tournaments/{tournament_id}/summary", summary, methods=["GET"]),
    Route("/api/v1/admin/players", online_players, methods=["GET"]),
    Route("/api/v1/admin/accounts/{name}", account_detail, methods=["GET"]),
    Route("/api/v1/admin/accounts/{name}/{act}", account_act, methods=["POST"]),
    Route("/api/v1/admin/journal", journal, methods=["GET"]),
    Route("/api/v1/admin/rake", rake, methods=["GET"]),
    Route("/api/v1/admin/log", moderation_log, methods=["GET"]),
    Route("/api/v1/admin/message", post_message, methods=["POST"]),
    Route("/api/v1/admin/message", withdraw_message, methods=["DELETE"]),
    Route("/api/v1/admin/tables", tables, methods=["GET"]),
    Route("/api/v1/admin/tournaments", console_tournaments, methods=["GET"]),
    Route("/api/v1/admin/nodes", nodes, methods=["GET"]),
    Route("/api/v1/admin/nodes/{node}/drain", drain_node, methods=["POST"]),
    Route("/api/v1/admin/nodes/{node}/drain", undrain_node, methods=["DELETE"]),
    Route("/api/v1/admin/audit", audit, methods=["GET"]),
    Route("/api/v1/admin/fairness", fairness, methods=["GET"]),
    Route("/api/v1/admin/fairness", run_fairness, methods=["POST"]),
    Route("/api/v1/schemas", schemas, methods=["GET"]),
    Route("/health", health, methods=["GET"]),
    Route("/ready", ready, methods=["GET"]),
    Route("/metrics", metrics, methods=["GET"]),
    WebSocketRoute("/ws/v1/tables/{table_id}", table_socket),
    # the browser client, last so that /api and /ws win
    Mount("/", app=StaticFiles(directory=WEB, html=True), name="web"),
]


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    room: RoomServices = app.state.room
    build_tables()
    # In a serving process the room, not CPython, decides when to collect.
    pacer = asyncio.create_task(collect_regularly()) if paced() else None
    # the sockets of a session ended elsewhere (a ban by stud8 admin or another node,
    # an expiry) close
    sweeper = asyncio.create_task(
        room.sockets.sweep_regularly(room.auth.live_tokens, room.auth.banned)
    )
    # the operator's message to everyone, pushed to this node's tables when it changes
    watch = room.message_watch
    watching = asyncio.create_task(watch.run()) if watch is not None else None
    measured: RoomMetrics = app.state.metrics
    measured.node = getattr(app.state, "node", None)
    measured.alarms = getattr(app.state, "books_alarms", None)
    listener = None
    if room.settings.metrics_port is not None:
        listener = MetricsListener(measured, room.settings.metrics_host, room.settings.metrics_port)
        await listener.start()
    app.state.metrics_listener = listener
    try:
        for step in room.startup:
            await step()
        yield
    finally:
        if listener is not None:
            await listener.stop()
        if pacer is not None:
            pacer.cancel()
        sweeper.cancel()
        if watch is not None and watching is not None:
            watch.stop()
            await watching
        room.edge.close()
        for step in room.shutdown:
            await step()


def create_app(room: RoomServices) -> Starlette:
    """The room's ASGI app (see the module)."""
    app = Starlette(
        routes=ROUTES,
        exception_handlers=EXCEPTION_HANDLERS,
        lifespan=lifespan,
        # the headers on every answer (the body limit's too); a body over the limit
        # is refused unread
        middleware=[
            Middleware(SecurityHeaders, origins=room.socket_origins),
            Middleware(
                BodyLimit,
                larger={
                    "/api/v1/replays": MAX_REPLAY_BYTES,
                    "/api/v1/replays/equity": MAX_REPLAY_BYTES,  # one of its hands, back
                },
            ),
        ],
    )
    app.state.room = room
    app.state.metrics = RoomMetrics(room)
    room.edge.actions = app.state.metrics.action
    return app
