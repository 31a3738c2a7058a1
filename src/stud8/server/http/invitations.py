"""A private table's invitation: redeem a code (``POST /api/v1/invitations``), and,
for its creator and operators, see, renew or revoke the table's code
(``GET``, ``POST``, ``DELETE /api/v1/tables/{table_id}/invitation``).

A code that admits nobody (wrong, revoked, or its table closed) gets one answer, a
404, and counts against the player's and the address's limits of codes tried
(:class:`~stud8.server.http.guard.Guard`, as wrong passwords do); a code that
works does not count. Anybody but the creator or an operator asking for a table's
invitation gets the answer a table that does not exist gets.
"""

from __future__ import annotations

import asyncio
import logging

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.books.invitations import Invitation
from stud8.server.http.accounts import address_of
from stud8.server.http.errors import BadRequest, NotFound, TooManyRequests
from stud8.server.http.requests import account_of, json_body, room_of
from stud8.server.wire.codec import read_object, to_json
from stud8.server.wire.rest import InvitationCode, InvitationInfo

__all__ = [
    "invitation_json",
    "redeem_invitation",
    "renew_invitation",
    "revoke_invitation",
    "show_invitation",
]

log = logging.getLogger("stud8.server")

MAX_CODE_CHARS = 64
NO_CODE = "no open table has this invitation code"


def invitation_json(table_id: str, creator: str, code: str | None) -> object:
    """The ``InvitationInfo`` of a table's invitation."""
    link = None if code is None else f"/#/join/{code}"
    return to_json(InvitationInfo(table_id, creator, code, link))


async def redeem_invitation(request: Request) -> Response:
    """``POST /api/v1/invitations`` ``{"code"}``: admitted to its table, for good."""
    account = await account_of(request)
    room, address = room_of(request), address_of(request)
    code = read_object(InvitationCode, await json_body(request), "invitation")
    if not 1 <= len(code.code) <= MAX_CODE_CHARS:
        raise BadRequest(f"an invitation code is 1 to {MAX_CODE_CHARS} characters")
    wait = await room.guard.code_attempt(account.name, address)
    if wait:
        raise TooManyRequests("too many wrong invitation codes: try again later", wait)
    try:
        table_id = await asyncio.to_thread(room.invitations.redeem, code.code, account.name)
    except BaseException:  # not checked (the database busy): it does not count
        await room.guard.code_worked(account.name, address)
        raise
    listing = [] if table_id is None else room.lobby.listing(lambda t, _: t == table_id)
    if not listing:  # no such code, or its table is closed
        raise NotFound(NO_CODE)
    await room.guard.code_worked(account.name, address)
    log.info("%s was admitted to the private table %s", account.name, table_id)
    return JSONResponse({"table": listing[0]})


async def _managed(request: Request) -> Invitation:
    """The invitation of the request's table, if its account manages it (the
    creator, an operator) and the table is open; else 404 as for no table."""
    account = await account_of(request)
    room = room_of(request)
    table_id = request.path_params["table_id"]
    invitation = await asyncio.to_thread(room.invitations.invitation, table_id)
    if (
        invitation is None
        or room.lobby.spec_of(table_id) is None
        or not (account.operator or invitation.creator == account.name)
    ):
        raise NotFound(f"no table {table_id}")
    return invitation


async def show_invitation(request: Request) -> Response:
    """``GET /api/v1/tables/{table_id}/invitation``: its code and link."""
    invitation = await _managed(request)
    return JSONResponse(invitation_json(invitation.table_id, invitation.creator, invitation.code))


async def renew_invitation(request: Request) -> Response:
    """``POST /api/v1/tables/{table_id}/invitation``: a new code; the old one stops working."""
    invitation = await _managed(request)
    code = await asyncio.to_thread(room_of(request).invitations.renew, invitation.table_id)
    return JSONResponse(invitation_json(invitation.table_id, invitation.creator, code))


async def revoke_invitation(request: Request) -> Response:
    """``DELETE /api/v1/tables/{table_id}/invitation``: no code admits anybody."""
    invitation = await _managed(request)
    await asyncio.to_thread(room_of(request).invitations.revoke, invitation.table_id)
    return JSONResponse(invitation_json(invitation.table_id, invitation.creator, None))
