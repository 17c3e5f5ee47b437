"""Lookup tables computed once per machine and kept in the user cache directory.

Some exact tables take a second or more to compute (every best-of-seven hand of suited dice, the PeekPoker
equity tables) but milliseconds to read back. :func:`cached_arrays` returns them from an ``.npz`` file in
the user cache directory (``platformdirs``; ``DICEPOKER_CACHE_DIR`` overrides it), and computes and saves
them when the file is missing, unreadable, of another version, or fails its checksum. The version names
the package version and a digest of the source files that compute the table, so editing the code that
builds a table retires its old copy by itself. A cache that cannot be written (read-only home) only costs
the time to build again next time.

Why a cache rather than package data built at build time: the tables are a pure function of code that
is still changing, developers and CI run from an editable install where build-time files would be
missing or stale, and a wheel would carry megabytes that the first use recreates in about a second.

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
    """The arrays of table ``name`` at ``version``: read from the cache, or built by ``build`` and saved."""
    path = (folder or cache_folder()) / f"{name}.npz"
    try:
        return _read(path, version)
    except (OSError, ValueError):
        pass  # missing, unreadable, stale or damaged: build it again
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
