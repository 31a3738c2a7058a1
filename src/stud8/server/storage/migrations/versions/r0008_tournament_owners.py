"""Each tournament's owner and fencing epoch, for a room on several nodes.

As a table's (``r0004``): ``epoch`` goes up by one each time a node takes a
tournament over (its lease in Redis won); every write of the tournament's books
(its state, its money, its tables' hands) checks it in its own transaction, so a
node that lost the tournament can never write it again. ``owner`` names the node
that took it last (for the operator).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("owner", sa.String(100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("owner")
        batch.drop_column("epoch")
