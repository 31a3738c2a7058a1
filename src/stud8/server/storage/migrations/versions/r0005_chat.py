"""Table chat: every line with the hand it fell in and its time; silenced players.

``chat_lines`` keeps each table's chat on the hands' time line (``hand_id``: the
hand in play when it was said, null between hands); ``silenced_players`` the
players an operator has silenced (``stud8 admin silence``).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(100), nullable=False),
        sa.Column("hand_id", sa.String(100), nullable=True),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("said_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_lines_table_id", "chat_lines", ["table_id", "id"])
    op.create_index("ix_chat_lines_hand_id", "chat_lines", ["hand_id"])
    op.create_table(
        "silenced_players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name_key", sa.String(200), nullable=False, unique=True),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("silenced_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("silenced_players")
    op.drop_index("ix_chat_lines_hand_id", "chat_lines")
    op.drop_index("ix_chat_lines_table_id", "chat_lines")
    op.drop_table("chat_lines")
