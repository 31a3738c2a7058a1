"""Tournaments: each one's definition, phase and state (the director's, for a restart),
and its entries (who bought in, a bot or not, the place and the prize).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("definition", sa.Text, nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("state", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("entry", sa.Integer, nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("place", sa.Integer, nullable=True),
        sa.Column("shared", sa.Integer, nullable=False),
        sa.Column("prize", sa.BigInteger, nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_tournament_entries_entry",
        "tournament_entries",
        ["tournament_id", "entry"],
        unique=True,
    )
    op.create_index("ix_tournament_entries_player", "tournament_entries", ["player"])


def downgrade() -> None:
    op.drop_index("ix_tournament_entries_player", "tournament_entries")
    op.drop_index("ix_tournament_entries_entry", "tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
