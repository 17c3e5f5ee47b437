"""A game table as a terminal client sees it, and the table that runs in this process.

The play loop (:mod:`.loop`) drives every game through the small :class:`Table` interface: the game,
what a seat may see, who must decide, the legal actions as text, submitting an action, the clock's
deadline, the result, and waiting for the next change. :class:`LocalTable` runs the game here: a
:class:`~dicepoker.core.Match`, bots seated in-process and the log written as play goes. A table on a
server fits the same interface: it receives per-seat views, legal actions as text, a deadline and a
version after every change, and the server (not the client) applies timeouts and moves its bots.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from random import Random
from typing import Any, Protocol

from dicepoker.bots.base import Bot
from dicepoker.core.game import Game
from dicepoker.core.log import Event
from dicepoker.core.match import Match
from dicepoker.core.state import State
from dicepoker.core.types import CHANCE, Result, Seat, Timeout, View


@dataclass(frozen=True, slots=True)
class Change:
    """One applied action as an observer sees it: the version it made, who acted (``None``: the dice) and
    the observer's views before and after. ``action`` is the action's text; a chance outcome's text may
    hold dice the observer must not see, so clients show dice from the views, never from it."""

    version: int
    seat: Seat | None
    action: str
    before: View
    after: View


class Table(Protocol):
    """What the play loop needs of a table, local or remote."""

    @property
    def game(self) -> Game[Any, Any]:
        """The rules (also used to parse typed commands into actions)."""

    @property
    def seed(self) -> int | None: ...

    @property
    def version(self) -> int:
        """How many events the table's log holds; it grows by one with every action and every roll."""

    @property
    def to_act(self) -> tuple[Seat, ...]:
        """The seats that must decide now (none while the dice roll or once the game is over)."""

    def view(self, seat: Seat | None) -> View:
        """What ``seat`` may see now (``None``: a spectator)."""

    def legal(self, seat: Seat) -> tuple[str, ...]:
        """``seat``'s legal actions, as text."""

    def submit(self, seat: Seat, action: str) -> None:
        """Play ``action`` (its text form) for ``seat``; raises the game's error and changes nothing if refused."""

    def deadline(self, seat: Seat) -> float | None:
        """When ``seat``'s current decision times out (``time.monotonic`` seconds), or ``None`` without a clock."""

    def result(self) -> Result | None:
        """How the game ended, or ``None`` while it runs."""

    def wait(self, version: int, observer: Seat | None, timeout: float | None = None) -> list[Change]:
        """The changes after ``version`` as ``observer`` sees them; when there are none yet, give the table up to
        ``timeout`` seconds to move (a bot's move, a clock that ran out). An empty list: nothing happened."""

    def close(self) -> None:
        """The player leaves (the log is completed and closed)."""


class LogSink(Protocol):
    """Where a local table writes its log as play goes (:mod:`.saving`)."""

    def write(self, events: list[tuple[Event, State, State]]) -> None: ...

    def close(self, final: State) -> None: ...


class LocalTable:
    """A game played in this process: people submit actions, bots and the clock act inside :meth:`wait`.

    Bots draw from their own stream (``bot_rng``), so their choices never shift the dice of the seed.
    """

    def __init__(
        self,
        match: Match,
        *,
        bots: Mapping[Seat, Bot],
        bot_rng: Random,
        clock: float | None = None,
        sink: LogSink | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.match = match
        self.bots = dict(bots)
        self.bot_rng = bot_rng
        self.clock = clock
        self.sink = sink
        self._now = now
        self._states: list[State] = [match.state]
        """The state after each event from the first one this table saw (index 0: the state it started in)."""
        self._first = len(match.log.events)
        self._started: dict[Seat, float] = {}
        self._restart_clocks(None)

    # -- the interface ------------------------------------------------------------------------------
    @property
    def game(self) -> Game[Any, Any]:
        return self.match.game

    @property
    def seed(self) -> int | None:
        return self.match.seed

    @property
    def state(self) -> State:
        return self.match.state

    @property
    def version(self) -> int:
        return len(self.match.log.events)

    @property
    def to_act(self) -> tuple[Seat, ...]:
        to_act = self.state.to_act
        return () if to_act is CHANCE else to_act

    def view(self, seat: Seat | None) -> View:
        return self.state.view(seat)

    def legal(self, seat: Seat) -> tuple[str, ...]:
        return tuple(str(action) for action in self.state.legal_actions(seat))

    def submit(self, seat: Seat, action: str) -> None:
        self._act(seat, self.game.parse_action(action))

    def deadline(self, seat: Seat) -> float | None:
        started = self._started.get(seat)
        return None if started is None or self.clock is None else started + self.clock

    def result(self) -> Result | None:
        return self.state.result() if self.state.is_terminal else None

    def wait(self, version: int, observer: Seat | None, timeout: float | None = None) -> list[Change]:
        if version == self.version and not self.state.is_terminal:
            self._step()
        return self.changes(version, observer)

    def close(self) -> None:
        if self.sink is not None:
            self.sink.close(self.state)
            self.sink = None

    # -- local only ---------------------------------------------------------------------------------
    def changes(self, version: int, observer: Seat | None) -> list[Change]:
        """Every change after ``version`` (no earlier than this table's first), as ``observer`` sees it."""
        events = self.match.log.events
        start = max(version, self._first)
        return [
            Change(
                number + 1,
                events[number].seat,
                events[number].action,
                self._states[number - self._first].view(observer),
                self._states[number - self._first + 1].view(observer),
            )
            for number in range(start, len(events))
        ]

    def _step(self) -> None:
        """One automatic move: an expired clock's timeout first, else a bot's decision."""
        now = self._now()
        for seat in self.to_act:
            ends = self.deadline(seat)
            if seat not in self.bots and ends is not None and now >= ends:
                self._act(seat, Timeout())
                return
        for seat in self.to_act:
            bot = self.bots.get(seat)
            if bot is not None:
                self._act(seat, bot.choose(self.state.view(seat), self.state.legal_actions(seat), self.bot_rng))
                return

    def _act(self, seat: Seat, action: Any) -> None:
        steps = self.match.play(action, seat)  # the states it passed through: nothing is applied twice
        self._states.extend(step.after for step in steps)
        written = [(step.event, step.before, step.after) for step in steps]
        if self.sink is not None:
            self.sink.write(written)
        self._restart_clocks(seat)

    def _restart_clocks(self, acted: Seat | None) -> None:
        # Each decision gets the whole clock (CM-6): it starts when the seat is asked, again after each move.
        to_act = self.to_act
        for seat in list(self._started):
            if seat == acted or seat not in to_act:
                del self._started[seat]
        for seat in to_act:
            if seat not in self.bots and seat not in self._started:
                self._started[seat] = self._now()


def bot_rng(match: Match) -> Random:
    """The bots' own random stream: from the seed, and from how far the game is (a resumed game starts a new one)."""
    return Random(f"{match.seed}-bots-{len(match.log.events)}")
