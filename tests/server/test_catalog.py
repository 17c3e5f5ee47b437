"""The lobby's game list: a real one-paragraph summary per game comes from the server."""

from __future__ import annotations

import inspect

from dicepoker.games.registry import game_class, names
from dicepoker.server.tables import catalog


def test_every_game_has_a_one_paragraph_summary() -> None:
    games = {g["name"]: g for g in catalog.games()}
    assert set(games) == set(names()) == set(catalog.SUMMARIES)
    for name, game in games.items():
        summary = str(game["summary"])
        assert summary == catalog.SUMMARIES[name]
        assert 150 <= len(summary) <= 500 and "\n" not in summary and summary.count(". ") >= 2, name
        # The short docstring line is still there, under its own name.
        assert game["tagline"] == (inspect.getdoc(game_class(name)) or "").splitlines()[0]


def test_api_games_serves_every_declared_fact() -> None:
    """Issue 18: ``GET /api/games`` serves each game's own facts (``GameInfo``) beside the fields it had."""
    from fastapi.testclient import TestClient

    from dicepoker.bots.registry import bot_names
    from dicepoker.games.registry import infos
    from dicepoker.server.settings import Settings
    from dicepoker.server.transport.app import create_app

    with TestClient(create_app(Settings(scheduler=False, warm_tables=False))) as client:
        served = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert list(served) == [i.name for i in infos()]
    for facts in infos():
        game = served[facts.name]
        for key, value in facts.to_json().items():
            assert game[key] == value, (facts.name, key)
        assert game["title"] == facts.title and game["short_title"] == facts.short_title
        assert game["players"] == {"min": facts.players.min, "max": facts.players.max, "default": facts.players.default}
        assert game["bots"] == bot_names(facts.name) and game["config"] and game["tagline"]
