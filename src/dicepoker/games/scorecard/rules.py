"""Dice Poker scorecard (seed 003, rules SC-1 … SC-15): a Yahtzee-like game of 13 rounds.

Each turn a player rolls five dice up to three times (SC-2) and must then fill one unused box of
their card (SC-3). Highest total wins (SC-13).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from random import Random
from typing import ClassVar

from dicepoker.core.errors import ConfigError, IllegalAction, NotationError
from dicepoker.core.fields import require_member
from dicepoker.core.game import Game, unknown_action
from dicepoker.core.state import State
from dicepoker.core.types import (
    CHANCE,
    JSON,
    Action,
    ChanceAction,
    Ending,
    Resign,
    Result,
    Seat,
    Timeout,
    ToAct,
    View,
    jsonable,
)
from dicepoker.dice.scoring import UPPER_BONUS, UPPER_BONUS_THRESHOLD, Category, scores
from dicepoker.games.dice_turn import DiceTurn, Reroll, Roll, Rolled, parse_turn_action

# -- constants --------------------------------------------------------------------------------------
ROUNDS = len(Category)
MAX_PLAYERS = 6
Card = tuple[int | None, ...]
EMPTY_CARD: Card = (None,) * ROUNDS
_NEW_TURN = DiceTurn()
SC_15 = "(SC-15)"
"""Ends the reason recorded when SC-15 ends a game."""


@dataclass(frozen=True, slots=True)
class Score(Action):
    """Fill a box of the card with the current dice: ``score full-house``."""

    category: Category
    keyword: ClassVar[str] = "score"

    def check_fields(self) -> None:
        require_member("score", self.category, Category)

    def __str__(self) -> str:
        return f"score {self.category.slug}"


SCORE_ACTIONS = tuple(Score(category) for category in Category)


# -- config -----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class ScorecardConfig:
    players: int = 2
    """SC-1: 2 players by default, 1 to 6 allowed."""

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or isinstance(self.players, bool):
            raise ConfigError(f"players must be a whole number, got {self.players!r}")
        if not 1 <= self.players <= MAX_PLAYERS:
            raise ConfigError(f"scorecard is for 1 to {MAX_PLAYERS} players, got {self.players}")


# -- card arithmetic --------------------------------------------------------------------------------
def upper_total(card: Card) -> int:
    return sum(card[c] or 0 for c in range(6))


def card_total(card: Card) -> int:
    """SC-13: the 13 boxes plus the upper bonus (SC-5)."""
    bonus = UPPER_BONUS if upper_total(card) >= UPPER_BONUS_THRESHOLD else 0
    return sum(box or 0 for box in card) + bonus


def open_categories(card: Card) -> list[Category]:
    return [category for category in Category if card[category] is None]


def _nobody_started(players: int) -> str:
    if players == 1:
        return f"the player did not start the game {SC_15}"
    return f"{'neither' if players == 2 else 'no'} player started the game {SC_15}"


def default_category(card: Card, dice: Sequence[int]) -> Category:
    """SC-14: the open box with the highest immediate score; ties go to the first in card order."""
    row = scores(tuple(dice))
    return max(open_categories(card), key=lambda c: (row[c], -c))


# -- state ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ScorecardState(State):
    players: int
    cards: tuple[Card, ...]
    seat: Seat = 0
    turn: DiceTurn = field(default_factory=DiceTurn)
    acted: bool = False
    """Whether the seat to play took any action of its own this turn (SC-15)."""
    auto_complete: bool = False
    """A timeout is finishing this turn: the roll it started is scored by SC-14 as soon as it lands."""
    idle_openers: frozenset[Seat] = frozenset()
    resigned: frozenset[Seat] = frozenset()
    ended: str | None = None
    """Why the game ended early (SC-15 or resignations); ``None`` while it runs or after 13 rounds."""

    @property
    def num_players(self) -> int:
        return self.players

    # -- whose turn ---------------------------------------------------------------------------------
    @property
    def to_act(self) -> ToAct:
        if self.ended is not None or None not in self.cards[self.seat]:
            return ()
        if self.turn.pending:
            return CHANCE
        return (self.seat,)

    # -- legal actions ------------------------------------------------------------------------------
    def legal_actions(self, seat: Seat | None = None) -> Sequence[Action]:
        to_act = self.to_act
        if to_act is CHANCE:
            return [outcome for outcome, _ in self.turn.chance_outcomes()]
        if not to_act or (seat is not None and seat not in to_act):
            return []
        rolls = self.turn.legal_rolls()
        if not self.turn.has_rolled:
            return list(rolls)
        card = self.cards[self.seat]
        return [*rolls, *(SCORE_ACTIONS[c] for c in range(ROUNDS) if card[c] is None)]

    def chance_outcomes(self) -> Sequence[tuple[ChanceAction, Fraction]]:
        return self.turn.chance_outcomes() if self.ended is None else ()

    def sample_chance(self, rng: Random) -> Rolled:
        if self.to_act is not CHANCE:
            raise IllegalAction("not a chance node")
        return self.turn.sample(rng)

    def _check(self, action: Action, seat: Seat | None) -> None:
        if isinstance(action, (Timeout, Resign)):
            if isinstance(action, Resign) and seat in self.resigned:
                raise IllegalAction(f"seat {seat + 1} has already resigned")
            return
        if isinstance(action, Score):
            if not self.turn.has_rolled:
                raise IllegalAction("roll before scoring: a box is filled with the dice of this turn")
            if self.cards[self.seat][action.category] is not None:
                raise IllegalAction(f"{action.category.label} is already used (SC-3)")
            return
        if isinstance(action, (Roll, Reroll, Rolled)):
            self.turn.check(action)
            return
        raise IllegalAction(f"{action} is not a scorecard action")

    # -- apply --------------------------------------------------------------------------------------
    def _next(self, action: Action, seat: Seat | None) -> ScorecardState:
        if isinstance(action, Rolled):
            landed = self._with_turn(self.turn.after(action), self.acted)
            if landed.auto_complete:
                return landed._fill(default_category(landed.cards[landed.seat], landed.turn.dice))
            return landed
        if isinstance(action, Score):
            return self._fill(action.category)
        if isinstance(action, Timeout):
            return self._timeout()
        if isinstance(action, Resign):
            assert seat is not None
            return self._resign(seat)
        return self._with_turn(self.turn.after(action), True)

    def _with_turn(self, turn: DiceTurn, acted: bool) -> ScorecardState:
        # The hot path of self-play: a direct constructor call is several times faster than replace().
        return ScorecardState(
            self.players,
            self.cards,
            self.seat,
            turn,
            acted,
            self.auto_complete,
            self.idle_openers,
            self.resigned,
            self.ended,
        )

    def _timeout(self) -> ScorecardState:
        """SC-14: finish the turn for the player; SC-15: note an opening turn with no action."""
        state = self
        if not self.acted and self.cards[self.seat] == EMPTY_CARD:
            state = replace(state, idle_openers=state.idle_openers | {self.seat})
        if not self.turn.has_rolled:
            return replace(state, turn=self.turn.after(Roll()), auto_complete=True)
        return state._fill(default_category(self.cards[self.seat], self.turn.dice))

    def _fill(self, category: Category) -> ScorecardState:
        card = list(self.cards[self.seat])
        card[category] = scores(self.turn.dice)[category]
        cards = (*self.cards[: self.seat], tuple(card), *self.cards[self.seat + 1 :])
        if self._nobody_started():
            ended: str | None = _nobody_started(self.players)
            return replace(self, cards=cards, turn=DiceTurn(), acted=False, auto_complete=False, ended=ended)
        return ScorecardState(
            self.players, cards, self._next_seat(), _NEW_TURN, False, False, self.idle_openers, self.resigned, None
        )

    def _nobody_started(self) -> bool:
        """SC-15 **[decision]**, for any number of players: the first turn of every player still in the
        game (one player alone included) ended by timeout with no action of theirs."""
        return all(s in self.idle_openers for s in range(self.players) if s not in self.resigned)

    def _next_seat(self) -> Seat:
        seat = self.seat
        for _ in range(self.players):
            seat = (seat + 1) % self.players
            if seat not in self.resigned:
                break
        return seat

    def _resign(self, seat: Seat) -> ScorecardState:
        """CM-5: the resigning player is out; the last one left wins."""
        resigned = self.resigned | {seat}
        state = replace(self, resigned=resigned)
        remaining = self.players - len(resigned)
        if remaining <= 1:
            return replace(state, ended=f"seat {seat + 1} resigned")
        if state._nobody_started():
            ended = _nobody_started(self.players)
            return replace(state, turn=DiceTurn(), acted=False, auto_complete=False, ended=ended)
        if seat == self.seat:
            return replace(state, seat=state._next_seat(), turn=DiceTurn(), acted=False, auto_complete=False)
        return state

    # -- result -------------------------------------------------------------------------------------
    def totals(self) -> tuple[int, ...]:
        return tuple(card_total(card) for card in self.cards)

    def result(self) -> Result:
        if not self.is_terminal:
            raise IllegalAction("the game is still running")
        totals = self.totals()
        alive = [s for s in range(self.players) if s not in self.resigned]
        if self.ended is not None and self.ended.endswith(SC_15):
            # A tie: every player still in shares it; a player alone wins nothing (no winner is a tie too).
            winners = frozenset(alive) if len(alive) > 1 else frozenset()
            return Result(winners, totals, self.ended, Ending.TIMEOUT)
        if not alive:
            return Result(frozenset(), totals, self.ended or "everyone resigned", Ending.RESIGNATION)
        best = max(totals[s] for s in alive)
        winners = frozenset(s for s in alive if totals[s] == best)
        if self.ended is not None:  # only resignations end a game early otherwise
            return Result(winners, totals, self.ended, Ending.RESIGNATION)
        reason = "tie on equal totals (SC-13)" if len(winners) > 1 else "highest total (SC-13)"
        return Result(winners, totals, reason, Ending.COMPLETED)

    # -- view ---------------------------------------------------------------------------------------
    def view(self, seat: Seat | None) -> ScorecardView:
        """Nothing is hidden in this game: every seat and spectators see the same."""
        if seat is not None:
            self.check_seat(seat)
        to_act = self.to_act
        return ScorecardView(
            seat=seat,
            players=self.players,
            cards=self.cards,
            to_play=self.seat,
            dice=self.turn.dice if self.turn.has_rolled else (),
            rolls_used=self.turn.rolls,
            rolling=self.turn.awaiting_dice,
            over=to_act == (),
            resigned=self.resigned,
        )

    def to_json(self) -> dict[str, JSON]:
        return {
            "players": self.players,
            "cards": jsonable(self.cards),
            "seat": self.seat,
            "dice": list(self.turn.dice),
            "rolls": self.turn.rolls,
            "pending": list(self.turn.pending),
            "acted": self.acted,
            "auto_complete": self.auto_complete,
            "idle_openers": sorted(self.idle_openers),
            "resigned": sorted(self.resigned),
            "ended": self.ended,
        }


@dataclass(frozen=True, slots=True)
class ScorecardView(View):
    seat: Seat | None
    players: int
    cards: tuple[Card, ...]
    to_play: Seat
    dice: tuple[int, ...]
    rolls_used: int
    rolling: bool
    over: bool
    resigned: frozenset[Seat]

    @property
    def rolls_left(self) -> int:
        return 3 - self.rolls_used

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": "scorecard",
            "seat": self.seat,
            "players": self.players,
            "cards": jsonable(self.cards),
            "totals": [card_total(card) for card in self.cards],
            "upper_totals": [upper_total(card) for card in self.cards],
            "to_play": self.to_play,
            "dice": list(self.dice),
            "rolls_used": self.rolls_used,
            "rolling": self.rolling,
            "over": self.over,
            "resigned": sorted(self.resigned),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> ScorecardView:
        """The view :meth:`to_json` wrote (a client rebuilds the views a server sends); totals are derived."""
        return cls(
            seat=None if data["seat"] is None else int(data["seat"]),
            players=int(data["players"]),
            cards=tuple(tuple(None if box is None else int(box) for box in card) for card in data["cards"]),
            to_play=int(data["to_play"]),
            dice=tuple(int(d) for d in data["dice"]),
            rolls_used=int(data["rolls_used"]),
            rolling=bool(data["rolling"]),
            over=bool(data["over"]),
            resigned=frozenset(int(s) for s in data["resigned"]),
        )


# -- game -------------------------------------------------------------------------------------------
class ScorecardGame(Game[ScorecardConfig, ScorecardState]):
    """The scorecard game.

    >>> game = ScorecardGame(players=2)
    >>> state = game.initial_state()
    >>> state.to_act, [str(a) for a in state.legal_actions()]
    ((0,), ['roll'])
    """

    name = "scorecard"
    title = "Dice Poker scorecard"
    config_type = ScorecardConfig

    @property
    def num_players(self) -> int:
        return self.config.players

    def initial_state(self) -> ScorecardState:
        return ScorecardState(players=self.config.players, cards=(EMPTY_CARD,) * self.config.players)

    def _parse_game_action(self, words: list[str], text: str) -> Action:
        if words and words[0] == "score":
            if len(words) != 2:
                raise NotationError("score needs one category, e.g. 'score full-house'")
            return Score(Category.parse(words[1]))
        action = parse_turn_action(words)
        if action is None:
            raise unknown_action(self.name, text, "roll, reroll <positions>, score <category>, timeout, resign")
        return action

    def state_from_json(self, data: Mapping[str, JSON]) -> ScorecardState:
        try:
            players = int(data["players"])
            cards = tuple(tuple(None if box is None else int(box) for box in card) for card in data["cards"])
            if len(cards) != players or any(len(card) != ROUNDS for card in cards):
                raise ValueError("cards do not match the number of players")
            return ScorecardState(
                players=players,
                cards=cards,
                seat=int(data["seat"]),
                turn=DiceTurn(tuple(data["dice"]), int(data["rolls"]), tuple(data["pending"])),
                acted=bool(data["acted"]),
                auto_complete=bool(data["auto_complete"]),
                idle_openers=frozenset(data["idle_openers"]),
                resigned=frozenset(data["resigned"]),
                ended=data["ended"],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a scorecard state: {exc}") from exc
