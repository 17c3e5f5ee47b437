"""Scorecard bots: ``greedy`` (best points this turn) and ``optimal`` (best expected final total).

Both plan the whole three-roll turn exactly with the solver's turn machinery; they differ only in what
a filled box is worth afterwards: nothing for ``greedy``, the solved value of the card for ``optimal``.

**One strategy per process** (issue 19 §1). A strategy is read-only: its table of values (4.2 MB), its
keep tables and its memo of turn tables serve every bot of its kind alike. So all the bots of a process
share one :class:`Strategy` per kind (:func:`shared_strategy`), rather than each loading its own copy
(a server seating six optimal bots at each of many tables held one copy per seat). The optimal values are
memory-mapped from an uncompressed ``.npy`` copy in the user cache, named by their digest, so several
processes on one machine share the pages too; where that copy cannot be written, the values are read
into this process once.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Sequence
from random import Random

import numpy as np

from dicepoker.analysis.scorecard_solver import Strategy, load_strategy
from dicepoker.analysis.scorecard_tables import FULL_MASK, UPPER_CAP, FloatArray
from dicepoker.core.types import Action, View
from dicepoker.dice.table_cache import cache_folder
from dicepoker.games.dice_turn import Roll
from dicepoker.games.scorecard import ScorecardView

_SHARED: dict[str, Strategy] = {}
_SHARED_LOCK = threading.Lock()  # bots are created in worker threads: two first moves must not load twice


class _PlanningBot:
    name = "planning"

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        if not isinstance(view, ScorecardView):
            raise TypeError(f"{self.name} plays scorecard only, got {type(view).__name__}")
        if not view.dice or view.rolling:
            return next(a for a in legal if isinstance(a, Roll))
        card = view.cards[view.to_play]
        ranked = self.strategy.action_values(card, view.dice, view.rolls_used)
        allowed = {str(a) for a in legal}
        return next(action for action, _ in ranked if str(action) in allowed)


class GreedyBot(_PlanningBot):
    """Maximises the expected points scored this turn (upper bonus included), ignoring later turns."""

    name = "greedy"

    def __init__(self) -> None:
        super().__init__(shared_strategy("greedy"))


class OptimalBot(_PlanningBot):
    """Maximises the expected final total of its own card: provably optimal for solitaire play."""

    name = "optimal"

    def __init__(self, strategy: Strategy | None = None) -> None:
        super().__init__(strategy or shared_strategy("optimal"))


def shared_strategy(kind: str) -> Strategy:
    """This process's one strategy of ``kind`` (``"optimal"`` or ``"greedy"``), loaded on first use."""
    with _SHARED_LOCK:
        found = _SHARED.get(kind)
        if found is None:
            if kind == "optimal":
                values = _mapped(load_strategy().strategy.values)
            elif kind == "greedy":
                values = np.zeros((FULL_MASK + 1, UPPER_CAP + 1))  # a filled box is worth nothing later
            else:
                raise ValueError(f"no shared scorecard strategy {kind!r}")
            values.flags.writeable = False  # shared by every bot: nobody may change it for the others
            found = _SHARED[kind] = Strategy(values)
        return found


def _mapped(values: FloatArray) -> FloatArray:
    """``values`` memory-mapped from an uncompressed copy in the cache folder (written once, named by the
    digest of its contents, so a copy never serves other values); ``values`` itself if that fails."""
    contiguous = np.ascontiguousarray(values)
    digest = hashlib.sha256(contiguous.tobytes()).hexdigest()[:16]
    path = cache_folder() / f"scorecard-optimal-{digest}.npy"
    with contextlib.suppress(OSError, ValueError):
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(f".{path.stem}.{os.getpid()}.tmp.npy")
            try:
                np.save(partial, contiguous, allow_pickle=False)
                partial.replace(path)  # atomic: another process sees no file or the whole one
            finally:
                partial.unlink(missing_ok=True)
        mapped = np.load(path, mmap_mode="r", allow_pickle=False)
        if mapped.shape == contiguous.shape and mapped.dtype == contiguous.dtype and _same(mapped, digest):
            result: FloatArray = mapped
            return result
    return contiguous


def _same(mapped: FloatArray, digest: str) -> bool:
    """Whether the mapped copy still holds the values it is named after (a damaged file is not used)."""
    return hashlib.sha256(np.ascontiguousarray(mapped).tobytes()).hexdigest()[:16] == digest
