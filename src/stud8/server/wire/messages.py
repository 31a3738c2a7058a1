"""The messages of the websocket protocol, as typed dataclasses.

A client's commands (:class:`ClientMessage`) and what the server sends
(:class:`ServerMessage`): each class is the ``d`` of one message type ``t``, its
fields the JSON fields. :mod:`stud8.server.wire.schemas` parses the commands against
these classes and generates the JSON schemas of every message from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from stud8.server.wire.rest import TableInfo

JSON = Any

# ------------------------------------------------------------------ client messages


@dataclass(frozen=True, slots=True)
class ClientMessage:
    """Base of the commands a client sends; ``id`` is the client's command id."""

    t: ClassVar[str] = ""
    doc: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class ActMessage(ClientMessage):
    kind: str
    id: str
    amount: int | None = None
    t: ClassVar[str] = "act"
    doc: ClassVar[str] = (
        "Act in the hand: kind is fold, check, call, bring_in, complete, bet or raise; "
        "amount is the 'to' amount (your total bet on this street) for complete, bet and "
        "raise, and absent or null otherwise."
    )


@dataclass(frozen=True, slots=True)
class SitMessage(ClientMessage):
    seat: int
    amount: int
    id: str
    t: ClassVar[str] = "sit"
    doc: ClassVar[str] = "Sit in a seat with a buy-in from your account (within the table's range)."


@dataclass(frozen=True, slots=True)
class TopUpMessage(ClientMessage):
    amount: int
    id: str
    t: ClassVar[str] = "top_up"
    doc: ClassVar[str] = "Add chips from your account, between hands only."


@dataclass(frozen=True, slots=True)
class SitOutMessage(ClientMessage):
    id: str
    t: ClassVar[str] = "sit_out"
    doc: ClassVar[str] = "Be dealt out from the next hand on."


@dataclass(frozen=True, slots=True)
class ComeBackMessage(ClientMessage):
    id: str
    t: ClassVar[str] = "come_back"
    doc: ClassVar[str] = "Be dealt in again."


@dataclass(frozen=True, slots=True)
class LeaveMessage(ClientMessage):
    id: str
    t: ClassVar[str] = "leave"
    doc: ClassVar[str] = (
        "Leave the table: between hands at once, else at the end of the hand; your chips "
        "go back to your account."
    )


@dataclass(frozen=True, slots=True)
class PingMessage(ClientMessage):
    id: str
    t: ClassVar[str] = "ping"
    doc: ClassVar[str] = "Answered by a pong with the same id (and the table's last number)."


@dataclass(frozen=True, slots=True)
class JoinWaitlistMessage(ClientMessage):
    id: str
    t: ClassVar[str] = "join_waitlist"
    doc: ClassVar[str] = (
        "Join the table's waiting list. Refused if you are seated here, already listed, "
        "or a seat is free for you to take now (sit instead)."
    )


@dataclass(frozen=True, slots=True)
class LeaveWaitlistMessage(ClientMessage):
    id: str
    t: ClassVar[str] = "leave_waitlist"
    doc: ClassVar[str] = "Leave the waiting list (a seat held for you is offered to the next)."


CLIENT_MESSAGES: tuple[type[ClientMessage], ...] = (
    ActMessage,
    SitMessage,
    TopUpMessage,
    SitOutMessage,
    ComeBackMessage,
    LeaveMessage,
    JoinWaitlistMessage,
    LeaveWaitlistMessage,
    PingMessage,
)


# ------------------------------------------------------------------ server messages


@dataclass(frozen=True, slots=True)
class ServerMessage:
    t: ClassVar[str] = ""
    doc: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class WelcomeMessage(ServerMessage):
    table_id: str
    player: str | None
    seat: int | None
    table: TableInfo
    t: ClassVar[str] = "welcome"
    doc: ClassVar[str] = (
        "First message on a connection: who you are here (player null: an observer), "
        "and the table's rules (table: its game, structure, stakes, buy-in range, "
        "seats, clock, timeout policy and rake, as the lobby lists them)."
    )


@dataclass(frozen=True, slots=True)
class EventMessage(ServerMessage):
    k: str
    t: ClassVar[str] = "event"
    doc: ClassVar[str] = (
        "One table event, numbered v (one sequence per table, no gaps), as you may see it: "
        "another player's down card has card null. d.k is the kind; the other fields "
        "are listed under 'Events'."
    )


@dataclass(frozen=True, slots=True)
class SnapshotMessage(ServerMessage):
    table_id: str
    viewer_seat: int | None
    seats: list[dict[str, JSON]]
    hand_id: str | None
    hand: dict[str, JSON] | None
    turn: dict[str, JSON] | None
    waiting_list: list[str]
    offer: dict[str, JSON] | None
    t: ClassVar[str] = "snapshot"
    doc: ClassVar[str] = (
        "The table as you may see it now (sent on connect when no last_seen is given or "
        "the missed events are gone); the events after v follow. waiting_list: the names "
        "on the waiting list, in order; offer: the seat held for the first of them, "
        "{seat, player, seconds_left}, or null."
    )


@dataclass(frozen=True, slots=True)
class TurnMessage(ServerMessage):
    seat: int
    legal: list[dict[str, JSON]]
    t: ClassVar[str] = "turn"
    doc: ClassVar[str] = (
        "Your turn: the actions you may take, each {kind, min_to, max_to, adds, all_in}."
    )


@dataclass(frozen=True, slots=True)
class AckMessage(ServerMessage):
    id: str
    t: ClassVar[str] = "ack"
    doc: ClassVar[str] = "Your command was applied (a repeat of its id gets the same answer)."


@dataclass(frozen=True, slots=True)
class RejectMessage(ServerMessage):
    id: str | None
    reason: str
    t: ClassVar[str] = "reject"
    doc: ClassVar[str] = (
        "Your message was refused and changed nothing; id is null when the message had no "
        "readable id (malformed JSON, oversized, ...)."
    )


@dataclass(frozen=True, slots=True)
class PongMessage(ServerMessage):
    id: str
    t: ClassVar[str] = "pong"
    doc: ClassVar[str] = "The answer to a ping."


SERVER_MESSAGES: tuple[type[ServerMessage], ...] = (
    WelcomeMessage,
    SnapshotMessage,
    EventMessage,
    TurnMessage,
    AckMessage,
    RejectMessage,
    PongMessage,
)
