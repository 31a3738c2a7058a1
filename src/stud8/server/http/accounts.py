"""The accounts' endpoints: register, log in, log out, change the password, ban.

Ending a session closes its table websockets at once (4401), a change of password
every websocket of the account (4401), a ban too (4403)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.accounts.accounts import LoginRefusedError
from stud8.server.books.moderation import ModerationError, NoSuchPlayerError
from stud8.server.http.addresses import client_address
from stud8.server.http.errors import BadRequest, NotFound, TooManyRequests, Unauthorized
from stud8.server.http.requests import account_of, bearer, json_body, operator_of, room_of
from stud8.server.http.sessions import BANNED
from stud8.server.wire.codec import to_json
from stud8.server.wire.rest import Done, LoggedIn, Registered

log = logging.getLogger("stud8.server")

# The moderation log's reason for a ban through the old endpoint, which takes none
# (the console's, ``POST /api/v1/admin/accounts/{name}/ban``, asks for one).
BAN_REASON = "banned through POST /api/v1/accounts/{name}/ban (no reason given)"

__all__ = ["ban", "change_password", "login", "logout", "register"]


def _credentials(data: dict[str, Any]) -> tuple[str, str]:
    extra = set(data) - {"name", "password"}
    if extra:
        raise BadRequest(f"unknown fields {sorted(extra)}")
    name, password = data.get("name"), data.get("password")
    if not isinstance(name, str) or not isinstance(password, str):
        raise BadRequest("name and password must be strings")
    return name, password


def address_of(request: Request) -> str:
    """The client's address (:func:`stud8.server.http.addresses.client_address`)."""
    return client_address(request)


async def register(request: Request) -> Response:
    """``POST /api/v1/register``: a new account (409 if the name is taken; 429 if
    this address opened too many lately)."""
    room, address = room_of(request), address_of(request)
    name, password = _credentials(await json_body(request))
    wait = await room.guard.signup_attempt(address)
    if wait:
        raise TooManyRequests("too many new accounts from your address: try later", wait)
    try:
        account = await room.auth.register(name, password)
    except BaseException:
        await room.guard.signup_failed(address)
        raise
    return JSONResponse(to_json(Registered(account.name, account.operator)), 201)


async def login(request: Request) -> Response:
    """``POST /api/v1/login``: a session token, the name as registered, the role
    (429 after too many wrong passwords for the name or from the address)."""
    name, password = _credentials(await json_body(request))
    room, address = room_of(request), address_of(request)
    auth, guard = room.auth, room.guard
    wait = await guard.login_attempt(name, address)
    if wait:
        raise TooManyRequests("too many wrong passwords: try again later", wait)
    try:
        token = await auth.login(name, password)
    except LoginRefusedError:
        raise
    except BaseException:  # not checked (the database busy): it does not count
        await guard.login_undone(name, address)
        raise
    await guard.login_succeeded(name, address)
    await room.seen_from(token, address)  # every node's console shows where he is
    account = await auth.account_for_token(token)
    if account is None:  # the session ended at once (a logout in between)
        raise Unauthorized("the session ended; log in again")
    return JSONResponse(to_json(LoggedIn(token, account.name, account.operator)))


async def logout(request: Request) -> Response:
    """``POST /api/v1/logout``: the bearer token's session ends."""
    token = bearer(request)
    if token is None:
        raise Unauthorized("no token to log out")
    room = room_of(request)
    await room.auth.logout(token)
    room.sockets.close_session(token, 4401, "logged out")
    return JSONResponse(to_json(Done(True)))


async def change_password(request: Request) -> Response:
    """``POST /api/v1/password`` (bearer) ``{"old", "new"}``: every session of the
    account ends, this one too (log in again with the new password)."""
    account = await account_of(request)
    data = await json_body(request)
    extra = set(data) - {"old", "new"}
    if extra:
        raise BadRequest(f"unknown fields {sorted(extra)}")
    old, new = data.get("old"), data.get("new")
    if not isinstance(old, str) or not isinstance(new, str):
        raise BadRequest("old and new must be strings")
    room = room_of(request)
    await room.auth.change_password(account.name, old, new)
    room.sockets.close_account(account.name, 4401, "the password changed: log in again")
    return JSONResponse(to_json(Done(True)))


async def ban(request: Request) -> Response:
    """``POST /api/v1/accounts/{name}/ban`` (operators): the account may no longer log
    in; its sessions end and its websockets close. On a database, through the books'
    moderation (the ban written to the moderation log, as the console's); a room in
    memory keeps no log."""
    operator = await operator_of(request)
    room = room_of(request)
    name = request.path_params["name"]
    if name.casefold() == operator.name.casefold():
        raise BadRequest("an operator does not ban himself")
    if room.moderation is None:
        banned = (await room.auth.ban(name)).name
    else:
        try:
            act = await asyncio.to_thread(room.moderation.ban, operator.name, name, BAN_REASON)
        except NoSuchPlayerError as exc:
            raise NotFound(str(exc)) from None
        except ModerationError as exc:
            raise BadRequest(str(exc)) from None
        assert act.player is not None  # (a ban names its player)
        banned = act.player
    closed = room.sockets.close_account(banned, *BANNED)
    log.warning("%s banned %s (%d websockets closed)", operator.name, banned, closed)
    return JSONResponse(to_json(Done(True)))
