"""The room as ``stud8 serve`` runs it: the real pieces put together (the composition root).

:func:`open_room` builds the app on a database (SQLite by default, PostgreSQL by
URL), once it holds the database (:mod:`stud8.server.storage.hold`: one room per
database; ``stud8 serve`` takes the hold and binds its port first,
:mod:`stud8.server.startup`):

1. the schema is brought up to date (Alembic ``upgrade``, one process at a time);
2. crash recovery (:func:`stud8.server.books.recovery.recover`): every hand dealt and
   not recorded (the server died during it) is cancelled through the ledger
   (its antes, bring-ins and bets go back: the ledger moves no chip during a
   hand, so every stack is what it was when the hand was dealt) and stored as
   cancelled;
3. **the tables come back** (:mod:`stud8.server.books.seats`): every table not
   closed by an operator is opened again when the app starts, with its id, name
   and settings, each player in his seat with exactly the chips the ledger holds
   for him there (he is dealt in when he connects), the bots in theirs; chips at a
   table with no seat to come back to are cashed out to their owners' banks now.
   The ready tables (``settings.default_tables``) are made on the first start
   only. After a clean shutdown the same holds (a hand in play at the shutdown is
   cancelled then);
4. the accounts are the database's (:class:`~stud8.server.accounts.database.AccountsAuth`,
   argon2id; nobody becomes an operator by registering: the names in
   ``settings.operators`` that have no account yet are made operators now, each
   with a one-time password written to the log, and ``stud8 admin create-operator``
   makes one at any time), the tables'
   books are :class:`~stud8.server.books.room.RoomBooks` (the ledger, the hand
   store and the seats, written through the writer: a hand is noted before it is
   dealt, its end kept in one transaction, a seat taken with its buy-in);
5. ``GET /api/v1/hands`` reads the hand histories from the database;
6. every write of the running room goes through one
   :class:`~stud8.server.books.writer.RoomWriter` (a thread of its own, in order,
   a batch of jobs per transaction, off the event loop): each is awaited by the
   table that asked for it until its transaction has committed. The writer is
   drained at shutdown.

uvicorn's logs go through :func:`stud8.server.logs.uvicorn_log_config`, which
blanks the session tokens in the URLs it prints. SIGTERM stops one process
gracefully (:mod:`stud8.server.http.stopping`: the hands in play finish first).

:func:`room_app` puts a room together from its accounts and its books: the
tables' bus (:class:`~stud8.server.bus.local.LocalBus`), the lobby, the edge, and the
web app (:func:`stud8.server.http.app.create_app`) whose lifespan opens the tables
(those of the last run with a keeper, else ``settings.default_tables`` ready
ones) and closes them. :func:`memory_app` is the room with everything in memory (the
tests' room): nothing survives the process. Its hand histories are kept in memory
too (:class:`~stud8.server.books.memory_hands.MemoryHandStore`), so ``GET /api/v1/hands``
answers there as on a database; it runs no tournaments (their money is the ledger's).
``stud8 serve --memory`` is not that room but a **throwaway room**: the room on a
database (:func:`open_room`, everything included: tournaments, the ledger, recovery)
whose database is a SQLite file in a temporary directory, deleted at exit (and, if
its process was killed, at the next throwaway room's start:
:mod:`stud8.server.throwaway`), so there is one implementation of the money, not two.

Environment variables set the ready tables' pace (tests run them fast):
``STUD8_BETWEEN_HANDS`` (seconds between hands, default 2),
``STUD8_SHOWDOWN_SECONDS`` (how long a showdown's results stay before the next deal,
once every hand is turned over, default 5),
``STUD8_BOT_DELAY`` (seconds a bot waits before acting, default 0.5) and
``STUD8_SIT_OUT_SECONDS`` (a player dealt out this long is stood up, default 600).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine
from starlette.applications import Starlette

from stud8.core.cards import Deck
from stud8.server.accounts.accounts import Accounts
from stud8.server.accounts.auth import Auth, MemoryAuth
from stud8.server.accounts.database import AccountsAuth
from stud8.server.books.alarms import BooksAlarms
from stud8.server.books.chat import ChatStore
from stud8.server.books.hands import HandStore
from stud8.server.books.invitations import Invitations, StoredInvitations
from stud8.server.books.ledger import Ledger, LedgerError, UnknownAccountError, bank
from stud8.server.books.memory import MemoryBooks
from stud8.server.books.recovery import RecoveryReport, recover
from stud8.server.books.room import RoomBooks
from stud8.server.books.seats import TableStore
from stud8.server.books.tournaments import TournamentStore
from stud8.server.books.writer import RoomWriter
from stud8.server.bus.local import LocalBus
from stud8.server.clock import AsyncioClock, Clock
from stud8.server.collector import tune_for_serving
from stud8.server.edge import Edge
from stud8.server.http.app import create_app
from stud8.server.http.guard import Guard
from stud8.server.http.services import ChatBook, HandTexts, RoomServices
from stud8.server.http.stopping import GracefulStop
from stud8.server.logs import uvicorn_log_config
from stud8.server.room.lobby import Lobby, TableKeeper
from stud8.server.room.restore import RoomKeeper, next_bot_number, prepare_restore
from stud8.server.runtime.node import NodeParts, NodeWiring
from stud8.server.settings import LogFormat, Settings
from stud8.server.startup import database_trouble_exit, hold_and_bind, hold_room
from stud8.server.storage import create_engine_for
from stud8.server.storage.db import upgrade_once
from stud8.server.storage.hold import Hold
from stud8.server.table.books import TableBooks
from stud8.server.table.spec import TableSpec
from stud8.server.throwaway import throwaway_directory
from stud8.server.tournaments.manager import Tournaments

if TYPE_CHECKING:  # (a node's parts are imported when a node opens)
    from redis.asyncio import Redis

log = logging.getLogger("stud8.server")

# a room on several nodes
REQUEST_BUSY_SECONDS = 1.0  # a request waits this long for a lock held elsewhere

__all__ = [
    "NodeParts",
    "Room",
    "default_spec",
    "memory_app",
    "open_cluster_room",
    "open_room",
    "room_app",
    "serve",
]


# ------------------------------------------------------------------ the room
def room_app(
    settings: Settings,
    *,
    auth: Auth,
    books: TableBooks,
    hands: HandTexts,
    clock: Clock | None = None,
    deck_source: Callable[[], Deck] = Deck.shuffled,
    default_spec: TableSpec | None = None,
    keeper: TableKeeper | None = None,
    writer: RoomWriter | None = None,
    tournament_store: TournamentStore | None = None,
    tournament_spec: TableSpec | None = None,
    bank: Callable[[str], int] | None = None,
    chat: ChatBook | None = None,
    invitations: Invitations | None = None,
    node: NodeParts | None = None,
) -> Starlette:
    """The room's web app on these accounts and books (see the module): the one
    assembly of the room, for one process and for each node of several (``node``:
    the same room, its tables found and placed across the nodes, its tournaments
    run by one node at a time). ``app.state.room`` is its
    :class:`~stud8.server.http.services.RoomServices`; with a ``tournament_store``
    (and a writer: a room on a database), ``app.state.tournaments`` its
    :class:`~stud8.server.tournaments.manager.Tournaments` (their tables run at the
    pace of ``tournament_spec``, by default the ready tables'); a node's
    :class:`~stud8.server.cluster.node.ClusterNode` is ``app.state.node``."""
    local = LocalBus()
    clock = clock or AsyncioClock()
    spec = default_spec or TableSpec(bots=settings.bots_per_table)
    cluster = NodeWiring(node, local) if node is not None else None
    room_bus = cluster.bus if cluster is not None else local
    lobby = Lobby(
        books=books,
        clock=clock,
        bus=local,
        deck_source=deck_source,
        keeper=keeper,
        room_bus=room_bus,
    )
    edge = Edge(
        room_bus,
        rate=settings.rate_per_second,
        burst=settings.rate_burst,
        account_rate=(settings.account_rate, settings.account_burst),
        address_rate=(settings.address_rate, settings.address_burst),
    )
    room = RoomServices(
        settings=settings,
        auth=auth,
        lobby=lobby,
        edge=edge,
        hands=hands,
        flush=writer.drain if writer is not None else None,
        writer=writer,
        bank=bank,
        guard_for=cluster.guard_for if cluster is not None else Guard,
    )
    if chat is None and isinstance(books, MemoryBooks):
        chat = books.chat  # the tables' chat is kept there
    if chat is not None:
        room.chat = chat
    if invitations is not None:
        room.invitations = invitations
    tournaments: Tournaments | None = None
    if tournament_store is not None and writer is not None:
        tournaments = Tournaments(
            store=tournament_store,
            writer=writer,
            bus=local,
            clock=clock,
            spec=replace(tournament_spec or spec, bots=0),
            bot_names=lobby.new_bot_name,
            deck_source=deck_source,
            cluster=cluster.tournaments(writer, tournament_store) if cluster else None,
        )
        lobby.hidden = tournaments.hidden
    if cluster is not None:
        cluster.serve(room, spec, tournaments)
    else:
        _serve_here(room, keeper, spec, tournaments, tournament_store)
    if writer is not None:
        room.shutdown.append(writer.drain)  # after the hands in play are cancelled
    app = create_app(room)
    app.state.tournaments = tournaments
    app.state.node = cluster.node if cluster is not None else None
    return app


def _serve_here(
    room: RoomServices,
    keeper: TableKeeper | None,
    spec: TableSpec,
    tournaments: Tournaments | None,
    store: TournamentStore | None,
) -> None:
    """One process's tables: those of its last run (its keeper's), else the ready
    ones; its tournaments restored after them (the bots' numbers)."""
    lobby, settings = room.lobby, room.settings

    async def open_tables() -> None:
        had_tables = keeper is not None and await keeper.restore(lobby)
        for _ in range(0 if had_tables else settings.default_tables):
            table = await lobby.create(spec)
            log.info("table %s is open with %d bots", table.table_id, spec.bots)

    room.startup.append(open_tables)
    room.shutdown.append(lobby.close_all)
    if tournaments is not None and store is not None:

        async def restore_tournaments() -> None:
            lobby.number_bots_from(await asyncio.to_thread(_bot_floor, store))
            await tournaments.restore()

        room.startup.append(restore_tournaments)
        room.shutdown.insert(0, tournaments.stop)


def _bot_floor(store: TournamentStore) -> int:
    """The first bot number nobody had (the tables' bots, the tournaments')."""
    named = [n[3:] for n in store.bot_names() if n.startswith("bot")]
    known = [int(n) for n in named if n.isascii() and n.isdigit()]
    return max(next_bot_number(store.ledger), max(known, default=0) + 1)


@dataclass
class Room:
    """A room on a database, ready to serve; :meth:`close` when it has stopped."""

    app: Starlette
    engine: Engine
    ledger: Ledger
    hands: HandStore
    recovery: RecoveryReport
    returned: dict[str, dict[str, int]] = field(default_factory=dict)
    writer: RoomWriter | None = None
    cluster: bool = False  # one node of several: other nodes' hands are theirs
    requests_engine: Engine | None = None  # the accounts' and the hand histories' reads
    hold: Hold | None = None  # the room's hold on its database, released last
    alarms: BooksAlarms = field(default_factory=BooksAlarms)  # the books' (for /metrics)

    def close(self) -> None:
        """After the server has stopped: the writer drained and closed, then any hand
        still noted closed as a restart would close it. A table stopped while it was
        noting a new hand (before any card was dealt, so nothing to refund) leaves
        such a note; the hands in play were cancelled at the shutdown."""
        try:
            if self.writer is not None:
                self.writer.close()
            if self.cluster:
                return  # a hand left here is closed by the node that takes its table
            report = recover(self.engine, self.ledger, self.hands)
            for hand in report.hands:
                log.info(
                    "hand %s at %s, noted at the shutdown: %s",
                    hand.hand_id,
                    hand.table,
                    hand.outcome,
                )
            for problem in report.problems:
                log.error("at the shutdown: %s", problem)
        finally:
            self.engine.dispose()
            if self.requests_engine is not None:
                self.requests_engine.dispose()
            if self.hold is not None:
                self.hold.release()


def _seconds(environ: Mapping[str, str], name: str, default: float) -> float:
    raw = environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r} is not a number of seconds") from None
    if value < 0:
        raise ValueError(f"{name} must be 0 or more, not {raw!r}")
    return value


