"""The room as ``stud8 serve`` runs it: the real pieces put together.

:func:`open_room` builds the app on a database (SQLite by default, PostgreSQL by
URL):

1. the schema is brought up to date (Alembic ``upgrade``);
2. crash recovery (:func:`stud8.server.recovery.recover`): every hand dealt and
   not recorded (the server died during it) is cancelled through the ledger
   (its antes, bring-ins and bets go back: the ledger moves no chip during a
   hand, so every stack is what it was when the hand was dealt) and stored as
   cancelled;
3. **the chips left on tables are cashed out** to their owners' banks
   (:func:`cash_out_tables`). The tables of a previous run do not come back with
   their seats (table ids are handed out afresh, the bots are new), so every chip
   still at a table (a player's stack after recovery, or after a clean shutdown,
   which does not stand the players up) goes back to his account, where he finds
   it and buys in again. Nothing is lost and the audit balances;
4. the accounts are the database's (:class:`~stud8.server.db_auth.AccountsAuth`,
   argon2id, ``settings.operators`` get the operator role), the bank is the
   ledger (:class:`RoomBank`, a :class:`~stud8.server.ledger_bank.LedgerBank` that
   can also issue the bots' chips), the record sink is the
   :class:`~stud8.server.records.HandStore`, and every table is watched by it
   (its hands are noted when dealt, for recovery) from the first buy-in at it,
   before it can deal a hand;
5. ``GET /api/v1/hands`` (:func:`hands_route`) gives the hand histories.

:func:`memory_app` is the room with everything in memory (``stud8 serve
--memory``): nothing survives the process.

Two environment variables set the ready tables' pace (tests run them fast):
``STUD8_BETWEEN_HANDS`` (seconds between hands, default 2) and
``STUD8_BOT_DELAY`` (seconds a bot waits before acting, default 0.5).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from sqlalchemy import Engine
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from stud8.server.accounts import Accounts
from stud8.server.app import create_app
from stud8.server.auth import Account, Auth, MemoryAuth
from stud8.server.bank import MemoryBank
from stud8.server.db_auth import AccountsAuth
from stud8.server.ledger import Ledger, LedgerError
from stud8.server.ledger_bank import LedgerBank
from stud8.server.lobby import TableEntry, TableSpec
from stud8.server.records import DEFAULT_LIMIT, MAX_LIMIT, HandStore
from stud8.server.recovery import RecoveryReport, recover, table_stacks
from stud8.server.settings import Settings
from stud8.server.storage import create_engine_for, upgrade
from stud8.server.table import Subscription, Table

log = logging.getLogger("stud8.server")


# ------------------------------------------------------------------ the bank
class RoomBank(LedgerBank):
    """The ledger as the tables' bank; it also funds the bots (``issue``: a grant)
    and has the :class:`HandStore` watch each table from its first buy-in."""

    def __init__(self, ledger: Ledger, hands: HandStore) -> None:
        super().__init__(ledger, hands)
        self.store = hands
        self.tables: Callable[[str], Table | None] = lambda _table_id: None
        self._watched: dict[str, tuple[Table, Subscription]] = {}

    def issue(self, player: str, amount: int) -> None:
        """New play chips for a bot (blocking: a few milliseconds)."""
        self.ledger.grant(player, amount, memo="bot chips")

    def watch(self, table_id: str) -> None:
        table = self.tables(table_id)
        if table is None:
            return
        known = self._watched.get(table_id)
        if known is not None and known[0] is table:
            return
        self._watched[table_id] = (table, self.store.watch(table))

    async def buy_in(self, player: str, table: str, seat: int, amount: int) -> None:
        self.watch(table)  # before any hand: a hand needs two buy-ins
        await super().buy_in(player, table, seat, amount)


def cash_out_tables(ledger: Ledger) -> dict[str, dict[str, int]]:
    """Move every chip left on a table back to its owner's bank; what moved."""
    moved = table_stacks(ledger)
    for table, players in moved.items():
        for player, chips in players.items():
            ledger.cash_out(player, table, chips, memo="returned to the bank at startup")
    return moved


