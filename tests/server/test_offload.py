"""Issue 19 §4: heavy answers are cached (the second request computes nothing), computed in a worker
thread (not on the event loop), and the computations limited per client (429)."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dicepoker.core import EventLog
from dicepoker.server.settings import Settings
from dicepoker.server.storage.records import MemoryStorage
from dicepoker.server.transport import replay_routes, web_routes
from dicepoker.server.transport.app import create_app
from dicepoker.server.transport.offload import ByteLRU, HeavyWork
from tests.server.finished_tables import long_holdem_log, store_finished

SEED = bytes.fromhex("c0ffee" * 10 + "c0de")


@pytest.fixture(scope="module")
def long_log() -> EventLog:
    return long_holdem_log(SEED)


def serve(log: EventLog, **settings: Any) -> tuple[TestClient, str]:
    storage = MemoryStorage()
    table_id = asyncio.run(store_finished(storage, log, SEED))
    settings = {"warm_tables": False, "scheduler": False, "heavy_rate_limit": None, **settings}
    return TestClient(create_app(Settings(storage=storage, **settings))), table_id


@pytest.fixture
def served(long_log: EventLog) -> Iterator[tuple[TestClient, str]]:
    client, table_id = serve(long_log)
    with client:
        yield client, table_id


def test_the_lru_is_bounded_by_bytes_and_by_entries() -> None:
    cache = ByteLRU(max_bytes=10, max_entries=3)
    cache.put("a", b"1234")
    cache.put("b", b"1234")
    assert cache.get("a") == b"1234"  # "a" is now the most recently used
    cache.put("c", b"1234")  # 12 bytes > 10: the least recently used ("b") goes
    assert cache.get("b") is None and cache.get("a") and cache.get("c") and cache.size == 8
    cache.put("d", b"1")
    cache.put("e", b"1")  # four entries > 3: "a" goes
    assert cache.get("a") is None and len(cache) == 3
    cache.put("huge", b"x" * 11)  # larger than the whole cache: not kept, nothing evicted for it
    assert cache.get("huge") is None and len(cache) == 3


def test_the_second_request_is_served_from_the_cache(served: tuple[TestClient, str], long_log: EventLog) -> None:
    client, table_id = served
    work: HeavyWork = client.app.state.heavy_work  # type: ignore[attr-defined]
    first = client.get(f"/api/tables/{table_id}/replay").content
    assert work.computed["replay"] == 1 and work.computed["log"] == 1
    assert client.get(f"/api/tables/{table_id}/replay").content == first
    assert client.post("/api/web/replay", content=long_log.to_jsonl()).content == first  # same log, same entry
    assert work.computed["replay"] == 1 and work.hits["replay"] == 2 and work.computed["log"] == 1
    client.get(f"/api/tables/{table_id}/replay", params={"seat": 1})  # another seat: another answer
    assert work.computed["replay"] == 2
    for _ in range(3):
        assert client.get(f"/api/tables/{table_id}/log", params={"format": "history"}).status_code == 200
        assert client.get(f"/api/tables/{table_id}/verify").json()["ok"] is True
    assert work.computed["history"] == 1 and work.computed["verify"] == 1 and work.computed["log"] == 1


def test_concurrent_requests_for_one_answer_compute_it_once() -> None:
    calls = []

    def compute() -> dict[str, int]:
        calls.append(1)
        return {"n": len(calls)}

    async def main() -> list[bytes]:
        work = HeavyWork()
        return list(await asyncio.gather(*(work.answer("replay", "log", None, compute) for _ in range(5))))

    assert asyncio.run(main()) == [b'{"n":1}'] * 5 and len(calls) == 1


def test_a_heavy_route_runs_in_a_worker_thread(long_log: EventLog, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``heavy_processes=False`` the computations run in worker threads, never on the loop's."""
    threads: list[int] = []

    def recording(builder: Any) -> Any:
        def run(*args: Any) -> Any:
            threads.append(threading.get_ident())
            return builder(*args)

        return run

    monkeypatch.setattr(replay_routes, "replay_answer", recording(web_routes.replay_answer))
    monkeypatch.setattr(web_routes, "verify_answer", recording(web_routes.verify_answer))
    client, table_id = serve(long_log, heavy_processes=False)
    with client:
        assert client.get(f"/api/tables/{table_id}/replay").status_code == 200
        assert client.post("/api/web/verify", content="not a log").status_code == 422
        assert client.portal is not None
        loop_thread = client.portal.call(threading.get_ident)  # the event loop's own thread
    assert len(threads) == 2 and loop_thread not in threads


def test_the_server_computes_in_worker_processes(served: tuple[TestClient, str]) -> None:
    """By default (``heavy_processes``) a computation runs in another process: it shares no GIL with the
    event loop. Errors come back as the route's own (422), and are not cached."""
    client, table_id = served
    work: HeavyWork = client.app.state.heavy_work  # type: ignore[attr-defined]
    assert work.processes
    assert client.portal is not None
    pid = client.portal.call(work.answer, "pid", "any text", None, os.getpid)
    assert json.loads(pid) != os.getpid()
    refused = client.post("/api/web/verify", content="not a log")
    assert refused.status_code == 422 and "not a dicepoker log" in refused.json()["detail"]
    assert client.post("/api/web/verify", content="not a log").status_code == 422
    assert work.computed["verify"] == 2 and work.hits["verify"] == 0
    assert client.get(f"/api/tables/{table_id}/review").status_code == 422  # a service error crosses too


def test_heavy_computations_are_limited_per_client(long_log: EventLog) -> None:
    """Each computation (a cache miss) counts against the client's budget; answers from the cache do not."""
    client, table_id = serve(long_log, heavy_rate_limit=3)
    with client:
        base = f"/api/tables/{table_id}"
        assert client.get(f"{base}/replay").status_code == 200  # two computations: the log read, the replay
        assert client.get(f"{base}/verify").status_code == 200  # the third
        refused = client.get(f"{base}/review")
        assert refused.status_code == 429 and refused.headers["retry-after"] == "60"
        assert "at most 3 a minute" in refused.json()["detail"]
        changed = long_log.to_jsonl() + "\n"  # another text: another computation
        assert client.post("/api/web/replay", content=changed).status_code == 429
        # What is cached is answered whatever the budget, as often as asked; light routes are not counted.
        for _ in range(5):
            assert client.get(f"{base}/replay").status_code == 200
            assert client.post("/api/web/replay", content=long_log.to_jsonl()).status_code == 200
            assert client.get(f"{base}/log").status_code == 200
        assert client.get(base).status_code == 200 and client.get("/healthz").status_code == 200


def die_in_a_worker_process() -> dict[str, bool]:
    """Kills the process it runs in unless that is the test's own (a worker that dies, or cannot start)."""
    if multiprocessing.parent_process() is not None:
        os._exit(1)
    return {"computed": True}


def test_worker_processes_that_fail_fall_back_to_threads() -> None:
    """A pool whose worker dies (or cannot start: spawn re-imports the main module) is not a 500 for every
    request from then on: that computation and the later ones run in threads."""

    async def main() -> None:
        work = HeavyWork(processes=True)
        assert await work.answer("x", "log", None, die_in_a_worker_process) == b'{"computed":true}'
        assert not work.processes and await work.answer("y", "log", None, os.getpid) == str(os.getpid()).encode()

    asyncio.run(main())