def default_spec(settings: Settings, environ: Mapping[str, str] | None = None) -> TableSpec:
    """The ready tables: ``settings.bots_per_table`` bots, the pace from the environment."""
    env = os.environ if environ is None else environ
    sit_out = _seconds(env, "STUD8_SIT_OUT_SECONDS", 600.0)
    if sit_out == 0:
        raise ValueError("STUD8_SIT_OUT_SECONDS must be more than 0")
    return TableSpec(
        bots=settings.bots_per_table,
        between_hands=_seconds(env, "STUD8_BETWEEN_HANDS", 2.0),
        showdown_seconds=_seconds(env, "STUD8_SHOWDOWN_SECONDS", 5.0),
        bot_delay=_seconds(env, "STUD8_BOT_DELAY", 0.5),
        sit_out_seconds=sit_out,
    )


@dataclass
class _Database:
    """The room's database, opened (:func:`_open_database`)."""

    engine: Engine
    requests_engine: Engine  # the accounts', the hand histories', the console's reads
    ledger: Ledger
    reads: Ledger  # the ledger read for requests (one attempt)
    hands: HandStore
    tables: TableStore
    tournaments: TournamentStore
    accounts: Accounts


def _open_database(settings: Settings, undo: contextlib.ExitStack) -> _Database:
    """The database steps every room takes (one process, a node): the schema brought
    up to date, the books on it, the operators made; each engine closed by ``undo``
    if a later step fails."""
    engine = create_engine_for(settings.database_url)
    undo.callback(engine.dispose)
    upgrade_once(engine)
    ledger = Ledger(engine)
    # the requests' own engine: a lock held elsewhere fails them in a second (a 503),
    # where the tables' writes wait for it and retry
    requests_engine = create_engine_for(settings.database_url, busy_seconds=REQUEST_BUSY_SECONDS)
    undo.callback(requests_engine.dispose)
    reads = Ledger(requests_engine, attempts=1)
    accounts = Accounts(requests_engine, reads, opening_chips=settings.starting_chips)
    return _Database(
        engine,
        requests_engine,
        ledger,
        reads,
        HandStore(engine),
        TableStore(engine),
        TournamentStore(engine, ledger),
        accounts,
    )


