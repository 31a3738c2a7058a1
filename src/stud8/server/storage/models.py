"""The ledger's tables (SQLAlchemy 2 ORM).

``accounts``
    One row per account: ``name`` is unique (``issuance``, ``rake``,
    ``bank:<player>``, ``table:<table>:<player>``, ``pot:<table>``); ``kind`` is one
    of :data:`ACCOUNT_KINDS`; ``balance`` caches the sum of the account's entries
    (the audit checks it), always in whole chips.
``transactions``
    One row per money movement: its ``kind`` (:data:`TRANSACTION_KINDS`), the
    ``hand_id`` for a hand settlement or refund (unique: a hand is settled or
    refunded once), a free ``memo`` and the time.
``entries``
    The transaction's legs: (transaction, account, amount); the amounts of one
    transaction sum to zero.

Changing these tables means a new Alembic revision in ``migrations/versions``.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

ACCOUNT_KINDS = ("issuance", "bank", "table", "pot", "rake")
TRANSACTION_KINDS = (
    "grant",
    "buy_in",
    "top_up",
    "cash_out",
    "hand_settlement",
    "refund",
    "rake",
)


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
