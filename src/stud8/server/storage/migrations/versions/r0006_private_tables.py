"""Private tables: each one's invitation, and the accounts it admitted.

``table_invitations``: one row per private table (who opened it, its code, unique;
null once the code is revoked). ``table_guests``: the accounts that used a code of
the table (and its creator), who keep their access when the code changes.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "table_invitations",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(100), nullable=False, unique=True),
        sa.Column("creator", sa.String(200), nullable=False),
        sa.Column("code", sa.String(64), nullable=True, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "table_guests",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(100), nullable=False),
        sa.Column("account", sa.String(200), nullable=False),
        sa.Column("admitted_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_table_guests_table_account", "table_guests", ["table_id", "account"], unique=True
    )
    op.create_index("ix_table_guests_account", "table_guests", ["account"])


def downgrade() -> None:
    op.drop_index("ix_table_guests_account", "table_guests")
    op.drop_index("ix_table_guests_table_account", "table_guests")
    op.drop_table("table_guests")
    op.drop_table("table_invitations")
