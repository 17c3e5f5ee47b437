"""Accounts and their sessions (issue 20): names unique by their NFKC + casefold key; sessions by id hash.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dp_accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("uq_dp_accounts_name_key", "dp_accounts", ["name_key"], unique=True)
    op.create_table(
        "dp_sessions",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("dp_accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_dp_sessions_account_id", "dp_sessions", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_dp_sessions_account_id", "dp_sessions")
    op.drop_table("dp_sessions")
    op.drop_index("uq_dp_accounts_name_key", "dp_accounts")
    op.drop_table("dp_accounts")
