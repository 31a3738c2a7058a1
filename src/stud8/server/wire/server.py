"""What the server sends on a table's websocket, as msgspec Structs that encode themselves.

Each class is the ``d`` of one message type ``t``; :meth:`ServerMessage.encode`
writes the message's text (``{"t", "v", "d"}``, ``v`` being the table's number
when it was made) from its fields, msgspec encoding the Struct itself (its records
too: a legal action, a table's stakes), and :mod:`stud8.server.wire.schemas`
generates its JSON schema from the same fields, so what is sent is what is
documented. Only what holds the engine's values (cards, events, a hand's view: a
snapshot) is made JSON values first (:func:`~stud8.server.wire.codec.to_json`).

>>> AckMessage("c7").encode(41)
'{"t":"ack","v":41,"d":{"id":"c7"}}'
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from stud8.core.actions import LegalAction
from stud8.core.views import HandView
from stud8.server.table.events import (
    AnyEvent,
    HandRefunded,
    MixedGame,
    TimerStarted,
    TournamentInfo,
)
from stud8.server.table.snapshot import OfferSnapshot, SeatSnapshot
from stud8.server.wire.codec import JSON, dumps, envelope, to_json
from stud8.server.wire.events import encode_event
from stud8.server.wire.rest import LobbyNotice, TableInfo

__all__ = [
    "SERVER_MESSAGES",
    "AckMessage",
    "EventMessage",
    "LobbyMessageShown",
    "LoggedEvent",
    "NoticeMessage",
    "PongMessage",
    "RedirectMessage",
    "RejectMessage",
    "ServerMessage",
    "SnapshotMessage",
    "TurnMessage",
    "WelcomeMessage",
    "event_text",
]


class ServerMessage(msgspec.Struct, frozen=True):
    t: ClassVar[str] = ""
    doc: ClassVar[str] = ""
    numbered: ClassVar[bool] = True  # carries ``v``, the table's number

    def data(self) -> Any:
        """The message's ``d``: the Struct itself (msgspec writes it), or JSON values."""
        return self

    def encode(self, v: int | None) -> str:
        """The message's text, ``v`` its number (None: none)."""
        return envelope(self.t, v if self.numbered else None, self.data())


class WelcomeMessage(ServerMessage, frozen=True):
    table_id: str
    player: str | None
    seat: int | None
    table: TableInfo
    t: ClassVar[str] = "welcome"
    numbered: ClassVar[bool] = False
    doc: ClassVar[str] = (
        "First message on a connection: who you are here (player null: an observer), "
        "and the table's rules (table: its game, structure, stakes, buy-in range, "
        "seats, clock, timeout policy and rake, as the lobby lists them)."
    )


class EventMessage(ServerMessage, frozen=True):
    event: AnyEvent
    t: ClassVar[str] = "event"
    doc: ClassVar[str] = (
        "One table event, numbered v (one sequence per table, no gaps), as you may see it: "
        "another player's down card has card null. d.k is the kind; the other fields "
        "are listed under 'Events'."
    )

    def data(self) -> JSON:
        return encode_event(self.event)


def event_text(seq: int, data: JSON) -> str:
    """The text of the ``event`` message numbered ``seq`` whose ``d`` is ``data`` (an
    event already encoded: the edge encodes one once for all who see it alike)."""
    return f'{{"t":"event","v":{seq:d},"d":{dumps(data)}}}'


class LoggedEvent(msgspec.Struct, frozen=True):
    """One event of a snapshot's ``log``: its number ``v`` and the event ``d``, as the
    ``event`` message numbered ``v`` gave it to this viewer."""

    v: int
    d: AnyEvent