def _room_on(
    settings: Settings,
    db: _Database,
    books: RoomBooks,
    writer: RoomWriter,
    *,
    spec: TableSpec,
    keeper: TableKeeper,
    node: NodeParts | None = None,
) -> Starlette:
    """The app of a room on its database (one process, or a node: ``node``)."""
    app = room_app(
        settings,
        auth=AccountsAuth(db.accounts),
        books=books,
        hands=HandStore(db.requests_engine),
        default_spec=spec,
        keeper=keeper,
        writer=writer,
        tournament_store=db.tournaments,
        bank=lambda name: bank_balance(db.reads, name),
        chat=ChatStore(db.requests_engine),
        invitations=StoredInvitations(db.requests_engine),
        node=node,
    )
    app.state.books_alarms = books.alarms
    app.state.room.keep_console(db.requests_engine, db.reads)  # the operator's acts, his books
    app.state.room.keep_accounts_own(db.requests_engine)  # his notes on players, his settings
    return app


def open_room(
    settings: Settings, environ: Mapping[str, str] | None = None, *, hold: Hold | None = None
) -> Room:
    """Hold the database, migrate, recover, plan the tables' return, and build the
    app (see the module); with ``settings.redis_url``, one node of a room on several
    nodes (:func:`open_cluster_room`). ``hold``: the room's hold on its database,
    taken already (:func:`hold_room`); without it, it is taken first
    (:class:`~stud8.server.storage.hold.DatabaseHeld` if another room has it, nothing
    changed). The room releases it when it closes, and at once if it fails to open."""
    if settings.redis_url is not None:
        return open_cluster_room(settings, environ, hold=hold)
    spec = default_spec(settings, environ)
    hold = hold if hold is not None else hold_room(settings)
    with contextlib.ExitStack() as undo:
        undo.callback(hold.release)
        db = _open_database(settings, undo)
        report = recover(db.engine, db.ledger, db.hands)
        plan = prepare_restore(db.tables, db.ledger, db.hands)
        for hand in report.hands:
            log.warning("hand %s at %s was unfinished: %s", hand.hand_id, hand.table, hand.outcome)
        for table, players in plan.returned.items():
            log.info("chips left at %s returned to the banks: %s", table, players)
        if not report.ok:
            log.error("the books do not balance after recovery:\n%s", report)
        _log_operators(*db.accounts.ensure_operators(settings.operators))
        # from here on the room writes through one writer, in batches, off the loop
        writer = RoomWriter(db.engine)
        undo.callback(writer.close)
        books = RoomBooks(db.ledger, writer, alarms=BooksAlarms())
        app = _room_on(settings, db, books, writer, spec=spec, keeper=RoomKeeper(db.tables, plan))
        undo.pop_all()
    return Room(
        app,
        db.engine,
        db.ledger,
        db.hands,
        report,
        plan.returned,
        writer,
        requests_engine=db.requests_engine,
        hold=hold,
        alarms=books.alarms,
    )


