"""Configurations each registered game is tested under. A game with no entry is tested with defaults."""

from typing import Any

CONFIGS: dict[str, list[dict[str, Any]]] = {
    "scorecard": [{"players": 1}, {"players": 2}, {"players": 4}],
}
