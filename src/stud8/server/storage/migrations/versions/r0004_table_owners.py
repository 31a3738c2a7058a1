"""Each table's owner and fencing epoch, for a room on several nodes.

``epoch`` goes up by one each time a node takes a table over (its lease in Redis
won); every write of the table's books checks it in its own transaction, so a node
that lost the table can never move a chip of it again. ``owner`` names the node
that took it last (for the operator).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("room_tables") as batch:
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("owner", sa.String(100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("room_tables") as batch:
        batch.drop_column("owner")
        batch.drop_column("epoch")