def open_cluster_room(
    settings: Settings, environ: Mapping[str, str] | None = None, *, hold: Hold | None = None
) -> Room:
    """One node of a room on several nodes (``stud8 serve --redis URL --node NAME``):
    the shared PostgreSQL database, Redis for leases, heartbeats and the bus
    (:mod:`stud8.server.cluster`), and the room :func:`room_app` wires for one
    process. Unlike one process, a node closes no hand at its start (other nodes
    are playing them) and reopens no table itself: it takes the tables that have no
    owner as it runs, each with its hand closed then. If a step fails, everything
    opened so far (the engines, Redis, the writer, the hold) is closed again."""
    from redis.asyncio import Redis

    from stud8.server.books.fencing import TableEpochs
    from stud8.server.cluster.keeper import ClusterKeeper

    if settings.redis_url is None:
        raise ValueError("a room on several nodes needs Redis (--redis redis://HOST:PORT/N)")
    if not settings.database_url.startswith(("postgresql", "postgres://")):
        raise ValueError(
            "several nodes need one shared database: --redis needs --database "
            f"postgresql://... (not {settings.database_url.split(':', 1)[0]})"
        )
    spec = default_spec(settings, environ)
    name = settings.node_name
    hold = hold if hold is not None else hold_room(settings)
    with contextlib.ExitStack() as undo:
        undo.callback(hold.release)
        db = _open_database(settings, undo)
        first_bot = _bot_floor(db.tournaments)
        _log_operators(*db.accounts.ensure_operators(settings.operators))
        redis = Redis.from_url(settings.redis_url)
        undo.callback(_close_unused, redis)
        epochs = TableEpochs(db.engine, name)
        writer = RoomWriter(db.engine)
        undo.callback(writer.close)
        books = RoomBooks(db.ledger, writer, epochs=epochs, alarms=BooksAlarms())
        node = NodeParts(
            name=name,
            redis=redis,
            redis_url=settings.redis_url,
            url=settings.public_url or f"http://{settings.host}:{settings.port}",
            public=settings.public_url is not None,
            epochs=epochs,
            engine=db.engine,
            ledger=db.ledger,
            hands=db.hands,
            tables=db.tables,
            first_bot=first_bot,
        )
        app = _room_on(
            settings, db, books, writer, spec=spec, keeper=ClusterKeeper(db.tables), node=node
        )
        undo.pop_all()
    recovery = RecoveryReport((), {}, db.ledger.audit())
    return Room(
        app,
        db.engine,
        db.ledger,
        db.hands,
        recovery,
        {},
        writer,
        cluster=True,
        requests_engine=db.requests_engine,
        hold=hold,
        alarms=books.alarms,
    )


