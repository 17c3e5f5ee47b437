"""Configuration of the board games and the two presets that differ in sides and removal (BD-2, BD-8).

The board rows are part of the config (not a file path), so a saved game replays anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from dicepoker.core.errors import ConfigError
from dicepoker.games.board.layout import Layout, default_layout, layout_from_rows

MAX_PLAYERS = 12
CLASSIC_PLAYER_COUNTS = (2, 3, 4, 6, 8, 9, 10, 12)


def _whole(name: str, value: object, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ConfigError(f"{name} must be a whole number of at least {low}, got {value!r}")
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardConfig:
    players: int = 2
    """BD-2: how many seats; they sit alternating teams (seat s plays for team s mod teams)."""
    teams: int | None = None
    """BD-2: 2 or 3 sides; ``None`` picks the preset's default for the player count."""
    chips: int = 50
    """BD-2 (option): each team's chip supply."""
    runs_to_win: int = 2
    """BD-13 (option)."""
    board: tuple[str, ...] | None = None
    """BD-1: the rows of square labels (``"S K6 D56 …"``); ``None`` is the default board."""

    def __post_init__(self) -> None:
        _whole("players", self.players, 2)
        if self.teams is not None:
            _whole("teams", self.teams, 2)
        _whole("chips", self.chips, 1)
        _whole("runs_to_win", self.runs_to_win, 1)
        if self.board is not None:
            if isinstance(self.board, str) or not all(isinstance(row, str) for row in self.board):
                raise ConfigError("board must be a list of rows, each a string of square labels")
            # Normalised so that equal boards give equal (and hashable) configs, e.g. after a JSON round trip.
            object.__setattr__(self, "board", tuple(" ".join(row.split()) for row in self.board))
            self.layout()

    def layout(self) -> Layout:
        return _layout(self.board)


@cache
def _layout(rows: tuple[str, ...] | None) -> Layout:
    return default_layout() if rows is None else layout_from_rows(rows, "custom")


@dataclass(frozen=True, slots=True)
class Preset:
    """What distinguishes ``zepherin`` from ``classic-board``."""

    name: str
    five_kind_removal: bool
    """BD-8: in zepherin five of a kind may remove an opponent chip instead of placing."""

    def default_teams(self, players: int) -> int:
        if self.name == "zepherin":
            return 2
        return 2 if players % 2 == 0 else 3

    def check_sides(self, players: int, teams: int) -> None:
        """BD-2: the seat and team counts each preset allows."""
        if self.name == "zepherin":
            if teams != 2 or players % 2 or players > MAX_PLAYERS:
                raise ConfigError(
                    f"zepherin is 2 teams of equal size (2, 4, … {MAX_PLAYERS} players); "
                    f"got {players} players in {teams} teams"
                )
            return
        if players not in CLASSIC_PLAYER_COUNTS or teams not in (2, 3) or players % teams:
            raise ConfigError(
                "classic-board is 2 to 12 players in 2 or 3 equal teams "
                f"({', '.join(map(str, CLASSIC_PLAYER_COUNTS))} players), or up to 3 individuals; "
                f"got {players} players in {teams} teams"
            )


def check_fillable(layout: Layout, teams: int, chips: int) -> None:
    """A custom board must be one the teams' chips can fill (BD-2: a team with no chips cannot place).

    On a larger board the supplies run out with squares still open; without five-of-a-kind removals (classic)
    nothing can change any more while the position does not count as stuck, so the game would never end.
    The default board (80 open squares, 2 × 50 chips) passes; the chips option on it is not checked.
    """
    open_squares = layout.size - 1
    if teams * chips < open_squares:
        raise ConfigError(
            f"board {layout.name!r} has {open_squares} open squares but the {teams} teams have {teams} × {chips} = "
            f"{teams * chips} chips: a game on it might never end (BD-2); use a board of at most {teams * chips + 1} "
            "squares or more chips"
        )


ZEPHERIN = Preset("zepherin", five_kind_removal=True)
CLASSIC = Preset("classic-board", five_kind_removal=False)


@dataclass(frozen=True, slots=True)
class BoardRules:
    """Everything a state needs from its game: the validated config and the preset, resolved."""

    preset: Preset
    layout: Layout
    players: int
    teams: int
    chips: int
    runs_to_win: int

    def team_of(self, seat: int) -> int:
        """BD-2: seating alternates teams A, B, A, B … (or A, B, C, A, B, C …)."""
        return seat % self.teams

    def seats_of(self, team: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if s % self.teams == team)
