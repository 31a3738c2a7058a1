"""The operator's console's endpoints, ``/api/v1/admin/...`` (operators only: 401
without a session, 403 for a player; their bodies: :mod:`stud8.server.wire.admin`).

Who is online and where, an account whole, the acts on it (credit, debit, ban,
unban, silence, unsilence: each through
:class:`~stud8.server.books.moderation.Moderation`, so written to the moderation log
with its reason), the ledger's journal (JSON or CSV), the rake by day, table or
stakes, the moderation log, and the lobby's message. A bad request is a 400 that
changed nothing. A room in memory keeps no books to moderate: 404.
"""

from __future__ import annotations

import asyncio
import csv
import io
import logging
from datetime import date
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.server.accounts.auth import Account
from stud8.server.books.journal import MAX_TRANSACTIONS, TRANSACTION_KINDS, Journal
from stud8.server.books.moderation import (
    MAX_LOG,
    Moderation,
    ModerationError,
    NoSuchPlayerError,
)
from stud8.server.books.moderation import LoggedAct as Act
from stud8.server.http.errors import BadRequest, NotFound
from stud8.server.http.lobbymessage import notice_of as lobby_notice
from stud8.server.http.requests import json_body, operator_of, room_of
from stud8.server.http.services import RoomServices
from stud8.server.http.sessions import BANNED
from stud8.server.wire import admin as wire
from stud8.server.wire.codec import read_object, to_json

__all__ = [
    "account_act",
    "account_detail",
    "console_of",
    "journal",
    "lobby_notice",
    "moderation_log",
    "online_players",
    "post_message",
    "query_of",
    "rake",
    "withdraw_message",
]

log = logging.getLogger("stud8.server")

RECENT_HANDS = 20
RECENT_ACTS = 20


async def console_of(request: Request) -> tuple[Account, RoomServices, Moderation, Journal]:
    operator = await operator_of(request)
    room = room_of(request)
    if room.moderation is None or room.journal is None:
        raise NotFound("a room in memory keeps no books to moderate: serve it on a database")
    return operator, room, room.moderation, room.journal


def query_of(request: Request, allowed: set[str]) -> dict[str, str]:
    query = dict(request.query_params)
    extra = set(query) - allowed
    if extra:
        raise BadRequest(f"unknown parameters {sorted(extra)}")
    return query


def _whole(query: dict[str, str], name: str, low: int, high: int) -> int | None:
    raw = query.get(name)
    if raw is None:
        return None
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise BadRequest(f"{name} is a whole number from {low} to {high}, not {raw[:20]!r}")
    return int(raw)


def act_info(act: Act) -> wire.LoggedAct:
    return wire.LoggedAct(
        id=act.id,
        at=act.acted_at.isoformat(),
        operator=act.operator,
        act=act.act,
        player=act.player,
        reason=act.reason,
        amount=act.amount,
        until=None if act.until is None else act.until.isoformat(),
        transaction=act.transaction_id,
    )


# ------------------------------------------------------------------ who, where
async def online_players(request: Request) -> Response:
    """``GET /api/v1/admin/players``: who is connected (this node's websockets) or
    seated or watching (any table of the room, as its owner counts its viewers,
    whichever node they came through), and at which tables."""
    await console_of(request)
    room = room_of(request)
    query_of(request, set())
    watching = room.sockets.watching()
    seated: dict[str, tuple[str, set[str]]] = {}
    for table_id, listed in room.lobby.room_bus.directory().items():
        if table_id in room.lobby.hidden:
            continue
        for name in listed.status.players:
            seated.setdefault(name.casefold(), (name, set()))[1].add(table_id)
        for name in listed.status.watchers:  # another node's viewers too
            entry = watching.setdefault(name.casefold(), (name, set()))
            entry[1].add(table_id)
    players = []
    for key in sorted(watching.keys() | seated.keys()):
        name = (watching.get(key) or seated[key])[0]
        players.append(
            wire.OnlinePlayer(
                name=name,
                connected=key in watching,
                watches=sorted(watching[key][1]) if key in watching else [],
                sits=sorted(seated[key][1]) if key in seated else [],
            )
        )
    return JSONResponse(to_json(wire.OnlinePlayers(players)))


