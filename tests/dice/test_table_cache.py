"""The on-disk table cache: read back when valid; rebuilt when missing, damaged, stale or forged; exact fractions."""

from __future__ import annotations

import types
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from dicepoker.dice import suited, table_cache
from dicepoker.dice.table_cache import BUILDS, cached_arrays, cached_fractions, source_version


class Builder:
    def __init__(self, scale: int = 1) -> None:
        self.calls = 0
        self.scale = scale

    def __call__(self) -> dict[str, np.ndarray]:
        self.calls += 1
        return {"values": np.arange(10, dtype=np.int32) * self.scale, "other": np.eye(2)}


def test_built_once_then_read_back(tmp_path: Path) -> None:
    build = Builder()
    first = cached_arrays("t-once", "v1", build, folder=tmp_path)
    second = cached_arrays("t-once", "v1", build, folder=tmp_path)
    assert build.calls == 1
    assert BUILDS["t-once"] == 1
    assert second["values"].tolist() == first["values"].tolist() == list(range(10))
    assert second["other"].tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t-once.npz"]  # no temporary file left


@pytest.mark.parametrize(
    "damage",
    [
        lambda path: path.write_bytes(b"not a zip file at all"),
        lambda path: path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2]),
        lambda path: path.write_bytes(b""),
        lambda path: path.unlink(),
    ],
    ids=["garbage", "truncated", "empty", "missing"],
)
def test_a_damaged_or_missing_file_is_rebuilt(tmp_path: Path, damage: types.FunctionType) -> None:
    build = Builder()
    cached_arrays("t-damage", "v1", build, folder=tmp_path)
    damage(tmp_path / "t-damage.npz")
    again = cached_arrays("t-damage", "v1", build, folder=tmp_path)
    assert build.calls == 2
    assert again["values"].tolist() == list(range(10))
    assert cached_arrays("t-damage", "v1", build, folder=tmp_path)["values"].tolist() == list(range(10))
    assert build.calls == 2  # the rebuilt file is good


def test_a_file_whose_arrays_do_not_match_their_checksum_is_rebuilt(tmp_path: Path) -> None:
    build = Builder()
    cached_arrays("t-forged", "v1", build, folder=tmp_path)
    path = tmp_path / "t-forged.npz"
    with np.load(path) as data:
        stored = {key: data[key] for key in data.files}
    stored["values"] = stored["values"] + 1  # same version and digest, other numbers
    np.savez(path, **stored)
    assert cached_arrays("t-forged", "v1", build, folder=tmp_path)["values"].tolist() == list(range(10))
    assert build.calls == 2


def test_another_version_is_rebuilt(tmp_path: Path) -> None:
    cached_arrays("t-version", "v1", Builder(), folder=tmp_path)
    newer = Builder(scale=2)
    assert cached_arrays("t-version", "v2", newer, folder=tmp_path)["values"][3] == 6
    assert newer.calls == 1


