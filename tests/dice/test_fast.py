"""The optional C accelerator of the per-call best-of-seven lookup (``dice/_fast.c``, issue 13 §5).

It must give exactly the values and errors of the pure-Python path it stands in for. CI sets
``DICEPOKER_REQUIRE_ACCELERATOR=1``, so a build that silently stopped compiling fails there; on a machine
that installed without a compiler these tests skip with that reason.
"""

from __future__ import annotations

import os
import subprocess
import sys
from random import Random
from typing import Any

import numpy as np
import pytest

from dicepoker.core.errors import NotationError
from dicepoker.dice import suited

try:
    from dicepoker.dice import _fast
except ImportError:
    _fast = None  # type: ignore[assignment]

if _fast is None:
    if os.environ.get("DICEPOKER_REQUIRE_ACCELERATOR"):
        raise AssertionError("DICEPOKER_REQUIRE_ACCELERATOR is set but dicepoker.dice._fast was not built")
    pytest.skip("the C accelerator was not built (installed without a C compiler)", allow_module_level=True)


def _random_dice(rng: Random, count: int) -> tuple[suited.SuitedDie, ...]:
    return tuple((rng.randint(1, 6), suited.Suit(rng.randrange(4))) for _ in range(count))


def test_the_accelerator_is_what_best_value_runs() -> None:
    assert suited.IMPLEMENTATION == "C"
    assert suited.best_value is _fast.best_value
    assert suited.seven_code_value is _fast.seven_code_value


def test_values_match_the_python_path_on_random_hands() -> None:
    rng = Random(7)
    for _ in range(20_000):
        dice = _random_dice(rng, 7)
        expected = suited.python_best_value(dice)
        assert _fast.best_value(dice) == expected
        assert _fast.best_value(list(dice)) == expected
        codes = [suited.code(d) for d in dice]
        rng.shuffle(codes)
        assert _fast.seven_code_value(codes) == expected
        assert _fast.seven_code_value(tuple(codes)) == expected


def test_every_code_in_every_position_indexes_the_right_entry() -> None:
    # The extremes of the colex rank: the first and the last multiset, and each code repeated seven times.
    for c in range(suited.CODES):
        assert _fast.seven_code_value([c] * 7) == suited.python_seven_code_value([c] * 7)
    assert _fast.seven_code_value(range(7)) == suited.python_seven_code_value(range(7))
    assert _fast.seven_code_value(range(17, 24)) == suited.python_seven_code_value(range(17, 24))


def test_numpy_integers_are_codes() -> None:
    row = np.array([23, 0, 5, 5, 11, 17, 2])
    assert _fast.seven_code_value(row) == suited.python_seven_code_value(row.tolist())
    assert _fast.seven_code_value(list(row)) == suited.python_seven_code_value(row.tolist())


@pytest.mark.parametrize(
    "dice",
    [
        suited.parse_suited("6r 6b 2w 3y 6w"),  # five and six dice take the Python path
        suited.parse_suited("6r 6b 2w 3y 6w 2r"),
        [[6, 0], [6, 1], [2, 2], [3, 3], [6, 2], [2, 0], [5, 3]],  # lists, as read from JSON
        ((6, 0), (6, 1), (2, 2), (3, 3), (6, 2), (2, 0), (5.0, 3)),  # a float face equal to 5
        range(7),  # not dice at all: the Python path's error
    ],
)
def test_other_inputs_take_the_python_path(dice: Any) -> None:
    try:
        expected: object = suited.python_best_value(dice)
    except NotationError as error:
        expected = str(error)
    try:
        got: object = _fast.best_value(dice)
    except NotationError as error:
        got = str(error)
    assert got == expected


@pytest.mark.parametrize(
    "dice",
    [
        [(7, 0)] * 7,
        [(0, 0)] * 7,
        [(1, 4)] * 7,
        [(1, -1)] * 7,
        [(10**30, 0)] * 7,
        [(1, 0)] * 8,
        [(1, 0)] * 4,
        [(1, 0, 0)] * 7,
        [None] * 7,
        "6r6b2w3y",
    ],
)
def test_bad_dice_raise_the_same_error_as_the_python_path(dice: Any) -> None:
    with pytest.raises(NotationError) as python_error:
        suited.python_best_value(dice)
    with pytest.raises(NotationError) as c_error:
        _fast.best_value(dice)
    assert str(c_error.value) == str(python_error.value)


@pytest.mark.parametrize(
    ("codes", "error"),
    [
        ([0] * 6, ValueError),
        ([0] * 8, ValueError),
        ([0] * 6 + [24], IndexError),
        ([0] * 6 + [-1], IndexError),  # the Python path would read a wrong entry: C refuses it
        ([0] * 6 + [10**40], IndexError),
        ([0] * 6 + ["a"], IndexError),
        (None, TypeError),
    ],
)
def test_bad_codes_are_refused(codes: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        _fast.seven_code_value(codes)


def test_the_pure_python_switch_turns_the_accelerator_off() -> None:
    code = "from dicepoker.dice import suited; print(suited.IMPLEMENTATION, suited.best_value.__name__)"
    env = {**os.environ, "DICEPOKER_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["Python", "python_best_value"]
