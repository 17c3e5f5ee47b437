"""Lookup tables computed once per machine and kept in the user cache directory.

Some exact tables take a second or more to compute (every best-of-seven hand of suited dice, the PeekPoker
equity tables) but milliseconds to read back. :func:`cached_arrays` returns them from an ``.npz`` file in
the user cache directory (``platformdirs``; ``DICEPOKER_CACHE_DIR`` overrides it), and computes and saves
them when the file is missing, unreadable, of another version, or fails its checksum. The version names
the package version and a digest of the source files that compute the table, so editing the code that
builds a table retires its old copy by itself. A cache that cannot be written (read-only home) only costs
the time to build again next time.

A table missing from the user cache is next looked for among the tables shipped with the package
(:func:`shipped_folder`: compressed ``.npz`` files committed to the repository, about 2 MB in all, made by
``python -m dicepoker.bots.shipped_tables``), so that even the first run on a machine decides its first
move in milliseconds rather than seconds. A shipped table is used only if its version matches (the same
digest of the source that computes it), so editing that source never serves a stale table: it is built
and cached as before until the shipped copy is regenerated (a test says so). ``DICEPOKER_SHIPPED_TABLES``
names another folder, or, set empty, turns shipped tables off (the tests of the build path do).

>>> import numpy as np, tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> build = lambda: {"squares": np.arange(5) ** 2}
>>> cached_arrays("doc-example", "1", build, folder=folder)["squares"].tolist()
[0, 1, 4, 9, 16]
>>> BUILDS["doc-example"], cached_arrays("doc-example", "1", build, folder=folder)["squares"][2], BUILDS["doc-example"]
(1, np.int64(4), 1)
>>> import shutil; shutil.rmtree(folder)
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

import dicepoker

CACHE_ENV = "DICEPOKER_CACHE_DIR"
SHIPPED_ENV = "DICEPOKER_SHIPPED_TABLES"
PACKAGE_TABLES = Path(__file__).resolve().parent / "shipped"
"""The tables shipped with the package (package data)."""
Arrays = dict[str, npt.NDArray[np.generic]]

BUILDS: Counter[str] = Counter()
"""How many times each table was computed (rather than read back) in this process: tests watch it."""


def cache_folder() -> Path:
    """Where tables are kept: ``$DICEPOKER_CACHE_DIR``, else the user cache directory of ``dicepoker``."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    import platformdirs  # only when a table is actually needed

    return Path(platformdirs.user_cache_dir("dicepoker"))


def shipped_folder() -> Path | None:
    """Where the tables shipped with the package are (``$DICEPOKER_SHIPPED_TABLES`` overrides; empty: none)."""
    override = os.environ.get(SHIPPED_ENV)
    if override is not None:
        return Path(override) if override else None
    return PACKAGE_TABLES


def source_version(modules: Iterable[ModuleType]) -> str:
    """The package version and a short digest of the modules' source files (what a table is computed by)."""
    digest = hashlib.sha256(dicepoker.__version__.encode())
    for module in modules:
        try:
            digest.update(Path(str(module.__file__)).read_bytes())
        except OSError:  # no source file (a frozen or zipped install): the package version alone
            digest.update(module.__name__.encode())
    return f"{dicepoker.__version__}-{digest.hexdigest()[:16]}"


def cached_arrays(
    name: str, version: str, build: Callable[[], Mapping[str, npt.NDArray[np.generic]]], *, folder: Path | None = None
) -> Arrays:
    """The arrays of table ``name`` at ``version``: read from the cache, else from the tables shipped with the
    package (only when ``folder`` is not given), else built by ``build`` and saved in the cache."""
    path = (folder or cache_folder()) / f"{name}.npz"
    try:
        return _read(path, version)
    except (OSError, ValueError):
        pass  # missing, unreadable, stale or damaged: build it again
    shipped = shipped_folder() if folder is None else None
    if shipped is not None:
        try:
            return _read(shipped / f"{name}.npz", version)
        except (OSError, ValueError):
            pass  # not shipped, or shipped for another version of the code that computes it
    arrays = {key: np.ascontiguousarray(value) for key, value in build().items()}
    BUILDS[name] += 1
    with contextlib.suppress(OSError):  # no writable cache: the table still serves this process
        _write(path, version, arrays)
    return arrays


def _digest(arrays: Mapping[str, npt.NDArray[np.generic]]) -> str:
    digest = hashlib.sha256()
    for key in sorted(arrays):
        value = np.ascontiguousarray(arrays[key])
        digest.update(f"{key}:{value.dtype.str}:{value.shape}".encode())
        digest.update(value.tobytes())
    return digest.hexdigest()


def _write(path: Path, version: str, arrays: Arrays) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.stem}.{os.getpid()}.tmp.npz")
    try:
        payload: dict[str, Any] = {**arrays, "_version": np.array(version), "_digest": np.array(_digest(arrays))}
        np.savez(partial, **payload)
        partial.replace(path)  # atomic: a reader sees the old file or the whole new one
    finally:
        partial.unlink(missing_ok=True)


def _read(path: Path, version: str) -> Arrays:
    """Raises OSError if absent or unreadable, ValueError if stale or damaged."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except OSError:
        raise
    except Exception as exc:  # zipfile.BadZipFile, EOFError, KeyError...: any damage means rebuild
        raise ValueError(f"damaged: {type(exc).__name__}") from None
    stored_version, stored_digest = arrays.pop("_version", None), arrays.pop("_digest", None)
    if stored_version is None or str(stored_version) != version:
        raise ValueError("another version")
    if stored_digest is None or str(stored_digest) != _digest(arrays):
        raise ValueError("checksum mismatch")
    return arrays


def cached_fractions(
    name: str, version: str, build: Callable[[], Sequence[Fraction]], *, folder: Path | None = None
) -> list[Fraction]:
    """Exact results (fractions, written as text so no precision is lost) kept like :func:`cached_arrays`."""

    def as_text() -> dict[str, npt.NDArray[np.generic]]:
        return {"fractions": np.array([str(value) for value in build()], dtype=np.str_)}

    texts = cached_arrays(name, version, as_text, folder=folder)["fractions"]
    try:
        return [Fraction(str(text)) for text in texts]
    except (ValueError, ZeroDivisionError):  # a file that passed its checksum but says nonsense: rebuild
        BUILDS[name] += 1
        return list(build())
