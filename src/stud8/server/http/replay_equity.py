"""The hand replayer's equity: a replay's live hands' chances street by street.

The figures are worked out from a :class:`~stud8.server.wire.replay.Replay`, the hand
as its viewer may replay it (:func:`~stud8.server.wire.replay.replay_of` decided which
cards that is), and from nothing else, so that no figure can tell him a card he may
not see: a stored hand is first made into its viewer's replay
(``GET /api/v1/hands/{hand_id}/equity``, the rights of the replay itself), and a
file's hand is the replay ``POST /api/v1/replays`` answered, sent back
(``POST /api/v1/replays/equity``: only its cards count).

Each street's position (:func:`positions`) is the street's end: the hands still live
after its betting, each with the cards he was dealt so far as the viewer knows them
(the cards a hand showed at the showdown, or after the hand, are known from the
start: the replay shows them); a folded hand's cards the viewer saw are out of the
deck, the others random (``??``). :func:`stud8.tools.equity.equity` counts it exactly
when its estimated work is small (:data:`HEADS_UP_BUDGET`, :data:`MULTIWAY_BUDGET`:
a few tenths of a second on one core), else deals :data:`SAMPLE_DEALS` at random,
seeded by the position. Each street's answer is kept (:data:`CACHE_SIZE` positions,
the least recently used forgotten), so a hand asked for again, by any viewer who
knows the same cards, is answered at once; one street is worked out at a time in
this process (a thread, the event loop keeps serving). An address may ask the equity
of ``equity_requests`` hands in ``equity_period`` seconds (the room's settings, 60 a
minute by default, both endpoints together); past that it is answered 429 with
``Retry-After``.
"""

from __future__ import annotations

import asyncio
import threading
import zlib
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from stud8.core.cards import Card
from stud8.core.errors import CardError
from stud8.core.events import (
    CardDealt,
    CommunityCardDealt,
    Event,
    Folded,
    HandShown,
    StreetStarted,
)
from stud8.core.rules import Game
from stud8.formats.jsonlog import decode_event
from stud8.server.http.accounts import address_of
from stud8.server.http.errors import BadRequest, HTTPError, TooManyRequests
from stud8.server.http.replays import stored_replay
from stud8.server.http.requests import account_of, room_of
from stud8.server.wire.codec import to_json
from stud8.server.wire.equity import EquityMethod, ReplayEquity, SeatEquity, StreetEquity
from stud8.server.wire.replay import Replay

__all__ = [
    "CACHE_SIZE",
    "HEADS_UP_BUDGET",
    "MULTIWAY_BUDGET",
    "SAMPLE_DEALS",
    "BadReplay",
    "StreetPosition",
    "equity_of",
    "file_equity",
    "hand_equity",
    "positions",
]

#: The exact count's estimated work (a unit is a few nanoseconds of one core) up to
#: which a street is counted exactly: heads-up, the pair count is cheap per unit (4th
#: street with every card known, 3e6, takes 10 ms; 3rd street, 8e7, half a second on
#: an idle core and seconds on a busy one: it is sampled)...
HEADS_UP_BUDGET = 30_000_000
#: ...multiway, every combination is walked, dearer per unit (4 hands on 6th street
#: with every card known, 6e5: 10 to 30 ms; 6 hands, 2e7, took 0.3 s idle and 0.7 to
#: 1.5 s on a busy machine: sampled).
MULTIWAY_BUDGET = 5_000_000
#: Random deals of a street too large to count (a standard error of at most 0.16
#: percentage points on any figure).
SAMPLE_DEALS = 100_000
CACHE_SIZE = 4096
UNKNOWN = "??"


class BadReplay(ValueError):
    """A replay whose cards do not make a hand of stud: the message says why."""


class NoEngine(HTTPError):
    status = 503


