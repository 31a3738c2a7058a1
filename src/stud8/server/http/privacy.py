"""Who sees which tables: a private table only for the accounts its invitation
admitted (:mod:`stud8.server.books.invitations`) and for operators.

Everywhere a table is named (the lobby's list, its websocket, its invitation), a
private table the viewer may not see is answered exactly as a table that does not
exist, so that nobody learns it exists; its id alone gets nobody in. The list of
tables asks the database who was admitted only when a private table is open.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from starlette.requests import Request

from stud8.server.accounts.auth import Account
from stud8.server.http.requests import bearer, room_of
from stud8.server.http.services import RoomServices
from stud8.server.table.spec import TableSpec

__all__ = ["Visible", "may_read_table", "sees_table", "viewer_of", "visibility"]

Visible = Callable[[str, TableSpec], bool]


async def viewer_of(request: Request) -> Account | None:
    """The logged-in account of a request that needs none (an unknown token: nobody)."""
    token = bearer(request)
    return await room_of(request).auth.account_for_token(token) if token else None


def _public(table_id: str, spec: TableSpec) -> bool:
    return not spec.private


async def visibility(room: RoomServices, player: str | None, operator: bool) -> Visible | None:
    """What this viewer may see of the open tables: None for everything (an
    operator, or no private table open), else the test of a table."""
    if operator:
        return None
    if not any(listed.spec.private for listed in room.lobby.room_bus.directory().values()):
        return None
    if player is None:
        return _public
    admitted = await asyncio.to_thread(room.invitations.admitted, player)

    def visible(table_id: str, spec: TableSpec) -> bool:
        return not spec.private or table_id in admitted

    return visible


async def sees_table(room: RoomServices, table_id: str, player: str | None, operator: bool) -> bool:
    """Whether the table is open and this viewer may see it (watch it, sit at it)."""
    spec = room.lobby.spec_of(table_id)
    if spec is None:
        return False
    if not spec.private or operator:
        return True
    if player is None:
        return False
    return table_id in await asyncio.to_thread(room.invitations.admitted, player)


async def may_read_table(room: RoomServices, table_id: str, viewer: Account | None) -> bool:
    """Whether this viewer may read what was played or said at the table, open or
    closed (its hands, its chat): a private table's only for the accounts it admitted
    and operators; to anybody else it is a table of which nothing is known."""
    if viewer is not None and viewer.operator:
        return True
    if await asyncio.to_thread(room.invitations.invitation, table_id) is None:
        return True  # not a private table
    return viewer is not None and table_id in await asyncio.to_thread(
        room.invitations.admitted, viewer.name
    )
