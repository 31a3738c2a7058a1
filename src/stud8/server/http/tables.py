"""The lobby's endpoints: list the tables, open one, close one (operators)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.http.errors import BadRequest
from stud8.server.http.requests import json_body, operator_of, room_of
from stud8.server.table.spec import TableSpec
from stud8.server.wire.codec import object_fields

__all__ = ["close_table", "create_table", "list_tables"]


async def list_tables(request: Request) -> Response:
    """``GET /api/v1/tables``: every open table."""
    return JSONResponse({"tables": room_of(request).lobby.listing()})


async def create_table(request: Request) -> Response:
    """``POST /api/v1/tables`` (operators): open a table with the given settings."""
    await operator_of(request)
    data = await json_body(request)
    table_id = data.pop("table_id", None)
    if table_id is not None and not (
        isinstance(table_id, str) and 1 <= len(table_id) <= 32 and table_id.isidentifier()
    ):
        raise BadRequest("table_id must be 1 to 32 letters, digits or '_'")
    name = data.pop("name", None)
    if name is not None and not (isinstance(name, str) and 1 <= len(name.strip()) <= 40):
        raise BadRequest("name must be 1 to 40 characters")
    spec = TableSpec(**object_fields(TableSpec, data, "table"))  # type: ignore[arg-type]
    lobby = room_of(request).lobby
    opened = await lobby.open_table(spec, table_id, name=name.strip() if name else None)
    listing = next(t for t in lobby.listing() if t["table_id"] == opened)
    return JSONResponse({"table": listing}, 201)


async def close_table(request: Request) -> Response:
    """``DELETE /api/v1/tables/{table_id}`` (operators): close it, everyone paid out."""
    await operator_of(request)
    await room_of(request).lobby.close(request.path_params["table_id"])
    return JSONResponse({"ok": True})
