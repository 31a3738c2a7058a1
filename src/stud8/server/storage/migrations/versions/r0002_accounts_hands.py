"""Players and their sessions; the hand records; the hands in progress.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("hand_id", sa.String(100), nullable=False, unique=True),
        sa.Column("table_id", sa.String(200), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cancelled", sa.Boolean, nullable=False),
        sa.Column("note", sa.String(500), nullable=False),
        sa.Column("record", sa.Text, nullable=True),
    )
    op.create_index("ix_hands_table_id", "hands", ["table_id"])
    op.create_table(
        "hand_players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("hand_ref", sa.Integer, sa.ForeignKey("hands.id"), nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("stack", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_hand_players_player", "hand_players", ["player", "hand_ref"])
    op.create_index("ix_hand_players_hand_ref", "hand_players", ["hand_ref"])
    op.create_table(
        "hands_in_progress",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("hand_id", sa.String(100), nullable=False, unique=True),
        sa.Column("table_id", sa.String(200), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hands_in_progress")
    op.drop_index("ix_hand_players_hand_ref", "hand_players")
    op.drop_index("ix_hand_players_player", "hand_players")
    op.drop_table("hand_players")
    op.drop_index("ix_hands_table_id", "hands")
    op.drop_table("hands")
    op.drop_index("ix_sessions_player_id", "sessions")
    op.drop_table("sessions")
    op.drop_table("players")
