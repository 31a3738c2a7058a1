"""The lobby: the room's tables, creating and closing them, and what the lobby shows.

Each table runs its own owner task (:class:`stud8.server.table.Table`); the lobby
follows each as an observer to count its hands and pots (average pot, hands per
hour), and keeps who is connected to which table (so a player with two windows
open is disconnected only when the last one closes).
"""

from __future__ import annotations

import itertools
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from stud8.core.cards import Deck
from stud8.core.events import PotAwarded, RakeTaken
from stud8.core.rules import BettingStructure, TableRules
from stud8.server.bank import ChipBank
from stud8.server.clock import Clock
from stud8.server.table import RecordSink, Subscription, Table
from stud8.server.table_events import HandFinished, HandStarted, Numbered
from stud8.server.table_state import Leave, SeatBot, TableConfig


@runtime_checkable
class Issuer(Protocol):
    """A bank that can open play chips for an account (bots get theirs this way)."""

    def issue(self, player: str, amount: int) -> None: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSpec:
    """What an operator asks for when creating a table (all amounts in chips)."""

    ante: int = 1
    bring_in: int = 2
    small_bet: int = 4
    big_bet: int = 8
    structure: str = "fixed_limit"
    seats: int = 8
    min_buy_in: int = 40
    max_buy_in: int = 400
    action_seconds: int = 10
    time_bank_seconds: int = 20
    reconnect_seconds: int = 20
    rake_percent: str = "0"
    rake_cap: int | None = None
    bots: int = 0
    bot_policy: str = "rules"
    between_hands: float = 2.0
    bot_delay: float = 0.5

    def rules(self) -> TableRules:
        return TableRules(
            ante=self.ante,
            bring_in=self.bring_in,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            structure=BettingStructure(self.structure),
            rake_percent=Fraction(self.rake_percent),
            rake_cap=self.rake_cap,
            action_seconds=self.action_seconds,
            time_bank_seconds=self.time_bank_seconds,
            reconnect_seconds=self.reconnect_seconds,
            max_seats=self.seats,
        )


@dataclass(slots=True)
class TableEntry:
    table: Table
    spec: TableSpec
    created: float
    watcher: Subscription | None = None
    pots: deque[tuple[float, int]] = field(default_factory=lambda: deque(maxlen=200))
    connections: Counter[str] = field(default_factory=Counter)
    closed: bool = False
    _pot: int = 0

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
        bank: ChipBank,
        clock: Clock,
        deck_source: Callable[[], Deck] = Deck.shuffled,
        record_sink: RecordSink | None = None,
    ) -> None:
        self._bank = bank
        self._clock = clock
        self._deck_source = deck_source
        self._record_sink = record_sink
        self.tables: dict[str, TableEntry] = {}
        self._numbers = itertools.count(1)
        self._bot_numbers = itertools.count(1)

    def get(self, table_id: str) -> TableEntry | None:
        return self.tables.get(table_id)

    async def create(self, spec: TableSpec, table_id: str | None = None) -> Table:
        """Start a table (and seat its bots); LobbyError if the spec is not valid."""
        if table_id is None:
            table_id = f"t{next(self._numbers)}"
            while table_id in self.tables:
                table_id = f"t{next(self._numbers)}"
        if table_id in self.tables:
            raise LobbyError(f"there is already a table {table_id}")
        try:
            rules = spec.rules()
            config = TableConfig(
                table_id=table_id,
                rules=rules,
                min_buy_in=spec.min_buy_in,
                max_buy_in=spec.max_buy_in,
                between_hands=spec.between_hands,
                bot_delay=spec.bot_delay,
            )
        except (ValueError, ZeroDivisionError) as exc:
            raise LobbyError(str(exc)) from None
        if not 0 <= spec.bots <= rules.max_seats:
            raise LobbyError(f"bots must be 0 to {rules.max_seats}, got {spec.bots}")
        if spec.between_hands < 0 or spec.bot_delay < 0:
            raise LobbyError("between_hands and bot_delay must be 0 or more")
        if spec.bots and not isinstance(self._bank, Issuer):
            raise LobbyError("this bank cannot fund bots")
        table = Table(
            config,
            bank=self._bank,
            clock=self._clock,
            deck_source=self._deck_source,
            record_sink=self._record_sink,
        )
        entry = TableEntry(table, spec, self._clock.now())
        self.tables[table_id] = entry
        table.start()
        clock = self._clock
        entry.watcher = table.subscribe(None, lambda item: entry.follow(item, clock.now()))
        for seat in range(1, spec.bots + 1):
            await self.seat_bot(table_id, seat, spec.max_buy_in, spec.bot_policy)
        return table

    async def seat_bot(self, table_id: str, seat: int, amount: int, policy: str = "rules") -> None:
        entry = self.tables.get(table_id)
        if entry is None:
            raise LobbyError(f"no table {table_id}")
        name = f"bot{next(self._bot_numbers)}"
        bank = self._bank
        if not isinstance(bank, Issuer):
            raise LobbyError("this bank cannot fund bots")
        bank.issue(name, amount)
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
        if table.hand is not None:
            await table.cancel_hand("the table is closing")
        entry.closed = True
        for seat in list(table.seats.values()):
            await table.submit(Leave(player=seat.player))
        await table.stop()
        if entry.watcher is not None:
            entry.watcher.close()
        del self.tables[table_id]

    async def close_all(self) -> None:
        for table_id in list(self.tables):
            entry = self.tables.pop(table_id)
            entry.closed = True
            await entry.table.stop()

    def listing(self) -> list[dict[str, Any]]:
        """What the lobby shows of each table."""
        now = self._clock.now()
        out = []
        for table_id, entry in self.tables.items():
            table, spec = entry.table, entry.spec
            recent = [pot for when, pot in entry.pots if now - when <= 3600]
            elapsed = max(1.0, min(3600.0, now - entry.created))
            out.append(
                {
                    "table_id": table_id,
                    "game": table.rules.game.value,
                    "structure": table.rules.structure.value,
                    "stakes": {
                        "ante": spec.ante,
                        "bring_in": spec.bring_in,
                        "small_bet": spec.small_bet,
                        "big_bet": spec.big_bet,
                    },
                    "buy_in": {"min": spec.min_buy_in, "max": spec.max_buy_in},
                    "seats": table.rules.max_seats,
                    "seats_taken": len(table.seats),
                    "players": [s.player for _, s in sorted(table.seats.items())],
                    "average_pot": round(sum(recent) / len(recent), 1) if recent else 0,
                    "hands_per_hour": round(len(recent) * 3600 / elapsed, 1),
                    "hands_played": table.hands_played,
                }
            )
        return out
