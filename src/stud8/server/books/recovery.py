"""Crash recovery: at startup, cancel every hand the server did not finish.

RULES.md section 7: if the server fails during a hand, the hand is cancelled,
every ante, bring-in and bet goes back to the player who made it, and the
history records the cancellation.

The ledger moves chips only when a hand ends (one transaction keyed by the hand
id), so a hand cut short by a crash has moved none: every player's chips are
still in his table account, exactly his stack at the hand's start, and giving
"back" the bets needs no movement. :func:`recover` closes each hand still noted
in ``hands_in_progress`` (see :mod:`stud8.server.books.hands`):

- if the ledger has no transaction for it, a ``refund`` transaction keyed by the
  hand id is written with a contribution of **0 for each player**: the bets made
  during the hand lived in the server's memory only and never reached the
  ledger, so there is nothing to move back; the transaction closes the hand id
  (it can never be settled later) and its memo lists the players and their
  starting stacks, which are also their stacks now;
- if the ledger already settled it (the crash came between the settlement and
  the storing of the record), the settlement stands and the hand is stored as
  settled, its record lost;
- either way the hand is stored as an entry without a record (its players,
  seats, starting stacks and a note) and its in-progress row is removed, in one
  transaction. Running :func:`recover` again finds nothing to do.

The report gives the chips each player has at each table (the table accounts),
for the room to seat them again or cash them out, and the audit of the books.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import Engine

from stud8.formats.pokerstars.write import hand_number
from stud8.server.books.hands import HandStore, InProgress
from stud8.server.books.ledger import AuditReport, DuplicateHandError, Ledger, LedgerError
from stud8.server.table.events import HandRefunded

CANCELLED_NOTE = "cancelled: the server stopped during the hand; every chip went back"
SETTLED_NOTE = "settled before the server stopped; the hand's history was lost"


@dataclass(frozen=True, slots=True)
class RecoveredHand:
    hand_id: str
    table: str
    outcome: str  # "refunded" (cancelled) or "settled" (the ledger had settled it)
    stacks: dict[str, int]  # each player's stack at the hand's start


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    hands: tuple[RecoveredHand, ...]
    tables: dict[str, dict[str, int]]  # table -> player -> chips there (non-zero only)
    audit: AuditReport
    problems: tuple[str, ...] = field(default=())

    @property
    def cancelled(self) -> tuple[str, ...]:
        return tuple(h.hand_id for h in self.hands if h.outcome == "refunded")

    @property
    def ok(self) -> bool:
        return self.audit.ok and not self.problems

    def __str__(self) -> str:
        lines = [f"{len(self.hands)} unfinished hand(s) closed"]
        lines += [f"  {h.hand_id} at {h.table}: {h.outcome}" for h in self.hands]
        for table, players in sorted(self.tables.items()):
            chips = ", ".join(f"{p} {c}" for p, c in sorted(players.items()))
            lines.append(f"table {table}: {chips}")
        lines += [f"PROBLEM: {p}" for p in self.problems]
        lines.append(str(self.audit))
        return "\n".join(lines)


def table_stacks(ledger: Ledger) -> dict[str, dict[str, int]]:
    """The chips on every table, by table and player (non-zero only)."""
    tables: dict[str, dict[str, int]] = {}
    for name, chips in ledger.balances("table:").items():
        _, table, player = name.split(":", 2)
        if chips:
            tables.setdefault(table, {})[player] = chips
    return tables


def cut_short_at(hands: HandStore, table_id: str) -> tuple[HandRefunded, ...]:
    """The latest hands of ``table_id`` a restart or a failover cancelled, as the
    table tells them when it comes back (:meth:`HandStore.cut_short`: read from the
    stored hands, so a second restart still knows them), the oldest first."""
    return tuple(HandRefunded(h, str(hand_number(h))) for h in hands.cut_short(table_id))


def _stacks_memo(hand: InProgress) -> str:
    return "stacks " + ", ".join(f"seat {s.seat} {s.player} {s.stack}" for s in hand.seats)


def recover(engine: Engine, ledger: Ledger, hands: HandStore | None = None) -> RecoveryReport:
    """Close every hand still in progress (see the module's docstring)."""
    store = hands if hands is not None else HandStore(engine)
    closed, problems = _close_hands(ledger, store, store.in_progress())
    return RecoveryReport(tuple(closed), table_stacks(ledger), ledger.audit(), tuple(problems))


def recover_table(
    ledger: Ledger, hands: HandStore, table_id: str
) -> tuple[list[RecoveredHand], list[str]]:
    """Close the hand still in progress at one table (a room on several nodes: the
    node that takes a table over closes its hand, and no other table's); the hands
    closed and the problems met."""
    return _close_hands(ledger, hands, [h for h in hands.in_progress() if h.table == table_id])


def _close_hands(
    ledger: Ledger, store: HandStore, unfinished: Iterable[InProgress]
) -> tuple[list[RecoveredHand], list[str]]:
    closed: list[RecoveredHand] = []
    problems: list[str] = []
    for hand in unfinished:
        done = ledger.hand_transaction(hand.hand_id)
        outcome = "refunded"
        if done is None:
            try:
                ledger.refund_hand(
                    hand.hand_id,
                    hand.table,
                    {s.player: 0 for s in hand.seats},
                    memo=f"cancelled at restart; {_stacks_memo(hand)}"[:500],
                )
            except DuplicateHandError as exc:  # closed meanwhile by someone else
                done = (exc.transaction_id, exc.kind)
            except LedgerError as exc:
                problems.append(f"hand {hand.hand_id}: the refund was refused: {exc}")
                continue
        if done is not None and done[1] != "refund":
            outcome = "settled"
        note = CANCELLED_NOTE if outcome == "refunded" else SETTLED_NOTE
        store.close_unfinished(hand, cancelled=outcome == "refunded", note=note)
        closed.append(RecoveredHand(hand.hand_id, hand.table, outcome, hand.players))
    return closed, problems
