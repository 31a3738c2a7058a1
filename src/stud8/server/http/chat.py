"""The chat's endpoints: a table's chat read back with its hands, and an operator's
silence (``GET /api/v1/tables/{table_id}/chat``, ``POST`` and ``DELETE
/api/v1/accounts/{name}/silence``, ``GET /api/v1/silenced``)."""

from __future__ import annotations

import asyncio
import logging

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.books.chat import MAX_LINES
from stud8.server.books.moderation import ModerationError
from stud8.server.http.errors import BadRequest, NotFound
from stud8.server.http.health import read_own_writes
from stud8.server.http.privacy import may_read_table
from stud8.server.http.requests import account_of, json_body, operator_of, room_of
from stud8.server.wire.codec import to_json
from stud8.server.wire.rest import ChatLineInfo, ChatLines, Silenced, SilencedPlayers

__all__ = ["silence", "silenced", "table_chat", "unsilence"]

log = logging.getLogger("stud8.server")

DEFAULT_LINES = 100
# the moderation log's reason for the table chat's Silence button, which gives none
FROM_CHAT = "silenced from a table's chat (no reason given)"
LIFTED = "unsilenced from a table's chat (no reason given)"


async def table_chat(request: Request) -> Response:
    """``GET /api/v1/tables/{table_id}/chat?hand=HAND_ID&limit=N`` (bearer token):
    the lines said at the table (during that hand only, with ``hand``), oldest
    first, each with the hand it fell in and its time."""
    account = await account_of(request)
    table_id = request.path_params["table_id"]
    query = request.query_params
    extra = set(query) - {"hand", "limit"}
    if extra:
        raise BadRequest(f"unknown parameters {sorted(extra)}")
    raw = query.get("limit", str(DEFAULT_LINES))
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_LINES:
        raise BadRequest(f"limit is a whole number from 1 to {MAX_LINES}, not {raw[:20]!r}")
    hand = query.get("hand")
    if hand is not None and not 1 <= len(hand) <= 100:
        raise BadRequest("hand must be a hand id")
    if not 1 <= len(table_id) <= 100:
        raise BadRequest("not a table id")
    await read_own_writes(request)
    room = room_of(request)
    if await may_read_table(room, table_id, account):
        lines = await asyncio.to_thread(room.chat.lines, table_id, hand_id=hand, limit=int(raw))
    else:  # a private table he was not admitted to: as a table where nothing was said
        lines = []
    answer = ChatLines(
        table_id,
        [
            ChatLineInfo(line.player, line.text, line.hand_id, line.said_at.isoformat())
            for line in lines
        ],
    )
    return JSONResponse(to_json(answer))


async def _silence(request: Request, *, undo: bool) -> Response:
    operator = await operator_of(request)
    room = room_of(request)
    name = request.path_params["name"]
    account = await room.auth.find(name)
    if account is None:
        raise NotFound(f"no account {name[:40]!r}")
    if account.name.casefold() == operator.name.casefold() and not undo:
        raise BadRequest("an operator does not silence himself")
    # {"reason"}: optional here (the chat's button sends no body)
    data = await json_body(request) if await request.body() else {}
    reason = data.get("reason") or (LIFTED if undo else FROM_CHAT)
    if set(data) - {"reason"} or not isinstance(reason, str):
        raise BadRequest('the body is {"reason": TEXT}, or none')
    moderation = room.moderation
    if moderation is None:  # a room in memory: no log
        said = await asyncio.to_thread(room.chat.silence, account.name, undo=undo)
    elif undo and not (await asyncio.to_thread(room.chat.silence_of, account.name))[0]:
        said = f"{account.name} may chat again"  # he was not silenced: nothing to log
    else:
        act = moderation.unsilence if undo else moderation.silence
        try:
            await asyncio.to_thread(act, operator.name, account.name, reason)
        except ModerationError as exc:
            raise BadRequest(str(exc)) from None
        said = f"{account.name} {'may chat again' if undo else 'is silenced'} ({reason})"
    log.warning("%s: %s", operator.name, said)
    return JSONResponse(to_json(Silenced(account.name, not undo)))


async def silence(request: Request) -> Response:
    """``POST /api/v1/accounts/{name}/silence`` (operators) ``[{"reason"}]``: his chat is
    refused, for good; written to the moderation log (on a database)."""
    return await _silence(request, undo=False)


async def unsilence(request: Request) -> Response:
    """``DELETE /api/v1/accounts/{name}/silence`` (operators): he may chat again."""
    return await _silence(request, undo=True)


async def silenced(request: Request) -> Response:
    """``GET /api/v1/silenced`` (operators): the players silenced now."""
    await operator_of(request)
    names = await asyncio.to_thread(room_of(request).chat.silenced)
    return JSONResponse(to_json(SilencedPlayers(list(names))))
