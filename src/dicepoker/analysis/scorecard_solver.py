"""The optimal scorecard strategy: maximise the expected final total of one card (solitaire play).

The value of a card at the start of a turn depends only on which boxes are used (13 bits) and the
upper total capped at 63. States are solved level by level (12 boxes used, 11, …, 0), every state of
a level at once as columns of NumPy arrays, with the three-roll turn solved exactly:

* after the last roll, each roll is worth the best box to fill plus the value of the card after it;
* before a roll, each keep is worth the average over the faces of its next die (``E``), and a roll is
  worth its best sub-keep (``B``), both by one-die recursions over the 462 keeps (see scorecard_tables).

Only upper totals that can occur are solved, and totals with the same future (bonus earned, bonus out of
reach, upper section full) share one column. The result is the ``(8192, 64)`` table of state values;
decisions are recomputed from it on demand, for one state, in well under a millisecond.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from dicepoker.analysis.scorecard_tables import (
    CATEGORIES,
    FULL_MASK,
    UPPER,
    UPPER_CAP,
    FloatArray,
    IntArray,
    KeepTables,
    build_keep_tables,
    canonical_uppers,
    reachable_upper_totals,
)
from dicepoker.core.types import Action
from dicepoker.dice.scoring import UPPER_BONUS, Category
from dicepoker.dice.standard import ROLL_INDEX
from dicepoker.dice.table_cache import cache_folder, shipped_folder
from dicepoker.games.dice_turn import ALL_REROLLS
from dicepoker.games.scorecard import SCORE_ACTIONS, Card, card_total, upper_total

TABLE_VERSION = 1
CHUNK = 2048
NEG = -1e9


# -- one turn for many states at once ------------------------------------------------------------------
def last_roll_values(values: FloatArray, masks: IntArray, uppers: IntArray, tables: KeepTables) -> FloatArray:
    """``(252, n)``: each roll's worth when it must be scored now: best box + value of the card after it."""
    n = len(masks)
    # Upper boxes: the points depend only on how many dice show the face, so 6 candidates per box.
    best = np.full((len(tables.scores), n), NEG)
    for category in range(UPPER):
        bit = 1 << category
        is_open = (masks & bit) == 0
        if not is_open.any():
            continue
        face = category + 1
        points = face * np.arange(6)[:, None]
        new_upper = np.minimum(UPPER_CAP, uppers[None, :] + points)
        bonus = np.where((uppers[None, :] < UPPER_CAP) & (uppers[None, :] + points >= UPPER_CAP), UPPER_BONUS, 0)
        by_count = np.where(is_open[None, :], points + bonus + values[masks | bit, new_upper], NEG)
        np.maximum(best, by_count[tables.face_counts[:, category]], out=best)
    # Lower boxes: one gather per roll pattern (see scorecard_tables.lower_patterns).
    future = np.array(
        [np.where((masks & (1 << c)) == 0, values[masks | (1 << c), uppers], NEG) for c in range(CATEGORIES)]
    )
    patterns = len(tables.pattern_sum_boxes)
    with_sum = np.full((patterns, n), NEG)
    without_sum = np.full((patterns, n), NEG)
    for p in range(patterns):
        for category in tables.pattern_sum_boxes[p]:
            np.maximum(with_sum[p], future[category], out=with_sum[p])
        for category, fixed_points in tables.pattern_fixed_boxes[p]:
            np.maximum(without_sum[p], future[category] + fixed_points, out=without_sum[p])
    rows = tables.lower_pattern
    lower = np.maximum(tables.roll_sums[:, None] + with_sum[rows], without_sum[rows])
    np.maximum(best, lower, out=best)
    return best


def keep_expectations(roll_values: FloatArray, tables: KeepTables) -> FloatArray:
    """``(462, n)``: each keep's expected worth when its missing dice are rolled (one die at a time)."""
    n = roll_values.shape[1]
    expected = np.empty((len(tables.keeps), n))
    expected[tables.by_size[5]] = roll_values
    for size in range(4, -1, -1):
        children = tables.children[size]
        total = expected[children[:, 0]]
        for j in range(1, 6):
            total += expected[children[:, j]]
        expected[tables.by_size[size]] = total / 6
    return expected


def best_sub_keeps(expected: FloatArray, tables: KeepTables) -> FloatArray:
    """``(252, n)``: each roll's worth when the player picks its best keep (keeping all = stopping)."""
    best = expected.copy()
    for size in range(1, 6):
        rows, parents = tables.by_size[size], tables.parents[size]
        top = expected[rows]
        for j in range(parents.shape[1]):
            np.maximum(top, best[parents[:, j]], out=top)
        best[rows] = top
    result: FloatArray = best[tables.by_size[5]]
    return result


