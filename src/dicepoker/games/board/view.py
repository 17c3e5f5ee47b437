"""What a seat sees of a board game: everything, nothing is hidden."""

from __future__ import annotations

from dataclasses import dataclass

from dicepoker.core.rolloff import RollOff
from dicepoker.core.types import JSON, Seat, View
from dicepoker.games.board.config import BoardRules
from dicepoker.games.board.layout import Square
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
