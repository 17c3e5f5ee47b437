"""The server loads the rules' lookup tables before serving, off the event loop, and survives a failing one."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest
from fastapi import FastAPI

from dicepoker.dice import suited
from dicepoker.server.settings import Settings
from dicepoker.server.transport import warmup
from dicepoker.server.transport.app import create_app


def test_warm_rules_loads_the_holdem_showdown_table() -> None:
    seconds = warmup.warm_rules()
    assert set(seconds) == set(warmup.RULES)
    # The best-of-seven table a showdown reads on the event loop is now in memory.
    assert suited._seven is not None


def test_a_failing_table_is_logged_and_the_others_still_load(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    loaded: list[str] = []

    def broken() -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(warmup, "RULES", {"broken": broken, "fine": lambda: loaded.append("fine")})
    # `dicepoker serve` stops the server's logs at "dicepoker.server" (logs.configure): let caplog see them.
    monkeypatch.setattr(logging.getLogger("dicepoker.server"), "propagate", True)
    with caplog.at_level(logging.ERROR, logger="dicepoker.server.transport.warmup"):
        seconds = warmup.warm_rules()
    assert list(seconds) == ["fine"] and loaded == ["fine"]
    assert "warming broken failed" in caplog.text and "disk on fire" in caplog.text


async def _start_and_stop(app: FastAPI) -> None:
    async with app.router.lifespan_context(app):
        pass


def test_the_app_warms_in_a_worker_thread_before_serving(monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    monkeypatch.setattr(warmup, "warm_rules", lambda: threads.append(threading.current_thread().name) or {})
    monkeypatch.setattr(warmup, "warm_bots_in_background", lambda: threads.append("bots"))
    asyncio.run(_start_and_stop(create_app(Settings(scheduler=False))))
    assert len(threads) == 2 and threads[0] != threading.main_thread().name and threads[1] == "bots"


def test_warming_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[str] = []
    monkeypatch.setattr(warmup, "warm_rules", lambda: called.append("rules") or {})
    monkeypatch.setattr(warmup, "warm_bots_in_background", lambda: called.append("bots"))
    asyncio.run(_start_and_stop(create_app(Settings(scheduler=False, warm_tables=False))))
    assert called == []


def test_warm_bots_runs_in_a_daemon_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    ran = threading.Event()
    monkeypatch.setattr(warmup, "BOTS", {"probe": ran.set})
    thread = warmup.warm_bots_in_background()
    assert thread.daemon
    thread.join(60)
    assert ran.is_set()
