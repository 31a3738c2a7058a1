"""The room's tables across restarts: what they are and who sits where.

The database keeps every table the room opened (``room_tables``: its id, name,
:class:`~stud8.server.room.lobby.TableSpec` as JSON, and when an operator closed it)
and who sits in which seat of it (``table_seats``: the player, a bot or not).
The chips are not kept here: a player's chips at a table are his ledger account
``table:<table>:<player>``, which a hand moves only when it ends. The seats are
written by following each table's events: a ``sit`` event (the buy-in is done)
writes the row, a ``leave`` event (the cash-out is done) deletes it.

At startup, after the unfinished hands are cancelled
(:func:`stud8.server.books.recovery.recover`: their chips never left the table
accounts), :func:`prepare_restore` makes the plan and :class:`RoomKeeper` carries
it out when the app starts:

- every table not closed comes back with its id, name and settings;
- each seat whose player still has chips at that table comes back with exactly
  those chips (the table account after recovery); a seat without chips is
  dropped;
- chips at a table with no seat to come back to (a closed table, or a crash
  between a buy-in and its ``sit`` event) are cashed out to the owner's bank:
  nothing is lost and the audit balances;
- bots come back in their seats with their chips (a new bot of the table's
  policy plays under the same name), and free seats are filled with new bots up
  to the table's number, so the ready tables still fill. New bots are numbered
  after every bot the ledger has known, so a name is never reused.

**A player reseated after a restart is not connected** (his connection died
with the old process). RULES.md section 6 says a player disconnected between
hands is dealt out and his chips stay his, so that is what he gets: he is
seated ``sitting_out`` with the reason ``disconnected``, and the table deals him
in again as soon as he connects to it (his seat, his chips), exactly as after a
dropped connection. Why not deal him in and let the clock act for him? Each hand
would take his ante and, when his time ran out, fold him or take him all-in for
what he had put in (section 6's timeout rule) for as long as he is away; and why
not cash him out? The seat and the chips are what the restart promises him. He
stays seated until he comes back or leaves, as any disconnected player does.

The default ready tables of ``stud8 serve`` are made on the first start only: a
database where no table was ever stored (:attr:`RestorePlan.first_start`).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, delete, insert, select, update

from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger
from stud8.server.books.recovery import table_stacks
from stud8.server.books.writer import RoomWriter
from stud8.server.room.lobby import Lobby, LobbyError, Reseat, TableSpec
from stud8.server.storage.db import session_factory
from stud8.server.storage.models import RoomTable, TableSeat
from stud8.server.table.events import Numbered, SeatLeft, SeatTaken

if TYPE_CHECKING:
    from stud8.server.table.owner import Subscription, Table

log = logging.getLogger("stud8.server")

RETURNED_MEMO = "returned to the bank at startup: no seat to come back to"
_BOT_ACCOUNT = re.compile(r"(?:bank|table:[^:]+):bot(\d+)")


def spec_json(spec: TableSpec) -> str:
    return json.dumps(asdict(spec), sort_keys=True, separators=(",", ":"))


def spec_from_json(text: str) -> TableSpec:
    """A stored spec (fields this version does not know are ignored)."""
    data = json.loads(text)
    known = {f.name for f in fields(TableSpec)}
    return TableSpec(**{k: v for k, v in data.items() if k in known})


@dataclass(frozen=True, slots=True)
class StoredTable:
    table_id: str
    name: str
    spec: TableSpec
    closed: bool


@dataclass(frozen=True, slots=True)
class StoredSeat:
    seat: int
    player: str
    bot: bool


class TableStore:
    """The ``room_tables`` and ``table_seats`` of a migrated database (blocking calls)."""

    def __init__(self, engine: Engine, writer: RoomWriter | None = None) -> None:
        self.engine = engine
        self.writer = writer  # the running room's: the seats go in its batches
        self._sessions = session_factory(engine)

    # ------------------------------------------------------------ tables
    def save(self, table_id: str, name: str, spec: TableSpec) -> None:
        """Store a new table (its id must be new)."""
        with self._sessions.begin() as session:
            session.add(RoomTable(table_id=table_id, name=name, spec=spec_json(spec)))

    def close(self, table_id: str) -> None:
        """Mark a table closed: it does not come back."""
        with self._sessions.begin() as session:
            session.execute(
                update(RoomTable)
                .where(RoomTable.table_id == table_id, RoomTable.closed_at.is_(None))
                .values(closed_at=datetime.now(UTC))
            )

    def tables(self) -> list[StoredTable]:
        """Every table stored, open or closed, oldest first."""
        with self._sessions() as session:
            rows = session.scalars(select(RoomTable).order_by(RoomTable.id))
            return [
                StoredTable(r.table_id, r.name, spec_from_json(r.spec), r.closed_at is not None)
                for r in rows
            ]

    # ------------------------------------------------------------ seats
    def seats(self, table_id: str) -> list[StoredSeat]:
        with self._sessions() as session:
            rows = session.scalars(
                select(TableSeat).where(TableSeat.table_id == table_id).order_by(TableSeat.seat)
            )
            return [StoredSeat(r.seat, r.player, r.bot) for r in rows]

    def sit(self, table_id: str, seat: int, player: str, bot: bool) -> None:
        """``player`` sits in ``seat`` (replacing any row left for that seat)."""
        with self.engine.begin() as conn:
            self.sit_in(conn, table_id, seat, player, bot)

    def stand(self, table_id: str, seat: int) -> None:
        """Nobody sits in ``seat`` any more."""
        with self.engine.begin() as conn:
            self.stand_in(conn, table_id, seat)

    @staticmethod
    def sit_in(conn: Connection, table_id: str, seat: int, player: str, bot: bool) -> None:
        TableStore.stand_in(conn, table_id, seat)
        conn.execute(insert(TableSeat).values(table_id=table_id, seat=seat, player=player, bot=bot))

    @staticmethod
    def stand_in(conn: Connection, table_id: str, seat: int) -> None:
        conn.execute(
            delete(TableSeat).where(TableSeat.table_id == table_id, TableSeat.seat == seat)
        )

    def follow(self, table: Table) -> Subscription:
        """Keep the table's seats as its events change them."""

        table_id, writer = table.table_id, self.writer

        def deliver(item: Numbered) -> None:
            event = item.event
            if isinstance(event, SeatTaken):
                seat, player, bot = event.seat, event.player, event.bot
                if writer is None:
                    self.sit(table_id, seat, player, bot)
                else:  # after the buy-in, in order: the chips are there first
                    writer.submit(
                        lambda conn: self.sit_in(conn, table_id, seat, player, bot),
                        what=f"{player} sitting at {table_id}",
                    )
            elif isinstance(event, SeatLeft):
                seat = event.seat
                if writer is None:
                    self.stand(table_id, seat)
                else:
                    writer.submit(
                        lambda conn: self.stand_in(conn, table_id, seat),
                        what=f"seat {seat} of {table_id} freed",
                    )

        return table.subscribe(None, deliver)


