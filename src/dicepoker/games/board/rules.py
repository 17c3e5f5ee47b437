"""The board games (seeds 000 and 001, rules BD-1 … BD-14): one engine, two presets.

After an opening roll-off (CM-3, BD-3) each player in turn rolls five dice up to three times (BD-4), then
claims a square matching the hand (BD-5 … BD-8), removes an opponent chip (BD-8 zepherin, BD-9) or
forfeits (BD-7). Five in a row make a protected run (BD-10 … BD-12); the first team with two runs wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from random import Random
from typing import Any, ClassVar

from dicepoker.core.errors import ConfigError, IllegalAction
from dicepoker.core.game import Game
from dicepoker.core.rolloff import RollOff
from dicepoker.core.state import State
from dicepoker.core.types import CHANCE, JSON, Action, ChanceAction, Ending, Resign, Result, Seat, Timeout, ToAct
from dicepoker.games.board.actions import (
    OPENING_OUTCOMES,
    Claim,
    Forfeit,
    OpeningRoll,
    Remove,
    parse_board_action,
)
from dicepoker.games.board.claims import HandReading, read_hand
from dicepoker.games.board.config import CLASSIC, ZEPHERIN, BoardConfig, BoardRules, Preset, check_fillable
from dicepoker.games.board.evaluation import best_claim
from dicepoker.games.board.layout import Square
from dicepoker.games.board.position import Position, Team
from dicepoker.games.board.teams import team_name
from dicepoker.games.board.view import BoardView
from dicepoker.games.dice_turn import DiceTurn, Reroll, Roll, Rolled

_ONE_DIE = Fraction(1, 6)


# -- state ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BoardState(State):
    rules: BoardRules
    position: Position
    seat: Seat = 0
    turn: DiceTurn = field(default_factory=DiceTurn)
    opening: RollOff | None = None
    """The roll-off still deciding who starts (CM-3); ``None`` once play has begun."""
    auto_complete: bool = False
    """A timeout is finishing this turn: the roll it started is played by BD-14 as soon as it lands."""
    conceded: frozenset[Team] = frozenset()
    ended: str | None = None
    """Why the game ended other than by runs (CM-5 resignation, or a board where nothing can change)."""

    @property
    def num_players(self) -> int:
        return self.rules.players

    # -- whose turn ---------------------------------------------------------------------------------
    @property
    def to_act(self) -> ToAct:
        if self.ended is not None or self.winning_team is not None:
            return ()
        if self.opening is not None or self.turn.pending:
            return CHANCE
        return (self.seat,)

    @property
    def team(self) -> Team:
        """The team of the seat to play."""
        return self.rules.team_of(self.seat)

    @property
    def winning_team(self) -> Team | None:
        return self.position.winner(self.rules.runs_to_win)

    def reading(self) -> HandReading | None:
        """The hand the dice make now (``None`` before the first roll lands)."""
        return read_hand(self.turn.dice) if self.turn.has_rolled and not self.turn.pending else None

    # -- legal actions ------------------------------------------------------------------------------
    def legal_actions(self, seat: Seat | None = None) -> Sequence[Action]:
        to_act = self.to_act
        if to_act is CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes()]
        if not to_act or (seat is not None and seat not in to_act):
            return []
        rolls = list(self.turn.legal_rolls())
        if not self.turn.has_rolled:
            return rolls
        claims, removals = self._options()
        layout = self.position.layout
        finishing: list[Action] = [Claim(*layout.row_col(s)) for s in claims]
        finishing += [Remove(*layout.row_col(s)) for s in removals]
        if not claims:
            finishing.append(Forfeit())
        return rolls + finishing

    def _options(self) -> tuple[tuple[Square, ...], tuple[Square, ...]]:
        reading = self.reading()
        if reading is None:
            return (), ()
        position, team = self.position, self.team
        removals = position.removable(reading, team, five_kind_removal=self.rules.preset.five_kind_removal)
        return position.claimable(reading, team), removals

    def chance_outcomes(self) -> Sequence[tuple[ChanceAction, Fraction]]:
        if self.to_act is not CHANCE:
            return ()
        if self.opening is not None:
            return [(outcome, _ONE_DIE) for outcome in OPENING_OUTCOMES]
        return self.turn.chance_outcomes()

    def sample_chance(self, rng: Random) -> ChanceAction:
        if self.to_act is not CHANCE:
            raise IllegalAction("not a chance node")
        if self.opening is not None:
            return OPENING_OUTCOMES[rng.randrange(6)]
        return self.turn.sample(rng)

    def _check(self, action: Action, seat: Seat | None) -> None:
        if isinstance(action, Resign):
            assert seat is not None  # resolve_seat: a resignation names an existing seat
            if self.rules.team_of(seat) in self.conceded:
                raise IllegalAction(f"seat {seat + 1}'s team has already conceded")
            return
        if isinstance(action, Timeout):
            return
        if isinstance(action, OpeningRoll):
            if self.opening is None:
                raise IllegalAction("the opening roll-off is over")
            return
        if isinstance(action, (Roll, Reroll, Rolled)):
            if self.opening is not None:
                raise IllegalAction("the roll-off for the first turn comes first (CM-3)")
            self.turn.check(action)
            return
        if isinstance(action, (Claim, Remove, Forfeit)):
            self._check_finish(action)
            return
        raise IllegalAction(f"{action} is not a board game action")

    def _check_finish(self, action: Claim | Remove | Forfeit) -> None:
        if not self.turn.has_rolled:
            raise IllegalAction("roll first: a square is claimed with the dice of this turn")
        claims, removals = self._options()
        reading = self.reading()
        assert reading is not None
        if isinstance(action, Forfeit):
            if claims:
                raise IllegalAction(f"{reading.describe()} can be placed: the best hand must be played (BD-5, BD-7)")
            return
        layout = self.position.layout
        if not (0 <= action.row < layout.height and 0 <= action.col < layout.width):
            raise IllegalAction(f"{action}: the board has {layout.height} rows and {layout.width} columns")
        square = layout.square_at(action.row, action.col)
        if isinstance(action, Claim) and square not in claims:
            raise IllegalAction(f"{action}: {self._why_not_claimable(square, reading)}")
        if isinstance(action, Remove) and square not in removals:
            raise IllegalAction(f"{action}: {self._why_not_removable(square, reading)}")

    def _why_not_claimable(self, square: Square, reading: HandReading) -> str:
        position = self.position
        if square == position.layout.free:
            return "the free square never takes a chip (BD-11)"
        if not position.is_open(square):
            return "the square is taken"
        if not position.supply[self.team]:
            return "your team has no chips left (BD-2)"
        label = position.layout.labels[square]
        return f"{reading.describe()} cannot claim {label} (BD-5, BD-6)"

    def _why_not_removable(self, square: Square, reading: HandReading) -> str:
        owner = self.position.cells[square]
        if owner is None or owner == self.team:
            return "there is no opponent chip there"
        if square in self.position.protected():
            return "the chip is part of a run and protected (BD-10)"
        return f"{reading.describe()} removes nothing (only a bouncer, BD-9, or zepherin's five of a kind, BD-8)"

    # -- apply --------------------------------------------------------------------------------------
    def _next(self, action: Action, seat: Seat | None) -> BoardState:
        if isinstance(action, OpeningRoll):
            assert self.opening is not None
            return self._settle_opening(self.opening.add(action.face))
        if isinstance(action, Rolled):
            landed = replace(self, turn=self.turn.after(action))
            return landed._default_finish() if landed.auto_complete else landed
        if isinstance(action, Claim):
            square = self.position.layout.square_at(action.row, action.col)
            return replace(self, position=self.position.place(square, self.team))._end_turn()
        if isinstance(action, Remove):
            square = self.position.layout.square_at(action.row, action.col)
            return replace(self, position=self.position.remove(square))._end_turn()
        if isinstance(action, Forfeit):
            return self._end_turn()
        if isinstance(action, Timeout):
            if not self.turn.has_rolled:
                return replace(self, turn=self.turn.after(Roll()), auto_complete=True)
            return self._default_finish()
        if isinstance(action, Resign):
            assert seat is not None
            return self._concede(self.rules.team_of(seat))
        return replace(self, turn=self.turn.after(action))

    def _default_finish(self) -> BoardState:
        """BD-14: place where the greedy bot would, or forfeit when nothing can be placed."""
        claims, _ = self._options()
        square = best_claim(self.position, claims, self.team, self.rules.runs_to_win)
        if square is None:
            return self._end_turn()
        return replace(self, position=self.position.place(square, self.team))._end_turn()

    def _end_turn(self) -> BoardState:
        state = replace(self, turn=DiceTurn(), auto_complete=False)
        if state.winning_team is not None:
            return state
        if not state.position.can_change():
            return replace(state, ended="no square can be claimed and no chip removed any more")
        return state._pass_turn()

    def _pass_turn(self) -> BoardState:
        """BD-3: play passes to the left, skipping seats of teams that conceded."""
        seat = self.seat
        for _ in range(self.rules.players):
            seat = (seat + 1) % self.rules.players
            if self.rules.team_of(seat) not in self.conceded:
                break
        return replace(self, seat=seat)

    def _settle_opening(self, opening: RollOff) -> BoardState:
        """CM-3: once every contender has rolled, the highest starts; the tied highest roll again."""
        settled = opening.settle()
        if isinstance(settled, RollOff):
            return replace(self, opening=settled)
        return replace(self, opening=None, seat=settled)

    def _concede(self, team: Team) -> BoardState:
        """CM-5: the resigning player's whole team concedes; the last team standing wins."""
        conceded = self.conceded | {team}
        state = replace(self, conceded=conceded)
        if self.rules.teams - len(conceded) <= 1:
            return replace(state, ended=f"team {team} conceded")
        if self.opening is not None:
            alive = tuple(s for s in range(self.rules.players) if self.rules.team_of(s) not in conceded)
            return state._settle_opening(self.opening.without(alive))
        if self.team == team:
            return replace(state, turn=DiceTurn(), auto_complete=False)._pass_turn()
        return state

    # -- result -------------------------------------------------------------------------------------
    def result(self) -> Result:
        if not self.is_terminal:
            raise IllegalAction("the game is still running")
        runs = [len(self.position.runs[self.rules.team_of(s)]) for s in range(self.rules.players)]
        winner = self.winning_team
        if winner is not None:
            reason = f"{team_name(winner)} made {self.rules.runs_to_win} runs (BD-13)"
            return Result(frozenset(self.rules.seats_of(winner)), tuple(runs), reason, Ending.COMPLETED)
        alive = [t for t in range(self.rules.teams) if t not in self.conceded]
        best = max(len(self.position.runs[t]) for t in alive)
        leaders = [t for t in alive if len(self.position.runs[t]) == best]
        seats = frozenset(s for t in leaders for s in self.rules.seats_of(t))
        # Without a winning team the game ends when all teams but one conceded, or when nothing can change.
        ending = Ending.RESIGNATION if self.rules.teams - len(self.conceded) <= 1 else Ending.BLOCKED
        return Result(seats, tuple(runs), self.ended or "over", ending)

    # -- view ---------------------------------------------------------------------------------------
    def view(self, seat: Seat | None) -> BoardView:
        """Nothing is hidden in the board games: every seat and spectators see the whole state."""
        if seat is not None:
            self.check_seat(seat)
        claims, removals = self._options() if self.to_act == (self.seat,) else ((), ())
        return BoardView(
            seat=seat,
            team=None if seat is None else self.rules.team_of(seat),
            rules=self.rules,
            position=self.position,
            to_play=self.seat,
            dice=self.turn.dice if self.turn.has_rolled else (),
            rolls_used=self.turn.rolls,
            rolling=self.turn.awaiting_dice,
            opening=self.opening,
            claimable=claims,
            removable=removals,
            conceded=self.conceded,
            over=self.is_terminal,
        )

    def to_json(self) -> dict[str, JSON]:
        position = self.position
        return {
            "cells": list(position.cells),
            "runs": [[list(run) for run in runs] for runs in position.runs],
            "held": [[list(line) for line in lines] for lines in position.held],
            "supply": list(position.supply),
            "seat": self.seat,
            "dice": list(self.turn.dice),
            "rolls": self.turn.rolls,
            "pending": list(self.turn.pending),
            "opening": None if self.opening is None else self.opening.to_json(),
            "auto_complete": self.auto_complete,
            "conceded": sorted(self.conceded),
            "ended": self.ended,
        }


