"""Shared test set-up.

Tests run with the tables shipped with the package turned off (``DICEPOKER_SHIPPED_TABLES`` empty, inherited by
the processes they start), so that an empty ``DICEPOKER_CACHE_DIR`` means "build": the tests of the build and
cache paths see what they check. ``tests/bots/test_shipped_tables.py`` turns them back on to test them.
"""

from __future__ import annotations

import pytest

from dicepoker.dice.table_cache import SHIPPED_ENV


@pytest.fixture(autouse=True)
def _no_shipped_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SHIPPED_ENV, "")
