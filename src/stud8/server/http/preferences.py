"""A player's settings, kept with his account: ``GET`` and ``PUT /api/v1/settings``.

The browser reads them at log-in and writes them at each change, so they follow the
account to any browser (:mod:`stud8.server.wire.account`: what they are). A change
of the auto top-up is told at once to the tables that need it (``AutoTopUp``, on the
bus, so a table on another node hears it too): each he sits at (the directory's
statuses) and each his sockets on this node watch (a seat he takes there takes it).
A table he connects to later reads it with his ``Connect``.

Each websocket opened reads the account's settings (its auto top-up goes with the
``Connect``): in a room in one process they are served from the room's
:class:`~stud8.server.accounts.preferences.KeptSettings` (the accounts read lately),
kept true here, where every change is made. That spares a database read (0.5 to
0.9 ms of a 4 to 7 ms opening, measured on SQLite and PostgreSQL on a busy machine)
at each of the sockets a page of four tables opens together, and at every
reconnection. On several nodes another node may change them, so each opening reads
them as before.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.accounts.preferences import KeptSettings
from stud8.server.http.requests import account_of, json_body, room_of
from stud8.server.http.services import RoomServices
from stud8.server.table.commands import AutoTopUp
from stud8.server.wire.account import AccountSettings, checked_settings
from stud8.server.wire.codec import read_object, to_json

__all__ = ["keep_settings", "settings_of", "show_settings", "tell_auto_top_up"]


def _kept(room: RoomServices) -> KeptSettings | None:
    """The room's settings at hand; None on several nodes (see the module)."""
    return room.kept_settings if room.nodes is None else None


async def settings_of(room: RoomServices, account: str) -> AccountSettings:
    """``account``'s settings (the defaults if none kept): at hand, or read."""
    kept = _kept(room)
    found = kept.get(account) if kept is not None else None
    if found is not None:
        return found
    settings = await asyncio.to_thread(room.preferences.settings_of, account)
    if kept is not None:
        kept.read(account, settings)
    return settings


async def show_settings(request: Request) -> Response:
    """``GET /api/v1/settings``: the account's settings (the defaults if none kept)."""
    account = await account_of(request)
    return JSONResponse(to_json(await settings_of(room_of(request), account.name)))


async def keep_settings(request: Request) -> Response:
    """``PUT /api/v1/settings`` (all of them): kept, and answered as kept (once the
    tables that need it know a changed auto top-up)."""
    account = await account_of(request)
    room = room_of(request)
    settings = checked_settings(read_object(AccountSettings, await json_body(request), "settings"))
    before = await settings_of(room, account.name)
    await asyncio.to_thread(room.preferences.keep, account.name, settings)
    kept = _kept(room)
    if kept is not None:
        kept.kept(account.name, settings)
    if settings.auto_top_up != before.auto_top_up:
        await tell_auto_top_up(room, account.name, settings.auto_top_up)
    return JSONResponse(to_json(settings))


async def tell_auto_top_up(room: RoomServices, player: str, on: bool) -> int:
    """Tell ``player``'s tables (see the module) that his auto top-up is ``on``; how
    many were told. A table that cannot hear it now (closed, moving to another node)
    reads it again with his next ``Connect``."""
    room.edge.auto_top_up_changed(player, on)  # for his connections' next Connect
    bus = room.edge.bus
    tables = {t for t, listed in bus.directory().items() if player in listed.status.players}
    _, watched = room.sockets.watching().get(player.casefold(), (player, set()))
    tables |= watched
    sent = [bus.send(table_id, AutoTopUp(player=player, on=on)) for table_id in sorted(tables)]
    if sent:
        await asyncio.gather(*sent, return_exceptions=True)
    return len(sent)
