"""The database schema (SQLAlchemy Core). Alembic migrations in :mod:`.migrations` create and evolve it."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

tables = Table(
    "dp_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False, index=True),
    Column("config", JSON, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("clock", Float, nullable=True),
    Column("status", String(16), nullable=False, index=True),
    Column("commitment", String(64), nullable=False),
    Column("server_seed", String(64), nullable=False),
    Column("client_seeds", JSON, nullable=True),
    Column("created", Float, nullable=False, index=True),
    Column("rng_counter", Integer, nullable=False, default=0),
    Column("version", Integer, nullable=False, default=0),
    Column("deadline", Float, nullable=True),
    Column("remaining", Float, nullable=True),
    Column("autofill", Float, nullable=True),
    Column("result", JSON, nullable=True),
    Column("rematch", String(32), nullable=True),
    Column("rematch_of", String(32), nullable=True),
    Column("options", JSON, nullable=False),
    Column("stamp", Integer, nullable=False, default=0),
    Column("lobby", String(40), nullable=True),
    # One open play-now table per game (NULLs, every other table, do not collide): see TableRecord.lobby.
    Index("uq_dp_tables_lobby", "lobby", unique=True),
)

events = Table(
    "dp_events",
    metadata,
    Column("table_id", String(32), ForeignKey("dp_tables.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("action", Text, nullable=False),
    Column("client_id", String(64), nullable=True),
    UniqueConstraint("table_id", "seq", name="uq_dp_events_table_seq"),
)

# Accounts (issue 20, :mod:`.accounts`). The unique index on name_key makes "one account per name" the
# database's rule, whichever process signs up.
accounts = Table(
    "dp_accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("name_key", String(80), nullable=False),
    Column("password_hash", String(255), nullable=False),
    Column("created", Float, nullable=False),
    Index("uq_dp_accounts_name_key", "name_key", unique=True),
)

sessions = Table(
    "dp_sessions",
    metadata,
    Column("key", String(64), primary_key=True),  # SHA-256 of the session id, never the id
    Column("account_id", String(32), ForeignKey("dp_accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)
