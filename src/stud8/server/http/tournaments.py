"""The tournaments' endpoints: list, one, create and cancel (operators), register and
unregister, bots (operators), the summary (see :mod:`stud8.server.wire.tournaments`)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar, cast

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from stud8.formats.pokerstars.summary import SummaryPlace, tournament_summary
from stud8.server.http.errors import BadRequest, Conflict, NotFound, ServiceUnavailable
from stud8.server.http.requests import account_of, json_body, operator_of
from stud8.server.tournaments.manager import (
    NoSuchTournament,
    TournamentElsewhere,
    Tournaments,
    definition_of,
)
from stud8.server.tournaments.runner import TournamentRefused
from stud8.server.wire.codec import read_object
from stud8.server.wire.tournaments import BotsRequest, NewTournament
from stud8.tournament import DefinitionError
from stud8.tournament.director import Phase

T = TypeVar("T")

__all__ = [
    "add_bots",
    "cancel_tournament",
    "create_tournament",
    "list_tournaments",
    "register",
    "show_tournament",
    "summary",
    "unregister",
]


def _tournaments(request: Request, *, needed: bool = True) -> Tournaments | None:
    found = getattr(request.app.state, "tournaments", None)
    if found is None and needed:
        raise ServiceUnavailable("this room keeps no tournaments (it runs in memory)")
    return cast("Tournaments | None", found)


def _id(request: Request) -> int:
    raw = request.path_params["tournament_id"]
    if not (isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= 12):
        raise NotFound(f"no tournament {raw[:40]!r}")
    return int(raw)


async def list_tournaments(request: Request) -> Response:
    """``GET /api/v1/tournaments``."""
    t = _tournaments(request, needed=False)
    return JSONResponse({"tournaments": t.listing() if t is not None else []})


async def show_tournament(request: Request) -> Response:
    """``GET /api/v1/tournaments/{id}``."""
    t = _tournaments(request)
    assert t is not None
    try:
        return JSONResponse(t.detail(_id(request)))
    except NoSuchTournament as exc:
        raise NotFound(str(exc)) from None


async def create_tournament(request: Request) -> Response:
    """``POST /api/v1/tournaments`` (operators)."""
    await operator_of(request)
    t = _tournaments(request)
    assert t is not None
    data = await json_body(request)
    payouts = data.pop("payouts", None)
    if payouts is not None and not (
        isinstance(payouts, list)
        and 1 <= len(payouts) <= 1000
        and all(isinstance(p, int) and not isinstance(p, bool) for p in payouts)
    ):
        raise BadRequest("tournament.payouts: a list of 1 to 1000 integers, or null")
    asked = read_object(NewTournament, {**data, "payouts": payouts}, "tournament")
    try:
        definition = definition_of(asked)
    except DefinitionError as exc:
        raise BadRequest(str(exc)) from None
    tid = await t.create(definition)
    return JSONResponse({"tournament": t.detail(tid)}, 201)


async def cancel_tournament(request: Request) -> Response:
    """``DELETE /api/v1/tournaments/{id}`` (operators)."""
    await operator_of(request)
    t = _tournaments(request)
    assert t is not None
    await _refusing(t.cancel(_id(request)))
    return JSONResponse({"ok": True})


async def register(request: Request) -> Response:
    """``POST /api/v1/tournaments/{id}/register``."""
    account = await account_of(request)
    t = _tournaments(request)
    assert t is not None
    entry = await _refusing(t.register(_id(request), account.name))
    return JSONResponse({"entries": [entry], "players": [account.name]})


async def unregister(request: Request) -> Response:
    """``POST /api/v1/tournaments/{id}/unregister``."""
    account = await account_of(request)
    t = _tournaments(request)
    assert t is not None
    await _refusing(t.unregister(_id(request), account.name))
    return JSONResponse({"ok": True})


async def add_bots(request: Request) -> Response:
    """``POST /api/v1/tournaments/{id}/bots`` (operators)."""
    await operator_of(request)
    t = _tournaments(request)
    assert t is not None
    data = await json_body(request)
    asked = read_object(BotsRequest, data, "bots")
    made = await _refusing(t.add_bots(_id(request), asked.count, asked.policy))
    return JSONResponse({"entries": [e for e, _ in made], "players": [p for _, p in made]})


async def summary(request: Request) -> Response:
    """``GET /api/v1/tournaments/{id}/summary``: PokerStars' tournament summary."""
    t = _tournaments(request)
    assert t is not None
    try:
        stored, director = t.stored(_id(request))
    except NoSuchTournament as exc:
        raise NotFound(str(exc)) from None
    d = director.definition
    places = [SummaryPlace(r.place, r.player, r.prize) for r in director.results]
    if not places:  # not over: the busted so far, by the entries the database knows
        places = [
            SummaryPlace(e.place, e.player, e.prize)
            for e in t.store.entries(stored.tournament_id)
            if e.place is not None
        ]
    text = tournament_summary(
        number=stored.tournament_id,
        game=d.game,
        buy_in=d.buy_in,
        fee=d.fee,
        entries=len(director.entries),
        prize_pool=director.prize_pool,
        started_at=stored.created_at,
        places=places,
        finished=stored.phase is Phase.FINISHED or bool(director.results),
    )
    return PlainTextResponse(text)


async def _refusing(work: Awaitable[T]) -> T:
    try:
        return await work
    except NoSuchTournament as exc:
        raise NotFound(str(exc)) from None
    except TournamentRefused as exc:
        raise Conflict(str(exc)) from None
    except TournamentElsewhere as exc:  # between two owner nodes: try again
        raise ServiceUnavailable(str(exc)) from None
