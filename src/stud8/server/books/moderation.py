"""An operator's acts on players, each written to the moderation log with its reason.

:class:`Moderation` bans and unbans an account, silences a player for a time or for
good and lets him chat again, credits and debits his bank, and posts or withdraws
the lobby's message. Each act and its row in ``moderation_log`` (who, what, to
whom, when, why) are ONE transaction: an act refused (an unknown player, a debit
over the bank, a player not banned) changes nothing and logs nothing. A reason is
required (1 to :data:`REASON_CHARS` characters): the log says why.

``stud8 admin ban/silence/credit/debit/log`` and ``/api/v1/admin/...``
(:mod:`stud8.server.http.admin`) both act through it, so the log is complete
whichever way the operator works.

>>> import tempfile
>>> from stud8.server.accounts.accounts import Accounts
>>> from stud8.server.books.ledger import Ledger
>>> from stud8.server.storage import create_engine_for, upgrade
>>> engine = create_engine_for(f"sqlite:///{tempfile.mkdtemp()}/room.db")
>>> upgrade(engine)
>>> ledger = Ledger(engine)
>>> _ = Accounts(engine, ledger).register("ann", "Tr1cky-Ostrich-7")
>>> moderation = Moderation(engine, ledger)
>>> moderation.silence("boss", "ann", "spam", minutes=10).act
<ModerationAct.SILENCE: 'silence'>
>>> moderation.credit("boss", "ann", 500, "sold").amount
500
>>> moderation.unban("boss", "ann", "sorry")
Traceback (most recent call last):
...
stud8.server.books.moderation.ModerationError: ann is not banned
>>> [(entry.act.value, entry.player) for entry in moderation.log()]
[('credit', 'ann'), ('silence', 'ann')]
>>> engine.dispose()
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, Row, delete, func, insert, select, update

from stud8.server.books.chat import ChatStore
from stud8.server.books.ledger import ISSUANCE, Ledger, LedgerError, bank
from stud8.server.storage.db import reads_of
from stud8.server.storage.models import LobbyMessageRow, LoginSession, ModerationRow, as_utc
from stud8.server.storage.models import Player as PlayerRow
from stud8.server.wire.admin import ModerationAct

__all__ = [
    "MAX_LOG",
    "MAX_MINUTES",
    "MESSAGE_CHARS",
    "REASON_CHARS",
    "LobbyMessage",
    "LoggedAct",
    "Moderation",
    "ModerationAct",
    "ModerationError",
    "NoSuchPlayerError",
    "check_reason",
]

REASON_CHARS = 500
MESSAGE_CHARS = 500
MAX_MINUTES = 366 * 24 * 60  # a silence for longer is a silence for good
MAX_LOG = 1000  # entries read back at once
_LOG_ROWS = ModerationRow.__table__
_LOG = select(_LOG_ROWS)


class ModerationError(ValueError):
    """The act is refused (bad input, or it would change nothing): nothing done."""


class NoSuchPlayerError(ModerationError):
    """There is no account of that name."""


@dataclass(frozen=True, slots=True)
class LoggedAct:
    """One row of the moderation log; ``amount`` for a credit or debit (with its
    ledger ``transaction_id``), ``until`` for a silence for a time."""

    id: int
    acted_at: datetime
    operator: str
    act: ModerationAct
    player: str | None
    reason: str
    amount: int | None = None
    until: datetime | None = None
    transaction_id: int | None = None


@dataclass(frozen=True, slots=True)
class LobbyMessage:
    """The message shown to everyone until it is withdrawn."""

    id: int
    text: str
    posted_by: str
    posted_at: datetime


def check_reason(reason: object) -> str:
    """The reason, trimmed; :class:`ModerationError` unless 1 to REASON_CHARS characters."""
    if not isinstance(reason, str) or not reason.strip():
        raise ModerationError("give a reason (the moderation log says why)")
    if len(reason.strip()) > REASON_CHARS:
        raise ModerationError(f"a reason has at most {REASON_CHARS} characters")
    return reason.strip()


def _check_minutes(minutes: object) -> int | None:
    if minutes is None:
        return None
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise ModerationError(f"minutes must be a whole number, not {minutes!r}")
    if not 1 <= minutes <= MAX_MINUTES:
        raise ModerationError(f"minutes must be from 1 to {MAX_MINUTES} (or none: for good)")
    return minutes


def _check_amount(amount: object) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise ModerationError(f"the amount must be a whole number of chips, not {amount!r}")
    if amount < 1:
        raise ModerationError(f"the amount must be at least 1 chip, not {amount}")
    return amount


def _act(row: Row[Any]) -> LoggedAct:
    return LoggedAct(
        id=row.id,
        acted_at=as_utc(row.acted_at),
        operator=row.operator,
        act=ModerationAct(row.act),
        player=row.player,
        reason=row.reason,
        amount=row.amount,
        until=None if row.until is None else as_utc(row.until),
        transaction_id=row.transaction_id,
    )


class Moderation:
    """The operator's acts and their log on the room's database (see the module)."""

    def __init__(self, engine: Engine, ledger: Ledger) -> None:
        self.engine = engine
        self.ledger = ledger
        self._reads = reads_of(engine)

    # ------------------------------------------------------------ the log
    @staticmethod
    def _write(
        conn: Connection,
        operator: str,
        act: ModerationAct,
        player: str | None,
        reason: str,
        **extra: object,
    ) -> LoggedAct:
        values = {
            "acted_at": datetime.now(UTC),
            "operator": operator,
            "act": act.value,
            "player": player,
            "reason": reason,
            **extra,
        }
        new_id = conn.execute(insert(ModerationRow).values(**values)).inserted_primary_key
        assert new_id is not None
        return _act(conn.execute(_LOG.where(_LOG_ROWS.c.id == new_id[0])).one())

    def log(self, *, player: str | None = None, limit: int = 100) -> list[LoggedAct]:
        """The last ``limit`` acts (on ``player`` only, any case, if given), newest first."""
        query = _LOG
        if player is not None:
            query = query.where(func.lower(_LOG_ROWS.c.player) == player.lower())
        query = query.order_by(_LOG_ROWS.c.id.desc()).limit(max(0, min(limit, MAX_LOG)))
        with self._reads.connect() as conn:
            rows = conn.execute(query).all()
        return [_act(row) for row in rows]

    @staticmethod
    def _player(conn: Connection, name: str) -> tuple[int, str, str]:
        """(id, name as registered, role) of the account ``name`` (any case)."""
        found = conn.execute(
            select(PlayerRow.id, PlayerRow.name, PlayerRow.role).where(
                PlayerRow.name_key == name.casefold()
            )
        ).first()
        if found is None:
            raise NoSuchPlayerError(f"no account {name[:40]!r}")
        return found[0], found[1], found[2]

    # ------------------------------------------------------------ acts
    def ban(self, operator: str, name: str, reason: str) -> LoggedAct:
        """The account may no longer log in; its sessions end (its websockets close
        at the room's next sweep, or at once through the REST)."""
        why = check_reason(reason)
        with self.engine.begin() as conn:
            player_id, player, role = self._player(conn, name)
            if role == "banned":
                raise ModerationError(f"{player} is banned already")
            if role == "operator":
                raise ModerationError(f"{player} is an operator: an operator is not banned")
            conn.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(role="banned"))
            conn.execute(delete(LoginSession).where(LoginSession.player_id == player_id))
            return self._write(conn, operator, ModerationAct.BAN, player, why)

    def unban(self, operator: str, name: str, reason: str) -> LoggedAct:
        """A banned account may log in again (as a player)."""
        why = check_reason(reason)
        with self.engine.begin() as conn:
            player_id, player, role = self._player(conn, name)
            if role != "banned":
                raise ModerationError(f"{player} is not banned")
            conn.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(role="player"))
            return self._write(conn, operator, ModerationAct.UNBAN, player, why)

    def silence(
        self, operator: str, name: str, reason: str, *, minutes: int | None = None
    ) -> LoggedAct:
        """His chat is refused at every table, for ``minutes`` (ending by itself) or
        for good; a second silence replaces the first."""
        why = check_reason(reason)
        length = _check_minutes(minutes)
        with self.engine.begin() as conn:
            _, player, _ = self._player(conn, name)
            until = None if length is None else datetime.now(UTC) + timedelta(minutes=length)
            ChatStore.silence_in(conn, player, until=until)
            return self._write(conn, operator, ModerationAct.SILENCE, player, why, until=until)

    def unsilence(self, operator: str, name: str, reason: str) -> LoggedAct:
        """He may chat again (refused if he is not silenced now)."""
        why = check_reason(reason)
        with self.engine.begin() as conn:
            _, player, _ = self._player(conn, name)
            if not ChatStore.in_force_in(conn, player):
                raise ModerationError(f"{player} is not silenced")
            ChatStore.silence_in(conn, player, undo=True)
            return self._write(conn, operator, ModerationAct.UNSILENCE, player, why)

    def credit(self, operator: str, name: str, amount: int, reason: str) -> LoggedAct:
        """Chips issued to his bank (the ledger's ``credit``, the reason its memo)."""
        return self._move(operator, name, amount, reason, debit=False)

    def debit(self, operator: str, name: str, amount: int, reason: str) -> LoggedAct:
        """Chips taken from his bank back to the issuance; refused over the bank."""
        return self._move(operator, name, amount, reason, debit=True)

    def _move(
        self, operator: str, name: str, amount: int, reason: str, *, debit: bool
    ) -> LoggedAct:
        why = check_reason(reason)
        chips = _check_amount(amount)
        with self.engine.begin() as conn:
            _, player, _ = self._player(conn, name)
            account = bank(player)
            create: tuple[str, ...]
            if debit:
                legs, create = [(account, -chips), (ISSUANCE, chips)], ()
            else:
                legs, create = [(ISSUANCE, -chips), (account, chips)], (ISSUANCE, account)
            kind = "debit" if debit else "credit"
            try:
                txn = self.ledger.transfer(kind, legs, memo=why, create=create, conn=conn)
            except LedgerError as exc:
                raise ModerationError(str(exc)) from exc
            act = ModerationAct.DEBIT if debit else ModerationAct.CREDIT
            return self._write(conn, operator, act, player, why, amount=chips, transaction_id=txn)

    # ------------------------------------------------------------ the lobby's message
    def post_message(self, operator: str, text: str) -> LobbyMessage:
        """Show ``text`` to everyone (it replaces the message shown, if any)."""
        if not isinstance(text, str) or not text.strip():
            raise ModerationError("the message is empty")
        if len(text.strip()) > MESSAGE_CHARS:
            raise ModerationError(f"a message has at most {MESSAGE_CHARS} characters")
        said = text.strip()
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            conn.execute(
                update(LobbyMessageRow)
                .where(LobbyMessageRow.withdrawn_at.is_(None))
                .values(withdrawn_at=now)
            )
            new_id = conn.execute(
                insert(LobbyMessageRow).values(text=said, posted_by=operator, posted_at=now)
            ).inserted_primary_key
            assert new_id is not None
            self._write(conn, operator, ModerationAct.MESSAGE, None, said)
        return LobbyMessage(int(new_id[0]), said, operator, now)

    def withdraw_message(self, operator: str) -> LobbyMessage:
        """Withdraw the message shown (ModerationError if none is)."""
        with self.engine.begin() as conn:
            shown = self._shown(conn)
            if shown is None:
                raise ModerationError("no lobby message is shown")
            conn.execute(
                update(LobbyMessageRow)
                .where(LobbyMessageRow.id == shown.id)
                .values(withdrawn_at=datetime.now(UTC))
            )
            self._write(conn, operator, ModerationAct.WITHDRAW, None, shown.text)
        return shown

    def message(self) -> LobbyMessage | None:
        """The message shown now, if any."""
        with self._reads.connect() as conn:
            return self._shown(conn)

    @staticmethod
    def _shown(conn: Connection) -> LobbyMessage | None:
        row = conn.execute(
            select(LobbyMessageRow.__table__)
            .where(LobbyMessageRow.withdrawn_at.is_(None))
            .order_by(LobbyMessageRow.id.desc())
            .limit(1)
        ).first()
        if row is None:
            return None
        return LobbyMessage(row.id, row.text, row.posted_by, as_utc(row.posted_at))
