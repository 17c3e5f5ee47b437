"""Configurations each registered game is tested under. A game with no entry is tested with defaults."""

from typing import Any

CONFIGS: dict[str, list[dict[str, Any]]] = {
    "scorecard": [{"players": 1}, {"players": 2}, {"players": 4}],
    "holdem": [{"players": 2, "stack": 50}, {"players": 4, "stack": 60}, {"players": 6, "stack": 40, "ante": 20}],
    # Every PeekPoker option at least once (PK-1, PK-3, PK-14), "aces may not be re-rolled" included.
    "peekpoker": [
        {},
        {"players": 4, "blinds": True, "forced_bet": True},
        {"split_community": True},
        {"players": 3, "stack": 20, "ace_rerolls": False},
    ],
    "zepherin": [{"players": 2}, {"players": 4}],
    "classic-board": [{"players": 2}, {"players": 3}, {"players": 6, "teams": 3}],
}
