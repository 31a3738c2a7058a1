"""A player's settings, kept with his account: ``GET`` and ``PUT /api/v1/settings``.

The browser reads them at log-in and writes them at each change, so they follow the
account to any browser (:mod:`stud8.server.wire.account`: what they are).
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.http.requests import account_of, json_body, room_of
from stud8.server.wire.account import AccountSettings, checked_settings
from stud8.server.wire.codec import read_object, to_json

__all__ = ["keep_settings", "show_settings"]


async def show_settings(request: Request) -> Response:
    """``GET /api/v1/settings``: the account's settings (the defaults if none kept)."""
    account = await account_of(request)
    settings = await asyncio.to_thread(room_of(request).preferences.settings_of, account.name)
    return JSONResponse(to_json(settings))


async def keep_settings(request: Request) -> Response:
    """``PUT /api/v1/settings`` (all of them): kept, and answered as kept."""
    account = await account_of(request)
    settings = checked_settings(read_object(AccountSettings, await json_body(request), "settings"))
    await asyncio.to_thread(room_of(request).preferences.keep, account.name, settings)
    return JSONResponse(to_json(settings))