def test_an_unwritable_cache_still_serves_the_table(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder should be")
    build = Builder()
    assert cached_arrays("t-nowrite", "v1", build, folder=blocker / "cache")["values"][9] == 9
    assert cached_arrays("t-nowrite", "v1", build, folder=blocker / "cache")["values"][9] == 9
    assert build.calls == 2  # nothing could be kept, so it is built each time


def test_fractions_round_trip_exactly(tmp_path: Path) -> None:
    values = [Fraction(340968301, 2048004000), Fraction(1, 3), Fraction(0), Fraction(10**30 + 1, 7**40)]
    assert cached_fractions("t-fractions", "v1", lambda: values, folder=tmp_path) == values
    assert cached_fractions("t-fractions", "v1", lambda: [], folder=tmp_path) == values  # read back


def test_the_cache_folder_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(table_cache.CACHE_ENV, str(tmp_path))
    assert table_cache.cache_folder() == tmp_path
    monkeypatch.delenv(table_cache.CACHE_ENV)
    assert table_cache.cache_folder().name == "dicepoker"


def test_the_version_changes_with_the_source(tmp_path: Path) -> None:
    module = types.ModuleType("fake")
    module.__file__ = str(tmp_path / "fake.py")
    (tmp_path / "fake.py").write_text("A = 1\n")
    before = source_version([module])
    assert source_version([module]) == before
    (tmp_path / "fake.py").write_text("A = 2\n")
    assert source_version([module]) != before


def test_the_best_of_seven_table_is_rebuilt_when_its_file_is_corrupt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(table_cache.CACHE_ENV, str(tmp_path))
    suited.forget_seven_table()
    hand = suited.parse_suited("6r 6b 2w 3y 6w 2r 5y")
    expected = int(suited.best_values(np.array([[suited.code(d) for d in hand]]))[0])
    builds = BUILDS[suited.SEVEN_TABLE_NAME]
    assert suited.best_value(hand) == expected
    path = tmp_path / f"{suited.SEVEN_TABLE_NAME}.npz"
    assert path.exists() and BUILDS[suited.SEVEN_TABLE_NAME] == builds + 1
    path.write_bytes(path.read_bytes()[:1000])  # a crash while copying, a full disk...
    suited.forget_seven_table()  # as in a new process
    assert suited.best_value(hand) == expected
    assert BUILDS[suited.SEVEN_TABLE_NAME] == builds + 2
    suited.forget_seven_table()
    assert suited.best_value(hand) == expected
    assert BUILDS[suited.SEVEN_TABLE_NAME] == builds + 2  # read back this time
    suited.forget_seven_table()  # the next test reads the table it expects, not this folder's


def _ship(folder: Path, name: str, version: str, build: Builder) -> None:
    """A shipped table as ``python -m dicepoker.bots.shipped_tables`` writes it: the cache's file, compressed."""
    cached_arrays(name, version, build, folder=folder / "made")
    with np.load(folder / "made" / f"{name}.npz") as data:
        np.savez_compressed(folder / f"{name}.npz", **{key: data[key] for key in data.files})


def test_a_shipped_table_is_read_when_the_cache_misses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _ship(tmp_path / "shipped", "t-shipped", "v1", Builder(scale=3))
    monkeypatch.setenv(table_cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(table_cache.SHIPPED_ENV, str(tmp_path / "shipped"))
    build = Builder()
    assert cached_arrays("t-shipped", "v1", build)["values"].tolist() == [3 * i for i in range(10)]
    assert build.calls == 0 and not (tmp_path / "cache").exists()  # read from the package, nothing written
    # Another version of the code that computes it: the shipped copy is stale, so it is built (and cached).
    assert cached_arrays("t-shipped", "v2", build)["values"].tolist() == list(range(10))
    assert build.calls == 1 and (tmp_path / "cache" / "t-shipped.npz").exists()
    # Turned off (the empty setting), or an explicit folder: never the shipped copy.
    monkeypatch.setenv(table_cache.SHIPPED_ENV, "")
    assert cached_arrays("t-shipped", "v1", build, folder=tmp_path / "other")["values"].tolist() == list(range(10))
    assert build.calls == 2


def test_a_damaged_shipped_table_is_built_instead(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _ship(tmp_path / "shipped", "t-damaged", "v1", Builder(scale=3))
    path = tmp_path / "shipped" / "t-damaged.npz"
    path.write_bytes(path.read_bytes()[:-40])
    monkeypatch.setenv(table_cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(table_cache.SHIPPED_ENV, str(tmp_path / "shipped"))
    build = Builder()
    assert cached_arrays("t-damaged", "v1", build)["values"].tolist() == list(range(10))
    assert build.calls == 1


def test_the_package_ships_its_tables_beside_this_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(table_cache.SHIPPED_ENV)
    folder = table_cache.shipped_folder()
    assert folder is not None and (folder / f"{suited.SEVEN_TABLE_NAME}.npz").is_file()
