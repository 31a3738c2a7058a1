"""The lobby: the room's tables, creating and closing them, and what the lobby shows.

Each table runs its own owner task (:class:`stud8.server.table.owner.Table`); the lobby
follows each as an observer to count its hands and pots (average pot, hands per
hour), and keeps who is connected to which table (so a player with two windows
open is disconnected only when the last one closes).

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
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from stud8.core.cards import Deck
from stud8.core.events import PotAwarded, RakeTaken
from stud8.server.clock import Clock
from stud8.server.table.books import TableBooks
from stud8.server.table.commands import Leave, SeatBot
from stud8.server.table.events import HandFinished, HandStarted, Numbered
from stud8.server.table.owner import Subscription, Table
from stud8.server.table.spec import TableSpec


@dataclass(frozen=True, slots=True)
class Reseat:
    """A seat coming back after a restart; its chips never left the table."""

    seat: int
    player: str
    chips: int
    bot: bool = False


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


@dataclass(slots=True)
class TableEntry:
    table: Table
    spec: TableSpec
    created: float
    name: str = ""
    watcher: Subscription | None = None
    pots: deque[tuple[float, int]] = field(default_factory=lambda: deque(maxlen=200))
    connections: Counter[str] = field(default_factory=Counter)
    closed: bool = False
    _pot: int = 0

    def info(self) -> dict[str, Any]:
        """The table's rules, as the lobby lists them and a websocket's ``welcome``
        gives them (``TableInfo`` in :mod:`stud8.server.wire.rest`)."""
        table, spec = self.table, self.spec
        rules = table.rules
        return {
            "table_id": table.table_id,
            "name": self.name or table.table_id,
            "game": rules.game.value,
            "structure": rules.structure.value,
            "stakes": {
                "ante": rules.ante,
                "bring_in": rules.bring_in,
                "small_bet": rules.small_bet,
                "big_bet": rules.big_bet,
            },
            "buy_in": {"min": spec.min_buy_in, "max": spec.max_buy_in},
            "seats": rules.max_seats,
            "action_seconds": rules.action_seconds,
            "time_bank_seconds": rules.time_bank_seconds,
            "reconnect_seconds": rules.reconnect_seconds,
            "timeout_policy": rules.timeout_policy.value,
            "offer_seconds": spec.offer_seconds,
            "sit_out_seconds": spec.sit_out_seconds,
            "rake_percent": str(rules.rake_percent),
            "rake_cap": rules.rake_cap,
        }

    def follow(self, item: Numbered, now: float) -> None:
        event = item.event
        if isinstance(event, HandStarted):
            self._pot = 0
        elif isinstance(event, (PotAwarded, RakeTaken)):
            self._pot += event.amount
        elif isinstance(event, HandFinished) and not event.cancelled:
            self.pots.append((now, self._pot))


class LobbyError(Exception):
    """A lobby request that cannot be done (an unknown table, bad settings, ...)."""


class Lobby:
    def __init__(
        self,
        *,
        books: TableBooks,
        clock: Clock,
        deck_source: Callable[[], Deck] = Deck.shuffled,
        keeper: TableKeeper | None = None,
    ) -> None:
        self._books = books
        self._clock = clock
        self._deck_source = deck_source
        self._keeper = keeper
        self.tables: dict[str, TableEntry] = {}
        self._used: set[str] = set()  # every table id the room ever had
        self._numbers = itertools.count(1)
        self._bot_numbers = itertools.count(1)

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

    async def reopen(
        self, table_id: str, name: str, spec: TableSpec, seats: Sequence[Reseat]
    ) -> Table:
        """Start a table of the last run again, with its players in their seats
        (:meth:`Table.restore_seat`) and bots in free seats up to ``spec.bots``."""
        if table_id in self.tables:
            raise LobbyError(f"there is already a table {table_id}")
        return await self._open(table_id, name, spec, seats, new=False)

    async def _open(
        self, table_id: str, name: str, spec: TableSpec, seats: Sequence[Reseat], *, new: bool
    ) -> Table:
        try:
            # a table back after a restart numbers its events from the wall clock in
            # microseconds: above any number it gave before
            first_seq = 0 if new else int(self._clock.wall().timestamp() * 1_000_000)
            config = spec.config(table_id, first_seq=first_seq)
        except (ValueError, ZeroDivisionError) as exc:
            raise LobbyError(str(exc)) from None
        rules = config.rules
        if len(name) > 100:
            raise LobbyError("a table's name is at most 100 characters")
        table = Table(
            config,
            books=self._books,
            clock=self._clock,
            deck_source=self._deck_source,
        )
        keeper = self._keeper
        self._used.add(table_id)  # before the await: a second create of it is refused
        if keeper is not None and new:
            try:
                await asyncio.to_thread(keeper.opened, table_id, name, spec)
            except BaseException:
                self._used.discard(table_id)
                raise
        entry = TableEntry(table, spec, self._clock.now(), name)
        clock = self._clock
        entry.watcher = table.subscribe(None, lambda item: entry.follow(item, clock.now()))
        for reseat in seats:
            policy = spec.bot_policy if reseat.bot else None
            table.restore_seat(reseat.seat, reseat.player, reseat.chips, bot=policy)
        self.tables[table_id] = entry
        table.start()
        bots = sum(1 for reseat in seats if reseat.bot)
        free = [n for n in range(1, rules.max_seats + 1) if n not in table.seats]
        for seat in free[: max(0, spec.bots - bots)]:
            await self.seat_bot(table_id, seat, spec.max_buy_in, spec.bot_policy)
        return table

    async def seat_bot(self, table_id: str, seat: int, amount: int, policy: str = "rules") -> None:
        entry = self.tables.get(table_id)
        if entry is None:
            raise LobbyError(f"no table {table_id}")
        name = f"bot{next(self._bot_numbers)}"
        reply = await entry.table.submit(
            SeatBot(player=name, seat=seat, amount=amount, policy=policy)
        )
        if not reply.ok:
            raise LobbyError(f"cannot seat a bot at {table_id} seat {seat}: {reply.reason}")

    async def close(self, table_id: str) -> None:
        """Stop a table: a hand in play is cancelled (refunded), everyone cashes out."""
        entry = self.tables.get(table_id)
        if entry is None:
            raise LobbyError(f"no table {table_id}")
        table = entry.table
        entry.closed = True
        if self._keeper is not None:
            await asyncio.to_thread(self._keeper.closed, table_id)
        if table.hand is not None:
            await table.cancel_hand("the table is closing")
        for seat in list(table.seats.values()):
            await table.submit(Leave(player=seat.player, reason="table_closed"))
        await self._stop(entry)
        del self.tables[table_id]

    async def close_all(self) -> None:
        """The room is stopping: a hand in play is cancelled (every chip goes
        back, its history is kept); the players stay seated, so the tables come
        back with them at the next start (if the room has a keeper)."""
        for table_id in list(self.tables):
            entry = self.tables.pop(table_id)
            entry.closed = True
            table = entry.table
            if table.hand is not None and table.running:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(table.cancel_hand("the server is stopping"), 10)
            await self._stop(entry)

    @staticmethod
    async def _stop(entry: TableEntry) -> None:
        await entry.table.stop()
        if entry.watcher is not None:
            entry.watcher.close()

    def listing(self) -> list[dict[str, Any]]:
        """What the lobby shows of each table."""
        now = self._clock.now()
        out = []
        for entry in self.tables.values():
            table = entry.table
            recent = [pot for when, pot in entry.pots if now - when <= 3600]
            elapsed = max(1.0, min(3600.0, now - entry.created))
            out.append(
                {
                    **entry.info(),
                    "seats_taken": len(table.seats),
                    "players": [s.player for _, s in sorted(table.seats.items())],
                    "waiting": len(table.waiting.players),
                    "average_pot": round(sum(recent) / len(recent), 1) if recent else 0,
                    "hands_per_hour": round(len(recent) * 3600 / elapsed, 1),
                    "hands_played": table.hands_played,
                    "paused": table.paused,
                }
            )
        return out