async def account_detail(request: Request) -> Response:
    """``GET /api/v1/admin/accounts/{name}``: the account whole (404 if none)."""
    _, room, moderation, books = await console_of(request)
    query_of(request, set())
    name = request.path_params["name"]
    found = await asyncio.to_thread(books.role_of, name)
    if found is None:
        raise NotFound(f"no account {name[:40]!r}")
    player, role = found

    def read() -> wire.AccountDetail:
        silenced, until = room.chat.silence_of(player)
        sessions = books.sessions_of(player)
        try:
            balance = room.bank(player) if room.bank is not None else 0
        except LookupError:  # no bank yet (a room that gives no chips)
            balance = 0
        return wire.AccountDetail(
            name=player,
            role=role,
            balance=balance,
            silenced=silenced,
            silenced_until=None if until is None else until.isoformat(),
            seats=[
                wire.AccountSeat(seat.table_id, seat.seat, seat.chips)
                for seat in books.seats_of(player)
            ],
            sessions=[
                wire.AccountSession(
                    s.started_at.isoformat(),
                    s.expires_at.isoformat(),
                    s.address,
                    None if s.seen_at is None else s.seen_at.isoformat(),
                )
                for s in sessions
            ],
            # every node's (the sessions kept), and this node's sockets even if a
            # write of their address was dropped
            addresses=sorted(
                {s.address for s in sessions if s.address} | set(room.sockets.addresses_of(player))
            ),
            hands=[
                wire.RecentHand(hand_id, table_id, recorded)
                for hand_id, table_id, recorded in room.hands.ids_for(player, RECENT_HANDS)
            ],
            log=[act_info(act) for act in moderation.log(player=player, limit=RECENT_ACTS)],
        )

    return JSONResponse(to_json(await asyncio.to_thread(read)))


# ------------------------------------------------------------------ acts
_ACTS: dict[str, type[msgspec.Struct]] = {
    "credit": wire.ChipsRequest,
    "debit": wire.ChipsRequest,
    "ban": wire.ActRequest,
    "unban": wire.ActRequest,
    "silence": wire.SilenceRequest,
    "unsilence": wire.ActRequest,
}


def _do(moderation: Moderation, operator: str, verb: str, name: str, body: Any) -> Act:
    if verb == "credit":
        return moderation.credit(operator, name, body.amount, body.reason)
    if verb == "debit":
        return moderation.debit(operator, name, body.amount, body.reason)
    if verb == "ban":
        return moderation.ban(operator, name, body.reason)
    if verb == "unban":
        return moderation.unban(operator, name, body.reason)
    if verb == "silence":
        return moderation.silence(operator, name, body.reason, minutes=body.minutes)
    return moderation.unsilence(operator, name, body.reason)


async def account_act(request: Request) -> Response:
    """``POST /api/v1/admin/accounts/{name}/{credit|debit|ban|unban|silence|unsilence}``:
    the act, written to the moderation log; its log entry."""
    operator, room, moderation, _ = await console_of(request)
    verb, name = request.path_params["act"], request.path_params["name"]
    shape = _ACTS.get(verb)
    if shape is None:
        raise NotFound(f"no act {verb[:20]!r} (one of {sorted(_ACTS)})")
    body = read_object(shape, await json_body(request), verb)
    if verb in ("ban", "silence") and name.casefold() == operator.name.casefold():
        raise BadRequest(f"an operator does not {verb} himself")
    try:
        act = await asyncio.to_thread(_do, moderation, operator.name, verb, name, body)
    except NoSuchPlayerError as exc:
        raise NotFound(str(exc)) from None
    except ModerationError as exc:
        raise BadRequest(str(exc)) from None
    if verb == "ban" and act.player is not None:
        closed = room.sockets.close_account(act.player, *BANNED)
        log.warning("%s banned %s (%d websockets closed)", operator.name, act.player, closed)
    else:
        log.warning("%s: %s %s (%s)", operator.name, verb, act.player, act.reason)
    return JSONResponse(to_json(act_info(act)))