class SnapshotMessage(ServerMessage, frozen=True):
    table_id: str
    viewer_seat: int | None
    seats: tuple[SeatSnapshot, ...]
    hand_id: str | None
    hand: HandView | None
    turn: TimerStarted | None
    waiting_list: tuple[str, ...] = ()
    offer: OfferSnapshot | None = None
    tournament: TournamentInfo | None = None
    log: tuple[LoggedEvent, ...] = ()
    log_seats: tuple[tuple[int, str], ...] = ()
    refunded: tuple[HandRefunded, ...] = ()
    mixed: MixedGame | None = None
    t: ClassVar[str] = "snapshot"
    doc: ClassVar[str] = (
        "The table as you may see it now (sent on connect when no last_seen is given or "
        "the missed events are gone); the events after v follow. viewer_seat: your seat "
        "at the table, whether or not a hand is in play (null: not seated); hand.viewer: "
        "your seat in the hand in play (null: not dealt in); hand: the hand as you may "
        "see it (another player's down cards are null until shown; legal_actions only "
        "when it is your turn); turn: the clock of the seat to act; waiting_list: the names on the "
        "waiting list, in order; offer: the seat held for the first of them, "
        "{seat, player, seconds_left}, or null; tournament: at a tournament's table, "
        "the tournament as it stands (the tournament event), else null. A seat's "
        "out_reason says why it sits out (the sit_out event's reason: timed_out, asked, "
        "disconnected, ...) on your own seat only; on every other seat it is empty. "
        "log: the events of the hand on the table (the one in play, or the last one "
        "until the next is dealt: its showdown) from its hand_start, and the table's "
        "since, each {v, d} exactly as its event message gave it to you (another "
        "player's down card null), so a reload shows the hand and its lines as they "
        "were seen live; log_seats: who played each seat of that hand, [seat, player]. "
        "refunded: the hand_refunded events of the hands of this table a restart or a "
        "failover cancelled (the latest few, oldest first): a client whose hand in "
        "play was one of them says it was cancelled. mixed: at a mixed table, its "
        "last mixed_game event (the game of the hand in play, or of the last dealt; "
        "the next game and the hands left before it), else null."
    )

    def data(self) -> JSON:  # the engine's values (cards, a hand's view, events)
        return to_json({f: getattr(self, f) for f in self.__struct_fields__})


class TurnMessage(ServerMessage, frozen=True):
    seat: int
    legal: tuple[LegalAction, ...] = ()
    t: ClassVar[str] = "turn"
    doc: ClassVar[str] = (
        "Your turn: the actions you may take, each {kind, min_to, max_to, adds, all_in}."
    )


class AckMessage(ServerMessage, frozen=True):
    id: str
    t: ClassVar[str] = "ack"
    doc: ClassVar[str] = "Your command was applied (a repeat of its id gets the same answer)."


class RejectMessage(ServerMessage, frozen=True):
    id: str | None
    reason: str
    t: ClassVar[str] = "reject"
    doc: ClassVar[str] = (
        "Your message was refused and changed nothing; id is null when the message had no "
        "readable id (malformed JSON, oversized, ...)."
    )


class PongMessage(ServerMessage, frozen=True):
    id: str
    t: ClassVar[str] = "pong"
    doc: ClassVar[str] = "The answer to a ping."


class NoticeMessage(ServerMessage, frozen=True):
    text: str
    t: ClassVar[str] = "notice"
    doc: ClassVar[str] = (
        "Something the room tells every player at once, to be shown as it is (the room is "
        "closing after this hand)."
    )
    numbered: ClassVar[bool] = False


class LobbyMessageShown(ServerMessage, frozen=True):
    message: LobbyNotice | None
    t: ClassVar[str] = "message"
    doc: ClassVar[str] = (
        "The operator's message to everyone (POST /api/v1/admin/message), shown at the "
        "table until withdrawn: sent after the welcome while one is shown, and to every "
        "viewer when it changes; message null: withdrawn."
    )
    numbered: ClassVar[bool] = False


class RedirectMessage(ServerMessage, frozen=True):
    url: str
    t: ClassVar[str] = "redirect"
    doc: ClassVar[str] = (
        "Sent instead of welcome by a node of the room that does not run this table: "
        "connect to url (the table's websocket at the node that runs it) instead, with "
        "the same token and last_seen; if it cannot be reached, connect here again with "
        "relay=1 in the query to be served here (relayed). The socket closes after it."
    )
    numbered: ClassVar[bool] = False


SERVER_MESSAGES: tuple[type[ServerMessage], ...] = (
    WelcomeMessage,
    SnapshotMessage,
    EventMessage,
    TurnMessage,
    AckMessage,
    RejectMessage,
    PongMessage,
    NoticeMessage,
    LobbyMessageShown,
    RedirectMessage,
)