def _close_unused(redis: Redis) -> None:
    """Close the Redis client of a node that failed to open. It has opened no
    connection yet (nothing ran on a loop), so this ends at once; called on a
    running loop's thread, where it cannot wait, there is nothing to close."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(redis.aclose())


def bank_balance(ledger: Ledger, player: str) -> int:
    """A player's bank balance (0 if he has no bank account yet)."""
    try:
        return ledger.balance(bank(player))
    except UnknownAccountError:
        return 0


def _log_operators(made: Mapping[str, str], players: list[str]) -> None:
    for name, password in made.items():
        log.warning(
            "operator %r made, with the one-time password %s (log in and change it)",
            name,
            password,
        )
    for name in players:
        log.error(
            "%r (STUD8_OPERATORS) is a player's account and was NOT made an operator: "
            "`stud8 admin create-operator %s --promote` if it is yours",
            name,
            name,
        )


def memory_app(
    settings: Settings,
    environ: Mapping[str, str] | None = None,
    *,
    spec: TableSpec | None = None,
    deck_source: Callable[[], Deck] = Deck.shuffled,
    operators: Mapping[str, str] | None = None,
) -> Starlette:
    """The room with its accounts, chips and hand histories in memory (lost when it
    stops). ``spec`` (the ready tables; default: :func:`default_spec`) and
    ``deck_source`` are for tests and demonstrations. The operators: ``operators``
    (name: password), and each name of ``settings.operators`` with a one-time
    password written to the log. ``app.state.books`` are the books (their ``audit``)."""
    books = MemoryBooks()
    one_time = {name: secrets.token_urlsafe(12) for name in settings.operators}
    _log_operators(one_time, [])
    auth = MemoryAuth(
        operators={**one_time, **(operators or {})},
        on_register=(lambda name: books.issue(name, settings.starting_chips))
        if settings.starting_chips
        else None,
    )
    app = room_app(
        settings,
        auth=auth,
        books=books,
        hands=books.hands,
        deck_source=deck_source,
        default_spec=spec or default_spec(settings, environ),
        bank=books.balance,
        chat=books.chat,
    )
    app.state.books = books
    return app


