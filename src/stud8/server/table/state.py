"""The table's own state: its seats, the turn's clock, the messages it posts itself.

Private to the table's owner task (:mod:`stud8.server.table.owner`): nothing
outside the table package reads these.
"""

from __future__ import annotations

from dataclasses import dataclass

from stud8.server.clock import TimerHandle
from stud8.server.table.commands import Command
from stud8.server.table.events import SatOutReason, TurnPhase
from stud8.tools.bots import Bot


@dataclass(slots=True)
class Seat:
    player: str
    chips: int
    bot: Bot | None = None
    sitting_out: bool = False
    out_reason: SatOutReason | None = None  # why he sits out, if he does
    connected: bool = True
    leaving: bool = False
    away_since: float | None = None  # when a player's seat stopped being dealt in
    # the auto top-up: on (his account's setting), the stack it tops up to (the buy-in
    # he chose here), and whether an empty bank was said already (said once)
    auto_top_up: bool = False
    top_up_to: int = 0
    told_bank_empty: bool = False

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
    phase: TurnPhase  # ACTION, TIME_BANK or BOT
    deadline: float
    extended: bool = False
    timer: TimerHandle | None = None


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
class ObserversDue:
    """The observers changed ``OBSERVERS_PACE`` seconds ago: publish the table's
    status (:class:`~stud8.server.table.status.StatusBoard`)."""


@dataclass(frozen=True, slots=True)
class Cancel:
    reason: str


@dataclass(frozen=True, slots=True)
class CatchUpRequest:
    """A viewer asks what he missed after ``last_seen`` (None: everything)."""

    last_seen: int | None


@dataclass(frozen=True, slots=True)
class Order:
    """Base of the orders a table's play takes from outside (a tournament's director:
    :mod:`stud8.server.table.tournament`), queued like everything else."""


Internal = Tick | BotTurn | StartHand | OfferTimeout | AwayCheck | ObserversDue
Message = Command | Internal | Order | Cancel | CatchUpRequest
