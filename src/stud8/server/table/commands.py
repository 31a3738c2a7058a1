"""The table's commands, replies, settings and seat state (see :mod:`stud8.server.table.owner`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from stud8.core.views import HandView
from stud8.server.clock import TimerHandle
from stud8.server.table.events import TimerStarted
from stud8.tools.bots import Bot

# ---------------------------------------------------------------- commands


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

    reason: str = "left"


@dataclass(frozen=True, slots=True, kw_only=True)
class Act(Command):
    kind: str
    amount: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Connect(Command):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class Disconnect(Command):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinWaitlist(Command):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaveWaitlist(Command):
    pass


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


# ---------------------------------------------------------------- state


@dataclass(slots=True)
class Seat:
    player: str
    chips: int
    bot: Bot | None = None
    sitting_out: bool = False
    out_reason: str = ""
    connected: bool = True
    leaving: bool = False
    away_since: float | None = None  # when a player's seat stopped being dealt in

    @property
    def ready(self) -> bool:
        return self.chips > 0 and not self.sitting_out and self.connected and not self.leaving

    @property
    def away(self) -> bool:
        """A player (not a bot) kept out of the hands: sat out, disconnected or
        without chips. One who is leaving is not: he goes at the hand's end."""
        return self.bot is None and not self.leaving and not self.ready


@dataclass(slots=True)
class Turn:
    seat: int
    token: int
    phase: str  # "action" or "time_bank"
    deadline: float
    extended: bool = False
    timer: TimerHandle | None = None


@dataclass(frozen=True, slots=True)
class SeatSnapshot:
    seat: int
    player: str
    chips: int
    bot: bool
    sitting_out: bool
    connected: bool
    in_hand: bool


@dataclass(frozen=True, slots=True)
class OfferSnapshot:
    """A seat held for the first player on the waiting list."""

    seat: int
    player: str
    seconds_left: float


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """The table as one viewer may see it now; events after ``seq`` follow."""

    table_id: str
    seq: int
    viewer_seat: int | None
    seats: tuple[SeatSnapshot, ...]
    hand_id: str | None
    hand: HandView | None
    turn: TimerStarted | None
    waiting_list: tuple[str, ...] = ()
    offer: OfferSnapshot | None = None


# internal messages (from timers, bots, the table itself)
@dataclass(frozen=True, slots=True)
class Tick:
    token: int


@dataclass(frozen=True, slots=True)
class BotTurn:
    token: int


@dataclass(frozen=True, slots=True)
class StartHand:
    pass


@dataclass(frozen=True, slots=True)
class OfferTimeout:
    token: int


@dataclass(frozen=True, slots=True)
class AwayCheck:
    """Time to stand up the players away too long (``sit_out_seconds``); ``token``
    names the timer that posted it (0: none)."""

    token: int = 0


@dataclass(frozen=True, slots=True)
class Cancel:
    reason: str


Message = Command | Tick | BotTurn | StartHand | OfferTimeout | AwayCheck | Cancel