@dataclass(frozen=True, slots=True)
class StreetPosition:
    """A street's end as the viewer knows it: the live ``seats``, each one's ``cards``
    (``??`` unseen) in dealing order, the ``dead`` cards (folded hands'; ``??`` for
    those unseen) and the ``community`` card if it was dealt."""

    street: int
    seats: tuple[int, ...]
    cards: tuple[tuple[str, ...], ...]
    dead: tuple[str, ...]
    community: str | None


def _card(name: str, where: str) -> str:
    try:
        return str(Card.parse(name))
    except CardError as e:
        raise BadReplay(f"{where}: {e}") from None


def _events(replay: Replay) -> list[Event]:
    """The replay's events, read by the hand records' own reader (one parser of them)."""
    out: list[Event] = []
    for i, data in enumerate(replay.events):
        try:
            out.append(decode_event(data))
        except ValueError as e:  # CodecError, CardError: the reader's own words
            raise BadReplay(f"event {i}: {e}") from None
    return out


def _shown(replay: Replay, events: list[Event]) -> dict[int, list[str]]:
    """The cards each seat showed, at the showdown or after the hand."""
    shown: dict[int, list[str]] = {}
    for event in events:
        if isinstance(event, HandShown):
            shown[event.seat] = [str(c) for c in event.cards]
    for show in replay.shows:
        named = [_card(c, f"the show of seat {show.seat}") for c in show.cards]
        shown.setdefault(show.seat, []).extend(named)
    return shown


def positions(replay: Replay) -> list[StreetPosition]:
    """Each street's end, as ``replay``'s viewer knows it (see the module)."""
    events = _events(replay)
    shown = _shown(replay, events)
    community = next((str(e.card) for e in events if isinstance(e, CommunityCardDealt)), None)
    # every seat's deals, then the hidden ones the seat showed turned over in order
    dealt: dict[int, list[tuple[int, str | None]]] = {}
    for i, event in enumerate(events):
        if isinstance(event, CardDealt):
            if not 3 <= event.street <= 7:
                raise BadReplay(f"event {i}: a card is dealt on a street from 3 to 7")
            card = None if event.card is None else str(event.card)
            dealt.setdefault(event.seat, []).append((event.street, card))
    for seat, cards in dealt.items():
        known = {c for _, c in cards if c is not None} | {community}
        fresh = [c for c in shown.get(seat, []) if c not in known]
        dealt[seat] = [(s, c if c is not None or not fresh else fresh.pop(0)) for s, c in cards]
    out: list[StreetPosition] = []
    folded: set[int] = set()
    street = 0

    def close(street: int) -> None:
        if street < 3:
            return
        live = tuple(s for s in sorted(dealt) if s not in folded)
        cards = tuple(tuple(c or UNKNOWN for st, c in dealt[s] if st <= street) for s in live)
        dead = tuple(c or UNKNOWN for s in sorted(folded) for st, c in dealt.get(s, []))
        shared = community if street == 7 else None
        out.append(StreetPosition(street, live, cards, dead, shared))

    for event in events:
        if isinstance(event, StreetStarted):
            close(street)
            number = event.street
            if not street < number <= 7 or number < 3:
                raise BadReplay(f"streets follow one another from 3 to 7, got {number!r}")
            street = number
        elif isinstance(event, Folded):
            folded.add(event.seat)
    close(street)
    return out


# ---------------------------------------------------------------------------------------
# Counting, and the answers kept.


_CACHE: OrderedDict[tuple[Game, StreetPosition], StreetEquity] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_WORK_LOCK = threading.Lock()  # one street counted at a time in this process
# The counting's own threads: requests waiting on _WORK_LOCK hold these, never the
# default pool's that every database call of the room goes through (two: a cached
# answer is not held behind a street being counted).
_EQUITY_THREADS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="equity")


