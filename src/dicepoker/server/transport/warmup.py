"""Lookup tables the server needs, loaded (or built) before the first player needs them.

Why: some rules and bots use exact tables that are read from the user cache on first use, or computed
when the cache is cold (:mod:`dicepoker.dice.table_cache`). The Hold'em showdown evaluates hands with
the best-of-seven table *inside the table's commit, on the event loop*: reading it takes about a second
and building it about three (measured on an idle 2-core machine), and ten times that on a loaded one.
Done lazily, the first showdown of a server froze every table, clock and socket for that long (an
e2e run saw an 11-second gap between two bot moves). So:

- :func:`warm_rules` (the tables the game engines use on the event loop) runs in a worker thread during
  start-up, and the server answers only once it is done;
- :func:`warm_bots` (the tables the bots use: they think in threads, so a cold table costs only the
  first bot move's time) runs in a daemon thread in the background, so start-up does not wait for it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from dicepoker.server.logs import log_event

logger = logging.getLogger("dicepoker.server.transport.warmup")


def _holdem_hands() -> None:
    from dicepoker.dice.suited import best_value, parse_suited

    best_value(parse_suited("6r 6b 2w 3y 6w 2r 5y"))  # the best-of-seven table (showdowns)
    best_value(parse_suited("6r 6b 2w 3y 6w 2r"))  # the best-of-five table (six dice, partial boards)


def _peekpoker_hands() -> None:
    from dicepoker.dice.poker import parse_dice, strength

    strength(parse_dice("A A K Q J 9"))


def _peekpoker_bots() -> None:
    from dicepoker.analysis.peekpoker_equity import hand_equity
    from dicepoker.dice.poker import parse_dice

    hand_equity(parse_dice("A A K"), parse_dice("Q J 9"), rerolls=True)  # the equity and expert bots' tables


RULES: dict[str, Callable[[], None]] = {"holdem hands": _holdem_hands, "peekpoker hands": _peekpoker_hands}
BOTS: dict[str, Callable[[], None]] = {"peekpoker equity": _peekpoker_bots}


def _run(steps: dict[str, Callable[[], None]]) -> dict[str, float]:
    """Run each step; a failing one is logged and skipped (the table is then built on first use, as before)."""
    seconds: dict[str, float] = {}
    for name, step in steps.items():
        started = time.perf_counter()
        try:
            step()
        except Exception:
            logger.exception("warming %s failed", name)
            continue
        seconds[name] = round(time.perf_counter() - started, 3)
    return seconds


def warm_rules() -> dict[str, float]:
    """Load the engines' tables (blocking: call it in a worker thread); seconds each took."""
    seconds = _run(RULES)
    log_event(logger, "warmed", tables=seconds)
    return seconds


def warm_bots_in_background() -> threading.Thread:
    """Load the bots' tables in a daemon thread (a stopping server does not wait for a build)."""

    def run() -> None:
        log_event(logger, "warmed", tables=_run(BOTS))

    thread = threading.Thread(target=run, name="dicepoker-warm-bots", daemon=True)
    thread.start()
    return thread
