"""The tournaments' REST bodies (the lobby's tournaments), as typed dataclasses.

Like :mod:`stud8.server.wire.rest`'s: each class is a JSON object, and
:data:`TOURNAMENT_ENDPOINTS` says which goes where (its schemas are generated into
``docs/protocol.md``). Money (``buy_in``, ``fee``, ``prize_pool``, a prize) is in
room chips; stacks and stakes in tournament chips.
"""

from __future__ import annotations

import msgspec

from stud8.server.wire.rest import Done, Endpoint
from stud8.tournament.director import Phase

__all__ = [
    "TOURNAMENT_ENDPOINTS",
    "BotsRequest",
    "NewTournament",
    "TournamentDetail",
    "TournamentEntry",
    "TournamentLevel",
    "TournamentList",
    "TournamentPrize",
    "TournamentSummary",
    "TournamentTableSeats",
]


class NewTournament(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A tournament an operator creates: ``structure`` one of the ready structures
    (``regular``, ``turbo``, ``hyper``); ``game`` ``stud_hi_lo``, ``stud_high`` or
    ``razz``; ``start`` ``when_full`` (a sit-and-go: it starts when ``max_entrants``
    have registered) or ``at_time`` (at ``starts_at``, an ISO 8601 time with its
    zone, if ``min_entrants`` have registered; else it is cancelled);
    ``late_registration``: registration stays open until the end of that level (0:
    none); ``reentries``: how many times a busted player may buy in again while it
    is open; ``payouts``: each paid place's share in basis points (summing to
    10000), or null for the default by number of entries; ``starting_chips`` (null:
    the structure's) and ``level_hands`` (levels lasting that many hands, not the
    structure's minutes; no breaks) change the ready structure."""

    name: str = "Tournament"
    structure: str = "turbo"
    starting_chips: int | None = None
    level_hands: int | None = None
    game: str = "stud_hi_lo"
    buy_in: int = 0
    fee: int = 0
    table_size: int = 8
    min_entrants: int = 2
    max_entrants: int = 8
    start: str = "when_full"
    starts_at: str | None = None
    late_registration: int = 0
    reentries: int = 0
    payouts: list[int] | None = None


class BotsRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Register ``count`` bots (1 to 100) playing ``policy`` (an operator's: so one
    person can play a sit-and-go alone). Their buy-ins are issued to them."""

    count: int = 1
    policy: str = "rules"


class TournamentSummary(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A tournament as the lobby lists it: ``phase`` ``registering``, ``running``,
    ``finished`` or ``cancelled``; ``entries`` bought so far (re-entries count),
    ``players_left``; ``level`` now (1 before the start)."""

    tournament_id: int
    name: str
    game: str
    structure: str
    phase: Phase
    start: str
    starts_at: str | None
    buy_in: int
    fee: int
    starting_chips: int
    table_size: int
    min_entrants: int
    max_entrants: int
    entries: int
    players_left: int
    prize_pool: int
    level: int


class TournamentList(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    tournaments: list[TournamentSummary]


class TournamentLevel(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A step of the structure: a level (``level`` its number, its stakes, its
    length in ``minutes`` or ``hands``) or a break (``level`` 0, ``break_minutes``)."""

    level: int
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    minutes: int | None
    hands: int | None
    break_minutes: int


class TournamentEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An entry (a buy-in; a re-entry is another): its chips, and its table and seat
    while in; once out, its ``place`` (the first of ``shared`` places shared with
    others busted in the same hand with as many chips; null until known) and
    ``prize``."""

    entry: int
    player: str
    bot: bool
    chips: int
    table_id: str | None
    seat: int | None
    out: bool
    place: int | None
    shared: int
    prize: int


class TournamentPrize(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    place: int
    prize: int


class TournamentTableSeats(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One of its tables (a room table: ``/ws/v1/tables/{table_id}``): who sits there."""

    table_id: str
    number: int
    players: list[str]


class TournamentDetail(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One tournament whole: its summary, its ``levels``, ``late_registration`` and
    ``reentries``; ``registration_open``; ``seconds_left`` in the level now (null if
    none); its ``entrants``, the ``payouts`` by place, its ``tables``; ``results``
    (each entry's place and prize, best first) once it is over."""

    summary: TournamentSummary
    levels: list[TournamentLevel]
    late_registration: int
    reentries: int
    registration_open: bool
    on_break: bool
    seconds_left: float | None
    average_stack: int
    entrants: list[TournamentEntry]
    payouts: list[TournamentPrize]
    tables: list[TournamentTableSeats]
    results: list[TournamentEntry]


class CreatedTournament(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    tournament: TournamentDetail


class EntryMade(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The entries made: their numbers, and the players (a bot's name)."""

    entries: list[int]
    players: list[str]


TOURNAMENT_ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        "/api/v1/tournaments",
        "The tournaments: scheduled and registering, running, finished and cancelled.",
        None,
        TournamentList,
    ),
    Endpoint(
        "POST",
        "/api/v1/tournaments",
        "Create a tournament (operators only). A bad or unknown field is a 400.",
        NewTournament,
        CreatedTournament,
        201,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/tournaments/{tournament_id}",
        "One tournament: its structure, entrants, prize pool, payouts, places and tables. "
        "404 if there is none.",
        None,
        TournamentDetail,
    ),
    Endpoint(
        "DELETE",
        "/api/v1/tournaments/{tournament_id}",
        "Cancel a tournament (operators only): every entry's buy-in and fee go back to "
        "its bank, a hand in play is cancelled and the tables close. 409 if it is over.",
        None,
        Done,
        login=True,
    ),
    Endpoint(
        "POST",
        "/api/v1/tournaments/{tournament_id}/register",
        "Buy in (the buy-in and the fee from your bank): 409 if it is full, closed, "
        "you are in already, or you cannot pay.",
        None,
        EntryMade,
        login=True,
    ),
    Endpoint(
        "POST",
        "/api/v1/tournaments/{tournament_id}/unregister",
        "Take your registration back before the start: the buy-in and the fee come back.",
        None,
        Done,
        login=True,
    ),
    Endpoint(
        "POST",
        "/api/v1/tournaments/{tournament_id}/bots",
        "Register bots (operators only).",
        BotsRequest,
        EntryMade,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/tournaments/{tournament_id}/summary",
        "The tournament's summary as PokerStars writes it (text/plain): the buy-in, the "
        "entries, the prize pool, and each player's place and prize.",
        None,
        None,
    ),
)