def turn_start_values(values: FloatArray, masks: IntArray, uppers: IntArray, tables: KeepTables) -> FloatArray:
    """Expected future points from the start of a turn, for each state (column)."""
    third = last_roll_values(values, masks, uppers, tables)
    second = best_sub_keeps(keep_expectations(third, tables), tables)
    first = best_sub_keeps(keep_expectations(second, tables), tables)
    result: FloatArray = tables.roll_probability @ first
    return result


# -- all states --------------------------------------------------------------------------------------
def _state_classes() -> tuple[list[tuple[IntArray, IntArray]], IntArray]:
    """Per level (boxes used, 12 down to 0): the (mask, upper) pairs to solve; and the canonical map."""
    masks = np.arange(FULL_MASK + 1)
    canonical = canonical_uppers()
    reachable = np.zeros((1 << UPPER, UPPER_CAP + 1), dtype=bool)
    for upper_mask, upper_totals in enumerate(reachable_upper_totals()):
        reachable[upper_mask, sorted(upper_totals)] = True
    mask_ids, totals = np.nonzero(reachable[masks & ((1 << UPPER) - 1)])
    solved = np.zeros_like(canonical, dtype=bool)
    solved[mask_ids, canonical[mask_ids, totals]] = True
    popcount = np.array([m.bit_count() for m in range(FULL_MASK + 1)])
    levels = []
    for level in range(CATEGORIES - 1, -1, -1):
        level_masks, level_uppers = np.nonzero(solved & (popcount == level)[:, None])
        levels.append((level_masks.astype(np.int64), level_uppers.astype(np.int64)))
    return levels, canonical


def solve_values(*, progress: Callable[[int, int], None] | None = None) -> FloatArray:
    """The ``(8192, 64)`` table: expected future points from the start of a turn for every card state."""
    tables = build_keep_tables()
    levels, canonical = _state_classes()
    values = np.zeros((FULL_MASK + 1, UPPER_CAP + 1))
    mask_ids = np.arange(FULL_MASK + 1)[:, None]
    for done, (masks, uppers) in enumerate(levels, start=1):
        # Chunks keep the (462, chunk) working arrays near the cache while amortising NumPy call overhead.
        for start in range(0, len(masks), CHUNK):
            part = slice(start, start + CHUNK)
            values[masks[part], uppers[part]] = turn_start_values(values, masks[part], uppers[part], tables)
        level_masks = np.unique(masks)
        values[level_masks] = values[mask_ids[level_masks], canonical[level_masks]]
        if progress:
            progress(done, len(levels))
    return values


# -- the strategy ------------------------------------------------------------------------------------
@dataclass
class Strategy:
    """Optimal decisions for one card, from the table of state values."""

    values: FloatArray
    tables: KeepTables = field(default_factory=build_keep_tables, repr=False)

    def __post_init__(self) -> None:
        # Per-instance memo of the turn tables of recently seen cards (a game visits 13 per player).
        self._turn_tables = lru_cache(maxsize=4096)(self._compute_turn_tables)

    def _compute_turn_tables(self, mask: int, upper: int) -> tuple[FloatArray, FloatArray]:
        """Keep values before the third and before the second roll of a turn from (mask, upper)."""
        masks, uppers = np.array([mask]), np.array([upper])
        third = last_roll_values(self.values, masks, uppers, self.tables)
        second_keeps = keep_expectations(third, self.tables)
        first_keeps = keep_expectations(best_sub_keeps(second_keeps, self.tables), self.tables)
        return second_keeps[:, 0], first_keeps[:, 0]

    @property
    def expected_score(self) -> float:
        """Optimal expected final total from an empty card."""
        return float(self.values[0, 0])

    def state_value(self, card: Card) -> float:
        """Expected final total of ``card`` at the start of its next turn under optimal play."""
        mask, upper = _card_state(card)
        return card_total(card) + float(self.values[mask, upper])

    def action_values(self, card: Card, dice: Sequence[int], rolls_used: int) -> list[tuple[Action, float]]:
        """Every decision after a roll with the expected final total it leads to, best first."""
        if not 1 <= rolls_used <= 3 or len(dice) != 5:
            raise ValueError("action values need five rolled dice and 1 to 3 rolls used")
        mask, upper = _card_state(card)
        base = card_total(card)
        second_keeps, first_keeps = self._turn_tables(mask, upper)
        roll = ROLL_INDEX[tuple(sorted(dice))]
        options: list[tuple[Action, float]] = []
        for category in Category:
            if card[category] is None:
                options.append((SCORE_ACTIONS[category], base + float(_score_value(self, mask, upper, category, roll))))
        if rolls_used < 3:
            keep_values = second_keeps if rolls_used == 2 else first_keeps
            for reroll in ALL_REROLLS:
                kept = tuple(sorted(d for i, d in enumerate(dice) if i not in reroll.positions))
                options.append((reroll, base + float(keep_values[self.tables.index[kept]])))
        options.sort(key=lambda item: -item[1])
        return options


