"""The table websocket: ``WS /ws/v1/tables/{table_id}``, served by the edge.

The session token logs the player in (none: an observer): offered as the
subprotocol ``stud8.token.<token>`` beside ``stud8.v1`` (which the room answers), so
that it is in a header and never in a URL (proxies' and browsers' logs, history);
``?token=`` still works for older clients. ``?last_seen=N`` after a reconnection
asks for what was missed. A node of several that does not run the table may answer
``redirect`` (the table's address at the node that runs it) and close, unless
``?relay=1`` (:mod:`stud8.server.cluster.routing`). Refused at the start with close code 4400
(a bad query), 4401 (an unknown token) or 4404 (no such table: a private table the
account was not admitted to gets the same answer, :mod:`stud8.server.http.privacy`).
Closed by the room with 4401 when its session ends (a logout, a change of password, an expiry) and
4403 when its account is banned (:mod:`stud8.server.http.sessions`). An account
may hold ``account_sockets`` open at once and an address ``address_sockets`` (the
room's settings): one more is closed at the start with 4429.

A refusal is one short line in the log (the path, the client's address, the code
and the reason; never the token), at most :data:`REFUSALS_LOGGED` a minute, then a
line saying how many were not written (:class:`RefusalLog`); a client gone before
its refusal or its welcome (a bogus token dropped at once, over and over) ends its
socket quietly, never with a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from starlette.websockets import WebSocket, WebSocketDisconnect
from uvicorn.protocols.utils import ClientDisconnected

from stud8.server.edge import Inlet, NoSuchTable
from stud8.server.edge.outbox import AsgiOutbox, Flusher, FrameOutbox, Outbox
from stud8.server.http.addresses import client_address
from stud8.server.http.errors import DATABASE_BUSY
from stud8.server.http.preferences import settings_of
from stud8.server.http.privacy import sees_table
from stud8.server.http.requests import room_of
from stud8.server.http.websocket import RECEIVE_TEXTS, SEND_TEXTS
from stud8.server.wire.server import RedirectMessage

__all__ = ["PROTOCOL", "REFUSALS_LOGGED", "TOKEN_PREFIX", "RefusalLog", "table_socket"]

PROTOCOL = "stud8.v1"  # the subprotocol the room answers
TOKEN_PREFIX = "stud8.token."  # a subprotocol offered to carry the session token

_CLOSING: set[asyncio.Future[None]] = set()  # the closes the room started, until done
_SEEN: set[asyncio.Future[None]] = set()  # the sessions' addresses being kept
BUSY = (1013, "the room's database is busy: try again")

log = logging.getLogger("stud8.server")

REFUSALS_LOGGED = 20  # refused websockets logged a minute, at most
GONE = (WebSocketDisconnect, ClientDisconnected, ConnectionError)  # the client left


class RefusalLog:
    """The refused websockets' lines: ``limit`` in each ``period`` seconds, then one
    saying how many more were not written."""

    def __init__(
        self,
        write: Callable[[str], None],
        *,
        limit: int = REFUSALS_LOGGED,
        period: float = 60.0,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self._write = write
        self._limit = limit
        self._period = period
        self._now = now
        self._since = now()
        self._written = 0
        self._unwritten = 0

    def note(self, path: str, address: str, code: int, reason: str) -> None:
        now = self._now()
        if now - self._since >= self._period:
            if self._unwritten:
                self._write(
                    f"{self._unwritten} more refused websockets in the last "
                    f"{self._period:g} s were not logged"
                )
            self._since, self._written, self._unwritten = now, 0, 0
        if self._written >= self._limit:
            self._unwritten += 1
            return
        self._written += 1
        self._write(f"WS {path} from {address}: refused {code} ({reason})")


REFUSALS = RefusalLog(log.info)


async def _refuse(websocket: WebSocket, code: int, reason: str) -> None:
    """Close a websocket at its start, with one short line (rate-limited)."""
    REFUSALS.note(websocket.url.path, client_address(websocket), code, reason)
    with contextlib.suppress(*GONE):
        await websocket.close(code, reason)


def _outbox(websocket: WebSocket, flusher: Flusher) -> Outbox:
    """Frames straight to the socket when the server is the room's own websocket
    protocol (``stud8 serve``), else the ASGI server's ``send``. A client that does
    not read is closed with 1008."""
    closing: list[asyncio.Task[None]] = []

    def drop() -> None:
        closing.append(asyncio.ensure_future(_close(websocket, 1008, "too slow: not reading")))

    write = websocket.scope.get("extensions", {}).get(SEND_TEXTS)
    if write is not None:
        return FrameOutbox(write, flusher=flusher, on_drop=drop)
    return AsgiOutbox(websocket.send_text, on_drop=drop)


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.close(code, reason)


async def _busy(websocket: WebSocket, exc: Exception) -> None:
    """Close with 1013 (try again), said in the log as a busy request's 503 is."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    log.warning("WS %s: closed with 1013: %s", websocket.url.path, first)
    await websocket.close(*BUSY)


