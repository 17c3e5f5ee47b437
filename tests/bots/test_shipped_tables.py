"""Issue 13 §5: the tables shipped with the package are current (a fresh machine builds none) and equal fresh builds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dicepoker.bots.shipped_tables import build_into
from dicepoker.dice.table_cache import PACKAGE_TABLES, SHIPPED_ENV

SRC = Path(__file__).resolve().parents[2] / "src"
REGENERATE = "regenerate them: python -m dicepoker.bots.shipped_tables"

PROBE = """
import json
from dicepoker.analysis import scorecard_solver
from dicepoker.bots.shipped_tables import load_all
from dicepoker.dice import table_cache
load_all()
print(json.dumps({"builds": dict(table_cache.BUILDS), "scorecard_built": scorecard_solver.load_strategy().built}))
"""


def test_a_fresh_machine_builds_no_table(tmp_path: Path) -> None:
    """With an empty cache every table comes from the package: fails when code that computes one has changed."""
    env = {key: value for key, value in os.environ.items() if key != SHIPPED_ENV}
    env |= {"PYTHONPATH": str(SRC), "DICEPOKER_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    assert seen == {"builds": {}, "scorecard_built": False}, f"shipped tables are stale: {REGENERATE}"
    assert not (tmp_path / "cache").exists()  # nothing needed writing


def test_the_shipped_tables_are_small() -> None:
    sizes = {path.name: path.stat().st_size for path in PACKAGE_TABLES.glob("*.npz")}
    assert len(sizes) >= 8
    assert sum(sizes.values()) < 3_000_000


@pytest.mark.slow
def test_the_shipped_tables_equal_fresh_builds(tmp_path: Path) -> None:
    """Every table rebuilt from the rules (about 15 s, the scorecard solver most of it) equals the shipped one."""
    fresh = {path.name: path for path in build_into(tmp_path)}
    shipped = {path.name: path for path in PACKAGE_TABLES.glob("*.npz")}
    assert sorted(shipped) == sorted(fresh), REGENERATE
    for name, path in fresh.items():
        with np.load(path, allow_pickle=False) as built, np.load(shipped[name], allow_pickle=False) as ours:
            assert sorted(built.files) == sorted(ours.files), name
            for key in built.files:
                assert built[key].dtype == ours[key].dtype, (name, key)
                assert np.array_equal(built[key], ours[key]), f"{name}[{key}] differs: {REGENERATE}"


SAMPLE = """
from itertools import combinations
from random import Random
from dicepoker.dice import suited, table_cache
rng = Random(13)
for _ in range(5000):
    dice = tuple(suited.die_of(rng.randrange(suited.CODES)) for _ in range(rng.choice((5, 6, 7))))
    literal = max(suited.five_value(five) for five in combinations(dice, 5))
    assert suited.best_value(dice) == literal, dice
print(dict(table_cache.BUILDS))
"""


def test_hand_values_read_from_the_shipped_tables_follow_the_rules(tmp_path: Path) -> None:
    """HE-9/HE-10 read literally against per-call lookups in the shipped five- and seven-dice tables."""
    env = {key: value for key, value in os.environ.items() if key != SHIPPED_ENV}
    env |= {"PYTHONPATH": str(SRC), "DICEPOKER_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", SAMPLE], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "{}"  # nothing built: the lookups above were in the shipped tables
