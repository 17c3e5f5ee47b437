"""Tables and their event logs.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dp_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("clock", sa.Float, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("client_seeds", sa.JSON, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("rng_counter", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("remaining", sa.Float, nullable=True),
        sa.Column("autofill", sa.Float, nullable=True),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("rematch", sa.String(32), nullable=True),
        sa.Column("rematch_of", sa.String(32), nullable=True),
        sa.Column("options", sa.JSON, nullable=False),
    )
    op.create_index("ix_dp_tables_game", "dp_tables", ["game"])
    op.create_index("ix_dp_tables_status", "dp_tables", ["status"])
    op.create_index("ix_dp_tables_created", "dp_tables", ["created"])
    op.create_table(
        "dp_events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("dp_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("client_id", sa.String(64), nullable=True),
        sa.UniqueConstraint("table_id", "seq", name="uq_dp_events_table_seq"),
    )


def downgrade() -> None:
    op.drop_table("dp_events")
    op.drop_table("dp_tables")
