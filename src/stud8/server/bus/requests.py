"""What one node asks another over Redis, and its answer, as typed messages.

A request goes to ``stud8:cmd:<node>`` (the node that runs the table, or the
tournament), its answer to ``stud8:rep:<asker>``; each is a line of JSON, its
header, then its body as :mod:`stud8.server.bus.codec` writes it (a command, a
reply, a catch-up) or empty::

    {"op":"send","id":7,"from":"n1","table":"t1"}\\n[5,"act","ann","c7",["raise",8]]
    {"id":7,"table":"t1"}\\n[5,"reply",true,"",41]
    {"id":8,"table":"t1","error":"moved"}\\n
    {"id":9,"table":"t1","working":true}\\n

A request that takes its table a while (a sit waits for the books) is answered
``working`` every half of the asker's wait until its answer goes: the node that
runs the table is alive and on it, so the asker waits on (a dead or moving owner
says nothing, and the asker's wait runs out as before).

The header is a msgspec Struct, tagged by ``op`` (:class:`SendRequest`,
:class:`CatchUpRequest`, :class:`CloseRequest`, :class:`TournamentRequest`), read
and checked in one pass; an answer's ``error`` is a :class:`Refusal`. Anything
else is refused with :class:`BusCodecError` (the bus counts it as lost).

>>> data = pack(CatchUpRequest(id=8, sender="n1", table="t1", last_seen=40))
>>> data
b'{"op":"catch_up","id":8,"from":"n1","table":"t1","last_seen":40}\\n'
>>> read_request(data)
(CatchUpRequest(id=8, sender='n1', table='t1', last_seen=40), b'')
>>> read_answer(pack(Answer(8, "t1", Refusal.MOVED)))
(Answer(id=8, table='t1', error=<Refusal.MOVED: 'moved'>, working=False), b'')
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from stud8.server.bus.fields import BusCodecError

__all__ = [
    "Answer",
    "CatchUpRequest",
    "CloseRequest",
    "Pending",
    "Refusal",
    "RemoteHandlers",
    "Request",
    "SendRequest",
    "TournamentRequest",
    "pack",
    "read_answer",
    "read_request",
]


class Refusal(enum.Enum):
    """Why a node did not do what it was asked."""

    MOVED = "moved"  # the table (or tournament) does not run here (any more)
    CLOSED = "closed"  # the table is closed


class _Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: int  # the asker's number for it: its answer carries it back
    sender: str = msgspec.field(name="from")  # the asking node
    table: str = ""  # the table asked about ("" for a tournament's request)


class SendRequest(_Header, frozen=True, tag_field="op", tag="send"):
    """Hand the table a command (the body); the answer's body is its reply."""


class CatchUpRequest(_Header, frozen=True, tag_field="op", tag="catch_up"):
    """The table's catch-up after event ``last_seen`` (None: a snapshot)."""

    last_seen: int | None = None


class CloseRequest(_Header, frozen=True, tag_field="op", tag="close"):
    """Close the table for good (an operator asked another node's lobby)."""


class TournamentRequest(_Header, frozen=True, tag_field="op", tag="tournament"):
    """A request about a tournament this node runs (the body); its answer the body."""


Request = SendRequest | CatchUpRequest | CloseRequest | TournamentRequest


class Answer(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The answer to request ``id`` about ``table``: done (its body), refused, or
    not yet (``working``: the table has it, wait on; its answer follows)."""

    id: int
    table: str = ""
    error: Refusal | None = None
    working: bool = False


@dataclass(frozen=True, slots=True)
class RemoteHandlers:
    """What this node does when another asks (given to :meth:`RedisBus.start`)."""

    close: Callable[[str], Awaitable[None]]  # close a table of this node for good
    wake: Callable[[], None]  # a node says a table wants an owner (a new table)
    # answer a request about a tournament this node runs (None: it runs none)
    tournament: Callable[[bytes], Awaitable[bytes]] | None = None


@dataclass(frozen=True, slots=True)
class Pending:
    """A request sent, waiting for its answer."""

    request: Request
    future: asyncio.Future[Any]
    decode: Callable[[bytes], Any]  # its answer's body
    sent_at: float = 0.0  # (the event loop's clock: the round trip, for the metrics)
    wait_on: Callable[[], None] = lambda: None  # told it is being worked on: wait again


@dataclass(slots=True)
class BusCounts:
    """What a node's bus carried, for the operator (``GET /metrics``): the messages it
    published and read, its requests to other nodes answered (and the seconds they
    took there and back: the bus's lag) and those not answered in time."""

    published: int = 0
    unpublished: int = 0  # events of its tables no other node heard (bus/own.py)
    received: int = 0
    answered: int = 0
    answer_seconds: float = 0.0
    unanswered: int = 0


_encode: Callable[[Any], bytes] = msgspec.json.Encoder().encode
_requests = msgspec.json.Decoder(Request)
_answers = msgspec.json.Decoder(Answer)


def pack(header: Request | Answer, body: bytes = b"") -> bytes:
    """The message: its header's line, then its body."""
    return _encode(header) + b"\n" + body


def read_request(data: bytes) -> tuple[Request, bytes]:
    """A request and its body; BusCodecError if it is none."""
    line, _, body = data.partition(b"\n")
    try:
        request: Request = _requests.decode(line)
    except msgspec.DecodeError as exc:  # a ValidationError too
        raise BusCodecError(f"not a request: {exc}", "request") from None
    return request, body


def read_answer(data: bytes) -> tuple[Answer, bytes]:
    """An answer and its body; BusCodecError if it is none."""
    line, _, body = data.partition(b"\n")
    try:
        answer: Answer = _answers.decode(line)
    except msgspec.DecodeError as exc:
        raise BusCodecError(f"not an answer: {exc}", "answer") from None
    return answer, body
