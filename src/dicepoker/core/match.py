"""A running game: a state, the RNG that rolls its dice, and its event log.

The rules never roll dice; a match does, from the RNG it was given, and records each outcome as an
ordinary action so the log replays without the RNG.
"""

from __future__ import annotations

from random import Random

from dicepoker.core.game import Game
from dicepoker.core.log import Event, EventLog
from dicepoker.core.state import State
from dicepoker.core.types import Action, Seat


class Match:
    """Drive a game: apply actions for seats, roll the dice at chance nodes, keep the log.

    >>> from dicepoker.games.registry import create
    >>> match = Match(create("scorecard", players=1), seed=7)
    >>> match.act_text("roll")
    >>> len(match.state.to_json()["dice"])
    5
    """

    def __init__(self, game: Game[object, State], *, seed: int | None = None, rng: Random | None = None) -> None:
        self.game = game
        self.seed = seed
        self.rng = rng if rng is not None else Random(seed)
        self.state: State = game.initial_state()
        self._config = game.config_json()
        self._events: list[Event] = []
        self.roll_dice()

    @property
    def log(self) -> EventLog:
        """The event log so far (game, config, seed and every action, chance included)."""
        return EventLog(self.game.name, self._config, self.seed, tuple(self._events))

    def act(self, action: Action, seat: Seat | None = None) -> None:
        """Apply a player's action (raises ``IllegalAction``, changing nothing), then roll any dice due."""
        resolved = self.state.resolve_seat(action, seat)
        self.state = self.state.apply(action, resolved)
        self._events.append(Event(resolved, str(action)))
        self.roll_dice()

    def act_text(self, text: str, seat: Seat | None = None) -> None:
        self.act(self.game.parse_action(text), seat)

    def roll_dice(self) -> None:
        """Resolve chance nodes until a player must act or the game is over."""
        while self.state.is_chance:
            outcome = self.state.sample_chance(self.rng)
            self.state = self.state.apply(outcome)
            self._events.append(Event(None, str(outcome)))
