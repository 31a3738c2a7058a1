"""The lobby: the room's tables, opening and closing them, and what the lobby shows.

The lobby runs the tables of this room: it makes each :class:`~stud8.server.table.owner.Table`
(its owner task), puts it on the bus (:mod:`stud8.server.bus`) where the edge finds
it, seats its bots, and closes it. What the lobby lists comes from the bus's
directory: each table's definition and the last status its owner published
(seats, waiting list, average pot and hands an hour, whether it has stopped
dealing), never from the tables themselves.

Every table moves chips and keeps its hands through the room's
:class:`~stud8.server.table.books.TableBooks`. A room on a database has a
:class:`TableKeeper` (:mod:`stud8.server.room.restore`): it stores each new
table's definition, marks a table closed, and at startup reopens the tables of
the last run (:meth:`Lobby.reopen`) with their players in their seats. A table id
is never used twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from stud8.core.cards import Deck
from stud8.server.bus import TableBus
from stud8.server.bus.local import LocalBus
from stud8.server.clock import Clock
from stud8.server.table.books import TableBooks
from stud8.server.table.commands import Leave, SeatBot
from stud8.server.table.events import HandRefunded, LeaveReason
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableSpec
from stud8.server.wire.codec import to_json
from stud8.server.wire.limits import CHAT_RATE
from stud8.server.wire.rest import lobby_table

__all__ = [
    "Lobby",
    "LobbyError",
    "NoSuchTableError",
    "Placement",
    "Reseat",
    "TableEntry",
    "TableIdTaken",
    "TableKeeper",
]

log = logging.getLogger("stud8.server")


@dataclass(frozen=True, slots=True)
class Reseat:
    """A seat coming back after a restart; its chips never left the table."""

    seat: int
    player: str
    chips: int
    bot: bool = False
    top_up_to: int = 0  # the stack he chose (0: not known: his chips)


class TableKeeper(Protocol):
    """Keeps the room's tables across restarts. :meth:`opened` and :meth:`closed`
    block (the lobby runs them in a worker thread)."""

    def opened(self, table_id: str, name: str, spec: TableSpec) -> None:
        """Store a new table's definition."""
        ...

    def closed(self, table_id: str) -> None:
        """Mark the table closed (it does not come back)."""
        ...

    async def restore(self, lobby: Lobby) -> bool:
        """Reopen the tables of the last run; False on a first start (the room
        never had a table)."""
        ...


class Placement(Protocol):
    """Where the tables of a room on several nodes run
    (:class:`stud8.server.cluster.node.ClusterNode`): the lobby of any node opens
    and closes any table through it."""

    async def place(self, table_id: str) -> None:
        """A new table, stored, starts on the least loaded node; returns once it
        runs there (LobbyError if it does not in time)."""
        ...

    async def close_elsewhere(self, table_id: str) -> None:
        """Close a table that another node runs (NoSuchTableError if none does)."""
        ...


@dataclass(slots=True)
class TableEntry:
    """A table this room runs."""

    table: Table
    spec: TableSpec
    name: str


class LobbyError(Exception):
    """A lobby request that cannot be done (bad settings, a table id taken, ...)."""


class TableIdTaken(LobbyError):
    """The room's database has a table with this id already (a keeper's refusal)."""


class NoSuchTableError(LobbyError):
    """No open table has this id."""


