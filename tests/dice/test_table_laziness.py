"""Issue 13 §5: starting a command builds no table and imports no heavy module (checked in a fresh process).

These tests look at what happened (modules imported, tables built), never at the clock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"

PROBE = """
import json, sys
from dicepoker.cli import main

for argv in ARGVS:
    sys.argv = ["dicepoker", *argv]
    try:
        main()
    except SystemExit as exit:
        assert exit.code in (0, None), (argv, exit.code)

from dicepoker.dice import hands, poker, suited
table_cache = sys.modules.get("dicepoker.dice.table_cache")
print(json.dumps({
    "modules": sorted(m for m in sys.modules if m.startswith("dicepoker")),
    "poker_tables": poker._tables.cache_info().currsize,
    "five_table": suited.five_table.cache_info().currsize,
    "seven_table": suited._seven is not None,
    "hands_table": len(hands._hand_by_dice),
    "cached_builds": dict(table_cache.BUILDS) if table_cache else {},
    "numpy": "numpy" in sys.modules,
}))
"""

HEAVY_PACKAGES = (
    "dicepoker.analysis.",
    "dicepoker.bots",
    "dicepoker.arena",
    "dicepoker.tui",
    "dicepoker.games.board",
    "dicepoker.games.holdem",
    "dicepoker.games.peekpoker",
    "dicepoker.dice.table_cache",
)


def _probe(argvs: list[list[str]], tmp_path: Path) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(SRC), DICEPOKER_CACHE_DIR=str(tmp_path / "cache"), COLUMNS="100")
    script = PROBE.replace("ARGVS", repr(argvs))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize(
    "argvs",
    [
        [],  # importing the command modules only
        [["--help"]],
        [["play", "--help"], ["odds", "--help"], ["equity", "--help"], ["simulate", "--help"], ["solve", "--help"]],
        [["play", game, "--help"] for game in ("scorecard", "holdem", "peekpoker", "zepherin", "classic-board")],
        [["odds", game, "--help"] for game in ("scorecard", "holdem", "peekpoker", "zepherin")],
    ],
    ids=["import", "help", "group-help", "play-help", "odds-help"],
)
def test_starting_a_command_builds_no_table_and_imports_no_heavy_module(argvs: list[list[str]], tmp_path: Path) -> None:
    seen = _probe(argvs, tmp_path)
    heavy = [m for m in seen["modules"] if m.startswith(HEAVY_PACKAGES)]  # type: ignore[attr-defined]
    assert heavy == []
    assert seen["poker_tables"] == 0
    assert seen["five_table"] == 0
    assert seen["seven_table"] is False
    assert seen["hands_table"] == 0
    assert seen["cached_builds"] == {}
    assert not (tmp_path / "cache").exists()  # nothing was written either
    assert seen["numpy"] is False, "NumPy takes a third of the start-up: import it where tables are used"


def test_a_hand_command_builds_only_what_it_needs(tmp_path: Path) -> None:
    """``hand holdem`` with seven dice reads the best-of-seven table (built once into the cache), nothing else."""
    seen = _probe([["hand", "holdem", "6r", "6b", "2w", "3y", "6w", "2r", "5y"]], tmp_path)
    assert seen["seven_table"] is True
    assert seen["cached_builds"] == {"holdem-best-of-seven": 1, "holdem-best-of-five": 1}  # seven from five
    assert seen["poker_tables"] == 0 and seen["hands_table"] == 0
    again = _probe([["hand", "holdem", "6r", "6b", "2w", "3y", "6w", "2r", "5y"]], tmp_path)
    assert again["seven_table"] is True and again["cached_builds"] == {}  # read back, not built


def test_importing_the_dice_modules_builds_nothing() -> None:
    script = (
        "from dicepoker.dice import hands, poker, suited; "
        "print(poker._tables.cache_info().currsize, suited.five_table.cache_info().currsize, "
        "suited._seven is None, len(hands._hand_by_dice))"
    )
    env = dict(os.environ, PYTHONPATH=str(SRC))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["0", "0", "True", "0"]


def test_the_dice_modules_import_without_numpy() -> None:
    script = "import sys; from dicepoker.dice import hands, poker, suited, standard; print('numpy' in sys.modules)"
    env = dict(os.environ, PYTHONPATH=str(SRC))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