# ------------------------------------------------------------------ histories
def _bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _error(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


def hands_route(auth: Auth, store: HandStore) -> Route:
    """``GET /api/v1/hands?limit=N[&player=NAME]`` (bearer token): the latest
    ``limit`` hands (default 50, at most 1000) in PokerStars text, latest first.
    A player gets his own hands as he saw them at the table (his down cards, the
    others' only where shown; ``player=`` may only name himself); an operator
    gets every card, of ``player``'s hands or of the whole room. Hands cancelled
    by a restart have no history and are left out."""

    async def hands(request: Request) -> Response:
        token = _bearer(request)
        account: Account | None = await auth.account_for_token(token) if token else None
        if account is None:
            return _error(401, "log in first (Authorization: Bearer <token>)")
        extra = set(request.query_params) - {"limit", "player"}
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
        if account.operator:
            text = await asyncio.to_thread(
                store.pokerstars_for_operator, player=player, limit=limit
            )
        elif player is not None and player.casefold() != account.name.casefold():
            return _error(403, "you may read your own hands only")
        else:
            text = await asyncio.to_thread(store.pokerstars_for, account.name, None, limit)
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

    def close(self) -> None:
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
    return TableSpec(
        bots=settings.bots_per_table,
        between_hands=_seconds(env, "STUD8_BETWEEN_HANDS", 2.0),
        bot_delay=_seconds(env, "STUD8_BOT_DELAY", 0.5),
    )


def open_room(settings: Settings, environ: Mapping[str, str] | None = None) -> Room:
    """Migrate, recover, return the tables' chips, and build the app (see the module)."""
    spec = default_spec(settings, environ)
    engine = create_engine_for(settings.database_url)
    try:
        upgrade(engine)
        ledger = Ledger(engine)
        store = HandStore(engine)
        report = recover(engine, ledger, store)
        returned = cash_out_tables(ledger)
    except BaseException:
        engine.dispose()
        raise
    for hand in report.hands:
        log.warning("hand %s at %s was unfinished: %s", hand.hand_id, hand.table, hand.outcome)
    for table, players in returned.items():
        log.info("chips left at %s returned to the banks: %s", table, players)
    if not report.ok:
        log.error("the books do not balance after recovery:\n%s", report)
    accounts = Accounts(engine, ledger, opening_chips=settings.starting_chips)
    auth = AccountsAuth(accounts, operators=settings.operators)
    bank = RoomBank(ledger, store)
    app = create_app(settings, auth=auth, bank=bank, record_sink=store, default_spec=spec)

    def table_of(table_id: str) -> Table | None:
        entry: TableEntry | None = app.state.lobby.get(table_id)
        return None if entry is None else entry.table

    bank.tables = table_of
    app.router.routes.insert(0, hands_route(auth, store))
    return Room(app, engine, ledger, store, report, returned)


def memory_app(settings: Settings, environ: Mapping[str, str] | None = None) -> Starlette:
    """The room with its accounts and chips in memory (lost when it stops)."""
    bank = MemoryBank()
    auth = MemoryAuth(
        operators=settings.operators,
        on_register=lambda name: bank.issue(name, settings.starting_chips),
    )
    return create_app(settings, auth=auth, bank=bank, default_spec=default_spec(settings, environ))


def serve(settings: Settings, *, memory: bool = False) -> int:
    """Run the room with uvicorn until it is stopped (``stud8 serve``)."""
    import uvicorn

    _tune_garbage_collector()

    if memory:
        log.warning("accounts and chips are kept IN MEMORY: everything is lost at exit")
        uvicorn.run(memory_app(settings), host=settings.host, port=settings.port)
        return 0
    try:
        room = open_room(settings)
    except (LedgerError, ValueError) as exc:
        log.error("cannot open the room on %s: %s", settings.database_url, exc)
        return 1
    log.info("database %s: %s", settings.database_url, room.ledger.audit())
    try:
        uvicorn.run(room.app, host=settings.host, port=settings.port)
    finally:
        room.close()
    return 0


def _tune_garbage_collector() -> None:
    """Keep the event loop from stalling on full collections: a room holds many
    small, long-lived objects (tables' event histories, connections), and CPython's
    default thresholds make it walk all of them often. What is alive at startup is
    frozen out of collection, and the young generation is allowed to grow larger."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
