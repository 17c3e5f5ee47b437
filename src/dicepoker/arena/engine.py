"""Where chunks of seeded work run: in this process, in a local process pool, or on a Ray cluster.

A *chunk* is a small picklable value (which games, which bots, the run's seed, a range of game indices)
and a module-level function turns it into a result. Every game of a chunk draws its dice and its bots'
choices from seeds derived from the run's seed and the game's index alone, so a chunk's result does not
depend on which process or machine runs it. The results come back in chunk order and are folded in that
order: the engine and the number of workers change the speed of a run, never its figures.

Ray (extra ``[distributed]``) is imported only when asked for. Without ``address`` a private local
cluster is started (``num_cpus`` = the workers asked for, at least 2; no dashboard; Ray's own logging
kept quiet); with ``address`` the driver joins that cluster and ships this ``dicepoker`` package to it
(``runtime_env`` ``py_modules``), so every node runs exactly the driver's code. See ``docs/simulate.md``.

>>> list(run_chunks(abs, [-1, 2, -3], Engine()))
[1, 2, 3]
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import socket
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from dicepoker.core.errors import ConfigError

ENGINES = ("local", "ray")
C = TypeVar("C")
R = TypeVar("R")

INSTALL_RAY = "the ray engine needs Ray: pip install 'dicepoker[distributed]'"


@dataclass(frozen=True, slots=True)
class Engine:
    """How to run a job: ``kind`` ``local`` (this process, or a process pool when ``workers`` > 1) or
    ``ray``; ``address`` of an existing Ray cluster (``None``: start a local one)."""

    kind: str = "local"
    workers: int = 1
    address: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ENGINES:
            raise ConfigError(f"unknown engine {self.kind!r}; choose one of: {', '.join(ENGINES)}")
        if not isinstance(self.workers, int) or self.workers < 1:
            raise ConfigError(f"the number of workers must be at least 1, got {self.workers}")
        if self.address is not None and self.kind != "ray":
            raise ConfigError("--address names a Ray cluster: use it with --engine ray")

    @property
    def parallelism(self) -> int:
        """How many chunks may run at once, which sizes the chunks (never the results)."""
        return self.workers if self.kind == "local" else max(2, self.workers)


def run_chunks(function: Callable[[C], R], chunks: Sequence[C], engine: Engine) -> Iterator[R]:
    """``function(chunk)`` for every chunk, yielded in chunk order whoever computed them."""
    if engine.kind == "ray":
        yield from _run_on_ray(function, chunks, engine)
    elif engine.workers == 1 or len(chunks) <= 1:
        yield from map(function, chunks)
    else:
        # Forked workers inherit what the parent loaded (bots, tables); ``imap`` keeps chunk order.
        with multiprocessing.get_context().Pool(min(engine.workers, len(chunks))) as pool:
            yield from pool.imap(function, chunks)


# -- Ray --------------------------------------------------------------------------------------------
def import_ray() -> ModuleType:
    """The ``ray`` module, or a clear :class:`ConfigError` when the extra is not installed."""
    try:
        import ray
    except ImportError:
        raise ConfigError(INSTALL_RAY) from None
    return ray


def connect(engine: Engine) -> ModuleType:
    """Join the cluster ``engine`` names (starting a local one if none), once per process."""
    ray = import_ray()
    if ray.is_initialized():
        return ray
    package = Path(__file__).resolve().parents[1]  # .../dicepoker
    options: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    if engine.address is not None:
        check_reachable(engine.address)
    try:
        if engine.address is None:
            # Local workers import this very source tree: the package's parent goes first on their path.
            path = os.pathsep.join(p for p in (str(package.parent), os.environ.get("PYTHONPATH", "")) if p)
            ray.init(
                num_cpus=engine.parallelism,
                include_dashboard=False,
                runtime_env={"env_vars": {"PYTHONPATH": path}},
                **options,
            )
        else:
            ray.init(address=engine.address, runtime_env={"py_modules": [str(package)]}, **options)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = engine.address or "a new local cluster"
        raise ConfigError(f"could not start Ray on {where}: {exc}") from None
    return ray


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast with a clear error when ``host:port`` does not answer (Ray itself retries for minutes).

    ``auto`` and ``ray://`` client addresses are left to Ray.
    """
    if address == "auto" or "://" in address:
        return
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ConfigError(f"a Ray address is host:port (as 'ray start --head' prints it), got {address!r}")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise ConfigError(f"no Ray cluster answers at {address}: {exc.strerror or exc}") from None


def _run_on_ray(function: Callable[[C], R], chunks: Sequence[C], engine: Engine) -> Iterator[R]:
    ray = connect(engine)
    task = ray.remote(num_cpus=1, max_retries=2)(function)
    pending = [task.remote(chunk) for chunk in chunks]
    index_of = {ref: i for i, ref in enumerate(pending)}
    done: dict[int, R] = {}
    next_index = 0
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                done[index_of[ref]] = ray.get(ref)
            # Hand results over in chunk order, as soon as the next one in line is in.
            while next_index in done:
                yield done.pop(next_index)
                next_index += 1
    finally:
        for ref in pending:  # an interrupted run leaves no work behind on the cluster
            ray.cancel(ref)
