"""Where chunks run: results in chunk order for every engine, clear errors for bad settings, and the same
figures on a local Ray cluster as on this process (issue 12 §4; the Ray part is slow but runs in CI)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from dicepoker.arena.duel import duel_named
from dicepoker.arena.engine import Engine, check_reachable, import_ray, run_chunks
from dicepoker.arena.ladder import ladder
from dicepoker.arena.simulate import simulate
from dicepoker.core.errors import ConfigError


def _square(value: int) -> int:
    return value * value


@pytest.mark.parametrize("workers", [1, 2])
def test_results_come_back_in_chunk_order(workers: int) -> None:
    assert list(run_chunks(_square, list(range(7)), Engine("local", workers))) == [x * x for x in range(7)]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"kind": "spark"}, "unknown engine 'spark'"),
        ({"workers": 0}, "at least 1"),
        ({"address": "10.0.0.1:6379"}, "use it with --engine ray"),
    ],
)
def test_bad_engine_settings_are_refused(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Engine(**settings)  # type: ignore[arg-type]


@pytest.mark.parametrize("address", ["nonsense", "host:port", ":80"])
def test_a_malformed_address_is_refused(address: str) -> None:
    with pytest.raises(ConfigError, match="host:port"):
        check_reachable(address)


def test_an_address_where_nobody_listens_fails_fast() -> None:
    import socket

    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ConfigError, match="no Ray cluster answers"):
        check_reachable(f"127.0.0.1:{port}", timeout=2)


def test_without_ray_the_error_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes ``import ray`` fail as if it were not installed
    with pytest.raises(ConfigError, match=r"dicepoker\[distributed\]"):
        import_ray()


# -- a real local Ray cluster ------------------------------------------------------------------------
def _comparable(data: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in data.items() if key not in ("seconds", "workers")}


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[None]:
    ray = pytest.importorskip("ray", reason="the distributed extra is not installed: pip install -e '.[distributed]'")
    from dicepoker.arena.engine import connect

    connect(Engine("ray", 2))
    yield
    ray.shutdown()


@pytest.mark.slow
def test_ray_gives_the_local_figures_for_any_worker_count(ray_cluster: None) -> None:
    local = simulate("scorecard", ["random", "greedy"], games=24, seed=5)
    pooled = simulate("scorecard", ["random", "greedy"], games=24, seed=5, workers=2)
    for workers in (1, 2, 3):
        on_ray = simulate("scorecard", ["random", "greedy"], games=24, seed=5, engine=Engine("ray", workers))
        assert _comparable(on_ray.to_json()) == _comparable(local.to_json()) == _comparable(pooled.to_json())

    sessions = duel_named("peekpoker", ("expert", "random"), hands=40, seed=3, session=10)
    for workers in (1, 3):
        on_ray = duel_named("peekpoker", ("expert", "random"), 40, 3, session=10, engine=Engine("ray", workers))
        assert on_ray.results == sessions.results

    board = ladder("zepherin", ["random", "greedy"], games=3, seed=2)
    seen: list[int] = []
    on_ray_board = ladder("zepherin", ["random", "greedy"], games=3, seed=2, engine=Engine("ray"), progress=seen.append)
    assert _comparable(on_ray_board.to_json()) == _comparable(board.to_json())
    assert seen[-1] == 6 and seen == sorted(seen)
