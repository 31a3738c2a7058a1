"""The hand replayer's bodies: a hand as its viewer may replay it, and their endpoints.

A :class:`Replay` is one finished hand told as the table told it: its players and
their starting stacks, then every event of the hand exactly as the table's websocket
sends it (``#/events``), in order, so the browser steps through them with the code
that draws the table. It carries only the cards its viewer may see (decided by
:func:`replay_of`, on the server): a card dealt face down is ``null`` unless it is the
viewer's own (or the viewer may see every card); the cards shown at the showdown are
in its ``show`` events, as at the table. The deck is never sent.

A stored hand is replayed by ``GET /api/v1/hands/{hand_id}/replay`` (a shareable
link: a player of the hand sees his own down cards, anyone else only what was shown,
an operator every card); a hand history file (PokerStars text, another site's that
``stud8 hh`` reads, PHH, stud8's JSON lines) by ``POST /api/v1/replays``, which reads
it, stores nothing, and answers :class:`Replays`.

>>> from stud8.core import BringIn, Deck, Fold, Hand, TableRules
>>> from stud8.formats.record import HandRecord
>>> hand = Hand.start(rules=TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8),
...                   stacks={1: 100, 2: 100}, deck=Deck.seeded(1), hand_id="42")
>>> _ = hand.apply(BringIn()); _ = hand.apply(Fold())
>>> record = HandRecord.from_hand(hand, names={1: "ann", 2: "bob"}, table="Dawn")
>>> seen = replay_of(record, viewer=1)
>>> downs = [e for e in seen.events if e["k"] == "deal" and not e["face_up"]]
>>> [(e["seat"], e["card"] is not None) for e in downs]
[(1, True), (2, False), (1, True), (2, False)]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from stud8.core.events import CardDealt
from stud8.formats.pokerstars.write import hand_number
from stud8.formats.record import HandRecord
from stud8.server.wire.events import encode_event
from stud8.server.wire.limits import MAX_REPLAY_BYTES, MAX_REPLAY_HANDS
from stud8.server.wire.rest import Endpoint, Stakes

__all__ = [
    "REPLAY_ENDPOINTS",
    "HandEntry",
    "HandList",
    "HandListQuery",
    "Replay",
    "ReplaySeat",
    "ReplayShow",
    "Replays",
    "replay_of",
]


class ReplaySeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A player dealt into the hand: his seat, name and stack at the start."""

    seat: int
    player: str
    stack: int


class ReplayShow(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Cards a player showed when he need not have (the winner of an uncontested pot,
    or a player who showed after mucking): public, whoever replays the hand."""

    seat: int
    cards: list[str]


class Replay(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One hand, as its viewer may replay it: ``hand_id``, ``number`` (the hand's
    number in PokerStars text), ``table``, ``started_at`` (ISO 8601, or null), the
    game, betting ``structure``, ``stakes`` and ``max_seats`` of its table,
    ``currency`` (``""``: play chips; else a chip is a cent of it); ``viewer``: the
    seat whose down cards it shows (null: none of them but what was shown), and
    ``everything``: every card known is shown; ``players`` at the start; ``events``:
    the hand's events in order, each as the table's websocket sends it (see
    ``#/events``), hidden down cards ``null``; ``final_stacks`` ``[seat, chips]``;
    ``shows``: the voluntary shows after the hand (any site's), each ``{seat, cards}``,
    the cards by name in the order shown (a show may name only some of them)."""

    hand_id: str
    number: str
    table: str
    started_at: str | None
    game: str
    structure: str
    stakes: Stakes
    max_seats: int
    timeout_policy: str
    currency: str
    viewer: int | None
    everything: bool
    players: list[ReplaySeat]
    events: list[dict[str, Any]]
    final_stacks: list[list[int]]
    shows: list[ReplayShow] = msgspec.field(default_factory=list)


class Replays(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The hands of a file: ``format`` (the reader's name: ``pokerstars``, ``phh``,
    ``json``, a site's), ``hands`` (at most ``MAX_REPLAY_HANDS``), ``problems``
    (one line per hand that could not be replayed, saying where and why) and
    ``more``: the file holds more hands than were read."""

    format: str
    hands: list[Replay]
    problems: list[str]
    more: bool


class HandListQuery(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The query of ``GET /api/v1/hands/list``: as ``GET /api/v1/hands``."""

    limit: int | None = None
    player: str | None = None
    table: str | None = None


class HandEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A stored hand: its id (for ``/api/v1/hands/{hand_id}/replay``), its number in
    PokerStars text, its table, and whether a replay of it exists (a hand cancelled
    by a restart has none)."""

    hand_id: str
    number: str
    table: str
    replayable: bool


class HandList(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    hands: list[HandEntry]


def replay_of(
    record: HandRecord,
    *,
    viewer: int | None = None,
    everything: bool = False,
    unknown: Callable[[CardDealt], bool] | None = None,
) -> Replay:
    """The hand as ``viewer`` (a seat, or None) may see it; ``everything``: every
    down card. ``unknown`` says which cards dealt the source does not name (a
    file's cards nobody saw are filled in to replay the hand: those stay hidden,
    up or down)."""
    events: list[dict[str, Any]] = []
    for event in record.events:
        data = encode_event(event)
        if type(event) is CardDealt and event.card is not None:
            mine = event.face_up or everything or event.seat == viewer
            if not mine or (unknown is not None and unknown(event)):
                data["card"] = None
        events.append(data)
    rules = record.rules
    seats = max([rules.max_seats, *(s.seat for s in record.seats)])
    return Replay(
        hand_id=record.hand_id,
        number=str(hand_number(record.hand_id)),
        table=record.table,
        started_at=record.started_at.isoformat() if record.started_at is not None else None,
        game=rules.game.value,
        structure=rules.structure.value,
        stakes=Stakes(rules.ante, rules.bring_in, rules.small_bet, rules.big_bet),
        max_seats=seats,
        timeout_policy=rules.timeout_policy.value,
        currency=record.currency,
        viewer=viewer,
        everything=everything,
        players=[ReplaySeat(s.seat, s.name, s.stack) for s in record.seats],
        events=events,
        final_stacks=[[seat, chips] for seat, chips in record.final_stacks],
        shows=[ReplayShow(v.seat, [str(c) for c in v.cards]) for v in record.shows],
    )


REPLAY_ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        "/api/v1/hands/list",
        "The stored hands (the same hands as GET /api/v1/hands, latest first): their "
        "ids, to replay them.",
        HandListQuery,
        HandList,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/hands/{hand_id}/replay",
        "A stored hand to replay, with the cards its viewer may see (the bearer token is "
        "optional: a link to a hand is shareable): a player of the hand sees his own down "
        "cards, anyone else only those shown at the showdown, an operator every card. 404 "
        "if there is no such hand, or it was cancelled by a restart (no record).",
        None,
        Replay,
    ),
    Endpoint(
        "POST",
        "/api/v1/replays",
        "Read a hand history file to replay it (the body is the file, as it is: "
        f"PokerStars text, another site's that stud8 hh reads, PHH or stud8's JSON lines, "
        f"in UTF-8, UTF-16 or Windows-1252; at most {MAX_REPLAY_BYTES} bytes, 413 if "
        f"more). Nothing is stored. At most {MAX_REPLAY_HANDS} hands are read. 400 with "
        "the reason if it is not a hand history stud8 reads, or no hand of it replays; "
        "429 (Retry-After) past the limit of files an address may send.",
        None,
        Replays,
        login=True,
    ),
)
