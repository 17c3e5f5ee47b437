"""What a seat sees of a board game (everything: nothing is hidden), and the opening roll-off record."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from dicepoker.core.types import JSON, Seat, View
from dicepoker.games.board.config import BoardRules
from dicepoker.games.board.layout import Square
from dicepoker.games.board.position import Position, Team


@dataclass(frozen=True, slots=True)
class Opening:
    """CM-3: the seats still contending to start, and the dice they rolled so far this round (in order)."""

    contenders: tuple[Seat, ...]
    faces: tuple[int, ...]

    @property
    def complete(self) -> bool:
        return len(self.faces) == len(self.contenders)

    @property
    def roller(self) -> Seat:
        """The contender whose die is rolling now."""
        return self.contenders[len(self.faces)]

    def add(self, face: int) -> Opening:
        return Opening(self.contenders, (*self.faces, face))

    def leaders(self) -> tuple[Seat, ...]:
        best = max(self.faces)
        return tuple(s for s, f in zip(self.contenders, self.faces, strict=True) if f == best)

    def without(self, alive: tuple[Seat, ...]) -> Opening:
        """The roll-off after some seats left (CM-5); everyone alive rolls again if no contender is left."""
        rolled = dict(zip(self.contenders, self.faces, strict=False))
        contenders = tuple(s for s in self.contenders if s in alive)
        if not contenders:
            return Opening(alive, ())
        # Contenders roll in order, so the ones who rolled stay a prefix of those left.
        faces = tuple(rolled[s] for s in contenders if s in rolled)
        return Opening(contenders, faces)

    def to_json(self) -> dict[str, JSON]:
        return {"contenders": list(self.contenders), "faces": list(self.faces)}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Opening:
        return cls(tuple(int(s) for s in data["contenders"]), tuple(int(f) for f in data["faces"]))


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
    opening: Opening | None
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
