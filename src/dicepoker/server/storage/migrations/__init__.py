"""Alembic migrations of the server database, run programmatically at start-up (:func:`..sql.migrate`)."""
