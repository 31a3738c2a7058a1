"""The lobby's endpoints: list the tables, open one, close one (operators; a
player his own private tables, if the room lets players open them)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.http.admin import lobby_notice
from stud8.server.http.errors import BadRequest, Forbidden
from stud8.server.http.invitations import invitation_json
from stud8.server.http.privacy import viewer_of, visibility
from stud8.server.http.requests import account_of, json_body, room_of
from stud8.server.table.spec import TableSpec
from stud8.server.wire.codec import object_fields, to_json
from stud8.server.wire.limits import TABLE_NAME_CHARS
from stud8.server.wire.rest import TABLE_OPTIONS
from stud8.server.wire.text import TextRefused, typed_text

__all__ = ["close_table", "create_table", "list_tables", "table_options"]


async def list_tables(request: Request) -> Response:
    """``GET /api/v1/tables``: every open table this viewer may see."""
    room = room_of(request)
    viewer = await viewer_of(request)
    operator = viewer is not None and viewer.operator
    visible = await visibility(room, viewer.name if viewer else None, operator)
    may_open = operator or (viewer is not None and room.settings.players_create_private)
    shown = None
    if room.moderation is not None:  # the operator's message to everyone, if any
        shown = to_json(lobby_notice(await asyncio.to_thread(room.moderation.message)))
    return JSONResponse(
        {"tables": room.lobby.listing(visible), "may_open_private": may_open, "message": shown}
    )


_OPTIONS_JSON = to_json(TABLE_OPTIONS)


async def table_options(request: Request) -> Response:
    """``GET /api/v1/tables/options``: the options of RULES.md a table may be opened
    with (the operator's form is made from them)."""
    return JSONResponse(_OPTIONS_JSON)


async def create_table(request: Request) -> Response:
    """``POST /api/v1/tables`` (operators; a player a private table if the room lets
    players): open a table with the given settings."""
    account = await account_of(request)
    room = room_of(request)
    data = await json_body(request)
    if not account.operator and not (
        room.settings.players_create_private and data.get("private") is True
    ):
        raise Forbidden("operators only")
    table_id = data.pop("table_id", None)
    if table_id is not None and not account.operator:
        # an id a player chose could tell him, by a refusal, that a private table has it
        raise BadRequest("a player's table gets its id from the room: leave out table_id")
    if table_id is not None and not (
        isinstance(table_id, str) and 1 <= len(table_id) <= 32 and table_id.isidentifier()
    ):
        raise BadRequest("table_id must be 1 to 32 letters, digits or '_'")
    name = data.pop("name", None)
    if name is not None:
        try:
            name = typed_text(name, "name", TABLE_NAME_CHARS)
        except TextRefused as exc:
            raise BadRequest(str(exc)) from None
    spec = TableSpec(**object_fields(TableSpec, data, "table"))  # type: ignore[arg-type]
    if not account.operator:
        await _within_players_limit(request, account.name)
    lobby = room.lobby
    if spec.private and table_id is None:
        # not the next of the room's numbers: a gap in the public tables' ids would
        # tell that a private table was opened
        table_id = f"p{secrets.token_hex(6)}"
    opened = await lobby.open_table(spec, table_id, name=name)
    body: dict[str, object] = {}
    if spec.private:
        code = await asyncio.to_thread(room.invitations.invite, opened, account.name)
        body["invitation"] = invitation_json(opened, account.name, code)
    body["table"] = next(t for t in lobby.listing() if t["table_id"] == opened)
    return JSONResponse(body, 201)


async def _within_players_limit(request: Request, player: str) -> None:
    room = room_of(request)
    limit = room.settings.private_tables_per_player
    admitted = await asyncio.to_thread(room.invitations.admitted, player)
    mine = 0
    for table_id in admitted:
        if room.lobby.spec_of(table_id) is None:
            continue  # closed
        invitation = await asyncio.to_thread(room.invitations.invitation, table_id)
        if invitation is not None and invitation.creator == player:
            mine += 1
    if mine >= limit:
        raise Forbidden(f"a player may have {limit} private tables open at once: close one first")


async def close_table(request: Request) -> Response:
    """``DELETE /api/v1/tables/{table_id}`` (operators, and the creator of a private
    table): close it, everyone paid out; its invitation code is revoked."""
    account = await account_of(request)
    room = room_of(request)
    table_id = request.path_params["table_id"]
    invitation = await asyncio.to_thread(room.invitations.invitation, table_id)
    if not account.operator and (invitation is None or invitation.creator != account.name):
        raise Forbidden("operators only")  # the same answer whether the table exists or not
    await room.lobby.close(table_id)
    if invitation is not None:
        with contextlib.suppress(KeyError):
            await asyncio.to_thread(room.invitations.revoke, table_id)
    return JSONResponse({"ok": True})