# -- games ------------------------------------------------------------------------------------------
class BoardGame(Game[BoardConfig, BoardState]):
    """The engine shared by both presets; subclasses only name their preset."""

    preset: ClassVar[Preset]
    config_type = BoardConfig

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        config = self.config
        teams = config.teams if config.teams is not None else self.preset.default_teams(config.players)
        self.preset.check_sides(config.players, teams)
        if config.board is not None:
            check_fillable(config.layout(), teams, config.chips)
        self.config = replace(config, teams=teams)
        self.rules = BoardRules(self.preset, config.layout(), config.players, teams, config.chips, config.runs_to_win)

    @property
    def num_players(self) -> int:
        return self.config.players

    def initial_state(self) -> BoardState:
        rules = self.rules
        return BoardState(
            rules=rules,
            position=Position.empty(rules.layout, rules.teams, rules.chips),
            opening=RollOff(tuple(range(rules.players)), ()),
        )

    def _parse_game_action(self, words: list[str], text: str) -> Action:
        return parse_board_action(words, text)

    def state_from_json(self, data: Mapping[str, JSON]) -> BoardState:
        try:
            rules = self.rules
            cells = tuple(None if c is None else int(c) for c in data["cells"])
            supply = tuple(int(n) for n in data["supply"])
            if len(cells) != rules.layout.size or len(supply) != rules.teams:
                raise ValueError("the board does not match the game's board and teams")
            if any(c is not None and not 0 <= c < rules.teams for c in cells) or cells[rules.layout.free] is not None:
                raise ValueError("a square holds a chip of no team, or the free square holds a chip")
            # Runs are derived from the squares (BD-12), so a stored "runs" entry is not read back.
            opening = data["opening"]
            return BoardState(
                rules=rules,
                position=Position.from_cells(rules.layout, cells, supply),
                seat=int(data["seat"]),
                turn=DiceTurn(tuple(data["dice"]), int(data["rolls"]), tuple(data["pending"])),
                opening=None if opening is None else RollOff.from_json(opening),
                auto_complete=bool(data["auto_complete"]),
                conceded=frozenset(int(t) for t in data["conceded"]),
                ended=data["ended"],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a {self.name} state: {exc}") from exc


class ZepherinGame(BoardGame):
    """Zepherin Games house rules (seed 000): 2 teams; five of a kind may also remove a chip.

    >>> state = ZepherinGame().initial_state()
    >>> state.to_act, [str(a) for a, _ in state.chance_outcomes()][:2]
    (CHANCE, ['opening 1', 'opening 2'])
    """

    name = "zepherin"
    title = "Zepherin Dice Poker (board)"
    preset = ZEPHERIN


class ClassicBoardGame(BoardGame):
    """The original Dice Poker board game (seed 001): 2-12 players in 2 or 3 teams."""

    name = "classic-board"
    title = "Dice Poker board game (classic)"
    preset = CLASSIC


def game_for(name: str, **options: Any) -> BoardGame:
    games: dict[str, type[BoardGame]] = {"zepherin": ZepherinGame, "classic-board": ClassicBoardGame}
    if name not in games:
        raise ConfigError(f"unknown board game {name!r}; choose zepherin or classic-board")
    return games[name](**options)
