"""What a game declares about itself, once, in its own package (like OpenSpiel's ``GameType``).

Every layer above the games (server catalog, terminal clients, envs, arena, the browser through
``GET /api/games``) reads these facts from :func:`dicepoker.games.registry.info` instead of keeping its own
table keyed by the game's name. A sixth game states its facts here and nowhere else.

Bots live above the games, so a game names its bots by string (:class:`BotLadder`); the bots registry
resolves the names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from dicepoker.core.types import JSON, View

DiceKind = Literal["pip", "poker", "suited"]
"""How the game's dice are drawn: pips 1-6, poker faces 9..A, or suited dice from the bag."""


@dataclass(frozen=True, slots=True)
class PlayerRange:
    """How many players a game accepts (``min`` … ``max``) and how many it seats by default."""

    min: int
    max: int
    default: int

    def __post_init__(self) -> None:
        if not 1 <= self.min <= self.default <= self.max:
            raise ValueError(f"a player range needs 1 <= min <= default <= max, got {self}")

    def to_json(self) -> dict[str, JSON]:
        return {"min": self.min, "max": self.max, "default": self.default}


@dataclass(frozen=True, slots=True)
class BotLadder:
    """Three bot names from weakest to strongest: what "easy", "normal" and "strong" mean for this game."""

    easy: str
    normal: str
    strong: str

    def names(self) -> tuple[str, str, str]:
        return (self.easy, self.normal, self.strong)

    def to_json(self) -> dict[str, JSON]:
        return {"easy": self.easy, "normal": self.normal, "strong": self.strong}


@dataclass(frozen=True, slots=True)
class TeamColour:
    """One team's colour, the same in every client: the word people read ("Blue"), the browser's colour and the
    terminal's style. Team ``t`` of a game is ``GameInfo.teams[t]``."""

    name: str
    css: str
    """The browser's colour of the team's chips (``#2f6fdf``)."""
    terminal: str
    """The terminal's style of the team's chips (a rich style: ``bold white on blue``)."""

    def to_json(self) -> dict[str, JSON]:
        return {"name": self.name, "colour": self.css}


@dataclass(frozen=True, slots=True)
class GameInfo:
    """The facts of one game that the layers above the rules need; declared in the game's own package.

    >>> from dicepoker.games.registry import info
    >>> info("scorecard").players
    PlayerRange(min=1, max=6, default=2)
    """

    name: str
    """The registry name (``classic-board``): URLs, logs, commands."""
    short_title: str
    """The title where space is short (the table page heading)."""
    game_class: type[Any]
    """The :class:`~dicepoker.core.game.Game` subclass; ``game_class(**options)`` makes a configured game."""
    players: PlayerRange
    hidden_information: bool
    """Whether a seat's view hides anything another seat knows (hole dice)."""
    betting: bool
    """A betting game (chips, hands, a dealer): a time bank is offered, the dealer rolls, duels are heads-up."""
    clock: float
    """CM-6: the default seconds per decision at an online table."""
    summary: str
    """One paragraph for the lobby (the rules page has the details)."""
    rules_sections: tuple[str, ...]
    """The ``## `` headings of RULES.md (their first words) that make up this game's rules page."""
    rule_prefix: str
    """The clause prefix of the game's own rules in RULES.md (``SC`` for SC-1 … SC-15)."""
    view_type: type[View]
    """The class of ``state.view(seat)``; its ``from_json`` rebuilds a view a server sent."""
    view_kind: str
    """Which drawing shows the view (the browser's and the terminal's): the two board games share ``board``."""
    dice: DiceKind
    sample_dice: tuple[str, ...]
    """A roll that shows the game at a glance (the lobby's game card)."""
    bots: BotLadder
    seat_filler: str
    """The bot that takes a play-now table's empty seats."""
    chance_outcomes_bound: Callable[[int], int]
    """players -> the most outcomes any one chance node of the game can have (OpenSpiel's ``max_chance_outcomes``)."""
    teams: tuple[TeamColour, ...] = ()
    """The colour of each team, team 0 first, in games played by teams (the board games); empty otherwise."""

    @property
    def title(self) -> str:
        """The full title, everywhere a game is named on its own (lobby, rules page, ``/api/games``): the game
        class's own ``title``, so that there is one copy."""
        title: str = self.game_class.title
        return title

    def decode_view(self, data: Mapping[str, JSON]) -> View:
        """The view that ``view.to_json()`` wrote (a state frame's ``view``)."""
        return self.view_type.from_json(data)

    def to_json(self) -> dict[str, JSON]:
        """The facts a client reads from ``GET /api/games`` (classes and functions stay on the server)."""
        return {
            "name": self.name,
            "title": self.title,
            "short_title": self.short_title,
            "players": self.players.to_json(),
            "hidden_information": self.hidden_information,
            "betting": self.betting,
            "clock_default": self.clock,
            "time_bank": self.betting,
            "summary": self.summary,
            "rules_sections": list(self.rules_sections),
            "rule_prefix": self.rule_prefix,
            "view": self.view_kind,
            "dice": self.dice,
            "sample_dice": list(self.sample_dice),
            "ladder": self.bots.to_json(),
            "seat_filler": self.seat_filler,
            "teams": [team.to_json() for team in self.teams],
        }
