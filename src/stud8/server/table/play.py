"""What kind of game a table deals: a cash game (:class:`CashGame`) or a tournament's.

The table (:class:`stud8.server.table.owner.Table`) runs every table the same way:
its queue, its hands, its clocks, its seats. What differs between a cash game and
a tournament's table is its :class:`Play`, a part the table holds: which commands
its players may give, whether a player away too long is stood up, whether one
sitting out times out at once in his turn, what it deals and when, the orders it
takes from outside, and what its snapshot adds. A tournament's play is
:class:`stud8.server.table.tournament.TournamentPlay`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from stud8.core.rules import TableRules
from stud8.formats.record import SeatRecord
from stud8.server.clock import Clock
from stud8.server.table.commands import Command
from stud8.server.table.feed import Emit
from stud8.server.table.seating import Seating
from stud8.server.table.snapshot import TableSnapshot
from stud8.server.table.state import Order

__all__ = ["CashGame", "Deal", "Play", "PlayContext"]

log = logging.getLogger("stud8.server")


@dataclass(frozen=True, slots=True)
class Deal:
    """A hand to deal: with ``rules``, to ``seats`` (seat, player, chips), with
    ``idle`` seated and not dealt in (its history lists them as sitting out)."""

    rules: TableRules
    seats: tuple[tuple[int, str, int], ...]
    idle: tuple[SeatRecord, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayContext:
    """What a table's play needs of its table: its seats, the way to tell events,
    a call to deal when it may (``deal_soon``), the clock and the rules now."""

    table_id: str
    seating: Seating
    emit: Emit
    deal_soon: Callable[[], None]
    clock: Clock
    rules: Callable[[], TableRules]


class Play(Protocol):
    """The kind of game a table deals (see the module)."""

    @property
    def stands_up(self) -> bool:
        """A player away too long is stood up (else he is dealt in and times out)."""
        ...

    @property
    def buys_chips(self) -> bool:
        """The seats' chips are bought from the players' banks (a cash game's), so a
        seat may be topped up between hands (the auto top-up)."""
        ...

    @property
    def times_out_sitting_out(self) -> bool:
        """A player sitting out (he asked) times out at once in his turn."""
        ...

    def admit(self, cmd: Command) -> None:
        """Refuse (:class:`~stud8.server.table.commands.Refused`) a command its
        players may not give here."""

    def ready(self) -> bool:
        """A hand may be dealt (after the pause between hands)."""
        ...

    def deal(self) -> Deal | None:
        """The hand to deal now; None: none."""

    def dealt(self, deal: Deal) -> None:
        """``deal`` is noted and dealt."""

    def order(self, order: Order) -> None:
        """Apply an order from outside (in the table's turn)."""

    def snapshot(self, snapshot: TableSnapshot) -> TableSnapshot:
        """The table's snapshot with what the play adds to it."""
        ...


class CashGame:
    """A cash game: the players sit and leave by themselves, buying in and cashing
    out; a hand is dealt to the seats ready as soon as two are."""

    stands_up = True
    buys_chips = True
    times_out_sitting_out = False

    def __init__(self, context: PlayContext) -> None:
        self._ctx = context

    def admit(self, cmd: Command) -> None:
        pass  # every command

    def ready(self) -> bool:
        return sum(1 for s in self._ctx.seating.seats.values() if s.ready) >= 2

    def deal(self) -> Deal | None:
        seating = self._ctx.seating
        stacks = seating.ready()
        if len(stacks) < 2:
            return None
        seats = tuple((n, seating.seats[n].player, chips) for n, chips in stacks.items())
        return Deal(self._ctx.rules(), seats, seating.idle(stacks))

    def dealt(self, deal: Deal) -> None:
        pass

    def order(self, order: Order) -> None:
        log.error("table %s: a cash game takes no %s", self._ctx.table_id, type(order).__name__)

    def snapshot(self, snapshot: TableSnapshot) -> TableSnapshot:
        return snapshot
