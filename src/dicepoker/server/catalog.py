"""What the server offers: every registered game with its config fields, defaults, bots and clock."""

from __future__ import annotations

import dataclasses
import functools
import inspect

from dicepoker.bots.registry import bot_names
from dicepoker.core.errors import ConfigError
from dicepoker.core.types import JSON
from dicepoker.games.registry import create, game_class, names
from dicepoker.server.errors import Invalid

CLOCK_DEFAULTS = {"scorecard": 30.0}
"""CM-6: 30 s for the scorecard game, 60 s for the others."""
OTHER_CLOCK = 60.0
TIME_BANK_GAMES = ("holdem", "peekpoker")
"""The betting games, whose tables may have a per-player time bank (``POST /api/tables`` ``time_bank``)."""
MAX_PLAYERS_PROBED = 12
AUTOFILL_BOTS = {"scorecard": "greedy", "zepherin": "greedy", "classic-board": "greedy"}
"""The bot that takes a play-now table's empty seats (``random`` for games not named here)."""

SUMMARIES = {
    "scorecard": (
        "Thirteen rounds of five dice, up to three rolls a turn. Keep the dice you like and re-roll the rest, then "
        "score exactly one open box of your card: the upper section (a 35-point bonus at 63), three and four of a "
        "kind, full house, straights, five of a kind or chance. Every box is used once; the highest total wins."
    ),
    "zepherin": (
        "Two teams on a 9×9 board of poker hands. Roll five dice up to three times, then place a chip on a square "
        "labelled with your best hand. Five chips in a row make a protected run; two runs win. Five of a kind may "
        "place anywhere, or remove an opponent's chip instead."
    ),
    "classic-board": (
        "The original dice poker board game for 2 to 12 players in two or three teams, or up to three on their own. "
        "Roll up to three times and claim a square of the hand you made (the best hand must be played), or a Lucky "
        "square when the dice add up to 7 or 11. Five chips in a row make a run; the first team with two runs wins."
    ),
    "holdem": (
        "Texas hold'em with suited dice drawn from a bag. Everyone antes, rolls two hidden pocket dice, and bets "
        "over a Flop of three community dice, then a Turn and a River, in fixed limits of 10 and 20. The best five "
        "of your seven dice take the pot; a Yahtzee flush ends the game at once. The last player with chips wins."
    ),
    "peekpoker": (
        "Three hidden poker dice each (9 to Ace) and three community dice, with no-limit betting from a stack of "
        "48. Peek, bet, call or fold; at the showdown the aces among your own dice may be re-rolled, and new aces "
        "rolled again. "
        "The best six-die hand takes the pot, and the last player with chips wins."
    ),
}
"""``GET /api/games`` ``summary``: one paragraph per game for the lobby (the rules pages have the details)."""

_TYPES = {"int": "int", "bool": "bool", "str": "str", "tuple[str, ...]": "list[str]"}


def clock_default(game: str) -> float:
    return CLOCK_DEFAULTS.get(game, OTHER_CLOCK)


def autofill_bot(game: str) -> str:
    wanted = AUTOFILL_BOTS.get(game, "random")
    return wanted if wanted in bot_names(game) else "random"


@functools.cache
def player_range(game: str) -> tuple[int, int, int]:
    """(min, max, default) player counts of a game, found by asking its config."""
    allowed = []
    for players in range(1, MAX_PLAYERS_PROBED + 1):
        try:
            create(game, players=players)
        except ConfigError:
            continue
        allowed.append(players)
    default = create(game).num_players
    return min(allowed), max(allowed), default


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
    for name in names():
        cls = game_class(name)
        doc = inspect.getdoc(cls) or cls.title
        low, high, default = player_range(name)
        found.append(
            {
                "name": name,
                "title": cls.title,
                "summary": SUMMARIES.get(name, doc.splitlines()[0]),
                "tagline": doc.splitlines()[0],
                "players": {"min": low, "max": high, "default": default},
                "config": [_field(name, f) for f in dataclasses.fields(cls.config_type)],
                "bots": bot_names(name),
                "clock_default": clock_default(name),
                "time_bank": name in TIME_BANK_GAMES,
            }
        )
    return tuple(found)


def games() -> list[dict[str, JSON]]:
    """``GET /api/games``: every game, its config fields and defaults, its bots and its CM-6 clock."""
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
