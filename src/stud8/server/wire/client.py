"""The commands a client sends, as msgspec Structs, and their parsing.

Each class is the ``d`` of one message type ``t`` (its fields are the JSON fields,
its docstring-like ``doc`` what ``docs/protocol.md`` says of it).
:func:`parse_command` reads a client's text **once**, at the edge, with msgspec (the
envelope, then ``d`` straight into its Struct, checked in C): malformed JSON,
an unknown type, a missing, extra or mistyped field, an id too long, an unknown
action or an amount where none goes raise :class:`~stud8.server.wire.codec.ProtocolError`
(its ``reason`` is sent back in a ``reject``) and nothing else happens. A parsed
message turns into the table's command (:meth:`ClientMessage.command`); an
``act`` carries the engine's own :class:`~stud8.core.actions.Action`, so the
table never sees a kind as a string.

>>> parse_command('{"t": "act", "d": {"kind": "call", "id": "c1"}}')
ActMessage(kind=ActionKind.CALL, id='c1', amount=None)
>>> parse_command('{"t": "act", "d": {"kind": "call"}}')
Traceback (most recent call last):
...
stud8.server.wire.codec.ProtocolError: act: missing field 'id'
>>> parse_command('{"t": "act", "d": {"kind": "check", "amount": 4, "id": "c2"}}')
Traceback (most recent call last):
...
stud8.server.wire.codec.ProtocolError: act: not an action: 'check' with amount 4 (...)
>>> parse_command('{"t": "act", "d": {"kind": "raise", "amount": 8, "id": "c3"}}').command("ann")
Act(player='ann', command_id='c3', action=Raise(to=8))
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

import msgspec

from stud8.core.actions import Action, ActionKind, make_action
from stud8.server.table.commands import (
    Act,
    Chat,
    ComeBack,
    Command,
    JoinWaitlist,
    Leave,
    LeaveWaitlist,
    Sit,
    SitOut,
    TopUp,
)
from stud8.server.wire.codec import ProtocolError, refusal, shown
from stud8.server.wire.limits import (
    CHAT_CHARS,
    MAX_ID_CHARS,
    MAX_JSON_DEPTH,
    MAX_MESSAGE_BYTES,
)
from stud8.server.wire.text import TextRefused, lone_surrogate, may_hold_surrogate, typed_text

__all__ = [
    "CLIENT_MESSAGES",
    "ActMessage",
    "ChatMessage",
    "ClientMessage",
    "ComeBackMessage",
    "JoinWaitlistMessage",
    "LeaveMessage",
    "LeaveWaitlistMessage",
    "PingMessage",
    "SitMessage",
    "SitOutMessage",
    "TopUpMessage",
    "parse_command",
]

# ------------------------------------------------------------------ client messages


class ClientMessage(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Base of the commands a client sends; ``id`` is the client's command id."""

    t: ClassVar[str] = ""
    doc: ClassVar[str] = ""

    def command(self, player: str) -> Command:
        """The table command this message asks for, as ``player``."""
        raise ProtocolError(f"{self.t} is not a table command")


# The kinds whose action has a "to" amount (complete, bet, raise): the others take none.
_SIZED = frozenset(k for k in ActionKind if k.value in ("complete", "bet", "raise"))


class ActMessage(ClientMessage, frozen=True, forbid_unknown_fields=True):
    kind: ActionKind
    id: str
    amount: int | None = None
    t: ClassVar[str] = "act"
    doc: ClassVar[str] = (
        "Act in the hand: kind is fold, check, call, bring_in, complete, bet or raise; "
        "amount is the 'to' amount (your total bet on this street) for complete, bet and "
        "raise, and absent or null otherwise."
    )

    def __post_init__(self) -> None:
        # msgspec has read the kind (an ActionKind); an amount where none goes, or
        # none (or none above 0) where one does, is refused here
        if self.kind in _SIZED:
            if self.amount is None:
                raise self.refused("needs its 'to' amount")
            if self.amount <= 0:
                raise self.refused("a 'to' amount is more than 0")
        elif self.amount is not None:
            raise self.refused(f"{self.kind.value} takes no amount, got {self.amount!r}")

    def refused(self, why: str) -> ProtocolError:
        amount = "" if self.amount is None else f" with amount {self.amount}"
        return ProtocolError(f"act: not an action: {shown(self.kind.value)}{amount} ({why})")

    def action(self) -> Action:
        """The engine's action (checked when the message is made)."""
        return make_action(self.kind, self.amount)

    def command(self, player: str) -> Act:
        return Act(player=player, action=make_action(self.kind, self.amount), command_id=self.id)


