"""The ledger's tables (SQLAlchemy 2 ORM).

``accounts``
    One row per account: ``name`` is unique (``issuance``, ``bank:<player>``,
    ``table:<table>:<player>``, ``pot:<table>``, ``rake:<table>``, and an older
    database's room-wide ``rake``, of the same kind); ``kind`` is one
    of :data:`ACCOUNT_KINDS`; ``balance`` caches the sum of the account's entries
    (the audit checks it), always in whole chips.
``transactions``
    One row per money movement: its ``kind`` (:data:`TRANSACTION_KINDS`), the
    ``hand_id`` for a hand settlement or refund (unique: a hand is settled or
    refunded once), a free ``memo`` and the time.
``entries``
    The transaction's legs: (transaction, account, amount); the amounts of one
    transaction sum to zero.
``players``, ``sessions``
    Registered players (a unique name, its case-folded ``name_key``, an argon2id
    password hash, a role) and their log-in sessions (the sha256 of the token,
    its expiry, the address it was last seen from and when). See
    ``stud8.server.accounts.accounts`` and ``stud8.server.accounts.seen``.
``hands``, ``hand_players``
    Every finished hand whole (its ``HandRecord`` JSON; none for a hand cancelled
    by a restart) and who played it in which seat with what stack. See ``stud8.server.books.hands``.
``hands_in_progress``
    One row per hand dealt and not yet recorded: its table, players and starting
    stacks, so a restart can cancel it (``stud8.server.books.recovery``).
``room_tables``, ``table_seats``
    Every table the room ever opened (its id, name and settings as JSON; when it
    was closed, if it was) and who sits in which seat of an open table (a bot or
    not, and the stack his auto top-up tops up to: the buy-in he chose, raised by
    his top-ups), so a restart brings the tables back with their players; the chips
    are the ledger's. See ``stud8.server.books.seats``.
``chat_lines``, ``silenced_players``
    Every line of every table's chat, with the hand it fell in (none between
    hands) and its time, on the hands' time line; and the players an operator has
    silenced (their messages are refused), each until a time or for good. See
    ``stud8.server.books.chat``.
``moderation_log``, ``lobby_messages``
    Every act of an operator on a player (ban, unban, silence, unsilence, credit,
    debit; a lobby message posted or withdrawn): who, what, to whom, when, why (and
    the amount, the silence's end, the ledger's transaction); and the lobby's
    messages (the one not withdrawn is shown). See ``stud8.server.books.moderation``.
``table_invitations``, ``table_guests``
    A private table's invitation (who opened the table, its code: null once revoked)
    and the accounts the code admitted, who keep their access. See
    ``stud8.server.books.invitations``.
``fairness_reports``
    Every fairness report run for the operator's console: when, by whom, on how many
    deals, its verdict and the report whole (``rng-report --json``'s); the newest is
    the console's last report on every node. See ``stud8.server.books.fairness``.
``player_notes``, ``account_settings``
    An account's private notes on players (the author, the player, a colour tag of
    the palette or none, the text: read by their author only) and its settings (one
    row per account, the ``AccountSettings`` as JSON). See
    ``stud8.server.accounts.notes`` and ``stud8.server.accounts.preferences``.
``tournaments``, ``tournament_entries``
    Every tournament (its ``TournamentDefinition`` as JSON, its phase, and the whole
    state of its director and tables as JSON, written with every change, so a
    restart resumes it) and its entries (a player's buy-in; its status
    ``registered``, ``unregistered`` or ``refunded``; the place and prize at the end).
    The money is the ledger's (``prizes:<tournament>``, ``fees:<tournament>``); see
    ``stud8.server.books.tournaments``.

Changing these tables means a new Alembic revision in ``migrations/versions``.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

ACCOUNT_KINDS = ("issuance", "bank", "table", "pot", "rake", "prizes", "fees")
TRANSACTION_KINDS = (
    "grant",
    "buy_in",
    "top_up",
    "cash_out",
    "hand_settlement",
    "refund",
    "rake",
    "credit",
    "debit",
    "tournament_buy_in",
    "tournament_unregister",
    "tournament_prizes",
    "tournament_cancel",
)


def as_utc(moment: datetime) -> datetime:
    """A moment read back from a ``DateTime(timezone=True)`` column, in UTC: SQLite
    gives it back naive (it keeps no zone), the moments written are all UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The declarative base of every stud8 table."""


class Account(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    def __repr__(self) -> str:
        return f"<Account {self.name} {self.balance}>"


class Transaction(Base):
    __tablename__ = "transactions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    hand_id: Mapped[str | None] = mapped_column(String(100), unique=True, default=None)
    memo: Mapped[str] = mapped_column(String(500), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    entries: Mapped[list[Entry]] = relationship(back_populates="transaction")

    def __repr__(self) -> str:
        return f"<Transaction {self.id} {self.kind} {self.hand_id or ''}>"


class Entry(Base):
    __tablename__ = "entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transaction_id: Mapped[int] = mapped_column(ForeignKey("transactions.id"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    amount: Mapped[int] = mapped_column(BigInteger)
    transaction: Mapped[Transaction] = relationship(back_populates="entries")

    __table_args__ = (
        Index("ix_entries_transaction_id", "transaction_id"),
        Index("ix_entries_account_id", "account_id"),
    )


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16), default="player")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    def __repr__(self) -> str:
        return f"<Player {self.name} {self.role}>"


class LoginSession(Base):
    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # where the session was last seen from (its log-in, a websocket from elsewhere)
    address: Mapped[str | None] = mapped_column(String(64), default=None)
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)

    __table_args__ = (Index("ix_sessions_player_id", "player_id"),)


class StoredHand(Base):
    __tablename__ = "hands"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[str] = mapped_column(String(100), unique=True)
    table_id: Mapped[str] = mapped_column(String(200))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    cancelled: Mapped[bool] = mapped_column(Boolean, default=False)
    note: Mapped[str] = mapped_column(String(500), default="")
    record: Mapped[str | None] = mapped_column(Text, default=None)

    __table_args__ = (Index("ix_hands_table_id", "table_id"),)


class HandPlayer(Base):
    __tablename__ = "hand_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_ref: Mapped[int] = mapped_column(ForeignKey("hands.id"))
    player: Mapped[str] = mapped_column(String(200))
    seat: Mapped[int] = mapped_column(Integer)
    stack: Mapped[int] = mapped_column(BigInteger, default=0)  # at the start of the hand

    __table_args__ = (
        Index("ix_hand_players_player", "player", "hand_ref"),
        Index("ix_hand_players_hand_ref", "hand_ref"),
    )


class HandInProgress(Base):
    __tablename__ = "hands_in_progress"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[str] = mapped_column(String(100), unique=True)
    table_id: Mapped[str] = mapped_column(String(200))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    seats: Mapped[str] = mapped_column(Text)  # JSON: [[seat, player, stack], ...]


class RoomTable(Base):
    __tablename__ = "room_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(100), unique=True)
    name: Mapped[str] = mapped_column(String(100))
    spec: Mapped[str] = mapped_column(Text)  # JSON: the TableSpec's fields
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    # a room on several nodes: the epoch goes up at each takeover (fencing), the
    # owner is the node that took the table last
    epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    owner: Mapped[str | None] = mapped_column(String(100), default=None)


class TableSeat(Base):
    __tablename__ = "table_seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(100))
    seat: Mapped[int] = mapped_column(Integer)
    player: Mapped[str] = mapped_column(String(200))
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    seated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    # the stack he chose (r0012; null: a seat stored before)
    top_up_to: Mapped[int | None] = mapped_column(Integer, default=None)

    __table_args__ = (Index("ix_table_seats_table_seat", "table_id", "seat", unique=True),)


class ChatLineRow(Base):
    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(100))
    hand_id: Mapped[str | None] = mapped_column(String(100), default=None)
    player: Mapped[str] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(Text)
    said_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    __table_args__ = (
        Index("ix_chat_lines_table_id", "table_id", "id"),
        Index("ix_chat_lines_hand_id", "hand_id"),
    )


class SilencedPlayer(Base):
    __tablename__ = "silenced_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name_key: Mapped[str] = mapped_column(String(200), unique=True)  # the name, case-folded
    player: Mapped[str] = mapped_column(String(200))
    silenced_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    # a silence for a time ends by itself then; None: until an operator lifts it
    until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class TableInvitation(Base):
    __tablename__ = "table_invitations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(100), unique=True)
    creator: Mapped[str] = mapped_column(String(200))
    code: Mapped[str | None] = mapped_column(String(64), unique=True, default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class TableGuest(Base):
    __tablename__ = "table_guests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(100))
    account: Mapped[str] = mapped_column(String(200))
    admitted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    __table_args__ = (
        Index("ix_table_guests_table_account", "table_id", "account", unique=True),
        Index("ix_table_guests_account", "account"),
    )


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    definition: Mapped[str] = mapped_column(Text)  # JSON: TournamentDefinition.to_dict()
    phase: Mapped[str] = mapped_column(String(16))  # registering, running, finished, cancelled
    state: Mapped[str | None] = mapped_column(Text, default=None)  # JSON: director and tables
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    # a room on several nodes: the epoch goes up at each takeover (fencing), the
    # owner is the node that took the tournament last
    epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    owner: Mapped[str | None] = mapped_column(String(100), default=None)


class TournamentEntryRow(Base):
    __tablename__ = "tournament_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    entry: Mapped[int] = mapped_column(Integer)
    player: Mapped[str] = mapped_column(String(200))
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), default="registered")
    place: Mapped[int | None] = mapped_column(Integer, default=None)
    shared: Mapped[int] = mapped_column(Integer, default=1)
    prize: Mapped[int] = mapped_column(BigInteger, default=0)
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    __table_args__ = (
        Index("ix_tournament_entries_entry", "tournament_id", "entry", unique=True),
        Index("ix_tournament_entries_player", "player"),
    )


class ModerationRow(Base):
    __tablename__ = "moderation_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    acted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    operator: Mapped[str] = mapped_column(String(200))
    act: Mapped[str] = mapped_column(String(16))  # a ModerationAct's value
    player: Mapped[str | None] = mapped_column(String(200), default=None)
    reason: Mapped[str] = mapped_column(String(500))
    amount: Mapped[int | None] = mapped_column(BigInteger, default=None)
    until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    transaction_id: Mapped[int | None] = mapped_column(Integer, default=None)

    __table_args__ = (Index("ix_moderation_log_player", "player", "id"),)


class LobbyMessageRow(Base):
    __tablename__ = "lobby_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(String(500))
    posted_by: Mapped[str] = mapped_column(String(200))
    posted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    withdrawn_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class FairnessReportRow(Base):
    __tablename__ = "fairness_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    run_by: Mapped[str] = mapped_column(String(200))  # the operator, or the command
    deals: Mapped[int] = mapped_column(BigInteger)
    verdict: Mapped[str] = mapped_column(String(16))  # pass, fail
    report: Mapped[str] = mapped_column(Text)  # JSON: rng-report --json's report


class PlayerNoteRow(Base):
    __tablename__ = "player_notes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    author: Mapped[str] = mapped_column(String(200))  # the account that wrote it, the only reader
    player: Mapped[str] = mapped_column(String(200))
    colour: Mapped[str | None] = mapped_column(String(16), default=None)  # a NoteColour's value
    text: Mapped[str] = mapped_column(Text, default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    __table_args__ = (Index("ix_player_notes_author_player", "author", "player", unique=True),)


class AccountSettingsRow(Base):
    __tablename__ = "account_settings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(200), unique=True)
    settings: Mapped[str] = mapped_column(Text)  # JSON: the AccountSettings
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
