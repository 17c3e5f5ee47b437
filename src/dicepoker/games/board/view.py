"""What a seat sees of a board game: everything, nothing is hidden."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from dicepoker.core.fields import shown
from dicepoker.core.rolloff import RollOff
from dicepoker.core.types import JSON, Seat, View
from dicepoker.games.board.config import CLASSIC, ZEPHERIN, BoardRules
from dicepoker.games.board.layout import Layout, Square, layout_from_rows
from dicepoker.games.board.position import Position, Team


@dataclass(frozen=True, slots=True)
class BoardView(View):
    seat: Seat | None
    team: Team | None
    rules: BoardRules
    position: Position
    to_play: Seat
    dice: tuple[int, ...]
    rolls_used: int
    rolling: bool
    opening: RollOff | None
    claimable: tuple[Square, ...]
    """Squares the current dice may claim (empty before the roll and between turns)."""
    removable: tuple[Square, ...]
    conceded: frozenset[Team]
    over: bool

    @property
    def rolls_left(self) -> int:
        return 3 - self.rolls_used

    @property
    def team_to_play(self) -> Team:
        return self.rules.team_of(self.to_play)

    def to_json(self) -> dict[str, JSON]:
        position = self.position
        return {
            "game": self.rules.preset.name,
            "seat": self.seat,
            "team": self.team,
            "players": self.rules.players,
            "teams": self.rules.teams,
            "runs_to_win": self.rules.runs_to_win,
            "chips": self.rules.chips,
            "board": position.layout.to_json(),
            "cells": list(position.cells),
            "runs": [[list(run) for run in runs] for runs in position.runs],
            "protected": sorted(position.protected()),
            "supply": list(position.supply),
            "to_play": self.to_play,
            "dice": list(self.dice),
            "rolls_used": self.rolls_used,
            "rolling": self.rolling,
            "opening": None if self.opening is None else self.opening.to_json(),
            "claimable": list(self.claimable),
            "removable": list(self.removable),
            "conceded": sorted(self.conceded),
            "over": self.over,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> BoardView:
        """The view :meth:`to_json` wrote (a client rebuilds the views a server sends); the runs and protected
        squares are derived from the chips again, as the rules derive them (BD-12)."""
        presets = {preset.name: preset for preset in (ZEPHERIN, CLASSIC)}
        if data["game"] not in presets:
            raise ValueError(f"{shown(data['game'])} is not a board game")
        board = data["board"]
        layout = _layout(str(board["name"]), tuple(str(row) for row in board["rows"]))
        rules = BoardRules(
            presets[data["game"]],
            layout,
            int(data["players"]),
            int(data["teams"]),
            int(data["chips"]),
            int(data["runs_to_win"]),
        )
        cells = tuple(None if c is None else int(c) for c in data["cells"])
        opening = data["opening"]
        return cls(
            seat=None if data["seat"] is None else int(data["seat"]),
            team=None if data["team"] is None else int(data["team"]),
            rules=rules,
            position=Position.from_cells(layout, cells, _ints(data["supply"])),
            to_play=int(data["to_play"]),
            dice=_ints(data["dice"]),
            rolls_used=int(data["rolls_used"]),
            rolling=bool(data["rolling"]),
            opening=None if opening is None else RollOff.from_json(opening),
            claimable=_ints(data["claimable"]),
            removable=_ints(data["removable"]),
            conceded=frozenset(_ints(data["conceded"])),
            over=bool(data["over"]),
        )


def _ints(values: Sequence[JSON]) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


@cache
def _layout(name: str, rows: tuple[str, ...]) -> Layout:
    # Cached: a client rebuilds a view from every frame, and the board's geometry is the same each time.
    return layout_from_rows(rows, name)