class SitMessage(ClientMessage, frozen=True, forbid_unknown_fields=True):
    seat: int
    amount: int
    id: str
    t: ClassVar[str] = "sit"
    doc: ClassVar[str] = "Sit in a seat with a buy-in from your account (within the table's range)."

    def command(self, player: str) -> Sit:
        return Sit(player=player, seat=self.seat, amount=self.amount, command_id=self.id)


class TopUpMessage(ClientMessage, frozen=True, forbid_unknown_fields=True):
    amount: int
    id: str
    t: ClassVar[str] = "top_up"
    doc: ClassVar[str] = "Add chips from your account, between hands only."

    def command(self, player: str) -> TopUp:
        return TopUp(player=player, amount=self.amount, command_id=self.id)


class SitOutMessage(ClientMessage, frozen=True, forbid_unknown_fields=True):
    id: str
    t: ClassVar[str] = "sit_out"
    doc: ClassVar[str] = "Be dealt out from the next hand on."

    def command(self, player: str) -> SitOut:
        return SitOut(player=player, command_id=self.id)


class ComeBackMessage(ClientMessage, frozen=True, forbid_unknown_fields=True):
    id: str
    t: ClassVar[str] = "come_back"
    doc: ClassVar[str] = "Be dealt in again."

    def command(self, player: str) -> ComeBack:
        return ComeBack(player=player, command_id=self.id)


class LeaveMessage(ClientMessage, frozen=True, forbid_unknown_fields=True):
    id: str
    t: ClassVar[str] = "leave"
    doc: ClassVar[str] = (
        "Leave the table: between hands at once, else at the end of the hand; your chips "
        "go back to your account."
    )

    def command(self, player: str) -> Leave:
        return Leave(player=player, command_id=self.id)


class PingMessage(ClientMessage, frozen=True, forbid_unknown_fields=True):
    id: str
    t: ClassVar[str] = "ping"
    doc: ClassVar[str] = "Answered by a pong with the same id (and the table's last number)."


class JoinWaitlistMessage(ClientMessage, frozen=True, forbid_unknown_fields=True):
    id: str
    t: ClassVar[str] = "join_waitlist"
    doc: ClassVar[str] = (
        "Join the table's waiting list. Refused if you are seated here, already listed, "
        "or a seat is free for you to take now (sit instead)."
    )

    def command(self, player: str) -> JoinWaitlist:
        return JoinWaitlist(player=player, command_id=self.id)


class LeaveWaitlistMessage(ClientMessage, frozen=True, forbid_unknown_fields=True):
    id: str
    t: ClassVar[str] = "leave_waitlist"
    doc: ClassVar[str] = "Leave the waiting list (a seat held for you is offered to the next)."

    def command(self, player: str) -> LeaveWaitlist:
        return LeaveWaitlist(player=player, command_id=self.id)


class ChatMessage(ClientMessage, frozen=True, forbid_unknown_fields=True):
    text: str
    id: str
    t: ClassVar[str] = "chat"
    doc: ClassVar[str] = (
        "Say something at the table: text is 1 to CHAT_CHARS characters once its outer "
        "spaces are trimmed, one line, no control characters. It is text, never markup. "
        "Seated players may chat; observers only at a table that allows it "
        "(observer_chat). At most CHAT_RATE messages per player; a silenced player's "
        "message is refused. Said: a chat event."
    )

    def __post_init__(self) -> None:
        try:
            typed_text(self.text, "chat: text", CHAT_CHARS)  # the one rule (wire/text.py)
        except TextRefused as exc:
            raise ProtocolError(str(exc)) from None

    def command(self, player: str) -> Chat:
        return Chat(player=player, text=self.text.strip(), command_id=self.id)


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
    ChatMessage,
)


_BY_TYPE: dict[str, type[ClientMessage]] = {cls.t: cls for cls in CLIENT_MESSAGES}


