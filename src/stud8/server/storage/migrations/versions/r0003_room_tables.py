"""The room's tables and who sits where, so a restart brings them back.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "room_tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(100), nullable=False, unique=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "table_seats",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(100), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.Column("seated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_table_seats_table_seat", "table_seats", ["table_id", "seat"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_table_seats_table_seat", "table_seats")
    op.drop_table("table_seats")
    op.drop_table("room_tables")
