"""The room's tables across restarts: what comes back at startup.

At startup, after the unfinished hands are cancelled
(:func:`stud8.server.books.recovery.recover`: their chips never left the table
accounts), :func:`prepare_restore` makes the plan and :class:`RoomKeeper` carries
it out when the room starts:

- every table not closed comes back with its id, name and settings;
- each seat whose player still has chips at that table comes back with exactly
  those chips (the table account after recovery), and his auto top-up tops up to
  the stack he chose (his buy-in, raised by his top-ups: kept with the seat; a seat
  stored before revision 0012, to the chips he comes back with); a seat without
  chips is dropped;
- chips at a table with no seat to come back to (a closed table) are cashed out to the owner's bank:
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

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger
from stud8.server.books.recovery import cut_short_at, table_stacks
from stud8.server.books.seats import StoredTable, TableStore
from stud8.server.room.lobby import Lobby, LobbyError, Reseat
from stud8.server.table.events import HandRefunded
from stud8.server.table.spec import TableSpec

log = logging.getLogger("stud8.server")

RETURNED_MEMO = "returned to the bank at startup: no seat to come back to"
_BOT_ACCOUNT = re.compile(r"(?:bank|table:[^:]+):bot(\d+)")


# ------------------------------------------------------------------ the restart
@dataclass(slots=True)
class RestorePlan:
    """What comes back at startup (see the module)."""

    tables: list[tuple[StoredTable, list[Reseat]]] = field(default_factory=list)
    used: list[str] = field(default_factory=list)  # every table id ever used
    returned: dict[str, dict[str, int]] = field(default_factory=dict)  # cashed out
    first_start: bool = True
    next_bot: int = 1
    # each table's latest hands a restart cancelled: it tells them when it is back
    refunded: dict[str, tuple[HandRefunded, ...]] = field(default_factory=dict)
    # the hands each table dealt (a mixed table's rotation goes on from there)
    dealt: dict[str, int] = field(default_factory=dict)


def prepare_restore(
    store: TableStore, ledger: Ledger, hands: HandStore | None = None
) -> RestorePlan:
    """The tables and seats that come back, after recovery, with the hands a restart
    cancelled at each (read from ``hands``); the chips with no seat to come back to
    are cashed out now (blocking)."""
    stored = store.tables()
    plan = RestorePlan(used=[t.table_id for t in stored], first_start=not stored)
    stacks = table_stacks(ledger)
    for table in stored:
        chips_here = stacks.pop(table.table_id, {})
        reseats = _reseats(store, table, chips_here)
        if chips_here:
            stacks[table.table_id] = chips_here
        if not table.closed:
            plan.tables.append((table, reseats))
            if hands is not None:
                plan.refunded[table.table_id] = cut_short_at(hands, table.table_id)
                plan.dealt[table.table_id] = hands.dealt_at(table.table_id)
    for table_id, players in stacks.items():
        for player, chips in players.items():
            ledger.cash_out(player, table_id, chips, memo=RETURNED_MEMO)
            plan.returned.setdefault(table_id, {})[player] = chips
    plan.next_bot = next_bot_number(ledger)
    return plan


def next_bot_number(ledger: Ledger) -> int:
    """The number after every bot the ledger has known (``bot<N>``), so that a bot's
    name is never used twice."""
    numbers = [
        int(found.group(1))
        for name in ledger.balances()
        if (found := _BOT_ACCOUNT.fullmatch(name)) is not None
    ]
    return max(numbers, default=0) + 1


def _reseats(store: TableStore, table: StoredTable, chips_here: dict[str, int]) -> list[Reseat]:
    """The seats of ``table`` that come back with their chips (taken out of
    ``chips_here``, the table's accounts); a seat without chips is dropped."""
    reseats: list[Reseat] = []
    for seat in store.seats(table.table_id):
        chips = 0 if table.closed else chips_here.pop(seat.player, 0)
        if chips > 0 and 1 <= seat.seat <= table.spec.seats:
            reseats.append(Reseat(seat.seat, seat.player, chips, seat.bot, seat.top_up_to or 0))
            continue
        store.stand(table.table_id, seat.seat)
        if chips:
            chips_here[seat.player] = chips
    return reseats


def plan_table(
    store: TableStore, ledger: Ledger, table_id: str
) -> tuple[StoredTable, list[Reseat]]:
    """One table as it comes back on the node that takes it over (a room on several
    nodes), after its hand in play was closed: its seats with their chips; chips
    with no seat to come back to are cashed out to their owners' banks (blocking).
    LookupError if the room has no such table."""
    table = store.table(table_id)
    prefix = f"table:{table_id}:"
    chips_here = {
        name.removeprefix(prefix): chips for name, chips in ledger.balances(prefix).items() if chips
    }
    reseats = _reseats(store, table, chips_here)
    for player, chips in chips_here.items():
        ledger.cash_out(player, table_id, chips, memo=RETURNED_MEMO)
    return table, reseats


class RoomKeeper:
    """The :class:`~stud8.server.room.lobby.TableKeeper` of a room on a database."""

    def __init__(self, store: TableStore, plan: RestorePlan) -> None:
        self.store = store
        self.plan = plan

    def opened(self, table_id: str, name: str, spec: TableSpec) -> None:
        self.store.save(table_id, name, spec)

    def closed(self, table_id: str) -> None:
        self.store.close(table_id)

    async def restore(self, lobby: Lobby) -> bool:
        plan = self.plan
        lobby.reserve(plan.used)
        lobby.number_bots_from(plan.next_bot)
        for table, seats in plan.tables:
            try:
                refunded = plan.refunded.get(table.table_id, ())
                await lobby.reopen(
                    table.table_id,
                    table.name,
                    table.spec,
                    seats,
                    refunded=refunded,
                    hands_dealt=plan.dealt.get(table.table_id, 0),
                )
            except LobbyError as exc:  # its chips stay at the table for the next start
                log.error("table %s cannot come back: %s", table.table_id, exc)
                continue
            log.info("table %s is back: %s", table.table_id, _seats_text(seats))
        return not plan.first_start


def _seats_text(seats: Sequence[Reseat]) -> str:
    if not seats:
        return "no seat taken"
    return ", ".join(f"seat {s.seat} {s.player} {s.chips}" for s in seats)