async def table_socket(websocket: WebSocket) -> None:
    with contextlib.suppress(*GONE):  # the client left: nothing to say
        await _table_socket(websocket)


async def _table_socket(websocket: WebSocket) -> None:
    room = room_of(websocket)
    table_id = websocket.path_params["table_id"]
    offered = websocket.scope.get("subprotocols") or []
    token = next((p[len(TOKEN_PREFIX) :] for p in offered if p.startswith(TOKEN_PREFIX)), None)
    if token is None:
        token = websocket.query_params.get("token")  # the older way, in the URL
    raw_last = websocket.query_params.get("last_seen")
    await websocket.accept(subprotocol=PROTOCOL if PROTOCOL in offered else None)
    last_seen: int | None = None
    if raw_last is not None:
        try:
            last_seen = int(raw_last)
        except ValueError:
            await _refuse(websocket, 4400, "last_seen must be a whole number")
            return
    player: str | None = None
    operator = auto_top_up = False
    if token:
        try:
            account = await room.auth.account_for_token(token)
            if account is not None:  # his setting, told the table with his Connect
                auto_top_up = (await settings_of(room, account.name)).auto_top_up
        except DATABASE_BUSY as exc:
            await _busy(websocket, exc)
            return
        if account is None:
            await _refuse(websocket, 4401, "unknown or expired token")
            return
        player, operator = account.name, account.operator
    try:
        seen = room.edge.has_table(table_id) and await sees_table(room, table_id, player, operator)
    except DATABASE_BUSY as exc:
        await _busy(websocket, exc)
        return
    if not seen:
        await _refuse(websocket, 4404, f"no table {table_id}")
        return
    if room.route is not None and websocket.query_params.get("relay") != "1":
        elsewhere = await room.route(table_id)  # (cluster.routing)
        if elsewhere is not None:  # its players go to the node that runs it
            await websocket.send_text(RedirectMessage(elsewhere).encode(None))
            await websocket.close(1000, "the table runs at another node")
            return
    ended = asyncio.Event()  # closed by the room (a logout, a ban): read no more

    def end(code: int, reason: str) -> None:
        ended.set()
        closing = asyncio.ensure_future(_close(websocket, code, reason))
        _CLOSING.add(closing)
        closing.add_done_callback(_CLOSING.discard)

    address = client_address(websocket)
    settings = room.settings
    if player is not None and room.sockets.of_account(player) >= settings.account_sockets:
        await _refuse(websocket, 4429, f"too many connections: {settings.account_sockets} at most")
        return
    if room.sockets.of_address(address) >= settings.address_sockets:
        await _refuse(websocket, 4429, "too many connections from your address")
        return
    opened = room.sockets.add(token if player else None, player, address, end, table_id)
    if token and player is not None:  # kept for every node's console, not waited for
        _SEEN.add(seeing := asyncio.ensure_future(room.seen_from(token, address)))
        seeing.add_done_callback(_SEEN.discard)
    try:
        await _serve(
            websocket, table_id, player, operator, last_seen, ended, address, end, auto_top_up
        )
    finally:
        room.sockets.remove(opened)


async def _serve(
    websocket: WebSocket,
    table_id: str,
    player: str | None,
    operator: bool,
    last_seen: int | None,
    ended: asyncio.Event,
    address: str,
    end: Callable[[int, str], None],
    auto_top_up: bool,
) -> None:
    room = room_of(websocket)

    async def receive() -> str | bytes | None:
        if ended.is_set():
            return None
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect" or ended.is_set():
            return None
        text: str | None = message.get("text")
        return text if text is not None else message.get("bytes") or b""

    outbox = _outbox(websocket, room.edge.flusher)
    inlet: Inlet | None = None
    receive_texts = websocket.scope.get("extensions", {}).get(RECEIVE_TEXTS)
    if receive_texts is not None:  # the room's protocol hands the texts over as read
        inlet = Inlet()
        deliver = inlet.deliver
        receive_texts(lambda text: None if ended.is_set() else deliver(text))
    try:
        with contextlib.suppress(WebSocketDisconnect):
            await room.edge.serve(
                table_id,
                player,
                outbox,
                receive,
                last_seen=last_seen,
                everything=operator,
                inlet=inlet,
                address=address,
                close=end,
                auto_top_up=auto_top_up,
            )
    except NoSuchTable:
        await _refuse(websocket, 4404, f"no table {table_id}")
        return
    with contextlib.suppress(Exception):
        await websocket.close()
