"""What a table tells the room: its own events, and every event numbered.

Every table event (a seat change, a hand starting, each engine event of the
hand, a timer phase) gets the next number of the table's one sequence
(:class:`Numbered`). The table publishes them whole, hidden cards included: what
each viewer may see of them is decided at the edge
(:mod:`stud8.server.edge.projection`), where a viewer receives every number (an
event he may not see whole is sent with the hidden card removed, never left
out, so nobody sees a gap).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from stud8.core.actions import LegalAction
from stud8.core.events import Event
from stud8.core.rules import Game
from stud8.tournament.director import Phase
from stud8.tournament.events import MoveReason


@dataclass(frozen=True, slots=True)
class TableEvent:
    """Base of the table's own events (the hand's come from the engine)."""

    kind: ClassVar[str] = "table"


@dataclass(frozen=True, slots=True)
class SeatTaken(TableEvent):
    seat: int
    player: str
    chips: int
    bot: bool = False
    kind: ClassVar[str] = "sit"


class LeaveReason(StrEnum):
    """Why a player left his seat: the ``reason`` of a ``leave`` event, which carries
    the value (the wire's string, and the bus's)."""

    LEFT = "left"  # he asked
    SAT_OUT = "sat_out"  # stood up: dealt out for the table's sit_out_seconds
    NO_CHIPS = "no_chips"  # a bot that lost its chips
    TABLE_CLOSED = "table_closed"
    BUSTED = "busted"  # out of a tournament
    MOVED = "moved"  # to another table of his tournament
    CLOSED = "closed"  # his tournament's table closed


class SatOutReason(StrEnum):
    """Why a seat is dealt out from the next hand: the ``reason`` of a ``sit_out``
    event (the wire's strings, like :class:`LeaveReason`)."""

    ASKED = "asked"
    DISCONNECTED = "disconnected"
    TIMED_OUT = "timed_out"  # his clock ran out, at a table that sits out who times out
    LEAVING = "leaving"  # he leaves at the end of the hand


@dataclass(frozen=True, slots=True)
class SeatLeft(TableEvent):
    """The player left; ``chips`` went back to his account. ``reason``: ``left``
    (he asked), ``sat_out`` (stood up: dealt out for the table's
    ``sit_out_seconds``), ``no_chips`` (a bot that lost its chips) or
    ``table_closed``."""

    seat: int
    player: str
    chips: int
    reason: LeaveReason = LeaveReason.LEFT
    kind: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class ToppedUp(TableEvent):
    """``amount`` more chips from the player's bank, between hands; ``chips`` his
    stack now. ``auto``: the table's auto top-up (his setting), not his command;
    ``short``: the chips of an auto top-up his bank could not pay (all of it: the
    bank was empty, ``amount`` 0 and nothing moved)."""

    seat: int
    amount: int
    chips: int
    auto: bool = False
    short: int = 0
    kind: ClassVar[str] = "top_up"


@dataclass(frozen=True, slots=True)
class SatOut(TableEvent):
    """Dealt out from the next hand on (``reason``: asked, disconnected, timed out, leaving)."""

    seat: int
    reason: SatOutReason
    kind: ClassVar[str] = "sit_out"


@dataclass(frozen=True, slots=True)
class CameBack(TableEvent):
    seat: int
    kind: ClassVar[str] = "come_back"


@dataclass(frozen=True, slots=True)
class Disconnected(TableEvent):
    seat: int
    kind: ClassVar[str] = "disconnected"


@dataclass(frozen=True, slots=True)
class Reconnected(TableEvent):
    seat: int
    kind: ClassVar[str] = "reconnected"


@dataclass(frozen=True, slots=True)
class HandStarted(TableEvent):
    hand_id: str
    stacks: tuple[tuple[int, int], ...]  # (seat, chips) of the players dealt in
    kind: ClassVar[str] = "hand_start"


class TurnPhase(StrEnum):
    """A phase of a turn's clock: the ``phase`` of a ``timer`` event, which carries
    the value (``BOT``: a bot's turn, which shows no clock)."""

    ACTION = "action"  # the first seconds
    TIME_BANK = "time_bank"  # the visible countdown
    RECONNECT = "reconnect"  # the extra time after a reconnection (shown, once a turn)
    BOT = "bot"


@dataclass(frozen=True, slots=True)
class TimerStarted(TableEvent):
    """A phase of the turn clock of ``seat``: ``action`` (the first seconds),
    ``time_bank`` (the visible countdown) or ``reconnect`` (extra time after a
    reconnection). ``deadline`` is on the table clock; ``seconds`` is how long
    from now."""

    seat: int
    phase: TurnPhase
    seconds: float
    deadline: float
    kind: ClassVar[str] = "timer"


@dataclass(frozen=True, slots=True)
class WaitingListChanged(TableEvent):
    """The table's waiting list, in order, after a change."""

    players: tuple[str, ...]
    kind: ClassVar[str] = "waiting_list"


@dataclass(frozen=True, slots=True)
class SeatOffered(TableEvent):
    """``seat`` is held for ``player`` (the first on the waiting list) for
    ``seconds``; only he may sit there meanwhile. The offer ends when he is no
    longer on the list (he sat, left the list, or his time ran out)."""

    seat: int
    player: str
    seconds: float
    kind: ClassVar[str] = "seat_offered"


@dataclass(frozen=True, slots=True)
class HandFinished(TableEvent):
    """The hand is settled (or refunded, if ``cancelled``) with the bank."""

    hand_id: str
    cancelled: bool = False
    kind: ClassVar[str] = "hand_finish"


@dataclass(frozen=True, slots=True)
class HandRefunded(TableEvent):
    """Hand ``hand_id`` (PokerStars' hand ``number``) was cut short by a restart or a
    failover and cancelled by the recovery: every chip went back (RULES.md section
    7). Told by the table that comes back, first thing, and carried in its snapshot
    (``refunded``) for as long as it runs, so a viewer who saw the hand and comes
    back later is told too."""

    hand_id: str
    number: str  # decimal text: 18 digits are more than a JSON reader's float keeps
    kind: ClassVar[str] = "hand_refunded"


@dataclass(frozen=True, slots=True)
class ChatSaid(TableEvent):
    """``player`` said ``text`` at the table: from ``seat``, or as an observer (None),
    during hand ``hand_id`` (None: between hands). Text, never markup."""

    player: str
    text: str
    seat: int | None = None
    hand_id: str | None = None
    kind: ClassVar[str] = "chat"


@dataclass(frozen=True, slots=True)
class TournamentInfo(TableEvent):
    """The tournament this table plays in, as it stands (a tournament's tables only;
    sent when it changes, and in the snapshot). ``level`` and its stakes (``ante``,
    ``bring_in``, ``small_bet``, ``big_bet``), the next level's (``next_*``, 0 at
    the last level), ``seconds_left`` until the next level (-1: none, or a level of
    hands), ``on_break``; ``players_left`` of ``entries``, ``average_stack`` and
    ``prize_pool``; ``places``: (seat, place now by chips; equal stacks share the better
    place) of each player seated at this table (the whole standings and the prizes are
    the lobby's, over REST: an event sent to every seat at every hand stays as small as
    a table); once it is
    over, ``results``: every player, first place first, with ``result_prizes``
    (place, prize) beside each. ``phase``: registering, running,
    finished or cancelled; ``notice``: what just happened ("final table", ...)."""

    tournament_id: int
    name: str
    table_number: int
    phase: Phase
    level: int
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    next_ante: int
    next_bring_in: int
    next_small_bet: int
    next_big_bet: int
    seconds_left: float
    on_break: bool
    players_left: int
    entries: int
    average_stack: int
    prize_pool: int
    places: tuple[tuple[int, int], ...]
    results: tuple[str, ...] = ()
    result_prizes: tuple[tuple[int, int], ...] = ()
    notice: str = ""
    kind: ClassVar[str] = "tournament"


@dataclass(frozen=True, slots=True)
class MixedGame(TableEvent):
    """At a mixed table (:mod:`stud8.server.table.rotation`), told at the start of
    each hand, after its ``hand_start``: the hand's ``game``, the ``next_game`` and
    how many hands of this one are left after this hand (``hands_left``; 0: the game
    changes after this hand); ``mixed``: the mixed game's name in the histories
    ("Triple Stud"). ``notice``, at the first and the last hand of a game: "Now
    playing: Razz", "The game changes to Razz after this hand" (else "")."""

    game: Game
    next_game: Game
    hands_left: int
    mixed: str
    notice: str = ""
    kind: ClassVar[str] = "mixed_game"


@dataclass(frozen=True, slots=True)
class PlayerMoved(TableEvent):
    """A tournament moved ``player`` to ``to_table``, seat ``to_seat`` (``reason``:
    ``balance`` or ``break``): he follows that table from now on, with his chips."""

    player: str
    to_table: str
    to_seat: int
    reason: MoveReason
    kind: ClassVar[str] = "moved"


AnyEvent = Event | TableEvent


@dataclass(frozen=True, slots=True)
class Numbered:
    """One event of the table with its number.

    ``seats`` maps the seats of the hand the event belongs to (if any) to their
    players, so a viewer's seat is known even for an event of a past hand.
    ``legal`` comes with a turn's clock (a :class:`TimerStarted` of a player): what
    the player to act may do, so the edge can tell him without asking the table.
    """

    seq: int
    event: AnyEvent
    seats: Mapping[int, str] | None = None
    legal: tuple[LegalAction, ...] | None = None

    def seat_of(self, player: str | None) -> int | None:
        if player is None or self.seats is None:
            return None
        for seat, who in self.seats.items():
            if who == player:
                return seat
        return None


class History:
    """The table's recent events, for viewers who come back."""

    def __init__(self, size: int, start: int = 0) -> None:
        if size < 1:
            raise ValueError(f"history size must be at least 1, got {size}")
        self._items: deque[Numbered] = deque(maxlen=size)
        self.last_seq = start  # the first event is numbered start + 1

    def append(self, item: Numbered) -> None:
        if item.seq != self.last_seq + 1:
            raise ValueError(f"event {item.seq} after {self.last_seq}: numbers must not skip")
        self._items.append(item)
        self.last_seq = item.seq

    def since(self, last_seen: int) -> list[Numbered] | None:
        """The events after ``last_seen``; None if some of them are gone (or
        ``last_seen`` is from the future): the viewer needs a snapshot."""
        if last_seen > self.last_seq or last_seen < 0:
            return None
        if last_seen == self.last_seq:
            return []
        first = self._items[0].seq if self._items else self.last_seq + 1
        if last_seen + 1 < first:
            return None
        return list(self._items)[last_seen + 1 - first :]

    def __len__(self) -> int:
        return len(self._items)
