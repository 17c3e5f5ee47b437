"""Boards are data (BD-1): a rectangular grid of square labels, read from TOML or JSON and validated.

A :class:`Layout` also precomputes the run geometry every rule and bot needs: each line of five squares
(row, column or diagonal, BD-10) and, for every square, the lines through it.

Labels: ``S`` straight, ``FH`` full house, ``L7``/``L11`` lucky, ``Pn`` pair of n, ``Tn`` three n's,
``Kn`` four n's, ``Dab`` two pairs of a and b (a < b), ``**`` the free square.

>>> layout = default_layout()
>>> layout.height, layout.width, layout.labels[layout.free], len(layout.lines)
(9, 9, '**', 140)
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import combinations
from pathlib import Path

from dicepoker.core.errors import ConfigError
from dicepoker.core.types import JSON

RUN_LENGTH = 5
MAX_SIDE = 15
"""The most rows or columns a board may have: larger boards only slow every rule and bot down, and a game on
one could not fill it with the chips of BD-2 (see :func:`dicepoker.games.board.config.check_fillable`)."""
MAX_BOARD_BYTES = 2**20
"""The largest board file :func:`load_board` reads (1 MiB; a 15×15 board is under 2 KB)."""
FREE = "**"
STRAIGHT = "S"
FULL_HOUSE = "FH"
LUCKY_7 = "L7"
LUCKY_11 = "L11"
FACES = range(1, 7)

HAND_LABELS: tuple[str, ...] = (
    STRAIGHT,
    FULL_HOUSE,
    LUCKY_7,
    LUCKY_11,
    *(f"K{n}" for n in FACES),
    *(f"T{n}" for n in FACES),
    *(f"D{a}{b}" for a, b in combinations(FACES, 2)),
    *(f"P{n}" for n in FACES),
)
"""Every label a hand can claim. Five of a kind has no square: it is wild (BD-8)."""

_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
Square = int
"""A square's index in row-major order."""
Line = tuple[Square, ...]


class BoardError(ConfigError):
    """A board file that cannot be read or breaks a board rule."""


def describe_label(label: str) -> str:
    """Human words for a label.

    >>> describe_label("D36"), describe_label("K2"), describe_label("L11")
    ('two pairs of 3s and 6s', 'four 2s', 'Lucky 11')
    """
    fixed = {
        STRAIGHT: "straight",
        FULL_HOUSE: "full house",
        LUCKY_7: "Lucky 7",
        LUCKY_11: "Lucky 11",
        FREE: "free",
    }
    if label in fixed:
        return fixed[label]
    kind, digits = label[0], label[1:]
    if kind == "D":
        return f"two pairs of {digits[0]}s and {digits[1]}s"
    return {"P": "a pair of", "T": "three", "K": "four"}[kind] + f" {digits}s"


@dataclass(frozen=True, slots=True)
class Layout:
    """A validated board. Equality is by name and rows; the geometry is derived once."""

    name: str
    rows: tuple[tuple[str, ...], ...]
    labels: tuple[str, ...] = field(init=False, compare=False, repr=False)
    width: int = field(init=False, compare=False, repr=False)
    height: int = field(init=False, compare=False, repr=False)
    free: Square = field(init=False, compare=False, repr=False)
    lines: tuple[Line, ...] = field(init=False, compare=False, repr=False)
    lines_through: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)
    squares_by_label: Mapping[str, tuple[Square, ...]] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        _validate(self.name, self.rows)
        labels = tuple(label for row in self.rows for label in row)
        height, width = len(self.rows), len(self.rows[0])
        lines = _lines(height, width)
        through: list[list[int]] = [[] for _ in labels]
        for index, line in enumerate(lines):
            for square in line:
                through[square].append(index)
        by_label = {label: tuple(i for i, x in enumerate(labels) if x == label) for label in HAND_LABELS}
        for name, value in (
            ("labels", labels),
            ("width", width),
            ("height", height),
            ("free", labels.index(FREE)),
            ("lines", lines),
            ("lines_through", tuple(tuple(t) for t in through)),
            ("squares_by_label", by_label),
        ):
            object.__setattr__(self, name, value)

    @property
    def size(self) -> int:
        return len(self.labels)

    def row_col(self, square: Square) -> tuple[int, int]:
        """0-based (row, column) of a square."""
        return divmod(square, self.width)

    def square_at(self, row: int, col: int) -> Square:
        return row * self.width + col

    def square_name(self, square: Square) -> str:
        """``"3 4"``: 1-based row and column, as in the action text ``claim 3 4``."""
        row, col = self.row_col(square)
        return f"{row + 1} {col + 1}"

    def to_json(self) -> dict[str, JSON]:
        return {"name": self.name, "rows": [" ".join(row) for row in self.rows]}