# ------------------------------------------------------------------ the books
async def journal(request: Request) -> Response:
    """``GET /api/v1/admin/journal?account=&kind=&day=&before=&limit=&format=csv``."""
    _, _, _, books = await console_of(request)
    query = query_of(request, {"account", "kind", "day", "before", "limit", "format"})
    kind = query.get("kind")
    if kind is not None and kind not in TRANSACTION_KINDS:
        raise BadRequest(f"kind is one of {list(TRANSACTION_KINDS)}, not {kind[:40]!r}")
    day = None
    if "day" in query:
        try:
            day = date.fromisoformat(query["day"])
        except ValueError:
            raise BadRequest(f"day is YYYY-MM-DD, not {query['day'][:20]!r}") from None
    account = query.get("account")
    if account is not None and not 1 <= len(account) <= 200:
        raise BadRequest("account is a ledger account's name (bank:NAME, rake:TABLE, ...)")
    shape = query.get("format", "json")
    if shape not in ("json", "csv"):
        raise BadRequest(f"format is json or csv, not {shape[:20]!r}")
    limit = _whole(query, "limit", 1, MAX_TRANSACTIONS) or 100
    before = _whole(query, "before", 1, 2**62)
    found = await asyncio.to_thread(
        books.transactions, account=account, kind=kind, day=day, before=before, limit=limit
    )
    if shape == "csv":
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["transaction", "at", "kind", "hand_id", "memo", "account", "amount"])
        for txn in found:
            for name, amount in txn.entries:
                at = txn.at.isoformat()
                writer.writerow([txn.id, at, txn.kind, txn.hand_id or "", txn.memo, name, amount])
        return Response(
            out.getvalue(),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="journal.csv"'},
        )
    answer = wire.Journal(
        [
            wire.JournalTransaction(
                txn.id,
                txn.at.isoformat(),
                txn.kind,
                txn.hand_id,
                txn.memo,
                [wire.JournalEntry(name, amount) for name, amount in txn.entries],
            )
            for txn in found
        ]
    )
    return JSONResponse(to_json(answer))


async def rake(request: Request) -> Response:
    """``GET /api/v1/admin/rake?by=day|table|stakes``."""
    _, _, _, books = await console_of(request)
    query = query_of(request, {"by"})
    raw = query.get("by", "day")
    try:
        by = wire.RakeBy(raw)
    except ValueError:
        raise BadRequest(f"by is day, table or stakes, not {raw[:20]!r}") from None
    lines = await asyncio.to_thread(books.rake, by)
    answer = wire.Rake(
        by,
        [wire.RakeLine(line.key, line.transactions, line.rake) for line in lines],
        sum(line.rake for line in lines),
    )
    return JSONResponse(to_json(answer))


async def moderation_log(request: Request) -> Response:
    """``GET /api/v1/admin/log?player=NAME&limit=N``: newest first."""
    _, _, moderation, _ = await console_of(request)
    query = query_of(request, {"player", "limit"})
    player = query.get("player")
    if player is not None and not 1 <= len(player) <= 200:
        raise BadRequest("player is an account's name")
    limit = _whole(query, "limit", 1, MAX_LOG) or 100
    acts = await asyncio.to_thread(moderation.log, player=player, limit=limit)
    return JSONResponse(to_json(wire.ModerationLog([act_info(act) for act in acts])))


# ------------------------------------------------------------------ the lobby's message
async def post_message(request: Request) -> Response:
    """``POST /api/v1/admin/message`` ``{"text"}``: shown to everyone until withdrawn."""
    operator, room, moderation, _ = await console_of(request)
    body = read_object(wire.MessageRequest, await json_body(request), "message")
    try:
        posted = await asyncio.to_thread(moderation.post_message, operator.name, body.text)
    except ModerationError as exc:
        raise BadRequest(str(exc)) from None
    if room.message_watch is not None:
        room.message_watch.poke()  # this node's tables at once; the others within seconds
    log.warning("%s posted the lobby message: %s", operator.name, posted.text)
    return JSONResponse(to_json(lobby_notice(posted)))


async def withdraw_message(request: Request) -> Response:
    """``DELETE /api/v1/admin/message``: the lobby's message withdrawn (404 if none)."""
    operator, room, moderation, _ = await console_of(request)
    try:
        withdrawn = await asyncio.to_thread(moderation.withdraw_message, operator.name)
    except ModerationError as exc:
        raise NotFound(str(exc)) from None
    if room.message_watch is not None:
        room.message_watch.poke()
    return JSONResponse(to_json(lobby_notice(withdrawn)))
