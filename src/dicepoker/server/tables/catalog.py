"""What the server offers: every registered game with its config fields, defaults, bots and clock."""

from __future__ import annotations

import dataclasses
import functools
import inspect

from dicepoker.bots.registry import bot_names
from dicepoker.core.types import JSON
from dicepoker.games.registry import info, infos
from dicepoker.server.errors import Invalid

# Thin views of the games' own facts (each game declares them in its package: dicepoker.core.info.GameInfo),
# kept for the callers that read these names.
CLOCK_DEFAULTS = {i.name: i.clock for i in infos()}
"""CM-6: each game's default seconds per decision (``GameInfo.clock``)."""
TIME_BANK_GAMES = tuple(i.name for i in infos() if i.betting)
"""The betting games, whose tables may have a per-player time bank (``POST /api/tables`` ``time_bank``)."""
AUTOFILL_BOTS = {i.name: i.seat_filler for i in infos()}
"""The bot that takes a play-now table's empty seats (``GameInfo.seat_filler``)."""
SUMMARIES = {i.name: i.summary for i in infos()}
"""``GET /api/games`` ``summary``: one paragraph per game for the lobby (``GameInfo.summary``)."""

_TYPES = {"int": "int", "bool": "bool", "str": "str", "tuple[str, ...]": "list[str]"}


def clock_default(game: str) -> float:
    return info(game).clock


def autofill_bot(game: str) -> str:
    wanted = info(game).seat_filler
    return wanted if wanted in bot_names(game) else "random"


def player_range(game: str) -> tuple[int, int, int]:
    """(min, max, default) player counts of a game, as it declares them (``GameInfo.players``)."""
    players = info(game).players
    return players.min, players.max, players.default


def _field(game: str, field: dataclasses.Field[object]) -> dict[str, JSON]:
    annotation = str(field.type)
    nullable = annotation.endswith("| None")
    base = annotation.removesuffix("| None").strip()
    default = field.default if field.default is not dataclasses.MISSING else None
    entry: dict[str, JSON] = {
        "name": field.name,
        "type": _TYPES.get(base, base),
        "default": list(default) if isinstance(default, tuple) else default,
    }
    if nullable:
        entry["nullable"] = True
    if field.name == "players":
        low, high, _ = player_range(game)
        entry["min"], entry["max"] = low, high
    return entry


@functools.cache
def _games() -> tuple[dict[str, JSON], ...]:
    found = []
    for facts in infos():
        cls = facts.game_class
        doc = inspect.getdoc(cls) or facts.title
        entry = facts.to_json()
        entry["tagline"] = doc.splitlines()[0]
        entry["config"] = [_field(facts.name, f) for f in dataclasses.fields(cls.config_type)]
        entry["bots"] = bot_names(facts.name)
        found.append(entry)
    return tuple(found)


def games() -> list[dict[str, JSON]]:
    """``GET /api/games``: every game's declared facts (:meth:`GameInfo.to_json`: titles, players, CM-6 clock,
    time bank, summary, rules sections, view, bot ladder …), its config fields and defaults, and its bots."""
    return [dict(g) for g in _games()]


def parse_seat(game: str, spec: str) -> tuple[str, str | None]:
    """``"open"``, ``"bot"`` (the game's default bot) or ``"bot:NAME"`` -> (kind, bot name)."""
    if spec == "open":
        return "open", None
    if spec == "bot" or spec.startswith("bot:"):
        name = spec[4:] if spec.startswith("bot:") else autofill_bot(game)
        if name not in bot_names(game):
            raise Invalid(f"no bot {name!r} for {game}; choose one of: {', '.join(bot_names(game))}")
        return "bot", name
    raise Invalid(f"a seat is 'open', 'bot' or 'bot:NAME', got {spec[:40]!r}")