# -- reading ----------------------------------------------------------------------------------------
def layout_from_rows(rows: Sequence[str | Sequence[str]], name: str = "custom") -> Layout:
    """A layout from rows written as ``"S K6 D56 …"`` strings or as lists of labels."""
    grid: list[tuple[str, ...]] = []
    for number, row in enumerate(rows, start=1):
        if isinstance(row, str):
            grid.append(tuple(row.split()))
        elif isinstance(row, Sequence) and all(isinstance(x, str) for x in row):
            grid.append(tuple(x.strip() for x in row))
        else:
            raise BoardError(f"board {name!r}: row {number} must be a string of labels or a list of labels")
    return Layout(name, tuple(grid))


def parse_board(text: str, *, fmt: str, source: str = "board") -> Layout:
    """Read a board from TOML or JSON text: ``name = "…"`` (optional) and ``rows = [ … ]``."""
    try:
        data = tomllib.loads(text) if fmt == "toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise BoardError(f"{source}: not valid {fmt.upper()}: {exc}") from None
    except ValueError:  # an integer of more than 4,300 digits
        raise BoardError(f"{source}: not valid {fmt.upper()}: a number too long to read") from None
    except RecursionError:
        raise BoardError(f"{source}: not valid {fmt.upper()}: nested too deeply") from None
    if not isinstance(data, dict) or "rows" not in data:
        raise BoardError(f"{source}: a board needs a 'rows' list (one string of labels per row)")
    rows, name = data["rows"], data.get("name", Path(source).stem)
    if not isinstance(rows, list) or not rows:
        raise BoardError(f"{source}: 'rows' must be a non-empty list")
    if not isinstance(name, str):
        raise BoardError(f"{source}: 'name' must be a string")
    return layout_from_rows(rows, name)


def load_board(path: str | Path) -> Layout:
    """Read and validate a board file (``.toml`` or ``.json``); raises :class:`BoardError` saying why."""
    path = Path(path)
    fmt = "json" if path.suffix.lower() == ".json" else "toml"
    try:
        if path.stat().st_size > MAX_BOARD_BYTES:
            raise BoardError(f"{path}: {path.stat().st_size:,} bytes is too large for a board file (at most 1 MiB)")
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BoardError(f"{path}: not a text file") from None
    except OSError as exc:
        raise BoardError(f"{path}: cannot read the board file ({exc.strerror or exc})") from None
    return parse_board(text, fmt=fmt, source=str(path))


@cache
def default_layout() -> Layout:
    """The 9×9 board of RULES.md, shipped as package data."""
    text = resources.files("dicepoker.games.board").joinpath("default.toml").read_text(encoding="utf-8")
    return parse_board(text, fmt="toml", source="default.toml")


# -- validation and geometry ------------------------------------------------------------------------
def _validate(name: str, rows: tuple[tuple[str, ...], ...]) -> None:
    if not rows or not rows[0]:
        raise BoardError(f"board {name!r} is empty")
    if len(rows) > MAX_SIDE or max(len(row) for row in rows) > MAX_SIDE:
        height, width = len(rows), max(len(row) for row in rows)
        raise BoardError(f"board {name!r} is {height}×{width}: boards have at most {MAX_SIDE} rows and columns")
    widths = {len(row) for row in rows}
    if len(widths) != 1:
        detail = ", ".join(f"row {i} has {len(row)}" for i, row in enumerate(rows, start=1))
        raise BoardError(f"board {name!r} is not rectangular: {detail}")
    known = {*HAND_LABELS, FREE}
    for r, row in enumerate(rows, start=1):
        for c, label in enumerate(row, start=1):
            if label not in known:
                raise BoardError(
                    f"board {name!r}: unknown label {label!r} at row {r}, column {c}; "
                    "labels are S, FH, L7, L11, P1-P6, T1-T6, K1-K6, Dab (a<b, e.g. D36) and ** (free)"
                )
    labels = [label for row in rows for label in row]
    frees = labels.count(FREE)
    if frees != 1:
        raise BoardError(f"board {name!r} must have exactly one free square '**', it has {frees}")
    missing = [label for label in HAND_LABELS if label not in labels]
    if missing:
        raise BoardError(f"board {name!r}: no square for the hand(s) {', '.join(missing)}")
    if max(len(rows), len(rows[0])) < RUN_LENGTH:
        raise BoardError(f"board {name!r} is too small: a run needs a line of {RUN_LENGTH} squares")


def _lines(height: int, width: int) -> tuple[Line, ...]:
    lines = []
    for row in range(height):
        for col in range(width):
            for dr, dc in _DIRECTIONS:
                end_r, end_c = row + dr * (RUN_LENGTH - 1), col + dc * (RUN_LENGTH - 1)
                if 0 <= end_r < height and 0 <= end_c < width:
                    lines.append(tuple((row + dr * k) * width + col + dc * k for k in range(RUN_LENGTH)))
    return tuple(lines)
