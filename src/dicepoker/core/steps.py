"""The two loops every layer runs over a game: roll the dice until someone must decide, and re-apply a log.

A match, the server's dealer, the simulators and the environments all resolve chance nodes the same way
(:func:`roll_chance`, :func:`settle_chance`); a log is read back, a table restored, a replica brought up to
date and a game reviewed by re-applying its events one :class:`Step` at a time (:func:`replay_steps`).
Each step hands back the states before and after it, so no caller applies an event twice to see them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from random import Random
from typing import Any, Generic, Protocol, TypeVar

from dicepoker.core.errors import CorruptLog, DicePokerError
from dicepoker.core.game import Game
from dicepoker.core.notation import quote
from dicepoker.core.state import State
from dicepoker.core.types import Action, Seat


class Logged(Protocol):
    """A logged event of any store: who acted (``None``: the dice) and the action's text form."""

    @property
    def seat(self) -> Seat | None: ...

    @property
    def action(self) -> str: ...


E = TypeVar("E", bound=Logged)


@dataclass(frozen=True, slots=True)
class Step(Generic[E]):
    """One applied event: its number in the events given (from 1), the event, its parsed action, the states
    before and after it."""

    number: int
    event: E
    action: Action
    before: State
    after: State


def replay_steps(game: Game[Any, Any], events: Iterable[E], *, start: State | None = None) -> Iterator[Step[E]]:
    """Re-apply ``events`` one by one from ``start`` (default: the game's initial state), yielding each step.

    Raises :class:`CorruptLog` naming the first event that does not parse or is illegal (the steps before it
    were yielded). Whether logged dice follow from a seed is the caller's to check, from ``step.before``.

    >>> from dicepoker.games.registry import create
    >>> from dicepoker.core.log import Event
    >>> game = create("scorecard", players=1)
    >>> [step.after.is_chance for step in replay_steps(game, [Event(0, "roll"), Event(None, "rolled 1 2 3 4 5")])]
    [True, False]
    """
    state = game.initial_state() if start is None else start
    for number, event in enumerate(events, start=1):
        try:
            action = game.parse_action(event.action)
            after = state.apply(action, event.seat)
        except DicePokerError as exc:
            raise CorruptLog(f"event {number} ({quote(event.action)} by seat {event.seat}): {exc}") from exc
        yield Step(number, event, action, state, after)
        state = after


def roll_chance(state: State, rng: Random) -> Iterator[tuple[Action, State]]:
    """Roll every die due, drawn from ``rng``, until a player must decide or the game is over: each outcome
    with the state after it (nothing when ``state`` is not a chance node)."""
    while state.is_chance:
        outcome = state.sample_chance(rng)
        state = state.apply(outcome)
        yield outcome, state


def settle_chance(state: State, rng: Random) -> State:
    """The state after :func:`roll_chance`: where a player must decide, or the end."""
    rolled = list(roll_chance(state, rng))
    return rolled[-1][1] if rolled else state
