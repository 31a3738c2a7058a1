"""What the room asks of a table: its commands, and the table's :class:`Reply`.

Each command is a frozen record of plain values (an action is the core's
:class:`~stud8.core.actions.Action`), so it can cross the bus
(:mod:`stud8.server.bus`) to the table's owner wherever it runs; the edge makes
them from the client's messages, already checked (:mod:`stud8.server.wire`). A
``command_id`` seen before from the same player is not applied again: the table
answers it with its first reply, across reconnections.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import NamedTuple

from stud8.core.actions import Action
from stud8.server.table.events import LeaveReason

# ---------------------------------------------------------------- commands

# The player of a viewer not logged in, in his Connect and Disconnect: counted among
# the table's observers (no account is named so: a name has 1 character or more).
ANONYMOUS = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Command:
    player: str
    command_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Sit(Command):
    seat: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatBot(Command):
    """Seat a bot (``player`` is its name); its chips come from its bank account."""

    seat: int
    amount: int
    policy: str = "rules"
    seed: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TopUp(Command):
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SitOut(Command):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class ComeBack(Command):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class Leave(Command):
    """Stand up (at the end of the hand, if he is in one). ``reason`` is the
    ``leave`` event's: the room sets it (a table closing); a player's is ``left``."""

    reason: LeaveReason = LeaveReason.LEFT


@dataclass(frozen=True, slots=True, kw_only=True)
class Act(Command):
    action: Action


@dataclass(frozen=True, slots=True, kw_only=True)
class AutoTopUp(Command):
    """``player``'s account setting "auto top-up" is now ``on`` (he changed it): at
    the end of each hand the table tops his seat up to the buy-in he chose there,
    from his bank (:mod:`stud8.server.table.seating`)."""

    on: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Connect(Command):
    """One more connection of ``player`` to the table (a websocket opened; ``ANONYMOUS``:
    a viewer not logged in): a seated player who was disconnected is back (RULES.md
    section 6); one not seated is one more observer. ``auto_top_up``: his account's
    auto top-up setting as the connection read it."""

    auto_top_up: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Disconnect(Command):
    """One connection of ``player`` closed: when it was his last, a seated player
    is disconnected (dealt out between hands; the clock acts for him in one)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinWaitlist(Command):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaveWaitlist(Command):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class Chat(Command):
    """Say ``text`` at the table (checked at the edge: its length and characters;
    the table checks who may chat, how often, and keeps it in its books)."""

    text: str


class Reply(NamedTuple):
    """The table's answer to a command.

    A tuple of plain values, so the garbage collector stops tracking it: a table
    remembers thousands of them (to answer a repeated command the same way), and
    the collector would otherwise walk them all, stalling every table.
    """

    ok: bool
    reason: str = ""
    seq: int = 0  # the table's last event number after the command


class Refused(Exception):
    """A command that is not allowed; nothing changed."""


class Answers:
    """The table's last ``size`` answers to commands that carry a ``command_id``: a
    repeat of one (the same player, the same id) gets the first answer again."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._replies: OrderedDict[tuple[str, str], Reply] = OrderedDict()

    def first(self, cmd: Command) -> Reply | None:
        """The answer already given to ``cmd``, if it is a repeat."""
        if cmd.command_id is None:
            return None
        return self._replies.get((cmd.player, cmd.command_id))

    def remember(self, cmd: Command, reply: Reply) -> None:
        if cmd.command_id is not None:
            self._replies[(cmd.player, cmd.command_id)] = reply
            while len(self._replies) > self._size:
                self._replies.popitem(last=False)
