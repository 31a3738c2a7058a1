"""A tournament's books: its row, its entries and its money, on the room's database.

**The money** goes through the double-entry ledger (:mod:`stud8.server.books.ledger`),
in room chips. Each tournament has two accounts: ``prizes:<tournament>`` (its prize
pool: the buy-ins, until the prizes are paid) and ``fees:<tournament>`` (the house's
fees). **Tournament chips are never room chips**: the stacks at a tournament's
tables are counted by its director, not by the ledger, and no hand of a tournament
moves a room chip.

=========================  ====================================================
register (each entry)      ``bank:<player>`` pays the buy-in to the prize pool and
                           the fee to ``fees:<tournament>`` (one transaction; a
                           bot's chips are granted first, in the same step)
unregister                 the buy-in and the fee go back, one transaction
the prizes                 every prize from the prize pool into the winners'
                           banks, in ONE transaction: the pool is then empty
cancelled by an operator,  every registered entry's buy-in and fee go back to his
or a scheduled start       bank, in one transaction (the rule: a cancelled
without enough entrants    tournament costs nobody anything, however far it went;
                           its tournament chips are worth nothing)
=========================  ====================================================

Every call writes in the caller's open transaction (``conn``: one job of the room's
writer), together with the director's state (:meth:`TournamentStore.save_in`), so
the money and the tournament's state never disagree after a crash.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, insert, select, update

from stud8.server.books.ledger import Ledger, bank
from stud8.server.storage.db import reads_of, session_factory
from stud8.server.storage.models import TournamentEntryRow, TournamentRow, as_utc
from stud8.tournament.director import Phase

__all__ = [
    "BOT_MEMO",
    "StoredEntry",
    "StoredTournament",
    "TournamentStore",
    "fees_account",
    "prizes_account",
]

BOT_MEMO = "bot chips for a tournament"


def prizes_account(tournament: int) -> str:
    """The name of a tournament's prize-pool account."""
    return f"prizes:{tournament}"


def fees_account(tournament: int) -> str:
    """The name of the account of the fees a tournament took for the house."""
    return f"fees:{tournament}"


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class StoredEntry:
    entry: int
    player: str
    bot: bool
    status: str  # registered, unregistered, refunded
    place: int | None
    shared: int
    prize: int


@dataclass(frozen=True, slots=True)
class StoredTournament:
    tournament_id: int
    name: str
    definition: dict[str, Any]
    phase: Phase
    state: dict[str, Any] | None
    created_at: datetime


