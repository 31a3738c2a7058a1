"""The player's own account: ``GET /api/v1/me`` (his name, role and bank balance)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.http.health import read_own_writes
from stud8.server.http.requests import account_of, room_of
from stud8.server.wire.codec import to_json
from stud8.server.wire.rest import Me

__all__ = ["me"]


async def me(request: Request) -> Response:
    """``GET /api/v1/me`` (bearer token): the account's name, whether it is an
    operator's, and its bank balance (the chips not at a table), read after the
    room's writes so far (a buy-in or a cash-out just made is in it). The client's
    header shows it, and reads it again after a buy-in, a top-up or a cash-out."""
    account = await account_of(request)
    await read_own_writes(request)
    room = room_of(request)
    balance = None if room.bank is None else await asyncio.to_thread(room.bank, account.name)
    return JSONResponse(to_json(Me(account.name, account.operator, balance)))
