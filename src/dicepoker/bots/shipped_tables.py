"""The exact tables shipped with the package, and how to make them: ``python -m dicepoker.bots.shipped_tables``.

Every table that a bot, an odds command or a hand evaluation reads is computed from the rules once per
machine (:mod:`dicepoker.dice.table_cache`); some take seconds (the scorecard solver about ten), which a
first decision cannot afford. So the package carries them, compressed, in ``dicepoker/dice/shipped/``
(about 2 MB), and a fresh machine reads them in milliseconds. This module lives with the bots because it
is the lowest layer that sees every module computing a table.

Running it rebuilds every table from scratch in a temporary cache (shipped tables ignored) and writes
them to the shipped folder (or ``--to FOLDER``). Run it after changing code that computes a table: a
shipped table whose version no longer matches its source is ignored (and built instead, as before), and
``tests/bots/test_shipped_tables.py`` fails until it is regenerated.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path


def load_all() -> None:
    """Read (or build) every table: what a machine that has run every bot and command holds in its cache."""
    from dicepoker.analysis import board_odds, holdem_odds, peekpoker_equity, peekpoker_odds, scorecard_solver
    from dicepoker.dice import suited

    suited.five_table()
    suited.seven_code_value(range(7))  # the best-of-seven table
    holdem_odds.category_probabilities()
    peekpoker_odds.odds_table()
    board_odds.hand_odds()
    board_odds.label_odds()
    peekpoker_equity.equity_tables()
    scorecard_solver.load_strategy()


def build_into(cache: Path) -> list[Path]:
    """Build every table from scratch into the empty folder ``cache`` (in a child process, so that nothing this
    process already loaded is reused); returns the table files."""
    import subprocess
    import sys

    env = dict(os.environ)
    env["DICEPOKER_CACHE_DIR"] = str(cache)
    env["DICEPOKER_SHIPPED_TABLES"] = ""  # build, never copy what is shipped
    code = "from dicepoker.bots.shipped_tables import load_all; load_all()"
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    return sorted(cache.glob("*.npz"))


def write_shipped(tables: list[Path], folder: Path) -> None:
    """Copy ``tables`` to ``folder`` compressed (same arrays, same names), replacing what was there."""
    import numpy as np

    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.npz"):
        old.unlink()
    for table in tables:
        with np.load(table, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
        np.savez_compressed(folder / table.name, **arrays)


def main(argv: list[str] | None = None) -> None:
    from dicepoker.dice.table_cache import PACKAGE_TABLES

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--to", type=Path, default=None, help="folder to write (default: the package's own)")
    args = parser.parse_args(argv)
    folder: Path = args.to or PACKAGE_TABLES
    with tempfile.TemporaryDirectory(prefix="dicepoker-tables-") as cache:
        tables = build_into(Path(cache))
        write_shipped(tables, folder)
    for table in sorted(folder.glob("*.npz")):
        print(f"{table.stat().st_size:>10,} bytes  {table}")


if __name__ == "__main__":
    main()
