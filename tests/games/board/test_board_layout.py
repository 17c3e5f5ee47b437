"""BD-1: boards are data; the default board, board files and their validation."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from random import Random

import pytest

from dicepoker.core.errors import ConfigError
from dicepoker.core.match import Match
from dicepoker.core.types import Resign, Timeout
from dicepoker.games.board.claims import read_hand
from dicepoker.games.board.layout import (
    FREE,
    HAND_LABELS,
    BoardError,
    default_layout,
    layout_from_rows,
    load_board,
)
from dicepoker.games.board.rules import ZepherinGame
from dicepoker.games.registry import create, replay


def test_BD_1_default_board_is_9x9_with_a_free_centre() -> None:
    layout = default_layout()
    assert (layout.height, layout.width) == (9, 9)
    assert layout.free == 40 and layout.labels[40] == FREE


def test_BD_1_every_hand_but_the_pairs_has_two_opposite_squares() -> None:
    layout = default_layout()
    counts = Counter(layout.labels)
    for label in HAND_LABELS:
        if label.startswith("P"):
            assert counts[label] == 1
        elif label not in ("FH", "S"):  # the drawn board has 12 Full House and 4 Straight squares
            assert counts[label] == 2, label
    for square, label in enumerate(layout.labels):
        if not label.startswith("P"):
            assert layout.labels[layout.size - 1 - square] == label, "180° symmetry"


def _rows() -> list[str]:
    return [" ".join(row) for row in default_layout().rows]


def test_BD_1_board_files_in_toml_and_json(tmp_path: Path) -> None:
    toml = tmp_path / "b.toml"
    toml.write_text('name = "mine"\nrows = [\n' + ",\n".join(f'"{r}"' for r in _rows()) + "]\n")
    js = tmp_path / "b.json"
    js.write_text(json.dumps({"rows": [row.split() for row in _rows()]}))
    assert load_board(toml).rows == load_board(js).rows == default_layout().rows
    assert load_board(toml).name == "mine"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda rows: [rows[0].replace("K6", "K7"), *rows[1:]], "unknown label 'K7'"),
        (lambda rows: [rows[0] + " S", *rows[1:]], "not rectangular"),
        (lambda rows: [*rows[:4], rows[4].replace("**", "S"), *rows[5:]], "exactly one free square"),
        (lambda rows: [rows[0].replace("P2", "**"), *rows[1:]], "exactly one free square"),
        (lambda rows: [rows[0].replace("P2", "S"), *rows[1:]], "no square for the hand"),
    ],
)
def test_BD_1_bad_boards_are_rejected_with_the_reason(change: object, message: str) -> None:
    with pytest.raises(BoardError, match=message):
        layout_from_rows(change(_rows()))  # type: ignore[operator]


def test_BD_1_bad_board_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("rows = [")
    with pytest.raises(BoardError, match="not valid TOML"):
        load_board(bad)
    with pytest.raises(BoardError, match="cannot read"):
        load_board(tmp_path / "missing.toml")


def test_BD_1_a_custom_board_travels_in_the_config_and_replays() -> None:
    rows = _rows()
    rows[0], rows[8] = rows[8], rows[0]
    game = ZepherinGame(board=rows)
    assert game.rules.layout.rows[0] == default_layout().rows[8]
    match = Match(game, seed=4)
    for _ in range(30):
        match.act(match.state.legal_actions()[-1])
    assert replay(match.log)[-1] == match.state
    assert create("zepherin", **json.loads(json.dumps(game.config_json()))) == game


def test_BD_5_hand_reading_names_the_faces() -> None:
    assert read_hand((5, 2, 5, 2, 6)).label == "D25"
    assert read_hand((4, 4, 4, 1, 2)).label == "T4"
    assert read_hand((6, 6, 6, 6, 6)).wild and read_hand((6, 6, 6, 6, 6)).labels == ()


# -- sizes a game can be played on (issue 13 §2) ------------------------------------------------------
def square_board(side: int) -> list[str]:
    """A ``side`` × ``side`` board holding every hand label, one free square, and Full House squares."""
    labels = [*HAND_LABELS, FREE]
    labels += ["FH"] * (side * side - len(labels))
    return [" ".join(labels[r * side : (r + 1) * side]) for r in range(side)]


def test_a_board_larger_than_15_by_15_is_refused() -> None:
    with pytest.raises(BoardError, match=r"90×90: boards have at most 15 rows and columns"):
        layout_from_rows(square_board(90))
    with pytest.raises(BoardError, match="at most 15"):
        layout_from_rows(square_board(16))
    assert layout_from_rows(square_board(15)).size == 225


def test_a_custom_board_the_chips_cannot_fill_is_refused() -> None:
    """11×11 has 120 open squares, more than 2 × 50 chips: classic play could stall for ever."""
    with pytest.raises(ConfigError, match=r"120 open squares but the 2 teams have 2 × 50 = 100 chips"):
        create("classic-board", board=square_board(11))
    assert create("classic-board", board=square_board(11), chips=60).rules.layout.size == 121
    assert create("classic-board", players=3, board=square_board(11)).rules.teams == 3


def test_a_game_on_the_largest_fillable_board_ends() -> None:
    """(An unfillable 15×15 board stalled: seed 1 had both supplies empty and no end after 30,000 actions.)"""
    game = create("classic-board", board=square_board(10))
    match = Match(game, seed=3)
    rng = Random(3)
    for _ in range(20_000):
        if match.state.is_terminal:
            break
        match.act(rng.choice([a for a in match.state.legal_actions() if not isinstance(a, Resign | Timeout)]))
    assert match.state.is_terminal and "runs" in match.state.result().reason


def test_a_board_file_over_1_mib_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    with big.open("wb") as out:  # sparse: no megabyte is written
        out.truncate(2**20 + 1)
    with pytest.raises(BoardError, match="too large for a board file"):
        load_board(big)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("deep.json", '{"rows": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
        ("deep.toml", "rows = " + "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("big.json", '{"rows": ["S"], "n": ' + "9" * 5000 + "}", "number too long"),
        ("big.toml", 'rows = ["S"]\nn = ' + "9" * 5000, "number too long"),
    ],
)
def test_nested_or_huge_number_board_files_are_board_errors(
    tmp_path: Path, name: str, content: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(BoardError, match=message):
        load_board(path)
