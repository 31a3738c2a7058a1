"""The room as ``stud8 serve`` runs it: the real pieces put together.

:func:`open_room` builds the app on a database (SQLite by default, PostgreSQL by
URL):

1. the schema is brought up to date (Alembic ``upgrade``);
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
   argon2id, ``settings.operators`` get the operator role), the tables'
   books are :class:`~stud8.server.books.room.RoomBooks` (the ledger, the hand
   store and the seats, written through the writer: a hand is noted before it is
   dealt, its end kept in one transaction, a seat taken with its buy-in);
5. ``GET /api/v1/hands`` (:func:`hands_route`) gives the hand histories;
6. every write of the running room goes through one
   :class:`~stud8.server.books.writer.RoomWriter` (a thread of its own, in order,
   a batch of jobs per transaction, off the event loop): each is awaited by the
   table that asked for it until its transaction has committed. The writer is
   drained at shutdown.

uvicorn's logs go through :func:`stud8.server.logs.uvicorn_log_config`, which
blanks the session tokens in the URLs it prints.

:func:`memory_app` is the room with everything in memory (``stud8 serve
--memory``): nothing survives the process. Its hand histories are kept in memory
too (:class:`~stud8.server.books.memory_hands.MemoryHandStore`), so ``GET /api/v1/hands``
answers there as on a database.

Environment variables set the ready tables' pace (tests run them fast):
``STUD8_BETWEEN_HANDS`` (seconds between hands, default 2),
``STUD8_BOT_DELAY`` (seconds a bot waits before acting, default 0.5) and
``STUD8_SIT_OUT_SECONDS`` (a player dealt out this long is stood up, default 600).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from sqlalchemy import Engine
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from stud8.core.cards import Deck
from stud8.server.accounts.accounts import Accounts
from stud8.server.accounts.auth import Account, Auth, MemoryAuth
from stud8.server.accounts.database import AccountsAuth
from stud8.server.books.hands import DEFAULT_LIMIT, MAX_LIMIT, HandStore
from stud8.server.books.ledger import Ledger, LedgerError
from stud8.server.books.memory import MemoryBooks
from stud8.server.books.recovery import RecoveryReport, recover
from stud8.server.books.room import RoomBooks
from stud8.server.books.seats import TableStore
from stud8.server.books.writer import RoomWriter
from stud8.server.collector import tune_for_serving
from stud8.server.http.app import create_app
from stud8.server.logs import uvicorn_log_config
from stud8.server.room.restore import RoomKeeper, prepare_restore
from stud8.server.settings import Settings
from stud8.server.storage import create_engine_for, upgrade
from stud8.server.table.spec import TableSpec

log = logging.getLogger("stud8.server")


# ------------------------------------------------------------------ histories
def _bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _error(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


class HandTexts(Protocol):
    """Where ``GET /api/v1/hands`` reads: :class:`HandStore` (a database) or
    :class:`MemoryHandStore`."""

    def pokerstars_for(
        self,
        player: str,
        hand_ids: Sequence[str] | None = None,
        limit: int = DEFAULT_LIMIT,
        *,
        table: str | None = None,
    ) -> str: ...

    def pokerstars_for_operator(
        self,
        hand_ids: Sequence[str] | None = None,
        *,
        player: str | None = None,
        table: str | None = None,
        limit: int = DEFAULT_LIMIT,
    ) -> str: ...


def hands_route(
    auth: Auth, store: HandTexts, flush: Callable[[], Awaitable[None]] | None = None
) -> Route:
    """``GET /api/v1/hands?limit=N[&player=NAME][&table=TABLE_ID]`` (bearer token):
    the latest ``limit`` hands (default 50, at most 1000) in PokerStars text,
    latest first, of one table if ``table`` is given. A player gets his own hands
    as he saw them at the table (his down cards, the others' only where shown;
    ``player=`` may only name himself); an operator gets every card, of
    ``player``'s hands or of the whole room. Hands cancelled by a restart have no
    history and are left out. ``flush`` (the room writer's drain) is awaited before
    reading, so a hand that has just finished at the table is in the answer."""

    async def hands(request: Request) -> Response:
        token = _bearer(request)
        account: Account | None = await auth.account_for_token(token) if token else None
        if account is None:
            return _error(401, "log in first (Authorization: Bearer <token>)")
        extra = set(request.query_params) - {"limit", "player", "table"}
        if extra:
            return _error(400, f"unknown parameters {sorted(extra)}")
        raw = request.query_params.get("limit", str(DEFAULT_LIMIT))
        try:
            limit = int(raw)
        except ValueError:
            return _error(400, f"limit must be a whole number, not {raw!r}")
        if not 1 <= limit <= MAX_LIMIT:
            return _error(400, f"limit is 1 to {MAX_LIMIT}, not {limit}")
        player = request.query_params.get("player")
        table = request.query_params.get("table")
        if table is not None and not 1 <= len(table) <= 100:
            return _error(400, "table must be a table id")
        mine = player is None or player.casefold() == account.name.casefold()
        if not account.operator and not mine:
            return _error(403, "you may read your own hands only")
        if flush is not None:
            await flush()  # read our own writes: the hands finished so far
        if account.operator:
            text = await asyncio.to_thread(
                store.pokerstars_for_operator, player=player, table=table, limit=limit
            )
        else:
            text = await asyncio.to_thread(
                store.pokerstars_for, account.name, None, limit, table=table
            )
        return PlainTextResponse(text)

    return Route("/api/v1/hands", hands, methods=["GET"])


# ------------------------------------------------------------------ the room
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

    def close(self) -> None:
        """After the server has stopped: the writer drained and closed, then any hand
        still noted closed as a restart would close it. A table stopped while it was
        noting a new hand (before any card was dealt, so nothing to refund) leaves
        such a note; the hands in play were cancelled at the shutdown."""
        try:
            if self.writer is not None:
                self.writer.close()
            report = recover(self.engine, self.ledger, self.hands)
            for hand in report.hands:
                log.info("hand %s at %s, noted at the shutdown: %s", hand.hand_id, hand.table,
                         hand.outcome)  # fmt: skip
            for problem in report.problems:
                log.error("at the shutdown: %s", problem)
        finally:
            self.engine.dispose()


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
        bot_delay=_seconds(env, "STUD8_BOT_DELAY", 0.5),
        sit_out_seconds=sit_out,
    )


def open_room(settings: Settings, environ: Mapping[str, str] | None = None) -> Room:
    """Migrate, recover, plan the tables' return, and build the app (see the module)."""
    spec = default_spec(settings, environ)
    engine = create_engine_for(settings.database_url)
    try:
        upgrade(engine)
        ledger = Ledger(engine)
        store = HandStore(engine)
        report = recover(engine, ledger, store)
        tables = TableStore(engine)
        plan = prepare_restore(tables, ledger)
    except BaseException:
        engine.dispose()
        raise
    for hand in report.hands:
        log.warning("hand %s at %s was unfinished: %s", hand.hand_id, hand.table, hand.outcome)
    for table, players in plan.returned.items():
        log.info("chips left at %s returned to the banks: %s", table, players)
    if not report.ok:
        log.error("the books do not balance after recovery:\n%s", report)
    accounts = Accounts(engine, ledger, opening_chips=settings.starting_chips)
    auth = AccountsAuth(accounts, operators=settings.operators)
    # from here on the room writes through one writer, in batches, off the loop
    writer = RoomWriter(engine)
    books = RoomBooks(ledger, writer)
    keeper = RoomKeeper(tables, plan)
    app = create_app(settings, auth=auth, books=books, default_spec=spec, keeper=keeper)
    app.router.routes.insert(0, hands_route(auth, store, writer.drain))
    _drain_at_shutdown(app, writer)
    return Room(app, engine, ledger, store, report, plan.returned, writer)


def _drain_at_shutdown(app: Starlette, writer: RoomWriter) -> None:
    """After the lobby's shutdown (hands in play cancelled), wait until the
    writer has written everything."""
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            async with inner(app):
                yield
        finally:
            await writer.drain()

    app.router.lifespan_context = lifespan


def memory_app(
    settings: Settings,
    environ: Mapping[str, str] | None = None,
    *,
    spec: TableSpec | None = None,
    deck_source: Callable[[], Deck] = Deck.shuffled,
) -> Starlette:
    """The room with its accounts, chips and hand histories in memory (lost when it
    stops). ``spec`` (the ready tables; default: :func:`default_spec`) and
    ``deck_source`` are for tests and demonstrations. ``app.state.books`` are the
    books (their ``audit``), ``app.state.hands`` the hand store."""
    books = MemoryBooks()
    auth = MemoryAuth(
        operators=settings.operators,
        on_register=lambda name: books.issue(name, settings.starting_chips),
    )
    app = create_app(
        settings,
        auth=auth,
        books=books,
        deck_source=deck_source,
        default_spec=spec or default_spec(settings, environ),
    )
    app.router.routes.insert(0, hands_route(auth, books.hands))
    app.state.books = books
    app.state.hands = books.hands
    return app


def serve(settings: Settings, *, memory: bool = False) -> int:
    """Run the room with uvicorn until it is stopped (``stud8 serve``)."""
    import uvicorn

    tune_for_serving()

    if memory:
        log.warning("accounts and chips are kept IN MEMORY: everything is lost at exit")
        uvicorn.run(
            memory_app(settings),
            host=settings.host,
            port=settings.port,
            log_config=uvicorn_log_config(),
        )
        return 0
    try:
        room = open_room(settings)
    except (LedgerError, ValueError) as exc:
        log.error("cannot open the room on %s: %s", settings.database_url, exc)
        return 1
    log.info("database %s: %s", settings.database_url, room.ledger.audit())
    try:
        uvicorn.run(
            room.app, host=settings.host, port=settings.port, log_config=uvicorn_log_config()
        )
    finally:
        room.close()
    return 0
