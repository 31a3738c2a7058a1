"""The hand replayer's endpoints: a stored hand to replay (a shareable link), the
list of stored hands, and a hand history file read to replay it.

``GET /api/v1/hands/{hand_id}/replay`` decides on the server which cards its viewer
may see (:func:`~stud8.server.wire.replay.replay_of`): a player of the hand his own
down cards, anyone else (an observer, no login) only the cards shown at the
showdown, an operator every card; a private table's hand only for those the table
admitted (:mod:`stud8.server.http.privacy`), else 404 as for no such hand.
``POST /api/v1/replays`` reads the file sent as the body
(:mod:`stud8.server.http.replay_files`), stores nothing, and is limited in size
(``MAX_REPLAY_BYTES``) and in rate (``replay_files`` an address a minute).
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.formats.pokerstars.write import hand_number
from stud8.server.accounts.auth import Account
from stud8.server.http.accounts import address_of
from stud8.server.http.errors import (
    BadRequest,
    NotFound,
    PayloadTooLarge,
    TooManyRequests,
)
from stud8.server.http.hands import hand_query
from stud8.server.http.health import read_own_writes
from stud8.server.http.privacy import may_read_table
from stud8.server.http.replay_files import BadFile, read_replays
from stud8.server.http.requests import account_of, bearer, room_of
from stud8.server.wire.codec import to_json
from stud8.server.wire.limits import MAX_REPLAY_BYTES
from stud8.server.wire.replay import HandEntry, HandList, Replay, replay_of

__all__ = ["hand_list", "hand_replay", "replay_file", "stored_replay"]

MAX_HAND_ID_CHARS = 100


async def _viewer(request: Request) -> Account | None:
    """The logged-in account, or None (an observer); an unknown token is no login."""
    token = bearer(request)
    return await room_of(request).auth.account_for_token(token) if token else None


async def hand_replay(request: Request) -> Response:
    """``GET /api/v1/hands/{hand_id}/replay``: see the module."""
    return JSONResponse(to_json(await stored_replay(request)))


async def stored_replay(request: Request) -> Replay:
    """The stored hand of the path's ``hand_id`` as the request's viewer may replay it
    (the rights of ``GET /api/v1/hands/{hand_id}/replay``: 400, 404 as there)."""
    hand_id = request.path_params["hand_id"]
    if not 1 <= len(hand_id) <= MAX_HAND_ID_CHARS:
        raise BadRequest("not a hand id")
    viewer = await _viewer(request)
    await read_own_writes(request)
    record = await asyncio.to_thread(room_of(request).hands.record, hand_id)
    if record is None or not await may_read_table(room_of(request), record.table, viewer):
        raise NotFound(f"no hand {hand_id!r} to replay")
    if viewer is not None and viewer.operator:
        replay = replay_of(record, everything=True)
    else:
        seat = None
        if viewer is not None:
            seat = next((s.seat for s in record.seats if s.name == viewer.name), None)
        replay = replay_of(record, viewer=seat)
    return replay


async def hand_list(request: Request) -> Response:
    """``GET /api/v1/hands/list?limit=N[&player=NAME][&table=TABLE_ID]``: the ids of
    the hands ``GET /api/v1/hands`` reads (the same filters and rights)."""
    _, limit, player, table = await hand_query(request)
    await read_own_writes(request)
    found = await asyncio.to_thread(room_of(request).hands.ids_for, player, limit, table=table)
    entries = [HandEntry(h, str(hand_number(h)), t, ok) for h, t, ok in found]
    return JSONResponse(to_json(HandList(entries)))


async def replay_file(request: Request) -> Response:
    """``POST /api/v1/replays[?name=FILE]``: the body is a hand history file; its
    hands to replay (:class:`~stud8.server.wire.replay.Replays`)."""
    await account_of(request)
    extra = set(request.query_params) - {"name"}
    if extra:
        raise BadRequest(f"unknown parameters {sorted(extra)}")
    name = request.query_params.get("name", "the file")[:200] or "the file"
    wait = room_of(request).guard.replay_attempt(address_of(request))
    if wait:
        raise TooManyRequests("too many files sent to the replayer: try again later", wait)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_REPLAY_BYTES:
        raise PayloadTooLarge(f"the file is over {MAX_REPLAY_BYTES} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_REPLAY_BYTES:
            raise PayloadTooLarge(f"the file is over {MAX_REPLAY_BYTES} bytes")
    try:
        replays = await asyncio.to_thread(read_replays, bytes(data), name)
    except BadFile as e:
        raise BadRequest(str(e)) from None
    return JSONResponse(to_json(replays))