def serve(settings: Settings, *, memory: bool = False) -> int:
    """Run the room with uvicorn until it is stopped (``stud8 serve``; ``memory``: a
    throwaway room, see the module)."""
    from stud8.server.http.websocket import uvicorn_options

    options = {
        "host": settings.host,
        "port": settings.port,
        "log_config": uvicorn_log_config(json_lines=settings.log_format is LogFormat.JSON),
        **uvicorn_options(),
    }
    if memory:  # a throwaway room: the room on a database deleted at exit (see the module)
        with throwaway_directory() as directory:
            url = f"sqlite:///{directory / 'room.db'}"
            log.warning("a throwaway room on %s: everything is lost at exit", url)
            return _run(settings.with_overrides(database_url=url), options)
    return _run(settings, options)


def _run(settings: Settings, options: Mapping[str, Any]) -> int:
    """The start-up order: the hold on the database first (a second room on it is
    refused before it changes anything), then the port (a port in use is refused
    before any recovery), then the migrations and the recovery (:func:`open_room`),
    then uvicorn on the bound socket."""
    import uvicorn

    held = hold_and_bind(settings)
    if isinstance(held, int):
        return held  # (said in one line)
    hold, sock = held
    tune_for_serving()  # (not for a start refused: its one line is all it says)
    try:
        room = open_room(settings, hold=hold)
    except (LedgerError, ValueError) as exc:
        sock.close()
        log.error("cannot open the room on %s: %s", settings.database_url, exc)
        return 1
    except Exception as exc:
        sock.close()
        return database_trouble_exit(exc, settings.database_url)
    except BaseException:
        sock.close()
        raise
    log.info("database %s: %s", settings.database_url, room.ledger.audit())
    server = uvicorn.Server(uvicorn.Config(room.app, **options))
    if not room.cluster:  # a node's stop hands its tables over instead
        state = room.app.state
        GracefulStop(server, state.room, settings.stop_seconds, state.tournaments)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # (uvicorn raises the SIGINT it caught again, once stopped)
        pass
    finally:
        sock.close()
        room.close()
    return 0 if server.started else 1
