"""The operator's console kept for every node: the fairness reports, and where each
log-in session was last seen.

``fairness_reports``: one row per fairness report run for the console (or by
``stud8 admin rng-report --database URL --keep``): when it was made, by whom, on how
many deals, its verdict, and the report whole as ``rng-report --json`` writes it; the
newest is the console's "last report" on every node, across restarts.
``sessions`` gains ``address`` and ``seen_at``: the client's address when the
session logged in, and again whenever one of its websockets opens from another
(null for the sessions of before), so that any node's console shows every address
of an account, not only those of the sockets open on that node.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "fairness_reports",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("run_by", sa.String(200), nullable=False),
        sa.Column("deals", sa.BigInteger, nullable=False),
        sa.Column("verdict", sa.String(16), nullable=False),
        sa.Column("report", sa.Text, nullable=False),
    )
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("address", sa.String(64), nullable=True))
        batch.add_column(sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("seen_at")
        batch.drop_column("address")
    op.drop_table("fairness_reports")
