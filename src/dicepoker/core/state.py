"""The abstract state of every game: whose turn, legal actions, one checked way to apply them."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from fractions import Fraction
from random import Random
from typing import Self

from dicepoker.core.chance import sample_exact
from dicepoker.core.errors import IllegalAction
from dicepoker.core.fields import is_whole, shown
from dicepoker.core.types import CHANCE, JSON, Action, ChanceAction, Resign, Result, Seat, ToAct, View


class State(ABC):
    """An immutable game position. ``apply`` returns a new state; nothing mutates a state.

    Subclasses are frozen dataclasses. They implement the abstract methods; this base class owns the
    seat bookkeeping so that every game rejects a wrong seat the same way (CM-4).
    """

    __slots__ = ()

    # -- value semantics --------------------------------------------------------------------------
    def __copy__(self) -> Self:
        return self  # immutable: a copy would be the same value

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self  # immutable all the way down: frameworks that deep-copy (OpenSpiel's clone) share it

    # -- whose turn -------------------------------------------------------------------------------
    @property
    @abstractmethod
    def to_act(self) -> ToAct:
        """Seats that must decide now, :data:`CHANCE`, or ``()`` once the game is over."""

    @property
    def is_terminal(self) -> bool:
        return self.to_act == ()

    @property
    def is_chance(self) -> bool:
        return self.to_act is CHANCE

    @property
    def current_seat(self) -> Seat | None:
        """The one seat to act, or ``None`` at chance nodes, simultaneous decisions and the end."""
        to_act = self.to_act
        if to_act is CHANCE or len(to_act) != 1:
            return None
        return to_act[0]

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many seats the game has: seats are ``0 .. num_players - 1`` (CM-1)."""

    def check_seat(self, seat: object) -> Seat:
        """``seat`` if it is a seat of this game; else :class:`IllegalAction` (CM-1, CM-4).

        A seat is a real ``int`` (not ``True``, ``0.0`` or ``"0"``) from 0 to ``num_players - 1``.
        """
        players = self.num_players
        if not is_whole(seat):
            raise IllegalAction(f"a seat is a whole number from 0 to {players - 1}, got {shown(seat)}")
        assert isinstance(seat, int)
        if not 0 <= seat < players:
            raise IllegalAction(f"there is no seat {shown(seat)}: this game has seats 0 to {players - 1}")
        return seat

    # -- actions ----------------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self, seat: Seat | None = None) -> Sequence[Action]:
        """Legal actions of ``seat`` (default: the one seat to act); chance outcomes at a chance node.

        ``Timeout`` and ``Resign`` are always accepted while a seat may act and are not listed.
        """

    @abstractmethod
    def chance_outcomes(self) -> Sequence[tuple[ChanceAction, Fraction]]:
        """Every outcome of this chance node with its exact probability; empty elsewhere."""

    @abstractmethod
    def _check(self, action: Action, seat: Seat | None) -> None:
        """Raise :class:`IllegalAction` if ``action`` by ``seat`` breaks a rule. Seat already resolved."""

    @abstractmethod
    def _next(self, action: Action, seat: Seat | None) -> Self:
        """The state after a checked action."""

    def resolve_seat(self, action: Action, seat: Seat | None) -> Seat | None:
        """The seat the action is for; raises :class:`IllegalAction` for a wrong seat (CM-4).

        It also checks what any state would refuse: a seat that does not exist, something that is not
        an action, an action whose fields have the wrong type or an impossible value.
        """
        if seat is not None:
            self.check_seat(seat)
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {shown(action)}")
        action.check_fields()
        to_act = self.to_act
        if to_act == ():
            raise IllegalAction("the game is over")
        if isinstance(action, ChanceAction):
            if to_act is not CHANCE:
                raise IllegalAction(f"{action} is a chance outcome but no dice are being rolled")
            if seat is not None:
                raise IllegalAction(f"seat {seat} cannot choose the dice")
            return None
        if isinstance(action, Resign):
            if seat is None:
                raise IllegalAction("resign needs the seat that resigns")
            return seat
        if to_act is CHANCE:
            raise IllegalAction(f"waiting for the dice, not for {action}")
        if seat is None:
            if len(to_act) != 1:
                raise IllegalAction(f"several seats decide now ({list(to_act)}): say which seat acts")
            return to_act[0]
        if seat not in to_act:
            raise IllegalAction(f"it is not seat {seat}'s turn (to act: {list(to_act)})")
        return seat

    def check(self, action: Action, seat: Seat | None = None) -> None:
        """Raise :class:`IllegalAction` with a reason if the action is illegal here."""
        self._check(action, self.resolve_seat(action, seat))

    def is_legal(self, action: Action, seat: Seat | None = None) -> bool:
        try:
            self.check(action, seat)
        except IllegalAction:
            return False
        return True

    def apply(self, action: Action, seat: Seat | None = None) -> Self:
        """The state after ``action``; raises :class:`IllegalAction` and leaves ``self`` as it was."""
        resolved = self.resolve_seat(action, seat)
        self._check(action, resolved)
        return self._next(action, resolved)

    def sample_chance(self, rng: Random) -> ChanceAction:
        """Draw the outcome of this chance node from ``rng`` with exactly its probability.

        Games may override this with a faster draw of the same distribution.
        """
        if self.to_act is not CHANCE:
            raise IllegalAction("not a chance node")
        return sample_exact(self.chance_outcomes(), rng)

    # -- information ------------------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: Seat | None) -> View:
        """What ``seat`` may see; ``None`` is a spectator."""

    @abstractmethod
    def result(self) -> Result:
        """How the game ended; raises :class:`IllegalAction` while it runs."""

    def hidden_from_others(self, seat: Seat) -> JSON | None:
        """The secret that ``seat`` holds right now (``None`` if nothing is hidden).

        The conformance suite changes it with :meth:`with_other_secret` and checks that no other
        seat's view changes: that is how "no view shows a seat what it may not see" is tested.
        """
        return None

    def with_other_secret(self, seat: Seat, rng: Random) -> Self:
        """A copy in which ``seat``'s hidden information is redrawn (identity when nothing is hidden)."""
        return self

    @abstractmethod
    def to_json(self) -> dict[str, JSON]:
        """A plain-JSON picture of the whole state; ``Game.state_from_json`` reads it back."""