class TournamentStore:
    """The ``tournaments`` and ``tournament_entries`` rows, and the money of each
    tournament through the ledger (see the module). The ``*_in`` calls write in the
    caller's transaction; the others read."""

    def __init__(self, engine: Engine, ledger: Ledger) -> None:
        self.engine = engine
        self.ledger = ledger
        # its reads take no lock (the lobby reads while the room's writer writes)
        self._reads = session_factory(reads_of(engine))

    # ------------------------------------------------------------ writing
    @staticmethod
    def create_in(conn: Connection, name: str, definition: dict[str, Any], phase: Phase) -> int:
        """A new tournament's row; its id (its number in the hand histories)."""
        now = _now()
        row = conn.execute(
            insert(TournamentRow).values(
                name=name,
                definition=json.dumps(definition, separators=(",", ":")),
                phase=phase,
                state=None,
                created_at=now,
                updated_at=now,
            )
        )
        key = row.inserted_primary_key
        assert key is not None
        return int(key[0])

    @staticmethod
    def save_in(
        conn: Connection,
        tournament: int,
        phase: Phase,
        state: dict[str, Any],
        *,
        at: datetime | None = None,
    ) -> None:
        """The tournament's phase and whole state at ``at`` (its owner's clock; now)."""
        conn.execute(
            update(TournamentRow)
            .where(TournamentRow.id == tournament)
            .values(
                phase=phase,
                state=json.dumps(state, separators=(",", ":")),
                updated_at=at or _now(),
            )
        )

    @staticmethod
    def touch_in(conn: Connection, tournament: int, at: datetime) -> None:
        """The tournament's owner was alive at ``at``: its heartbeat, one small update
        (``updated_at`` only), so that after a crash the clock runs up to the crash
        and no further (:meth:`alive_at_in`)."""
        conn.execute(
            update(TournamentRow).where(TournamentRow.id == tournament).values(updated_at=at)
        )

    @staticmethod
    def alive_at_in(conn: Connection, tournament: int) -> datetime | None:
        """When the tournament's owner last wrote its state or its heartbeat (UTC)."""
        at = conn.execute(
            select(TournamentRow.updated_at).where(TournamentRow.id == tournament)
        ).scalar_one_or_none()
        if at is None:
            return None
        return as_utc(at)

    def register_in(
        self,
        conn: Connection,
        tournament: int,
        *,
        entry: int,
        player: str,
        buy_in: int,
        fee: int,
        bot: bool = False,
    ) -> None:
        """An entry bought: the buy-in into the prize pool, the fee to the house
        (a :class:`~stud8.server.books.ledger.LedgerError` if the bank cannot pay:
        nothing is written), and the entry's row."""
        ledger = self.ledger
        cost = buy_in + fee
        if bot and cost:
            ledger.grant(player, cost, memo=BOT_MEMO, conn=conn)
        if cost:
            legs = [(bank(player), -cost)]
            legs += [(prizes_account(tournament), buy_in)] if buy_in else []
            legs += [(fees_account(tournament), fee)] if fee else []
            ledger.transfer(
                "tournament_buy_in",
                legs,
                memo=f"tournament {tournament} entry {entry}",
                create=(prizes_account(tournament), fees_account(tournament)),
                conn=conn,
            )
        conn.execute(
            insert(TournamentEntryRow).values(
                tournament_id=tournament,
                entry=entry,
                player=player,
                bot=bot,
                status="registered",
                place=None,
                shared=1,
                prize=0,
                registered_at=_now(),
            )
        )

    def unregister_in(
        self, conn: Connection, tournament: int, *, entry: int, player: str, buy_in: int, fee: int
    ) -> None:
        """An entry taken back before the start: its buy-in and fee go back."""
        self._return(conn, tournament, [(entry, player)], buy_in, fee, "tournament_unregister")
        self._set_status(conn, tournament, [entry], "unregistered")

    def cancel_in(
        self,
        conn: Connection,
        tournament: int,
        entries: Sequence[tuple[int, str]],
        *,
        buy_in: int,
        fee: int,
    ) -> None:
        """A cancelled tournament: every entry's buy-in and fee back, in one transaction."""
        self._return(conn, tournament, entries, buy_in, fee, "tournament_cancel")
        self._set_status(conn, tournament, [e for e, _ in entries], "refunded")

    def pay_prizes_in(
        self,
        conn: Connection,
        tournament: int,
        results: Iterable[tuple[int, str, int, int, int]],
    ) -> None:
        """The prizes, from the prize pool into the winners' banks in ONE transaction,
        and every entry's place: ``(entry, player, place, shared, prize)``."""
        rows = list(results)
        legs: list[tuple[str, int]] = []
        pool = prizes_account(tournament)
        for _, player, _, _, prize in rows:
            if prize:
                legs += [(pool, -prize), (bank(player), prize)]
        if legs:
            self.ledger.transfer(
                "tournament_prizes",
                legs,
                memo=f"tournament {tournament}: the prizes",
                create=tuple(bank(p) for _, p, _, _, prize in rows if prize),
                conn=conn,
            )
        for entry, _, place, shared, prize in rows:
            conn.execute(
                update(TournamentEntryRow)
                .where(TournamentEntryRow.tournament_id == tournament)
                .where(TournamentEntryRow.entry == entry)
                .values(place=place, shared=shared, prize=prize)
            )

    def _return(
        self,
        conn: Connection,
        tournament: int,
        entries: Sequence[tuple[int, str]],
        buy_in: int,
        fee: int,
        kind: str,
    ) -> None:
        if not entries or not buy_in + fee:
            return
        legs: list[tuple[str, int]] = []
        for _, player in entries:
            if buy_in:
                legs.append((prizes_account(tournament), -buy_in))
            if fee:
                legs.append((fees_account(tournament), -fee))
            legs.append((bank(player), buy_in + fee))
        self.ledger.transfer(
            kind,
            legs,
            memo=f"tournament {tournament}: entries {', '.join(str(e) for e, _ in entries)}",
            conn=conn,
        )

    @staticmethod
    def _set_status(conn: Connection, tournament: int, entries: Sequence[int], status: str) -> None:
        if entries:
            conn.execute(
                update(TournamentEntryRow)
                .where(TournamentEntryRow.tournament_id == tournament)
                .where(TournamentEntryRow.entry.in_(list(entries)))
                .values(status=status)
            )

    # ------------------------------------------------------------ reading
    def tournaments(self) -> list[StoredTournament]:
        """Every tournament, oldest first."""
        with self._reads() as session:
            rows = session.scalars(select(TournamentRow).order_by(TournamentRow.id))
            return [_stored(r) for r in rows]

    def tournament(self, tournament: int) -> StoredTournament | None:
        """One tournament (None if the room has none of this id)."""
        with self._reads() as session:
            row = session.get(TournamentRow, tournament)
            return None if row is None else _stored(row)

    def open_ids(self) -> list[int]:
        """The tournaments registering or running (not over), oldest first."""
        with self._reads() as session:
            return list(
                session.scalars(
                    select(TournamentRow.id)
                    .where(
                        TournamentRow.phase.not_in((Phase.FINISHED.value, Phase.CANCELLED.value))
                    )
                    .order_by(TournamentRow.id)
                )
            )

    def bot_names(self) -> list[str]:
        """Every bot ever registered in a tournament (a bot in a freeroll has no bank
        account, so the ledger does not know its name)."""
        with self._reads() as session:
            return list(
                session.scalars(
                    select(TournamentEntryRow.player).where(TournamentEntryRow.bot.is_(True))
                )
            )

    def entries(self, tournament: int) -> list[StoredEntry]:
        """A tournament's entries, in order of entry."""
        with self._reads() as session:
            rows = session.scalars(
                select(TournamentEntryRow)
                .where(TournamentEntryRow.tournament_id == tournament)
                .order_by(TournamentEntryRow.entry)
            )
            return [
                StoredEntry(r.entry, r.player, r.bot, r.status, r.place, r.shared, r.prize)
                for r in rows
            ]


def _stored(row: TournamentRow) -> StoredTournament:
    created = as_utc(row.created_at)
    return StoredTournament(
        tournament_id=row.id,
        name=row.name,
        definition=json.loads(row.definition),
        phase=Phase(row.phase),
        state=None if row.state is None else json.loads(row.state),
        created_at=created,
    )
