"""A table on a manual clock with its books in memory, and players who play it
passively: the shared helpers of the table tests.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Iterator

from server.manualtable import ClockedTable
from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.rules import TableRules
from stud8.formats.record import HandRecord
from stud8.server.books.memory import MemoryBooks
from stud8.server.clock import ManualClock
from stud8.server.table.books import HandEnd, HandNote
from stud8.server.table.commands import Act, Sit
from stud8.server.table.events import Numbered
from stud8.server.table.owner import Table
from stud8.server.table.rotation import Rotation
from stud8.server.table.spec import TableConfig

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
PLAYERS = ("ann", "bob", "cat")


class Harness(ClockedTable):
    """A table on a manual clock with its books in memory (``books.hands``: the
    hands it ended)."""

    def __init__(
        self,
        *,
        decks: Iterator[Deck] | None = None,
        between_hands: float = 5.0,
        history_size: int = 2000,
        accounts: dict[str, int] | None = None,
        books: MemoryBooks | None = None,
        rotation: Rotation | None = None,
        hands_dealt: int = 0,
    ) -> None:
        self.clock = ManualClock()
        self.books = books or MemoryBooks(accounts or {p: 1000 for p in PLAYERS})
        seeds = itertools.count(1)
        source: Callable[[], Deck] = (
            (lambda: next(decks)) if decks is not None else (lambda: Deck.seeded(next(seeds)))
        )
        self.table = Table(
            TableConfig(
                table_id="t1",
                rules=RULES,
                min_buy_in=20,
                max_buy_in=200,
                between_hands=between_hands,
                bot_delay=0.0,
                history_size=history_size,
                rotation=rotation,
                hands_dealt=hands_dealt,
            ),
            books=self.books,
            clock=self.clock,
            deck_source=source,
            bot_seed=7,
        )
        self._ids = itertools.count()

    @property
    def records(self) -> list[HandRecord]:
        """The records of the hands the table ended, in order."""
        return [end.record for end in self.books.ended.values()]

    def act(self, player: str, kind: str, amount: int | None = None) -> Act:
        action = make_action(kind, amount)
        return Act(player=player, action=action, command_id=f"c{next(self._ids)}")

    def watch(self) -> list[Numbered]:
        """Every event the table emits from now on, whole, in a list."""
        seen: list[Numbered] = []
        self.table.listen(seen.append)
        return seen


def run(body: Callable[[Harness], Awaitable[None]], **kwargs: object) -> None:
    """Run a test body against a started table; the table is stopped after."""

    async def main() -> None:
        h = Harness(**kwargs)  # type: ignore[arg-type]
        h.table.start()
        try:
            await asyncio.wait_for(body(h), timeout=60)
        finally:
            await h.table.stop()

    asyncio.run(main())


async def seat_players(h: Harness, n: int, chips: int = 100) -> None:
    for i, player in enumerate(PLAYERS[:n]):
        reply = await h.send(Sit(player=player, seat=i + 1, amount=chips))
        assert reply.ok, reply


async def play_passively(h: Harness) -> None:
    """Everyone checks or calls (or brings in) through commands, to the end."""
    while (hand := h.table.hand) is not None:
        seat = hand.to_act
        assert seat is not None
        player = h.table.seats[seat].player
        legal = {a.kind for a in hand.legal_actions()}
        kind = next(
            k for k in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN) if k in legal
        )
        reply = await h.send(h.act(player, kind.value))
        assert reply.ok, reply


class FlakyBooks(MemoryBooks):
    """Books whose next ``ends`` hand ends and ``notes`` hand notes fail, as when the
    database is unreachable."""

    def __init__(self, *, ends: int = 0, notes: int = 0, stands: int = 0) -> None:
        super().__init__({p: 1000 for p in PLAYERS})
        self.ends, self.notes, self.stands = ends, notes, stands
        self.attempts = 0

    async def stand(self, table_id: str, seat: int, player: str, chips: int) -> None:
        if self.stands > 0:
            self.stands -= 1
            raise OSError("the database is unreachable")
        await super().stand(table_id, seat, player, chips)

    async def hand_ended(self, end: HandEnd) -> None:
        self.attempts += 1
        if self.ends > 0:
            self.ends -= 1
            raise OSError("the database is unreachable")
        await super().hand_ended(end)

    async def hand_dealt(self, note: HandNote) -> None:
        if self.notes > 0:
            self.notes -= 1
            raise OSError("the database is unreachable")
        await super().hand_dealt(note)
