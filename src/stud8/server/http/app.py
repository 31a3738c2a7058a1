"""The ASGI application: the REST API (accounts, lobby) and the table websockets.

``create_app(settings, auth=..., books=...)`` builds it; uvicorn serves it
(``stud8 serve``). REST requests carry the session token as
``Authorization: Bearer <token>``; a websocket carries it as ``?token=``.

==========================================  ========================================
``POST /api/v1/register``                   ``{"name", "password"}`` -> 201 the account
``POST /api/v1/login``                      ``{"name", "password"}`` -> ``{"token", "name",
                                            "operator"}``
``POST /api/v1/logout``                     ends the session of the bearer token
``GET /api/v1/tables``                      the lobby: ``{"tables": [...]}``
``POST /api/v1/tables``                     create a table (operators only)
``DELETE /api/v1/tables/{table_id}``        close a table (operators only)
``GET /api/v1/schemas``                     the protocol's JSON schemas
``WS /ws/v1/tables/{table_id}``             play (``?token=``) or watch (no token);
                                            ``&last_seen=N`` after a reconnection
==========================================  ========================================

The rooms ``stud8 serve`` runs (``stud8.server.room.runtime``: on a database, or in
memory) add ``GET /api/v1/hands``. A table websocket's ``welcome`` carries the
table's rules; an operator's shows every card (see ``stud8.server.edge.connection``).

With a :class:`~stud8.server.room.lobby.TableKeeper` the tables of the last run come
back at startup, and the ``settings.default_tables`` ready tables are made on the
first start only; without one (a room in memory) they are made at every start.

Errors are ``{"error": reason}`` with status 400 (bad request), 401 (no or unknown
token, wrong password), 403 (not an operator), 404, 409 (name taken) or 413 (body too
large). A websocket refused at the start is closed with code 4400 (bad query), 4401
(unknown token) or 4404 (no such table).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from stud8.core.cards import Deck
from stud8.core.evaluate import build_tables
from stud8.server.accounts.auth import Account, Auth, AuthError
from stud8.server.clock import AsyncioClock, Clock
from stud8.server.collector import collect_regularly, paced
from stud8.server.edge.connection import Connection
from stud8.server.room.lobby import Lobby, LobbyError, TableKeeper
from stud8.server.settings import Settings
from stud8.server.table.books import TableBooks
from stud8.server.table.spec import TableSpec
from stud8.server.wire.schemas import ProtocolError, json_schemas, object_fields

log = logging.getLogger("stud8.server")

MAX_BODY_BYTES = 16 * 1024


class HTTPError(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def _error(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


async def _json_body(request: Request) -> dict[str, Any]:
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise HTTPError(413, f"the body is over {MAX_BODY_BYTES} bytes")
    try:
        data = json.loads(body or b"{}")
    except ValueError as exc:
        raise HTTPError(400, f"malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise HTTPError(400, "the body must be a JSON object")
    return data


def _credentials(data: dict[str, Any]) -> tuple[str, str]:
    extra = set(data) - {"name", "password"}
    if extra:
        raise HTTPError(400, f"unknown fields {sorted(extra)}")
    name, password = data.get("name"), data.get("password")
    if not isinstance(name, str) or not isinstance(password, str):
        raise HTTPError(400, "name and password must be strings")
    return name, password


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def create_app(
    settings: Settings,
    *,
    auth: Auth,
    books: TableBooks,
    clock: Clock | None = None,
    deck_source: Callable[[], Deck] = Deck.shuffled,
    default_spec: TableSpec | None = None,
    keeper: TableKeeper | None = None,
) -> Starlette:
    """The room's ASGI app; ``settings.default_tables`` tables with bots open at
    startup (on the first start only, with a ``keeper``)."""
    lobby = Lobby(
        books=books,
        clock=clock or AsyncioClock(),
        deck_source=deck_source,
        keeper=keeper,
    )

    async def account_of(request: Request) -> Account:
        token = _bearer(request)
        account = await auth.account_for_token(token) if token else None
        if account is None:
            raise HTTPError(401, "log in first (Authorization: Bearer <token>)")
        return account

    async def operator_of(request: Request) -> Account:
        account = await account_of(request)
        if not account.operator:
            raise HTTPError(403, "operators only")
        return account

    def handled(
        endpoint: Callable[[Request], Any],
    ) -> Callable[[Request], Any]:
        async def wrapper(request: Request) -> Response:
            try:
                response: Response = await endpoint(request)
            except HTTPError as exc:
                return _error(exc.status, exc.reason)
            return response

        return wrapper

    @handled
    async def register(request: Request) -> Response:
        name, password = _credentials(await _json_body(request))
        try:
            account = await auth.register(name, password)
        except AuthError as exc:
            status = 409 if "taken" in str(exc) else 400
            raise HTTPError(status, str(exc)) from None
        return JSONResponse({"name": account.name, "operator": account.operator}, 201)

    @handled
    async def login(request: Request) -> Response:
        name, password = _credentials(await _json_body(request))
        try:
            token = await auth.login(name, password)
        except AuthError as exc:
            raise HTTPError(401, str(exc)) from None
        account = await auth.account_for_token(token)
        if account is None:  # the session ended at once (a logout in between)
            raise HTTPError(401, "the session ended; log in again")
        # the name as registered (a log-in's name may differ in case), and the role
        return JSONResponse({"token": token, "name": account.name, "operator": account.operator})

    @handled
    async def logout(request: Request) -> Response:
        token = _bearer(request)
        if token is None:
            raise HTTPError(401, "no token to log out")
        await auth.logout(token)
        return JSONResponse({"ok": True})

    @handled
    async def list_tables(request: Request) -> Response:
        return JSONResponse({"tables": lobby.listing()})

    @handled
    async def create_table(request: Request) -> Response:
        await operator_of(request)
        data = await _json_body(request)
        table_id = data.pop("table_id", None)
        if table_id is not None and not (
            isinstance(table_id, str) and 1 <= len(table_id) <= 32 and table_id.isidentifier()
        ):
            raise HTTPError(400, "table_id must be 1 to 32 letters, digits or '_'")
        name = data.pop("name", None)
        if name is not None and not (isinstance(name, str) and 1 <= len(name.strip()) <= 40):
            raise HTTPError(400, "name must be 1 to 40 characters")
        try:
            values = object_fields(TableSpec, data, "table")
            spec = TableSpec(**values)  # type: ignore[arg-type]
            table = await lobby.create(spec, table_id, name=name.strip() if name else None)
        except (ProtocolError, LobbyError, ValueError) as exc:
            raise HTTPError(400, str(exc)) from None
        listing = next(t for t in lobby.listing() if t["table_id"] == table.table_id)
        return JSONResponse({"table": listing}, 201)

    @handled
    async def close_table(request: Request) -> Response:
        await operator_of(request)
        try:
            await lobby.close(request.path_params["table_id"])
        except LobbyError as exc:
            raise HTTPError(404, str(exc)) from None
        return JSONResponse({"ok": True})

    @handled
    async def schemas(request: Request) -> Response:
        return JSONResponse(json_schemas())

    async def table_socket(websocket: WebSocket) -> None:
        table_id = websocket.path_params["table_id"]
        token = websocket.query_params.get("token")
        raw_last = websocket.query_params.get("last_seen")
        await websocket.accept()
        last_seen: int | None = None
        if raw_last is not None:
            try:
                last_seen = int(raw_last)
            except ValueError:
                await websocket.close(4400, "last_seen must be a whole number")
                return
        player: str | None = None
        operator = False
        if token:
            account = await auth.account_for_token(token)
            if account is None:
                await websocket.close(4401, "unknown or expired token")
                return
            player, operator = account.name, account.operator
        entry = lobby.get(table_id)
        if entry is None:
            await websocket.close(4404, f"no table {table_id}")
            return

        async def receive() -> str | bytes | None:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return None
            text: str | None = message.get("text")
            return text if text is not None else message.get("bytes") or b""

        connection = Connection(
            entry,
            player,
            websocket.send_text,
            everything=operator,
            rate=settings.rate_per_second,
            burst=settings.rate_burst,
        )
        with contextlib.suppress(WebSocketDisconnect):
            await connection.run(receive, last_seen)
        with contextlib.suppress(Exception):
            await websocket.close()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        spec = default_spec or TableSpec(bots=settings.bots_per_table)
        # Now, before serving: built at the first showdown instead, they would stop
        # every table for a third of a second.
        build_tables()
        # In a serving process the room, not CPython, decides when to collect.
        pacer = asyncio.create_task(collect_regularly()) if paced() else None
        had_tables = keeper is not None and await keeper.restore(lobby)
        for _ in range(0 if had_tables else settings.default_tables):
            table = await lobby.create(spec)
            log.info("table %s is open with %d bots", table.table_id, spec.bots)
        try:
            yield
        finally:
            if pacer is not None:
                pacer.cancel()
            await lobby.close_all()

    app = Starlette(
        routes=[
            Route("/api/v1/register", register, methods=["POST"]),
            Route("/api/v1/login", login, methods=["POST"]),
            Route("/api/v1/logout", logout, methods=["POST"]),
            Route("/api/v1/tables", list_tables, methods=["GET"]),
            Route("/api/v1/tables", create_table, methods=["POST"]),
            Route("/api/v1/tables/{table_id}", close_table, methods=["DELETE"]),
            Route("/api/v1/schemas", schemas, methods=["GET"]),
            WebSocketRoute("/ws/v1/tables/{table_id}", table_socket),
        ],
        lifespan=lifespan,
    )
    app.state.lobby = lobby
    app.state.settings = settings
    # the browser client (src/stud8/web), mounted last so /api and /ws win
    from pathlib import Path

    from starlette.routing import Mount
    from starlette.staticfiles import StaticFiles

    web = Path(__file__).resolve().parents[2] / "web"
    app.router.routes.append(Mount("/", app=StaticFiles(directory=web, html=True), name="web"))
    return app
