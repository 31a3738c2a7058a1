"""An account's own: its private notes on players, and its settings.

``player_notes``: one row per (author, player): a colour tag (a ``NoteColour``'s
value, or null) and a text, read by the author only. ``account_settings``: one row
per account, its ``AccountSettings`` as JSON (the four-colour deck, the sounds, the
default buy-in per stakes, the auto top-up), so they follow it from browser to
browser.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "player_notes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("author", sa.String(200), nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("colour", sa.String(16), nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_player_notes_author_player", "player_notes", ["author", "player"], unique=True
    )
    op.create_table(
        "account_settings",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account", sa.String(200), nullable=False, unique=True),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("account_settings")
    op.drop_index("ix_player_notes_author_player", "player_notes")
    op.drop_table("player_notes")