def nesting_over_limit(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> int | None:
    """How deeply the arrays and objects of a JSON text nest, if deeper than
    ``limit`` (what is in its strings not counted); else None. Found without parsing
    it: a text with at most ``limit`` brackets (every real command) is let through at
    C speed, and only one with more is walked.

    >>> nesting_over_limit('{"t": "act", "d": {"kind": "call", "id": "c7"}}') is None
    True
    >>> nesting_over_limit("[" * 990 + "]" * 990)
    990
    >>> nesting_over_limit('["' + "[" * 40 + '"]') is None
    True
    """
    if isinstance(text, str):
        if text.count("[") + text.count("{") <= limit:
            return None
        text = text.encode()
    data = text
    if data.count(b"[") + data.count(b"{") <= limit:
        return None
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # a backslash
                escaped = True
            elif byte == 0x22:  # a quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest if deepest > limit else None


class _Envelope(msgspec.Struct, forbid_unknown_fields=True):
    """A client message as first read: its type, and its ``d`` left unread."""

    t: Any = None
    d: msgspec.Raw = msgspec.Raw(b"null")
    v: Any = None


_ENVELOPE = msgspec.json.Decoder(_Envelope)
_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {
    cls.t: msgspec.json.Decoder(cls) for cls in CLIENT_MESSAGES
}
_ANY = msgspec.json.Decoder()
_UNKNOWN_ENVELOPE = re.compile(r"Object contains unknown field `(.*)`$")


def _lone_surrogate(text: str | bytes) -> str | None:
    """The lone surrogate that made msgspec refuse ``text``, if that was why."""
    if not may_hold_surrogate(text):
        return None
    try:
        return lone_surrogate(json.loads(text))
    except (ValueError, RecursionError):
        return None


def _id_of(d: msgspec.Raw | bytes) -> str | None:
    """The command id of ``d``, if it has one that can be sent back (its error path)."""
    try:
        data = _ANY.decode(d)
    except msgspec.DecodeError:
        return None
    raw_id = data.get("id") if isinstance(data, dict) else None
    return raw_id if isinstance(raw_id, str) and len(raw_id) <= MAX_ID_CHARS else None


def parse_command(text: str | bytes) -> ClientMessage:
    """The command a client message carries; ProtocolError says why not (see the module)."""
    size = len(text.encode() if isinstance(text, str) else text)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too large: {size} bytes (the limit is {MAX_MESSAGE_BYTES})")
    depth = nesting_over_limit(text)
    if depth is not None:
        raise ProtocolError(f"nested too deeply: {depth} levels (the limit is {MAX_JSON_DEPTH})")
    try:
        head = _ENVELOPE.decode(text)
    except msgspec.ValidationError as exc:
        extra = _UNKNOWN_ENVELOPE.search(str(exc))
        if extra is None:
            raise ProtocolError('a message must be a JSON object {"t": type, "d": data}') from None
        whole = _ANY.decode(text)
        command_id = _id_of(msgspec.json.encode(whole.get("d")))
        raise ProtocolError(f"unknown envelope fields ['{extra.group(1)}']", command_id) from None
    except msgspec.DecodeError as exc:
        bad = _lone_surrogate(text)
        if bad is not None:  # valid JSON, but no text: msgspec refuses it (as "truncated")
            raise ProtocolError(
                f"malformed JSON: a lone surrogate (U+{ord(bad):04X}) is no text"
            ) from None
        raise ProtocolError(f"malformed JSON: {exc}") from None
    kind = head.t
    decoder = _DECODERS.get(kind) if isinstance(kind, str) else None
    if decoder is None:
        command_id = _id_of(head.d)
        if not isinstance(kind, str):
            raise ProtocolError("the message type t must be a string", command_id)
        known = ", ".join(sorted(_DECODERS))
        raise ProtocolError(f"unknown message type {kind!r} (known: {known})", command_id)
    try:
        message: ClientMessage = decoder.decode(head.d)
    except msgspec.ValidationError as exc:  # a message's own check too (its __post_init__)
        data = _ANY.decode(head.d)
        if not isinstance(data, dict):
            raise ProtocolError(f"{kind}: d must be a JSON object", None) from None
        reason = refusal(kind, exc, data)
        if str(exc).startswith("Invalid enum value"):  # the one enum: an act's kind
            kinds = ", ".join(k.value for k in ActionKind)
            reason = f"act: not an action: {shown(data.get('kind'))} (one of {kinds})"
        raise ProtocolError(reason, _id_of(head.d)) from None
    given: str = getattr(message, "id")  # noqa: B009 (every command has one)
    if not 1 <= len(given) <= MAX_ID_CHARS:
        raise ProtocolError(f"{kind}: id must be 1 to {MAX_ID_CHARS} characters", None)
    return message