def _count(game: Game, position: StreetPosition) -> StreetEquity:
    from stud8.tools.equity import EquityInputError, equity, exact_work

    hi_lo = game is Game.STUD_HI_LO
    if len(position.seats) == 1:  # the others folded: the pot is his
        both = 1.0 if hi_lo else None  # both halves of a hi/lo pot
        only = SeatEquity(position.seats[0], " ".join(position.cards[0]), 1.0, 1.0, both, both)
        return StreetEquity(position.street, EquityMethod.EXACT, 1, [only], None)
    budget = HEADS_UP_BUDGET if len(position.seats) == 2 else MULTIWAY_BUDGET
    seed = zlib.crc32(repr((game, position)).encode())
    players = [" ".join(c) for c in position.cards]
    dead = " ".join(position.dead)
    try:
        exact = exact_work(players, dead, position.community) <= budget
        result = equity(
            players,
            dead=dead,
            community=position.community,
            game=game,
            method="exact" if exact else "monte-carlo",
            trials=None if exact else SAMPLE_DEALS,
            seed=None if exact else seed,
        )
    except EquityInputError as e:
        raise BadReplay(f"street {position.street}: {e}") from None
    seats = [
        SeatEquity(
            seat=seat,
            cards=" ".join(cards),
            share=p.ev,
            win=p.high_win + p.high_tie,
            low=p.low_win + p.low_tie if hi_lo else None,
            scoop=p.scoop if hi_lo else None,
        )
        for seat, cards, p in zip(position.seats, position.cards, result.players, strict=True)
    ]
    exact = result.method == "exact"
    count = (result.outcomes if exact else result.trials) or 0
    method = EquityMethod.EXACT if exact else EquityMethod.SAMPLED
    return StreetEquity(position.street, method, count, seats, result.no_low if hi_lo else None)


def street_equity(game: Game, position: StreetPosition) -> StreetEquity:
    """The street's figures, counted once and then kept."""
    key = (game, position)
    with _CACHE_LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
    with _WORK_LOCK:
        with _CACHE_LOCK:
            found = _CACHE.get(key)
        if found is None:
            found = _count(game, position)
    with _CACHE_LOCK:
        _CACHE[key] = found
        _CACHE.move_to_end(key)
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return found


def forget() -> None:
    """Forget every answer kept (for tests and benchmarks that time the counting)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def _game(name: str) -> Game:
    try:
        return Game(name)
    except ValueError:
        games = ", ".join(g.value for g in Game)
        raise BadReplay(f"game is one of {games}, got {name!r}") from None


def equity_of(replay: Replay) -> ReplayEquity:
    """The replay's equity street by street (see the module); :class:`BadReplay` if
    its cards are not a hand of stud."""
    game = _game(replay.game)
    streets = [street_equity(game, p) for p in positions(replay)]
    return ReplayEquity(replay.hand_id, replay.game, replay.viewer, replay.everything, streets)


def _engine() -> None:
    try:
        import numba  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:
        raise NoEngine("this server has no equity engine (install stud8[tools])") from None


async def _answer(replay: Replay) -> Response:
    _engine()
    try:
        answer = await asyncio.get_running_loop().run_in_executor(
            _EQUITY_THREADS, equity_of, replay
        )
    except BadReplay as e:
        raise BadRequest(str(e)) from None
    return JSONResponse(to_json(answer))


def _limited(request: Request) -> None:
    """The address's limit (see the module): counted, or 429."""
    wait = room_of(request).guard.equity_attempt(address_of(request))
    if wait:
        raise TooManyRequests("too many hands' equity asked: try again later", wait)


async def hand_equity(request: Request) -> Response:
    """``GET /api/v1/hands/{hand_id}/equity``: see the module."""
    _limited(request)
    return await _answer(await stored_replay(request))


async def file_equity(request: Request) -> Response:
    """``POST /api/v1/replays/equity``: the body is a file's hand (a Replay)."""
    await account_of(request)
    _limited(request)
    body = await request.body()
    try:
        replay = msgspec.json.decode(body, type=Replay)
    except msgspec.ValidationError as e:
        raise BadRequest(f"not a hand to replay: {e}") from None
    except msgspec.DecodeError:
        raise BadRequest("the body is not JSON: send a hand of POST /api/v1/replays") from None
    return await _answer(replay)