class Lobby:
    """The room's tables (see the module)."""

    def __init__(
        self,
        *,
        books: TableBooks,
        clock: Clock,
        bus: LocalBus | None = None,
        deck_source: Callable[[], Deck] = Deck.shuffled,
        keeper: TableKeeper | None = None,
        room_bus: TableBus | None = None,
        placement: Placement | None = None,
    ) -> None:
        self._books = books
        self._clock = clock
        self.bus = bus if bus is not None else LocalBus()
        # a room on several nodes: every table of the room (the lobby lists them
        # all), and where new ones go; else this node's bus, and here
        self.room_bus: TableBus = room_bus if room_bus is not None else self.bus
        self.placement = placement
        self._deck_source = deck_source
        self._keeper = keeper
        self.tables: dict[str, TableEntry] = {}
        self._used: set[str] = set()  # every table id the room ever had
        self._numbers = itertools.count(1)
        self._bot_numbers = itertools.count(1)
        self.hidden: set[str] = set()  # tables on the bus it does not list (tournaments')

    def get(self, table_id: str) -> TableEntry | None:
        return self.tables.get(table_id)

    def reserve(self, table_ids: Iterable[str]) -> None:
        """Table ids used before (by closed tables too): never given again."""
        self._used.update(table_ids)

    def number_bots_from(self, first: int) -> None:
        """New bots are named ``bot<first>``, ``bot<first + 1>``, ..."""
        self._bot_numbers = itertools.count(first)

    async def create(
        self, spec: TableSpec, table_id: str | None = None, *, name: str | None = None
    ) -> Table:
        """Start a table (and seat its bots); LobbyError if the spec is not valid."""
        if table_id is None:
            table_id = f"t{next(self._numbers)}"
            while table_id in self.tables or table_id in self._used:
                table_id = f"t{next(self._numbers)}"
        if table_id in self.tables:
            raise LobbyError(f"there is already a table {table_id}")
        if table_id in self._used:
            raise LobbyError(f"the table id {table_id} was used before")
        return await self._open(table_id, name or table_id, spec, (), new=True)

    async def open_table(
        self, spec: TableSpec, table_id: str | None = None, *, name: str | None = None
    ) -> str:
        """Open a new table for the room (an operator's request); its id. Here, or in
        a room on several nodes on the least loaded one."""
        if self.placement is None:
            return (await self.create(spec, table_id, name=name)).table_id
        keeper = self._keeper
        assert keeper is not None, "a room on several nodes keeps its tables"
        try:
            spec.config(table_id or "t", first_seq=0)  # refused here if not valid
        except (ValueError, ZeroDivisionError) as exc:
            raise LobbyError(str(exc)) from None
        for _ in range(100):
            new_id = table_id
            if new_id is None:
                new_id = f"t{next(self._numbers)}"
                if new_id in self.room_bus.directory():
                    continue
            try:  # the database refuses an id used before, by any node
                await asyncio.to_thread(keeper.opened, new_id, name or new_id, spec)
            except TableIdTaken:
                if table_id is not None:
                    raise LobbyError(f"the table id {table_id} was used before") from None
                continue
            await self.placement.place(new_id)
            return new_id
        raise LobbyError("no free table id found")

    async def reopen(
        self,
        table_id: str,
        name: str,
        spec: TableSpec,
        seats: Sequence[Reseat],
        waiting: Sequence[str] = (),
        *,
        refunded: Sequence[HandRefunded] = (),
        hands_dealt: int = 0,
    ) -> Table:
        """Start a table of the last run again, with its players in their seats
        (:meth:`Table.restore_seat`), its waiting list as its last owner left it
        (``waiting``: a room on several nodes), the hands a restart cancelled there
        (``refunded``: told to its viewers), the hands it dealt (``hands_dealt``: a
        mixed table goes on with its rotation), and bots in free seats up to
        ``spec.bots``, after a free seat for each player waiting (the first of them
        is offered the lowest)."""
        if table_id in self.tables:
            raise LobbyError(f"there is already a table {table_id}")
        return await self._open(
            table_id,
            name,
            spec,
            seats,
            new=False,
            waiting=waiting,
            refunded=refunded,
            hands_dealt=hands_dealt,
        )

    async def _open(
        self,
        table_id: str,
        name: str,
        spec: TableSpec,
        seats: Sequence[Reseat],
        *,
        new: bool,
        waiting: Sequence[str] = (),
        refunded: Sequence[HandRefunded] = (),
        hands_dealt: int = 0,
    ) -> Table:
        try:
            # a table back after a restart numbers its events from the wall clock in
            # microseconds: above any number it gave before
            first_seq = 0 if new else int(self._clock.wall().timestamp() * 1_000_000)
            config = spec.config(
                table_id, first_seq=first_seq, chat_rate=CHAT_RATE, hands_dealt=hands_dealt
            )
        except (ValueError, ZeroDivisionError) as exc:
            raise LobbyError(str(exc)) from None
        if len(name) > 100:
            raise LobbyError("a table's name is at most 100 characters")
        table = Table(config, books=self._books, clock=self._clock, deck_source=self._deck_source)
        keeper = self._keeper
        self._used.add(table_id)  # before the await: a second create of it is refused
        if keeper is not None and new:
            try:
                await asyncio.to_thread(keeper.opened, table_id, name, spec)
            except BaseException:
                self._used.discard(table_id)
                raise
        for reseat in seats:
            policy = spec.bot_policy if reseat.bot else None
            table.restore_seat(
                reseat.seat, reseat.player, reseat.chips, bot=policy, top_up_to=reseat.top_up_to
            )
        if waiting:
            table.restore_waiting(waiting)
        if refunded:
            table.restore_refunded(refunded)
        self.tables[table_id] = TableEntry(table, spec, name)
        self.bus.open(table, name, spec)
        table.start()
        bots = sum(1 for reseat in seats if reseat.bot)
        free = [n for n in range(1, config.rules.max_seats + 1) if n not in table.seats]
        free = free[len(table.waiting.players) :]  # the players waiting sit first
        for seat in free[: max(0, spec.bots - bots)]:
            await self.seat_bot(table_id, seat, spec.max_buy_in, spec.bot_policy)
        return table

    def new_bot_name(self) -> str:
        """A bot's name never used in this room (``bot<N>``)."""
        return f"bot{next(self._bot_numbers)}"

    async def seat_bot(self, table_id: str, seat: int, amount: int, policy: str = "rules") -> None:
        if table_id not in self.tables:
            raise NoSuchTableError(f"no table {table_id}")
        name = self.new_bot_name()
        command = SeatBot(player=name, seat=seat, amount=amount, policy=policy)
        reply = await self.bus.send(table_id, command)
        if not reply.ok:
            raise LobbyError(f"cannot seat a bot at {table_id} seat {seat}: {reply.reason}")

    async def close(self, table_id: str) -> None:
        """Stop a table: a hand in play is cancelled (refunded), everyone cashes out."""
        entry = self.tables.get(table_id)
        if entry is None and self.placement is not None:
            await self.placement.close_elsewhere(table_id)
            return
        if entry is None:
            raise NoSuchTableError(f"no table {table_id}")
        table = entry.table
        if self._keeper is not None:
            await asyncio.to_thread(self._keeper.closed, table_id)
        self.bus.closing(table_id)  # no more commands from the players
        if table.hand is not None:
            await table.cancel_hand("the table is closing")
        for seat in list(table.seats.values()):
            await table.submit(Leave(player=seat.player, reason=LeaveReason.TABLE_CLOSED))
        await table.stop()
        self.bus.close(table_id)  # after everyone's leave event reached the players
        del self.tables[table_id]

    async def release(self, table_id: str) -> None:
        """The table leaves this node, as it is (a room on several nodes: handed
        over between hands, or its lease lost): its owner task stops; its seats,
        chips and any hand in play are left to its next owner, who goes on from the
        database."""
        entry = self.tables.pop(table_id, None)
        if entry is None:
            raise NoSuchTableError(f"no table {table_id}")
        self.bus.closing(table_id)
        await entry.table.stop()
        self.bus.close(table_id, moving=True)

    async def close_all(self) -> None:
        """The room is stopping: a hand in play is cancelled (every chip goes
        back, its history is kept); the players stay seated, so the tables come
        back with them at the next start (if the room has a keeper)."""
        for table_id in list(self.tables):
            entry = self.tables.pop(table_id)
            self.bus.closing(table_id)
            table = entry.table
            if table.hand is not None and table.running:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(table.cancel_hand("the server is stopping"), 10)
            await table.stop()
            self.bus.close(table_id, moving=True)  # not closed: back at the next start

    def spec_of(self, table_id: str) -> TableSpec | None:
        """An open table's spec (from the room's directory: any node's table), or None."""
        listed = self.room_bus.directory().get(table_id)
        return None if listed is None else listed.spec

    def listing(
        self, visible: Callable[[str, TableSpec], bool] | None = None
    ) -> list[dict[str, Any]]:
        """What the lobby shows of each table (``LobbyTable``), from the directory;
        only the tables ``visible(table_id, spec)`` lets through, if given."""
        return [
            to_json(lobby_table(t.table_id, t.name, t.spec, t.status))
            for t in self.room_bus.directory().values()
            if (visible is None or visible(t.table_id, t.spec)) and t.table_id not in self.hidden
        ]
