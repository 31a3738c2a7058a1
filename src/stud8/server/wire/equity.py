"""The hand replayer's equity: each live hand's chances at the end of each street, from
the cards its viewer may see (``GET /api/v1/hands/{hand_id}/equity``, ``POST
/api/v1/replays/equity``).

A :class:`ReplayEquity` has one :class:`StreetEquity` per street dealt: the hands
still live when the street's betting ended, each with his share of the pot and his
chances (a :class:`SeatEquity`). It is worked out from a :class:`~.replay.Replay`,
the hand as its viewer replays it, never from more: the cards he cannot see (an
opponent's hidden down cards, a folded hand's he did not see) are random cards of
the rest of the deck; a folded hand's up cards are out of it. ``method`` says how:
``exact`` (every way the cards to come can fall, ``count`` of them) or ``sampled``
(``count`` random deals, seeded by the position: the same hand shows the same
figures every time).
"""

from __future__ import annotations

from enum import Enum

import msgspec

from stud8.server.wire.limits import MAX_REPLAY_BYTES
from stud8.server.wire.replay import Replay
from stud8.server.wire.rest import Endpoint

__all__ = [
    "EQUITY_ENDPOINTS",
    "EquityMethod",
    "ReplayEquity",
    "SeatEquity",
    "StreetEquity",
]


class EquityMethod(Enum):
    """How a street's figures were found."""

    EXACT = "exact"  # every way the unseen cards can fall, counted
    SAMPLED = "sampled"  # random deals of them (Monte Carlo), seeded by the position


class SeatEquity(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A live hand at a street's end: ``seat``; ``cards``, his cards as the viewer
    knows them in dealing order (``??`` for one he cannot see); ``share``, his expected
    share of the pot (0 to 1); ``win``, his chance to win (alone or tied) the high in
    Stud Hi/Lo and Seven Card Stud, the ace-to-five low in Razz; in Stud Hi/Lo only
    (else null) ``low``, his chance to win (alone or tied) the 8-or-better low, and
    ``scoop``, to take the whole pot alone."""

    seat: int
    cards: str
    share: float
    win: float
    low: float | None
    scoop: float | None


class StreetEquity(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The live hands when ``street``'s betting ended (3 to 7), by seat; ``method``
    and ``count`` (the outcomes counted, or the random deals); ``no_low``: how often
    nobody has an 8-or-better low (Stud Hi/Lo; null in the other games)."""

    street: int
    method: EquityMethod
    count: int
    seats: list[SeatEquity]
    no_low: float | None


class ReplayEquity(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A hand's equity street by street, as its viewer may know it: ``hand_id``, the
    ``game``, ``viewer`` and ``everything`` as in its replay, and ``streets`` in order
    (the streets dealt)."""

    hand_id: str
    game: str
    viewer: int | None
    everything: bool
    streets: list[StreetEquity]


EQUITY_ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        "/api/v1/hands/{hand_id}/equity",
        "A stored hand's equity street by street, from the cards its viewer may see, with "
        "the rights of GET /api/v1/hands/{hand_id}/replay (an operator every card, a "
        "player of the hand his own and the hands shown, anyone else the hands shown); "
        "404 as there. 429 (Retry-After) past the hands an address may ask the equity of "
        "(the room's equity_requests in equity_period, both endpoints together). 503 if "
        "this server has no equity engine (numpy and numba).",
        None,
        ReplayEquity,
    ),
    Endpoint(
        "POST",
        "/api/v1/replays/equity",
        "The equity street by street of a hand read from a file: the body is one of the "
        "hands POST /api/v1/replays answered (a Replay), and only its cards are used "
        f"(at most {MAX_REPLAY_BYTES} bytes). 400 if it is not a hand the engine can "
        "count; 429 and 503 as above.",
        Replay,
        ReplayEquity,
        login=True,
    ),
)
