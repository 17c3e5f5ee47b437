"""Alembic environment: always run on the connection handed over in ``config.attributes``.

Importing this module outside Alembic (pytest's doctest collection does) does nothing.
"""

from __future__ import annotations

from alembic import context

from dicepoker.server.storage.sql_schema import metadata


def run_migrations() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "config", None) is not None:
    run_migrations()
