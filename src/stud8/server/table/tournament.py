"""A tournament's table: a room table whose seats, stakes and deals are its director's.

It is a :class:`~stud8.server.table.owner.Table` (the same owner task, turns, clocks,
bots, events, catch-ups and hand histories), but:

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

Orders are queued like everything else the table does, so they are applied between
two of its messages, in the order the director gave them.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, replace
from types import MappingProxyType

from stud8.core.hand import Hand
from stud8.core.rules import TableRules
from stud8.server.table.books import HandNote
from stud8.server.table.commands import Act, ComeBack, Command, Connect, Disconnect, Refused, SitOut
from stud8.server.table.events import (
    HandStarted,
    PlayerMoved,
    SeatLeft,
    SeatTaken,
    TournamentInfo,
)
from stud8.server.table.owner import Table
from stud8.server.table.snapshot import TableSnapshot
from stud8.server.table.state import Seat, StartHand, Tick, Turn
from stud8.tools.bots import make_bot

__all__ = ["DealOrder", "InfoOrder", "SeatOrder", "TournamentTable", "UnseatOrder"]

log = logging.getLogger("stud8.server")


@dataclass(frozen=True, slots=True)
class SeatOrder:
    """Seat ``player`` in ``seat`` with ``chips`` (``bot``: his bot's policy)."""

    seat: int
    player: str
    chips: int
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class UnseatOrder:
    """Take ``player`` out of ``seat``: ``reason`` ``busted``, ``moved`` (to
    ``to_table``, ``to_seat``: ``balance`` or ``break`` in ``move``), or ``closed``."""

    seat: int
    player: str
    reason: str
    to_table: str = ""
    to_seat: int = 0
    move: str = ""


@dataclass(frozen=True, slots=True)
class DealOrder:
    """Deal the director's hand ``hand`` with ``rules`` to ``seats``: (seat, player,
    chips), every seat dealt in."""

    hand: int
    rules: TableRules
    seats: tuple[tuple[int, str, int], ...]


@dataclass(frozen=True, slots=True)
class InfoOrder:
    info: TournamentInfo


Order = SeatOrder | UnseatOrder | DealOrder | InfoOrder


class TournamentTable(Table):
    """A tournament's table (see the module)."""

    tournament_info: TournamentInfo | None = None
    _info_at: float = 0.0  # the table's clock when the info came (its seconds_left then)
    _deal: DealOrder | None = None
    deal_number: int | None = None  # the director's number of the hand in play

    def order(self, order: Order) -> None:
        """Queue one of the director's orders (applied in turn, in order)."""
        self._queue.put_nowait((order, None))  # type: ignore[arg-type]  # orders share the queue

    def snapshot(self) -> TableSnapshot:
        """The table now, with the tournament's clock as it stands now (the info is
        sent when something changes: its ``seconds_left`` was the time left then)."""
        info = self.tournament_info
        if info is not None and info.seconds_left >= 0:
            left = max(0.0, info.seconds_left - (self._clock.now() - self._info_at))
            info = replace(info, seconds_left=round(left, 3))
        return replace(super().snapshot(), tournament=info)

    # ------------------------------------------------------------ the players
    async def _handle(self, cmd: Command) -> None:
        if isinstance(cmd, (Act, SitOut, ComeBack, Connect, Disconnect)):
            await super()._handle(cmd)
            turn = self._turn
            if (
                isinstance(cmd, SitOut)
                and turn is not None
                and turn.seat == self.seat_of(cmd.player)
            ):
                self._start_turn(turn.seat)  # sitting out in his turn: he times out now
            return
        raise Refused(
            "this is a tournament's table: the tournament seats and moves the players; "
            "sit out to be dealt in and time out"
        )

    async def _check_away(self) -> None:
        """Nobody is stood up from a tournament: one away is dealt in and times out."""

    def _start_turn(self, number: int) -> None:
        seat = self.seats.get(number)
        if seat is None or seat.bot is not None or not seat.sitting_out or not seat.connected:
            super()._start_turn(number)
            return
        # sitting out (he asked): he times out at once, as the big rooms do
        self._cancel_turn()
        self._token += 1
        self._turn = Turn(number, self._token, "time_bank", self._clock.now())
        self._queue.put_nowait((Tick(self._token), None))

    # ------------------------------------------------------------ the director's orders
    async def _internal(self, message: object) -> None:
        if isinstance(message, SeatOrder):
            self._seat(message)
        elif isinstance(message, UnseatOrder):
            self._unseat(message)
        elif isinstance(message, DealOrder):
            self._deal = message
            self._schedule_start()
        elif isinstance(message, InfoOrder):
            self.tournament_info = message.info
            self._info_at = self._clock.now()
            self._emit(message.info)
        else:
            await super()._internal(message)  # type: ignore[arg-type]

    def _seat(self, order: SeatOrder) -> None:
        if order.seat in self.seats:
            log.error("table %s: seat %d is taken; %s not seated", self.table_id, order.seat,
                      order.player)  # fmt: skip
            return
        robot = None
        if order.bot is not None:
            seed = random.Random(self._bot_rng.getrandbits(64))
            robot = make_bot(order.bot, seed, game=self.rules.game)  # the table's game
        connected = robot is not None or self.connections[order.player] > 0
        self.seats[order.seat] = Seat(
            order.player,
            order.chips,
            robot,
            sitting_out=not connected,
            out_reason="" if connected else "disconnected",
            connected=connected,
        )
        self._emit(SeatTaken(order.seat, order.player, order.chips, robot is not None))

    def _unseat(self, order: UnseatOrder) -> None:
        seat = self.seats.get(order.seat)
        if seat is None or seat.player != order.player:
            return  # gone already (a bot out of chips leaves by itself)
        if self._in_hand(order.seat):
            log.error("table %s: %s is in a hand; not unseated", self.table_id, order.player)
            return
        del self.seats[order.seat]
        if order.reason == "moved":
            self._emit(PlayerMoved(order.player, order.to_table, order.to_seat, order.move))
        self._emit(SeatLeft(order.seat, order.player, seat.chips, order.reason))

    # ------------------------------------------------------------ the deal
    def _schedule_start(self, delay: float | None = None) -> None:
        """Deal the director's hand after the pause between hands (and the
        showdown's results), whoever is away: every seat it names is dealt in."""
        if self._deal is None or self.hand is not None or self._start_timer is not None:
            return
        if self._task is None or self._handing_over:
            return
        now = self._clock.now()
        when = (
            now + delay
            if delay is not None
            else max(now + self.config.between_hands, self._results_until)
        )
        self._start_timer = self._clock.call_at(
            when, lambda: self._queue.put_nowait((StartHand(), None))
        )

    async def _remove(self, number: int, reason: str) -> bool:
        """Nobody leaves a tournament's table by himself (a bot out of chips neither):
        the director's orders take the busted and the moved out."""
        return True

    async def _start_hand(self) -> None:
        deal = self._deal
        if self.hand is not None or self._handing_over or deal is None:
            return
        missing = [p for s, p, _ in deal.seats if s not in self.seats or self.seats[s].player != p]
        if missing:
            log.error("table %s: hand %d dealt to %s, not seated here", self.table_id, deal.hand,
                      missing)  # fmt: skip
            return
        self._deal = None
        self.rules = deal.rules
        stacks = {seat: chips for seat, _, chips in deal.seats}
        for seat, chips in stacks.items():
            self.seats[seat].chips = chips  # the director's chips (the same but for a restart)
        players = {seat: player for seat, player, _ in deal.seats}
        hand_id = self._hand_ids()
        started_at = self._clock.wall()
        note = HandNote(
            hand_id=hand_id,
            table_id=self.table_id,
            seats=deal.seats,
            started_at=started_at,
        )
        if not await self._noted(note):
            self._deal = deal
            self._start_timer = None
            self._schedule_start(max(1.0, self.config.between_hands))
            return
        self.deal_number = deal.hand
        self._hand_players = MappingProxyType(players)
        self._hand_started_at = started_at
        self._hand_times = []
        hand = Hand.start(rules=self.rules, stacks=stacks, deck=self._deck_source(),
                          hand_id=hand_id)  # fmt: skip
        self.hand = hand
        self._no_hand.clear()
        self._emit(HandStarted(hand_id, tuple(stacks.items())), self._hand_players)
        await self._progress(list(hand.events))

    async def _finish_hand(self, hand: Hand) -> None:
        await super()._finish_hand(hand)
        self.deal_number = None
