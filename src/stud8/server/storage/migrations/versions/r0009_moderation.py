"""The operator's console: a moderation log, silences for a time, the lobby's message.

``moderation_log`` keeps every act of an operator on a player (a ban, its undoing,
a silence, its end, a credit, a debit) and every lobby message posted or withdrawn:
who did it, what, to whom, when and why (a reason is required), and for a silence
until when; a credit or debit names its ledger transaction. ``silenced_players``
gains ``until``: a silence for a time ends by itself then (null: until lifted).
``lobby_messages`` holds the message shown to everyone in the lobby and at every
table until an operator withdraws it.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("acted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("operator", sa.String(200), nullable=False),
        sa.Column("act", sa.String(16), nullable=False),
        sa.Column("player", sa.String(200), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=True),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("transaction_id", sa.Integer, nullable=True),
    )
    op.create_index("ix_moderation_log_player", "moderation_log", ["player", "id"])
    with op.batch_alter_table("silenced_players") as batch:
        batch.add_column(sa.Column("until", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "lobby_messages",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("posted_by", sa.String(200), nullable=False),
        sa.Column("posted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("lobby_messages")
    with op.batch_alter_table("silenced_players") as batch:
        batch.drop_column("until")
    op.drop_index("ix_moderation_log_player", "moderation_log")
    op.drop_table("moderation_log")
