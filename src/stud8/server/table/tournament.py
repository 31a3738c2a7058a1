"""A tournament's table: a room table whose seats, stakes and deals are its director's.

It is a :class:`~stud8.server.table.owner.Table` (the same owner task, turns, clocks,
bots, events, catch-ups and hand histories) holding a :class:`TournamentPlay`
(:func:`tournament_table` makes one), so that:

- **nobody sits or leaves by himself**: the tournament's owner task
  (:mod:`stud8.server.tournaments.runner`) seats each player (:class:`SeatOrder`),
  moves him (:class:`UnseatOrder` here, a seat order at his new table) and takes
  out the busted. ``sit``, ``top_up``, ``leave`` and the waiting list are refused:
  the stacks are **tournament chips**, never bought in nor cashed out;
- **it deals when its director says** (:class:`DealOrder`: the hand's number, its
  rules, i.e. the level's stakes, and every seat dealt in with its chips), after
  the table's pause between hands; the stakes change from one hand to the next
  with the levels;
- **a player sitting out is dealt in** (his ante is paid) **and times out** at
  once when it is his turn, as the big rooms do; one disconnected is dealt in and
  his clock runs (RULES.md section 6); nobody is ever stood up for being away;
- each finished (or cancelled) hand goes to the table's books, which for a
  tournament's table are its owner's (:class:`~stud8.server.table.books.TableBooks`
  port): the hand's record and the director's new state are kept in one
  transaction before anyone sees the hand end, and the director decides what
  follows (the next deal, the busted, the moves);
- it tells the tournament as it stands (:class:`InfoOrder`: the
  :class:`~stud8.server.table.events.TournamentInfo` event, also in its snapshot).

Orders (:meth:`Table.order <stud8.server.table.owner.Table.order>`) are queued like
everything else the table does, so they are applied between two of its messages, in
the order the director gave them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

from stud8.core.cards import Deck
from stud8.core.rules import TableRules
from stud8.server.clock import Clock
from stud8.server.table.books import TableBooks
from stud8.server.table.commands import Act, ComeBack, Command, Connect, Disconnect, Refused, SitOut
from stud8.server.table.events import (
    LeaveReason,
    PlayerMoved,
    SatOutReason,
    SeatLeft,
    SeatTaken,
    TournamentInfo,
)
from stud8.server.table.owner import Table
from stud8.server.table.play import Deal, PlayContext
from stud8.server.table.snapshot import TableSnapshot
from stud8.server.table.spec import TableConfig
from stud8.server.table.state import Order, Seat
from stud8.tournament.events import MoveReason

__all__ = [
    "DealOrder",
    "InfoOrder",
    "SeatOrder",
    "TournamentPlay",
    "UnseatOrder",
    "tournament_table",
]

log = logging.getLogger("stud8.server")

# what a tournament's players may do at its table (the rest is the director's)
_PLAYERS_COMMANDS = (Act, SitOut, ComeBack, Connect, Disconnect)


@dataclass(frozen=True, slots=True)
class SeatOrder(Order):
    """Seat ``player`` in ``seat`` with ``chips`` (``bot``: his bot's policy)."""

    seat: int
    player: str
    chips: int
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class UnseatOrder(Order):
    """Take ``player`` out of ``seat``: ``reason`` BUSTED, MOVED (to ``to_table``,
    ``to_seat``: ``balance`` or ``break`` in ``move``), or CLOSED."""

    seat: int
    player: str
    reason: LeaveReason
    to_table: str = ""
    to_seat: int = 0
    move: MoveReason | None = None


@dataclass(frozen=True, slots=True)
class DealOrder(Order):
    """Deal the director's hand ``hand`` with ``rules`` to ``seats``: (seat, player,
    chips), every seat dealt in."""

    hand: int
    rules: TableRules
    seats: tuple[tuple[int, str, int], ...]


@dataclass(frozen=True, slots=True)
class InfoOrder(Order):
    info: TournamentInfo


def tournament_table(
    config: TableConfig,
    *,
    books: TableBooks,
    clock: Clock,
    deck_source: Callable[[], Deck] = Deck.shuffled,
) -> Table:
    """A tournament's table: a :class:`Table` holding a :class:`TournamentPlay`."""
    return Table(config, books=books, clock=clock, deck_source=deck_source, play=TournamentPlay)


class TournamentPlay:
    """A tournament's play at one of its tables (see the module)."""

    stands_up = False  # nobody is stood up from a tournament: one away is dealt in
    buys_chips = False  # the chips are the tournament's: nobody tops up
    times_out_sitting_out = True  # and one sitting out times out at once

    def __init__(self, context: PlayContext) -> None:
        self._ctx = context
        self._deal: DealOrder | None = None
        self.info: TournamentInfo | None = None
        self._info_at = 0.0  # the table's clock when the info came (its seconds_left then)

    def admit(self, cmd: Command) -> None:
        if not isinstance(cmd, _PLAYERS_COMMANDS):
            raise Refused(
                "this is a tournament's table: the tournament seats and moves the players; "
                "sit out to be dealt in and time out"
            )

    def snapshot(self, snapshot: TableSnapshot) -> TableSnapshot:
        """The table now, with the tournament's clock as it stands now (the info is
        sent when something changes: its ``seconds_left`` was the time left then)."""
        info = self.info
        if info is not None and info.seconds_left >= 0:
            left = max(0.0, info.seconds_left - (self._ctx.clock.now() - self._info_at))
            info = replace(info, seconds_left=round(left, 3))
        return replace(snapshot, tournament=info)

    # ------------------------------------------------------------ the director's orders
    def order(self, order: Order) -> None:
        ctx = self._ctx
        if isinstance(order, SeatOrder):
            self._seat(order)
        elif isinstance(order, UnseatOrder):
            self._unseat(order)
        elif isinstance(order, DealOrder):
            self._deal = order
            ctx.deal_soon()
        elif isinstance(order, InfoOrder):
            self.info = order.info
            self._info_at = ctx.clock.now()
            ctx.emit(order.info)
        else:
            log.error("table %s: no such order %s", ctx.table_id, type(order).__name__)

    def _seat(self, order: SeatOrder) -> None:
        ctx, seating = self._ctx, self._ctx.seating
        if order.seat in seating.seats:
            log.error(
                "table %s: seat %d is taken; %s not seated", ctx.table_id, order.seat, order.player
            )
            return
        robot = seating.new_bot(order.bot) if order.bot is not None else None
        connected = robot is not None or seating.connections[order.player] > 0
        seating.seats[order.seat] = Seat(
            order.player,
            order.chips,
            robot,
            sitting_out=not connected,
            out_reason=None if connected else SatOutReason.DISCONNECTED,
            connected=connected,
        )
        ctx.emit(SeatTaken(order.seat, order.player, order.chips, robot is not None))

    def _unseat(self, order: UnseatOrder) -> None:
        ctx, seating = self._ctx, self._ctx.seating
        seat = seating.seats.get(order.seat)
        if seat is None or seat.player != order.player:
            return  # gone already
        if seating.in_hand(order.seat):
            log.error("table %s: %s is in a hand; not unseated", ctx.table_id, order.player)
            return
        del seating.seats[order.seat]
        if order.reason is LeaveReason.MOVED and order.move is not None:
            ctx.emit(PlayerMoved(order.player, order.to_table, order.to_seat, order.move))
        ctx.emit(SeatLeft(order.seat, order.player, seat.chips, order.reason))

    # ------------------------------------------------------------ the deal
    def ready(self) -> bool:
        """The director's hand is dealt after the pause between hands (and the
        showdown's results), whoever is away: every seat it names is dealt in."""
        return self._deal is not None

    def deal(self) -> Deal | None:
        deal, seats = self._deal, self._ctx.seating.seats
        if deal is None:
            return None
        missing = [p for s, p, _ in deal.seats if s not in seats or seats[s].player != p]
        if missing:
            log.error(
                "table %s: hand %d dealt to %s, not seated here",
                self._ctx.table_id,
                deal.hand,
                missing,
            )
            return None
        return Deal(deal.rules, deal.seats)

    def dealt(self, deal: Deal) -> None:
        self._deal = None
