"""Optimistic concurrency between server processes: the number of writes of each table record.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("dp_tables") as batch:
        # Rows written before count as written once.
        batch.add_column(sa.Column("stamp", sa.Integer, nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("dp_tables") as batch:
        batch.drop_column("stamp")
