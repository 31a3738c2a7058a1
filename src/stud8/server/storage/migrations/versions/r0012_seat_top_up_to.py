"""A stored seat keeps the stack its player chose.

``table_seats`` gains ``top_up_to``: the stack the seat's auto top-up tops up to,
the buy-in its player sat with, raised by his own top-ups (written with the buy-in
and with each top-up, in their transactions), so that after a restart he is topped
up to what he chose, not to the stack he came back with. Null for the seats stored
before (they top up to their stack at the restart, as they did).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_seats") as batch:
        batch.add_column(sa.Column("top_up_to", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("table_seats") as batch:
        batch.drop_column("top_up_to")
