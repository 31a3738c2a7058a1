"""The room's tournaments: create, list, register, cancel, and bring them back.

:class:`Tournaments` holds one :class:`~stud8.server.tournaments.runner.TournamentRunner`
(the owner task) per tournament not over, runs their tables on the room's bus (the
edge finds a tournament's table as any other: ``/ws/v1/tables/{table_id}``; the
cash lobby does not list it), and answers the lobby's questions from the runners
and, for the tournaments over, from the database.

Tournaments need the room's database (the ledger holds their prize pools): a room in
memory has none. A room on several nodes runs them on the node that made them (a
tournament's tables are not handed over between nodes yet).

At startup (:meth:`Tournaments.restore`), after the room's recovery has cancelled the
hands cut short, every tournament registering or running comes back: same level,
same time left, same seats, each hand cut short cancelled (every player's
tournament chips as at its deal) and dealt again.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable
from datetime import datetime
from typing import Any

from stud8.core.cards import Deck
from stud8.server.books.tournaments import StoredTournament, TournamentStore
from stud8.server.books.writer import RoomWriter
from stud8.server.bus.local import LocalBus
from stud8.server.clock import Clock
from stud8.server.table.spec import TableSpec
from stud8.server.table.tournament import TournamentTable
from stud8.server.tournaments.runner import TournamentRefused, TournamentRunner
from stud8.server.tournaments.views import detail_of, summary_of
from stud8.server.wire.codec import to_json
from stud8.server.wire.tournaments import NewTournament
from stud8.tools.bots import BOTS
from stud8.tournament import (
    STRUCTURES,
    Break,
    DefinitionError,
    Start,
    Structure,
    TournamentDefinition,
)
from stud8.tournament.director import Director, DirectorError
from stud8.tournament.structures import ladder_structure

__all__ = ["NoSuchTournament", "Tournaments", "definition_of"]

log = logging.getLogger("stud8.server")

MAX_BOTS = 100  # bots registered in one request


class NoSuchTournament(LookupError):
    """No tournament has this id."""


def definition_of(request: NewTournament) -> TournamentDefinition:
    """The definition an operator asked for; :class:`DefinitionError` says what is wrong."""
    from stud8.core.rules import Game

    structure = STRUCTURES.get(request.structure)
    if structure is None:
        raise DefinitionError(
            f"structure: one of {', '.join(STRUCTURES)}, not {request.structure!r}"
        )
    chips, hands = request.starting_chips, request.level_hands
    if chips is not None or hands is not None:
        if hands is not None and (isinstance(hands, bool) or not 1 <= hands <= 1000):
            raise DefinitionError(f"level_hands: 1 to 1000 hands, not {hands!r}")
        minutes = None if hands is not None else structure.levels[0].minutes
        try:
            structure = ladder_structure(
                structure.name,
                starting_chips=structure.starting_chips if chips is None else chips,
                minutes=minutes,
                hands=hands,
                break_every=0 if hands is not None else _break_every(structure),
            )
        except ValueError as exc:
            raise DefinitionError(str(exc)) from None
    try:
        game = Game(request.game)
    except ValueError:
        raise DefinitionError(
            f"game: one of {', '.join(g.value for g in Game)}, not {request.game!r}"
        ) from None
    try:
        start = Start(request.start)
    except ValueError:
        raise DefinitionError(
            f"start: one of {', '.join(s.value for s in Start)}, not {request.start!r}"
        ) from None
    starts_at = None
    if request.starts_at is not None:
        try:
            starts_at = datetime.fromisoformat(request.starts_at)
        except ValueError:
            raise DefinitionError(
                f"starts_at: an ISO 8601 time, not {request.starts_at!r}"
            ) from None
    name = request.name.strip()
    if not 1 <= len(name) <= 60 or not name.isprintable():
        raise DefinitionError("name: 1 to 60 printable characters")
    return TournamentDefinition(
        name=name,
        game=game,
        structure=structure,
        buy_in=request.buy_in,
        fee=request.fee,
        table_size=request.table_size,
        min_entrants=request.min_entrants,
        max_entrants=request.max_entrants,
        start=start,
        starts_at=starts_at,
        late_registration=request.late_registration,
        reentries=request.reentries,
        payouts=None if request.payouts is None else tuple(request.payouts),
    )


def _break_every(structure: Structure) -> int:
    """After how many levels the ready structure breaks (0: never)."""
    for i, step in enumerate(structure.steps):
        if isinstance(step, Break):
            return i
    return 0


class Tournaments:
    """The room's tournaments (see the module)."""

    def __init__(
        self,
        *,
        store: TournamentStore,
        writer: RoomWriter,
        bus: LocalBus,
        clock: Clock,
        spec: TableSpec,
        bot_names: Callable[[], str],
        deck_source: Callable[[], Deck] = Deck.shuffled,
    ) -> None:
        self.store = store
        self.writer = writer
        self.bus = bus
        self.clock = clock
        self.spec = spec  # the pace and clocks of a tournament's tables
        self.bot_names = bot_names
        self.deck_source = deck_source
        self.runners: dict[int, TournamentRunner] = {}
        self.hidden: set[str] = set()  # the tables of the tournaments (not in the cash lobby)
        self._lock = asyncio.Lock()

    # ------------------------------------------------------------ the tables (TableHost)
    def open_table(self, table_id: str, name: str, spec: TableSpec, books: Any) -> TournamentTable:
        config = spec.config(table_id, first_seq=int(self.clock.wall().timestamp() * 1_000_000))
        table = TournamentTable(config, books=books, clock=self.clock, deck_source=self.deck_source)
        self.hidden.add(table_id)
        self.bus.open(table, name, spec)
        table.start()
        return table

    async def close_table(self, table: TournamentTable) -> None:
        table_id = table.table_id
        hosted = self.bus.hosts(table_id)
        if hosted:
            self.bus.closing(table_id)
        await table.stop()
        if hosted:
            self.bus.close(table_id)
        self.hidden.discard(table_id)

    # ------------------------------------------------------------ making them
    def _runner(
        self, tid: int, director: Director, state: dict[str, Any] | None
    ) -> TournamentRunner:
        state = state or {}
        tables = {int(n): t for n, t in (state.get("tables") or {}).items()}
        runner = TournamentRunner(
            tournament_id=tid,
            director=director,
            host=self,
            store=self.store,
            writer=self.writer,
            clock=self.clock,
            spec=self.spec,
            tables=tables,
            bots=dict(state.get("bots") or {}),
            cancelled=bool(state.get("cancelled", False)),
        )
        self.runners[tid] = runner
        return runner

    async def create(self, definition: TournamentDefinition) -> int:
        """A new tournament, open for registration; its id."""
        director = Director(definition, rng=random.Random(secrets.randbits(128)))
        data, store = definition.to_dict(), self.store

        def work(conn: Any) -> int:
            tid = store.create_in(conn, definition.name, data, "registering")
            store.save_in(conn, tid, "registering", {"director": director.to_dict()})
            return tid

        tid = await self.writer.call(work, what="a new tournament")
        runner = self._runner(tid, director, None)
        runner.start()
        log.info("tournament %d (%s) is open for registration", tid, definition.name)
        return tid

    async def restore(self) -> None:
        """Bring back every tournament registering or running (see the module)."""
        stored = await asyncio.to_thread(self.store.tournaments)
        for t in stored:
            if t.phase in ("finished", "cancelled") or t.state is None:
                continue
            try:
                director = Director.from_dict(t.state["director"])
            except (DirectorError, KeyError, TypeError) as exc:
                log.error("tournament %d cannot come back: %s", t.tournament_id, exc)
                continue
            runner = self._runner(t.tournament_id, director, t.state)
            runner.start(resume=True)
            log.info("tournament %d is back (%s)", t.tournament_id, runner.phase)

    async def stop(self) -> None:
        """The room is stopping: the runners and their tables stop as they are."""
        for runner in list(self.runners.values()):
            await runner.stop()

    # ------------------------------------------------------------ requests
    def runner(self, tid: int) -> TournamentRunner:
        runner = self.runners.get(tid)
        if runner is None:
            if any(t.tournament_id == tid for t in self.store.tournaments()):
                raise TournamentRefused(f"tournament {tid} is over")
            raise NoSuchTournament(f"no tournament {tid}")
        return runner

    async def register(self, tid: int, player: str) -> int:
        return await self.runner(tid).register(player)

    async def unregister(self, tid: int, player: str) -> None:
        await self.runner(tid).unregister(player)

    async def cancel(self, tid: int) -> None:
        await self.runner(tid).cancel()

    async def add_bots(self, tid: int, count: int, policy: str) -> list[tuple[int, str]]:
        """Register ``count`` bots of ``policy``: their entries and names."""
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_BOTS:
            raise TournamentRefused(f"count: 1 to {MAX_BOTS} bots, not {count!r}")
        if policy not in BOTS:
            raise TournamentRefused(f"policy: one of {', '.join(BOTS)}, not {policy!r}")
        runner = self.runner(tid)
        made: list[tuple[int, str]] = []
        for _ in range(count):
            name = self.bot_names()
            made.append((await runner.register(name, bot=policy), name))
            if runner.over or not runner.director.registration_open:
                break
        return made

    # ------------------------------------------------------------ reading
    def _stored_director(self, t: StoredTournament) -> Director | None:
        if t.state is None:
            return None
        try:
            return Director.from_dict(t.state["director"])
        except (DirectorError, KeyError, TypeError):
            return None

    def listing(self) -> list[dict[str, Any]]:
        """Every tournament as the lobby lists it (``TournamentSummary``)."""
        out = []
        for t in self.store.tournaments():
            runner = self.runners.get(t.tournament_id)
            if runner is not None:
                out.append(to_json(summary_of(t.tournament_id, runner.director, runner.phase)))
                continue
            director = self._stored_director(t)
            if director is not None:
                out.append(to_json(summary_of(t.tournament_id, director, t.phase)))
        return out

    def detail(self, tid: int) -> dict[str, Any]:
        """One tournament whole (``TournamentDetail``); NoSuchTournament if none."""
        runner = self.runners.get(tid)
        entries = {e.entry: e for e in self.store.entries(tid)}
        if runner is not None:
            return dict(to_json(detail_of(tid, runner.director, runner.phase, runner.tables,
                                     set(runner.bots), entries, runner.now())))  # fmt: skip
        for t in self.store.tournaments():
            if t.tournament_id == tid:
                director = self._stored_director(t)
                if director is None:
                    break
                tables = {int(n): v for n, v in (t.state or {}).get("tables", {}).items()}
                bots = set((t.state or {}).get("bots", {}))
                return dict(to_json(detail_of(tid, director, t.phase, tables, bots, entries,
                                         self.clock.wall().timestamp())))  # fmt: skip
        raise NoSuchTournament(f"no tournament {tid}")

    def stored(self, tid: int) -> tuple[StoredTournament, Director]:
        for t in self.store.tournaments():
            if t.tournament_id == tid:
                runner = self.runners.get(tid)
                director = runner.director if runner is not None else self._stored_director(t)
                if director is not None:
                    return t, director
        raise NoSuchTournament(f"no tournament {tid}")
