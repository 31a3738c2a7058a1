"""The hand histories' endpoint: ``GET /api/v1/hands`` in PokerStars text."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from stud8.server.accounts.auth import Account
from stud8.server.books.hands import DEFAULT_LIMIT, MAX_LIMIT
from stud8.server.http.errors import BadRequest, Forbidden
from stud8.server.http.health import read_own_writes
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
    account, limit, player, table = await hand_query(request)
    await read_own_writes(request)
    room = room_of(request)
    store = room.hands
    if account.operator:
        text = await asyncio.to_thread(
            store.pokerstars_for_operator, player=player, table=table, limit=limit
        )
    else:
        text = await asyncio.to_thread(store.pokerstars_for, account.name, None, limit, table=table)
    return PlainTextResponse(text)


async def hand_query(request: Request) -> tuple[Account, int, str | None, str | None]:
    """The account, ``limit``, ``player`` and ``table`` of a request for hands
    (``GET /api/v1/hands`` and its list of ids): checked, and a player may name
    only himself (his own name is given back as ``player``; an operator's may be
    None, for every player)."""
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
    if not account.operator:
        player = account.name
    return account, limit, player, table
