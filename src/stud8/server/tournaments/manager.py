"""The room's tournaments: create, list, register, cancel, and bring them back.

:class:`Tournaments` holds one :class:`~stud8.server.tournaments.runner.TournamentRunner`
(the owner task) per tournament not over, runs their tables on the room's bus (the
edge finds a tournament's table as any other: ``/ws/v1/tables/{table_id}``; the
cash lobby does not list it), and answers the lobby's questions from the runners
and, for the tournaments over, from the database.

Tournaments need the room's database (the ledger holds their prize pools): a room in
memory has none. On a room of several nodes each tournament has one owner node at a
time (a lease in Redis, fenced in the database: :mod:`stud8.server.cluster.tournaments`,
the ``cluster`` given here), which runs its owner task and its tables; every other
node reads it from the database and hands the requests that change it
(register, unregister, bots, cancel) to its owner.

At startup (:meth:`Tournaments.restore`), after the room's recovery has cancelled the
hands cut short, every tournament registering or running comes back: same level,
same time left, same seats, each hand cut short cancelled (every player's
tournament chips as at its deal) and dealt again; each table tells the hands of it a
restart cancelled (``hand_refunded``, and its snapshot's ``refunded``), as a cash
table does.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol

from stud8.core.cards import Deck
from stud8.server.books.hands import HandStore
from stud8.server.books.recovery import cut_short_at
from stud8.server.books.tournaments import StoredTournament, TournamentStore
from stud8.server.books.writer import RoomWriter, Writes
from stud8.server.bus.local import LocalBus
from stud8.server.clock import Clock
from stud8.server.table.events import HandRefunded
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableSpec
from stud8.server.table.tournament import tournament_table
from stud8.server.tournaments.runner import TournamentRefused, TournamentRunner, room_table_of
from stud8.server.tournaments.views import console_line, detail_of, summary_of
from stud8.server.wire.admin import ConsoleTournament
from stud8.server.wire.codec import to_json
from stud8.server.wire.limits import TOURNAMENT_NAME_CHARS
from stud8.server.wire.text import TextRefused, typed_text
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
from stud8.tournament.director import Director, DirectorError, Phase
from stud8.tournament.structures import ladder_structure

__all__ = [
    "NoSuchTournament",
    "TournamentCluster",
    "TournamentElsewhere",
    "Tournaments",
    "definition_of",
]

log = logging.getLogger("stud8.server")

MAX_BOTS = 100  # bots registered in one request


class NoSuchTournament(LookupError):
    """No tournament has this id."""


class TournamentElsewhere(Exception):
    """The tournament's owner node cannot be reached now (it is moving to another
    node, or its owner is gone and not yet replaced): try again in a few seconds."""


class TournamentCluster(Protocol):
    """A room on several nodes, as the tournaments see it
    (:class:`stud8.server.cluster.tournaments.ClusterTournaments`)."""

    def writer_for(self, tid: int) -> Writes:
        """The writer of this tournament's owner task: fenced by its epoch."""
        ...

    async def claim(self, tid: int) -> bool:
        """Make this node the owner of a new tournament (its lease and its epoch)."""
        ...

    async def forward(self, tid: int, action: str, args: dict[str, Any]) -> Any:
        """Have the owner node do ``action``; its answer, or the error it raised."""
        ...


# a tournament's room table: ``T<tournament>-<n>`` (a cash table's id is an identifier)
TOURNAMENT_TABLE = re.compile(r"T[0-9]+-[0-9]+")


class TournamentTables(set[str]):
    """The tournaments' tables, which the cash lobby does not list: those opened
    here, and (a room on several nodes) any other node's, by their id."""

    def __contains__(self, table_id: object) -> bool:
        return isinstance(table_id, str) and (
            super().__contains__(table_id) or TOURNAMENT_TABLE.fullmatch(table_id) is not None
        )


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
    try:
        name = typed_text(request.name, "name", TOURNAMENT_NAME_CHARS)
    except TextRefused as exc:
        raise DefinitionError(str(exc)) from None
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


