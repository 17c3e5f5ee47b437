"""evolve(): the fast copy-with-changes the betting games' hot paths use instead of dataclasses.replace."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass
from functools import cached_property

import pytest

from dicepoker.core.frozen import evolve
from dicepoker.games.holdem import HoldemGame, HoldemState


@dataclass(frozen=True)
class Plain:
    a: int
    b: tuple[int, ...] = ()

    @cached_property
    def total(self) -> int:
        return self.a + sum(self.b)


@dataclass(frozen=True, slots=True)
class Slotted:
    a: int
    b: int = 0


@dataclass(frozen=True)
class Validated:
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("negative")


def test_evolve_equals_replace_and_leaves_the_original() -> None:
    old = Plain(1, (2,))
    new = evolve(old, b=(5, 6))
    assert new == Plain(1, (5, 6)) and old == Plain(1, (2,))
    assert evolve(Slotted(1), b=4) == Slotted(1, 4)


def test_evolved_copies_stay_frozen() -> None:
    with pytest.raises(FrozenInstanceError):
        evolve(Plain(1), a=2).a = 3  # type: ignore[misc]


def test_cached_properties_are_recomputed_for_the_copy() -> None:
    old = Plain(1, (2,))
    assert old.total == 3
    assert evolve(old, a=10).total == 12


def test_unknown_fields_and_validating_classes_are_refused() -> None:
    with pytest.raises(TypeError, match="no field"):
        evolve(Plain(1), c=2)
    with pytest.raises(TypeError, match="__post_init__"):
        evolve(Validated(1), a=-1)


def test_holdem_whose_turn_is_never_stale() -> None:
    """to_act is cached per state: every state along a game must answer as a freshly built one."""
    game = HoldemGame(players=3, stack=60)
    state = game.initial_state()
    for _ in range(200):
        if state.is_terminal:
            break
        rebuilt = game.state_from_json(state.to_json())
        assert isinstance(rebuilt, HoldemState) and rebuilt.to_act == state.to_act
        legal = state.legal_actions()
        state = state.apply(legal[len(legal) // 2])
