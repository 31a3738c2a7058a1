"""The accounts' endpoints: register, log in, log out."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.http.errors import BadRequest, TooManyRequests, Unauthorized
from stud8.server.http.requests import bearer, json_body, room_of
from stud8.server.wire.codec import to_json
from stud8.server.wire.rest import Done, LoggedIn, Registered

__all__ = ["login", "logout", "register"]


def _credentials(data: dict[str, Any]) -> tuple[str, str]:
    extra = set(data) - {"name", "password"}
    if extra:
        raise BadRequest(f"unknown fields {sorted(extra)}")
    name, password = data.get("name"), data.get("password")
    if not isinstance(name, str) or not isinstance(password, str):
        raise BadRequest("name and password must be strings")
    return name, password


def address_of(request: Request) -> str:
    """The client's address (uvicorn gives a trusted proxy's ``X-Forwarded-For``)."""
    return request.client.host if request.client is not None else "?"


async def register(request: Request) -> Response:
    """``POST /api/v1/register``: a new account (409 if the name is taken; 429 if
    this address opened too many lately)."""
    room, address = room_of(request), address_of(request)
    name, password = _credentials(await json_body(request))
    wait = room.guard.signup_attempt(address)
    if wait:
        raise TooManyRequests("too many new accounts from your address: try later", wait)
    try:
        account = await room.auth.register(name, password)
    except BaseException:
        room.guard.signup_failed(address)
        raise
    return JSONResponse(to_json(Registered(account.name, account.operator)), 201)


async def login(request: Request) -> Response:
    """``POST /api/v1/login``: a session token, the name as registered, the role
    (429 after too many wrong passwords for the name or from the address)."""
    name, password = _credentials(await json_body(request))
    room, address = room_of(request), address_of(request)
    auth, guard = room.auth, room.guard
    wait = guard.login_attempt(name, address)
    if wait:
        raise TooManyRequests("too many wrong passwords: try again later", wait)
    token = await auth.login(name, password)
    guard.login_succeeded(name, address)
    account = await auth.account_for_token(token)
    if account is None:  # the session ended at once (a logout in between)
        raise Unauthorized("the session ended; log in again")
    return JSONResponse(to_json(LoggedIn(token, account.name, account.operator)))


async def logout(request: Request) -> Response:
    """``POST /api/v1/logout``: the bearer token's session ends."""
    token = bearer(request)
    if token is None:
        raise Unauthorized("no token to log out")
    await room_of(request).auth.logout(token)
    return JSONResponse(to_json(Done(True)))