async def _between_hands(runner: TournamentRunner) -> None:
    """Until no table of the tournament is in a hand nor will deal one (each hand's
    end taken by the director first; a table it opened meanwhile too)."""
    while True:
        tables = list(runner.running.values())
        await asyncio.gather(*(table.hand_over() for table in tables))
        await runner.settled()
        handed = {id(table) for table in tables}
        if all(id(t) in handed and t.hand is None for t in runner.running.values()):
            return


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
        cluster: TournamentCluster | None = None,
    ) -> None:
        self.cluster = cluster
        self.store = store
        self.writer = writer
        self.bus = bus
        self.clock = clock
        self.spec = spec  # the pace and clocks of a tournament's tables
        self.bot_names = bot_names
        self.deck_source = deck_source
        self.runners: dict[int, TournamentRunner] = {}
        self.hidden = TournamentTables()  # the tables of the tournaments (not in the cash lobby)
        self._moving: set[str] = set()  # tables going to another node with their tournament
        self._lock = asyncio.Lock()

    # ------------------------------------------------------------ the tables (TableHost)
    def open_table(
        self,
        table_id: str,
        name: str,
        spec: TableSpec,
        books: Any,
        refunded: Sequence[HandRefunded] = (),
    ) -> Table:
        config = spec.config(table_id, first_seq=int(self.clock.wall().timestamp() * 1_000_000))
        table = tournament_table(
            config, books=books, clock=self.clock, deck_source=self.deck_source
        )
        if refunded:
            table.restore_refunded(refunded)
        self.hidden.add(table_id)
        self.bus.open(table, name, spec)
        table.start()
        return table

    async def close_table(self, table: Table) -> None:
        table_id = table.table_id
        hosted = self.bus.hosts(table_id)
        if hosted:
            self.bus.closing(table_id)
        await table.stop()
        if hosted:  # moving: its followers follow it to the next owner
            self.bus.close(table_id, moving=table_id in self._moving)
        self._moving.discard(table_id)
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
            writer=self.writer if self.cluster is None else self.cluster.writer_for(tid),
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
            tid = store.create_in(conn, definition.name, data, Phase.REGISTERING)
            store.save_in(conn, tid, Phase.REGISTERING, {"director": director.to_dict()})
            return tid

        tid = await self.writer.call(work, what="a new tournament")
        if self.cluster is not None and not await self.cluster.claim(tid):
            log.warning("tournament %d waits for an owner node", tid)
            return tid  # stored: the nodes' rounds give it one
        runner = self._runner(tid, director, None)
        runner.start()
        log.info("tournament %d (%s) is open for registration", tid, definition.name)
        return tid

    async def restore(self) -> None:
        """Bring back every tournament registering or running (see the module)."""
        stored = await asyncio.to_thread(self.store.tournaments)
        for t in stored:
            await self._bring_back(t)

    async def take(self, tid: int) -> bool:
        """Run here the tournament another node ran (a room on several nodes: this
        node holds its lease now, and its hands cut short are closed): brought back
        as after a restart. False if it is over (nothing to run)."""
        found = await asyncio.to_thread(self.store.tournament, tid)
        return found is not None and await self._bring_back(found)

    async def _bring_back(self, t: StoredTournament) -> bool:
        if t.phase in (Phase.FINISHED, Phase.CANCELLED) or t.state is None:
            return False
        try:
            director = Director.from_dict(t.state["director"])
        except (DirectorError, KeyError, TypeError) as exc:
            log.error("tournament %d cannot come back: %s", t.tournament_id, exc)
            return False
        opened = {int(n): str(x) for n, x in (t.state.get("tables") or {}).items()}
        tables = [room_table_of(t.tournament_id, n, opened) for n in sorted(director.tables)]
        try:
            refunded = await asyncio.to_thread(self._cut_short, tables)
        except Exception as exc:  # the hands unreadable: it comes back all the same, untold
            log.error("tournament %d: its hands cut short cannot be read: %s", t.tournament_id, exc)
            refunded = {}
        runner = self._runner(t.tournament_id, director, t.state)
        runner.start(resume=True, refunded=refunded)
        log.info("tournament %d is back (%s)", t.tournament_id, runner.phase)
        return True

    def _cut_short(self, tables: Sequence[str]) -> dict[str, tuple[HandRefunded, ...]]:
        """The latest hands of each of ``tables`` a restart or a failover cancelled
        (closed by the recovery before the tournament comes back), as its table tells
        them: a cash table's, read the same way (blocking)."""
        hands = HandStore(self.store.engine)
        return {table_id: cut_short_at(hands, table_id) for table_id in tables}

    async def release(self, tid: int, *, between_hands: float = 0.0) -> None:
        """The tournament leaves this node (a room on several nodes: handed over, or
        its lease lost): with ``between_hands`` (seconds, at most), its tables first
        play out their hands in play and deal no more (so a drain cancels no hand);
        then its owner task and tables stop, a hand still in play left to the next
        owner (who cancels it, as after a crash); the tables' followers follow them
        there."""
        runner = self.runners.get(tid)
        if runner is None:
            return
        if between_hands > 0:
            try:
                await asyncio.wait_for(_between_hands(runner), between_hands)
            except TimeoutError:
                log.warning("tournament %d: a hand did not end; the next owner cancels it", tid)
        self.runners.pop(tid, None)
        self._moving.update(runner.running)
        await runner.stop()

    async def finish_hands(self) -> None:
        """The room is closing (a graceful stop): every tournament's tables play out
        their hands in play and deal no more, so that :meth:`stop` cancels none."""
        await asyncio.gather(*(_between_hands(r) for r in list(self.runners.values())))

    def hands_in_play(self) -> int:
        """The tournaments' tables in a hand now."""
        tables = [t for r in self.runners.values() for t in r.running.values()]
        return sum(1 for table in tables if table.hand is not None)

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
        if self._elsewhere(tid):
            return int(await self._forward(tid, "register", {"player": player}))
        return await self.runner(tid).register(player)

    async def unregister(self, tid: int, player: str) -> None:
        if self._elsewhere(tid):
            await self._forward(tid, "unregister", {"player": player})
            return
        await self.runner(tid).unregister(player)

    async def cancel(self, tid: int) -> None:
        if self._elsewhere(tid):
            await self._forward(tid, "cancel", {})
            return
        await self.runner(tid).cancel()

    async def add_bots(self, tid: int, count: int, policy: str) -> list[tuple[int, str]]:
        """Register ``count`` bots of ``policy``: their entries and names."""
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_BOTS:
            raise TournamentRefused(f"count: 1 to {MAX_BOTS} bots, not {count!r}")
        if policy not in BOTS:
            raise TournamentRefused(f"policy: one of {', '.join(BOTS)}, not {policy!r}")
        if self._elsewhere(tid):
            there = await self._forward(tid, "bots", {"count": count, "policy": policy})
            return [(int(entry), str(name)) for entry, name in there]
        runner = self.runner(tid)
        made: list[tuple[int, str]] = []
        for _ in range(count):
            name = self.bot_names()
            made.append((await runner.register(name, bot=policy), name))
            if runner.over or not runner.director.registration_open:
                break
        return made

    # ------------------------------------------------------------ another node's
    def _elsewhere(self, tid: int) -> bool:
        return self.cluster is not None and tid not in self.runners

    async def _forward(self, tid: int, action: str, args: dict[str, Any]) -> Any:
        assert self.cluster is not None
        found = await asyncio.to_thread(self.store.tournament, tid)
        if found is None:
            raise NoSuchTournament(f"no tournament {tid}")
        if found.phase in (Phase.FINISHED, Phase.CANCELLED):
            raise TournamentRefused(f"the tournament is {found.phase}")
        return await self.cluster.forward(tid, action, args)

    async def owner_does(self, tid: int, action: str, args: dict[str, Any]) -> Any:
        """Another node's request for a tournament this node runs (never forwarded
        again: :class:`TournamentElsewhere` if it is not here any more)."""
        if tid not in self.runners:
            raise TournamentElsewhere(f"tournament {tid} is moving to another node; try again")
        if action == "register":
            return await self.register(tid, str(args["player"]))
        if action == "unregister":
            return await self.unregister(tid, str(args["player"]))
        if action == "cancel":
            return await self.cancel(tid)
        if action == "bots":
            return await self.add_bots(tid, args["count"], args["policy"])
        raise TournamentRefused(f"no such request {action!r}")

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

    def now_running(self, stored: list[StoredTournament]) -> list[ConsoleTournament]:
        """The tournaments of ``stored`` (``store.tournaments()``, read off the loop)
        registering or running, for the operator's console: this node's from their
        owner tasks, the others' from the database (as each owner last wrote it)."""
        out = []
        for t in stored:
            runner = self.runners.get(t.tournament_id)
            if runner is not None:
                phase, director, tables = runner.phase, runner.director, runner.tables
                now = runner.now()
            else:
                found = self._stored_director(t)
                if found is None:
                    continue
                phase, director, now = t.phase, found, self.clock.wall().timestamp()
                tables = {int(n): v for n, v in (t.state or {}).get("tables", {}).items()}
            if phase not in (Phase.FINISHED, Phase.CANCELLED):
                out.append(console_line(t.tournament_id, director, phase, tables, now))
        return out

    def detail(self, tid: int) -> dict[str, Any]:
        """One tournament whole (``TournamentDetail``); NoSuchTournament if none."""
        runner = self.runners.get(tid)
        entries = {e.entry: e for e in self.store.entries(tid)}
        if runner is not None:
            return dict(
                to_json(
                    detail_of(
                        tid,
                        runner.director,
                        runner.phase,
                        runner.tables,
                        set(runner.bots),
                        entries,
                        runner.now(),
                    )
                )
            )
        for t in self.store.tournaments():
            if t.tournament_id == tid:
                director = self._stored_director(t)
                if director is None:
                    break
                tables = {int(n): v for n, v in (t.state or {}).get("tables", {}).items()}
                bots = set((t.state or {}).get("bots", {}))
                return dict(
                    to_json(
                        detail_of(
                            tid,
                            director,
                            t.phase,
                            tables,
                            bots,
                            entries,
                            self.clock.wall().timestamp(),
                        )
                    )
                )
        raise NoSuchTournament(f"no tournament {tid}")

    def stored(self, tid: int) -> tuple[StoredTournament, Director]:
        for t in self.store.tournaments():
            if t.tournament_id == tid:
                runner = self.runners.get(tid)
                director = runner.director if runner is not None else self._stored_director(t)
                if director is not None:
                    return t, director
        raise NoSuchTournament(f"no tournament {tid}")
