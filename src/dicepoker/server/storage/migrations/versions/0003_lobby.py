"""One open play-now table per game, enforced by the database (several processes press "play now" at once).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("dp_tables") as batch:
        # Rows written before stay NULL: waiting play-now tables that exist are still found and joined, and
        # several of them (left by processes racing before this revision) cannot collide.
        batch.add_column(sa.Column("lobby", sa.String(40), nullable=True))
        batch.create_index("uq_dp_tables_lobby", ["lobby"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("dp_tables") as batch:
        batch.drop_index("uq_dp_tables_lobby")
        batch.drop_column("lobby")