# ------------------------------------------------------------------ the restart
@dataclass(slots=True)
class RestorePlan:
    """What comes back at startup (see the module)."""

    tables: list[tuple[StoredTable, list[Reseat]]] = field(default_factory=list)
    used: list[str] = field(default_factory=list)  # every table id ever used
    returned: dict[str, dict[str, int]] = field(default_factory=dict)  # cashed out
    first_start: bool = True
    next_bot: int = 1


def prepare_restore(store: TableStore, ledger: Ledger) -> RestorePlan:
    """The tables and seats that come back, after recovery; the chips with no
    seat to come back to are cashed out now (blocking)."""
    stored = store.tables()
    plan = RestorePlan(used=[t.table_id for t in stored], first_start=not stored)
    stacks = table_stacks(ledger)
    for table in stored:
        chips_here = stacks.pop(table.table_id, {})
        reseats: list[Reseat] = []
        for seat in store.seats(table.table_id):
            chips = 0 if table.closed else chips_here.pop(seat.player, 0)
            if chips > 0 and 1 <= seat.seat <= table.spec.seats:
                reseats.append(Reseat(seat.seat, seat.player, chips, seat.bot))
                continue
            store.stand(table.table_id, seat.seat)
            if chips:
                chips_here[seat.player] = chips
        if chips_here:
            stacks[table.table_id] = chips_here
        if not table.closed:
            plan.tables.append((table, reseats))
    for table_id, players in stacks.items():
        for player, chips in players.items():
            ledger.cash_out(player, table_id, chips, memo=RETURNED_MEMO)
            plan.returned.setdefault(table_id, {})[player] = chips
    numbers = [
        int(found.group(1))
        for name in ledger.balances()
        if (found := _BOT_ACCOUNT.fullmatch(name)) is not None
    ]
    plan.next_bot = max(numbers, default=0) + 1
    return plan


class RoomKeeper:
    """The :class:`~stud8.server.room.lobby.TableKeeper` of a room on a database."""

    def __init__(
        self, store: TableStore, hands: HandStore, plan: RestorePlan, *, watch_hands: bool = True
    ) -> None:
        self.store = store
        self.hands = hands
        self.plan = plan
        # False when the tables' bank notes each hand before dealing it (a HandNoter)
        self.watch_hands = watch_hands

    def opened(self, table_id: str, name: str, spec: TableSpec) -> None:
        self.store.save(table_id, name, spec)

    def closed(self, table_id: str) -> None:
        self.store.close(table_id)

    def follow(self, table: Table) -> list[Subscription]:
        # the hands are noted when dealt (for recovery), the seats when taken
        if not self.watch_hands:
            return [self.store.follow(table)]
        return [self.hands.watch(table), self.store.follow(table)]

    async def restore(self, lobby: Lobby) -> bool:
        plan = self.plan
        lobby.reserve(plan.used)
        lobby.number_bots_from(plan.next_bot)
        for table, seats in plan.tables:
            try:
                await lobby.reopen(table.table_id, table.name, table.spec, seats)
            except LobbyError as exc:  # its chips stay at the table for the next start
                log.error("table %s cannot come back: %s", table.table_id, exc)
                continue
            log.info("table %s is back: %s", table.table_id, _seats_text(seats))
        return not plan.first_start


def _seats_text(seats: Sequence[Reseat]) -> str:
    if not seats:
        return "no seat taken"
    return ", ".join(f"seat {s.seat} {s.player} {s.chips}" for s in seats)
