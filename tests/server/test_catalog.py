"""The lobby's game list: a real one-paragraph summary per game comes from the server."""

from __future__ import annotations

import inspect

from dicepoker.games.registry import game_class, names
from dicepoker.server import catalog


def test_every_game_has_a_one_paragraph_summary() -> None:
    games = {g["name"]: g for g in catalog.games()}
    assert set(games) == set(names()) == set(catalog.SUMMARIES)
    for name, game in games.items():
        summary = str(game["summary"])
        assert summary == catalog.SUMMARIES[name]
        assert 150 <= len(summary) <= 500 and "\n" not in summary and summary.count(". ") >= 2, name
        # The short docstring line is still there, under its own name.
        assert game["tagline"] == (inspect.getdoc(game_class(name)) or "").splitlines()[0]
