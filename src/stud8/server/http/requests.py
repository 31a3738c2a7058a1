"""What the endpoints read from a request: its JSON body, its session, its room."""

from __future__ import annotations

import json
from typing import Any, cast

from starlette.requests import HTTPConnection, Request

from stud8.server.accounts.auth import Account
from stud8.server.http.errors import (
    BadRequest,
    Forbidden,
    PayloadTooLarge,
    Unauthorized,
    UnsupportedMediaType,
)
from stud8.server.http.services import RoomServices
from stud8.server.wire.client import nesting_over_limit
from stud8.server.wire.limits import MAX_BODY_BYTES, MAX_JSON_DEPTH
from stud8.server.wire.text import lone_surrogate, may_hold_surrogate

__all__ = ["account_of", "bearer", "json_body", "operator_of", "room_of"]


def room_of(connection: HTTPConnection) -> RoomServices:
    """The room this app serves (``app.state.room``)."""
    return cast(RoomServices, connection.app.state.room)


async def json_body(request: Request) -> dict[str, Any]:
    """The request's body: a JSON object of at most ``MAX_BODY_BYTES``, sent as
    ``application/json`` (415 otherwise), no string of it a lone surrogate.

    Its type is required because a page on another site can make its visitors'
    browsers post a ``text/plain`` or form body without asking the room first (a
    "simple" request, no preflight): wrong passwords sent that way from many
    addresses would lock an account out. A JSON type makes the browser ask first,
    and the room's answer has no CORS header, so the post is never sent."""
    media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media != "application/json":
        shown = f"'{media[:60]}'" if media else "none"
        raise UnsupportedMediaType(f"the body must be application/json (its type: {shown})")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise PayloadTooLarge(f"the body is over {MAX_BODY_BYTES} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise PayloadTooLarge(f"the body is over {MAX_BODY_BYTES} bytes")
    depth = nesting_over_limit(body)
    if depth is not None:
        raise BadRequest(f"nested too deeply: {depth} levels (the limit is {MAX_JSON_DEPTH})")
    try:
        data = json.loads(body or b"{}")
    except ValueError as exc:
        raise BadRequest(f"malformed JSON: {exc}") from None
    except RecursionError:
        raise BadRequest("malformed JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    bad = lone_surrogate(data) if may_hold_surrogate(body) else None
    if bad is not None:
        raise BadRequest(f"malformed JSON: a lone surrogate (U+{ord(bad):04X}) is no text")
    return data


def bearer(request: Request) -> str | None:
    """The session token of ``Authorization: Bearer <token>``, if any."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def account_of(request: Request) -> Account:
    """The logged-in account of the request; 401 without one."""
    token = bearer(request)
    account = await room_of(request).auth.account_for_token(token) if token else None
    if account is None:
        raise Unauthorized("log in first (Authorization: Bearer <token>)")
    return account


async def operator_of(request: Request) -> Account:
    """The operator's account of the request; 401 without a login, 403 if not one."""
    account = await account_of(request)
    if not account.operator:
        raise Forbidden("operators only")
    return account
