"""A tournament's books: the :class:`~stud8.server.table.books.TableBooks` of its
tables (:class:`RunnerBooks`: no room chip moves, since tournament chips are the
director's; a hand is noted before it is dealt, and its end goes to the tournament's
owner task, :mod:`stud8.server.tournaments.runner`, which keeps its record and the
director's state in one transaction), and the money its director's decisions move
(:func:`money_of`: buy-ins, refunds, prizes)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import partial
from typing import Protocol

from sqlalchemy import Connection

from stud8.server.books.hands import HandStore
from stud8.server.books.tournaments import TournamentStore
from stud8.server.books.writer import Writes
from stud8.server.table.books import BooksRefused, HandEnd, HandNote
from stud8.tournament.director import Director
from stud8.tournament.events import Cancelled, Decision, Finished, Registered, Unregistered

__all__ = ["Runner", "RunnerBooks", "money_of"]


class Runner(Protocol):
    """What the books need of the tournament's owner task."""

    @property
    def writer(self) -> Writes: ...

    async def hand_ended(self, end: HandEnd) -> None: ...


class RunnerBooks:
    """The :class:`~stud8.server.table.books.TableBooks` of a tournament's tables: no
    room chip moves (tournament chips are the director's); a hand is noted before it
    is dealt, and its end goes to the runner (record and state in one transaction)."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    async def sit(
        self, table_id: str, seat: int, player: str, amount: int, *, bot: bool = False
    ) -> None:
        raise BooksRefused("the tournament seats its players")

    async def top_up(
        self, table_id: str, seat: int, player: str, amount: int, *, partial: bool = False
    ) -> int:
        raise BooksRefused("tournament chips are not bought")

    async def stand(self, table_id: str, seat: int, player: str, chips: int) -> None:
        return  # tournament chips go nowhere: the director counts them

    async def hand_dealt(self, note: HandNote) -> None:
        seats = {seat: (player, chips) for seat, player, chips in note.seats}
        await self.runner.writer.call(
            lambda conn: HandStore.begin_in(
                conn, note.hand_id, note.table_id, seats, note.started_at
            ),
            what=f"the note of hand {note.hand_id}",
        )

    async def hand_ended(self, end: HandEnd) -> None:
        await self.runner.hand_ended(end)


def money_of(
    store: TournamentStore,
    tid: int,
    td: Director,
    decisions: tuple[Decision, ...],
    bots: Collection[str],
) -> Callable[[Connection], None]:
    """The money the director's ``decisions`` move (buy-ins, refunds, prizes; ``bots``:
    the players who are bots), as one piece of work for the writer, in the
    transaction of the tournament's new state."""
    d = td.definition
    steps: list[Callable[[Connection], None]] = []
    for x in decisions:
        if isinstance(x, Registered):
            steps.append(
                partial(
                    store.register_in,
                    tournament=tid,
                    entry=x.entry,
                    player=x.player,
                    buy_in=d.buy_in,
                    fee=d.fee,
                    bot=x.player in bots,
                )
            )
        elif isinstance(x, Unregistered):
            steps.append(
                partial(
                    store.unregister_in,
                    tournament=tid,
                    entry=x.entry,
                    player=x.player,
                    buy_in=d.buy_in,
                    fee=d.fee,
                )
            )
        elif isinstance(x, Cancelled):
            entries = [(e.entry, e.player) for e in td.entries.values()]
            steps.append(
                partial(
                    store.cancel_in, tournament=tid, entries=entries, buy_in=d.buy_in, fee=d.fee
                )
            )
        elif isinstance(x, Finished):
            rows = [(r.entry, r.player, r.place, r.shared, r.prize) for r in x.results]
            steps.append(partial(store.pay_prizes_in, tournament=tid, results=rows))

    def run(conn: Connection) -> None:
        for step in steps:
            step(conn)

    return run
