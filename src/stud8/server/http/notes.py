"""A player's private notes on the others: ``GET /api/v1/notes``, and
``PUT``/``DELETE /api/v1/notes/{player}``.

Every call reads or writes the notes of the bearer token's account, and only
those: no request names another author, so a note is read by the account that
wrote it and by nobody else (an operator neither). What a note may hold is the
wire's (:mod:`stud8.server.wire.account`): a colour of the palette, a text held to
the rule of typed text.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.accounts.notes import TooManyNotes
from stud8.server.http.errors import BadRequest
from stud8.server.http.requests import account_of, json_body, room_of
from stud8.server.wire.account import (
    NoteBody,
    PlayerNote,
    PlayerNotes,
    checked_note,
    checked_player,
)
from stud8.server.wire.codec import read_object, to_json
from stud8.server.wire.rest import Done

__all__ = ["delete_note", "list_notes", "write_note"]


async def list_notes(request: Request) -> Response:
    """``GET /api/v1/notes``: every note of the account."""
    account = await account_of(request)
    notes = await asyncio.to_thread(room_of(request).notes.notes_of, account.name)
    return JSONResponse(to_json(PlayerNotes(notes)))


async def write_note(request: Request) -> Response:
    """``PUT /api/v1/notes/{player}`` ``{"colour", "text"}``: the note kept (both
    empty: deleted)."""
    account = await account_of(request)
    player = checked_player(request.path_params["player"])
    body = checked_note(read_object(NoteBody, await json_body(request), "note"))
    note = PlayerNote(player, body.colour, body.text)
    notes = room_of(request).notes
    if body.colour is None and not body.text:
        await asyncio.to_thread(notes.delete, account.name, player)
    else:
        try:
            await asyncio.to_thread(notes.write, account.name, note)
        except TooManyNotes as exc:
            raise BadRequest(str(exc)) from None
    return JSONResponse(to_json(note))


async def delete_note(request: Request) -> Response:
    """``DELETE /api/v1/notes/{player}``: the note forgotten."""
    account = await account_of(request)
    player = checked_player(request.path_params["player"])
    await asyncio.to_thread(room_of(request).notes.delete, account.name, player)
    return JSONResponse(to_json(Done(True)))
