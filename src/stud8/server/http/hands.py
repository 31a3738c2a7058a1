"""The hand histories' endpoint: ``GET /api/v1/hands`` in PokerStars text."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from stud8.server.books.hands import DEFAULT_LIMIT, MAX_LIMIT
from stud8.server.http.errors import BadRequest, Forbidden, ServiceUnavailable
from stud8.server.http.health import READY_SECONDS
from stud8.server.http.requests import account_of, room_of

__all__ = ["hands"]


async def hands(request: Request) -> Response:
    """``GET /api/v1/hands?limit=N[&player=NAME][&table=TABLE_ID]`` (bearer token):
    the latest ``limit`` hands (default 50, at most 1000) in PokerStars text,
    latest first, of one table if ``table`` is given. A player gets his own hands
    as he saw them at the table (his down cards, the others' only where shown;
    ``player=`` may only name himself); an operator gets every card, of
    ``player``'s hands or of the whole room. Hands cancelled by a restart have no
    history and are left out. A hand that has just finished at a table is in the
    answer (the room's writes are drained first)."""
    account = await account_of(request)
    extra = set(request.query_params) - {"limit", "player", "table"}
    if extra:
        raise BadRequest(f"unknown parameters {sorted(extra)}")
    raw = request.query_params.get("limit", str(DEFAULT_LIMIT))
    try:
        limit = int(raw)
    except ValueError:
        raise BadRequest(f"limit must be a whole number, not {raw!r}") from None
    if not 1 <= limit <= MAX_LIMIT:
        raise BadRequest(f"limit is 1 to {MAX_LIMIT}, not {limit}")
    player = request.query_params.get("player")
    table = request.query_params.get("table")
    if table is not None and not 1 <= len(table) <= 100:
        raise BadRequest("table must be a table id")
    mine = player is None or player.casefold() == account.name.casefold()
    if not account.operator and not mine:
        raise Forbidden("you may read your own hands only")
    room = room_of(request)
    if room.flush is not None:
        try:  # read our own writes: the hands finished so far
            await asyncio.wait_for(room.flush(), READY_SECONDS)
        except TimeoutError:
            raise ServiceUnavailable("the room's database is busy: try again in a moment") from None
    store = room.hands
    if account.operator:
        text = await asyncio.to_thread(
            store.pokerstars_for_operator, player=player, table=table, limit=limit
        )
    else:
        text = await asyncio.to_thread(store.pokerstars_for, account.name, None, limit, table=table)
    return PlainTextResponse(text)