def _card_state(card: Card) -> tuple[int, int]:
    mask = sum(1 << c for c in range(CATEGORIES) if card[c] is not None)
    return mask, min(UPPER_CAP, upper_total(card))


def _score_value(strategy: Strategy, mask: int, upper: int, category: int, roll: int) -> float:
    points = int(strategy.tables.scores[roll, category])
    after = mask | 1 << category
    if category < UPPER:
        new_upper = min(UPPER_CAP, upper + points)
        bonus = UPPER_BONUS if upper < UPPER_CAP <= upper + points else 0
        return points + bonus + float(strategy.values[after, new_upper])
    return points + float(strategy.values[after, upper])


# -- building and caching --------------------------------------------------------------------------
@dataclass(frozen=True)
class StrategyLoad:
    strategy: Strategy
    built: bool
    seconds: float
    path: Path
    note: str | None


def default_cache_path() -> Path:
    """In the user cache directory (``DICEPOKER_CACHE_DIR`` overrides it), beside the other cached tables."""
    return cache_folder() / f"scorecard-optimal-v{TABLE_VERSION}.npz"


def build_strategy(*, progress: Callable[[int, int], None] | None = None) -> tuple[Strategy, float]:
    """Solve from scratch; returns the strategy and the build time in seconds.

    ``progress(done, total)`` is called after each level of the solve (13 of them).
    """
    start = time.perf_counter()
    values = solve_values(progress=progress)
    return Strategy(values), time.perf_counter() - start


def load_strategy(
    *, path: Path | None = None, rebuild: bool = False, progress: Callable[[int, int], None] | None = None
) -> StrategyLoad:
    """The cached strategy, or a freshly built one (saved for next time) if missing, corrupt or asked to.

    ``progress`` hears of a build only: loading from the cache takes a few hundredths of a second and
    reports nothing, so a caller can show a progress bar exactly when there is something to wait for.
    """
    path = path or default_cache_path()
    note = None
    if not rebuild:
        start = time.perf_counter()
        try:
            values = _read_table(path)
            return StrategyLoad(Strategy(values), False, time.perf_counter() - start, path, None)
        except FileNotFoundError:
            shipped = _shipped_table() if path == default_cache_path() else None
            if shipped is not None:
                return StrategyLoad(Strategy(shipped), False, time.perf_counter() - start, path, None)
            note = f"no cached table at {path}; building it"
        except ValueError as exc:
            note = f"cached table at {path} is unusable ({exc}); rebuilt it"
    strategy, seconds = build_strategy(progress=progress)
    try:
        _write_table(path, strategy.values)
    except OSError as exc:
        note = f"{note + '; ' if note else ''}could not save the table to {path}: {exc.strerror or exc}"
    return StrategyLoad(strategy, True, seconds, path, note)


def _shipped_table() -> FloatArray | None:
    """The table shipped with the package (see :mod:`dicepoker.dice.table_cache`), if there is a good one."""
    folder = shipped_folder()
    if folder is None:
        return None
    try:
        return _read_table(folder / default_cache_path().name)
    except (FileNotFoundError, ValueError):
        return None


def _digest(values: FloatArray) -> str:
    return hashlib.sha256(np.ascontiguousarray(values).tobytes()).hexdigest()


def _write_table(path: Path, values: FloatArray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".tmp.npz")
    np.savez(partial, values=values, version=TABLE_VERSION, digest=_digest(values))
    partial.replace(path)


def _read_table(path: Path) -> FloatArray:
    """Raises FileNotFoundError if absent and ValueError for anything else wrong with the file."""
    if not path.exists():
        raise FileNotFoundError(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            values = np.asarray(data["values"], dtype=np.float64)
            version, digest = int(data["version"]), str(data["digest"])
    except (OSError, KeyError, ValueError, EOFError) as exc:
        raise ValueError(f"unreadable: {type(exc).__name__}") from None
    except Exception as exc:  # zipfile.BadZipFile and friends: any damage means rebuild
        raise ValueError(f"damaged: {type(exc).__name__}") from None
    if version != TABLE_VERSION:
        raise ValueError(f"version {version}, expected {TABLE_VERSION}")
    if values.shape != (FULL_MASK + 1, UPPER_CAP + 1) or _digest(values) != digest:
        raise ValueError("checksum mismatch")
    return values
