"""A running game: a state, the RNG that rolls its dice, and its event log.

The rules never roll dice; a match does, from the RNG it was given, and records each outcome as an
ordinary action so the log replays without the RNG.
"""

from __future__ import annotations

from random import Random

from dicepoker.core.errors import CorruptLog
from dicepoker.core.game import Game
from dicepoker.core.log import Event, EventLog
from dicepoker.core.state import State
from dicepoker.core.steps import Step, replay_steps, roll_chance
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

    @classmethod
    def resume(cls, game: Game[object, State], log: EventLog) -> Match:
        """A match that continues a logged game (``log`` was written by a match of ``game``).

        With a seed in the log, the dice go on as if the game had never stopped: every logged outcome is
        drawn again from ``Random(seed)`` (and must equal the logged one), so the RNG stands where it stood.
        Without a seed, later dice come from fresh randomness. Raises :class:`CorruptLog` naming the first
        event that is illegal or does not follow from the seed.
        """
        match = cls.__new__(cls)
        match.game, match.seed, match.rng = game, log.seed, Random(log.seed)
        match.state, match._config, match._events = game.initial_state(), game.config_json(), []
        for step in replay_steps(game, log.events, start=match.state):
            if log.seed is not None and step.event.seat is None and step.before.is_chance:
                drawn = step.before.sample_chance(match.rng)  # the RNG must stand where the logged game left it
                if drawn != step.action:
                    raise CorruptLog(
                        f"event {step.number} ({step.event.action!r} by seat None): "
                        f"the dice do not follow from seed {log.seed} (drawn: {drawn})"
                    )
            match.state = step.after
            match._events.append(Event(step.event.seat, step.event.action))
        match.roll_dice()
        return match

    @property
    def log(self) -> EventLog:
        """The event log so far (game, config, seed and every action, chance included)."""
        return EventLog(self.game.name, self._config, self.seed, tuple(self._events))

    def act(self, action: Action, seat: Seat | None = None) -> None:
        """Apply a player's action (raises ``IllegalAction``, changing nothing), then roll any dice due."""
        self.play(action, seat)

    def play(self, action: Action, seat: Seat | None = None) -> tuple[Step[Event], ...]:
        """:meth:`act`, handing back each step it took: the player's action, then every die rolled after it
        (numbered by their place in the log, from 1), with the states before and after each."""
        resolved = self.state.resolve_seat(action, seat)
        after = self.state.apply(action, resolved)
        event = Event(resolved, str(action))
        self._events.append(event)
        steps = [Step(len(self._events), event, action, self.state, after)]
        self.state = after
        return (*steps, *self.roll_dice())

    def act_text(self, text: str, seat: Seat | None = None) -> None:
        self.act(self.game.parse_action(text), seat)

    def roll_dice(self) -> tuple[Step[Event], ...]:
        """Resolve chance nodes until a player must act or the game is over; the steps taken."""
        steps = []
        before = self.state
        for outcome, after in roll_chance(before, self.rng):
            event = Event(None, str(outcome))
            self._events.append(event)
            steps.append(Step(len(self._events), event, outcome, before, after))
            before = after
        self.state = before
        return tuple(steps)
