"""Browser end-to-end tests: a real ``dicepoker serve`` on loopback driven by Debian's chromium through Playwright.

The browser is the system's ``/usr/bin/chromium`` (``.ci/run`` installs it with apt); Playwright's own browser
downloads are never used. Without chromium or the playwright package every test here skips, saying why.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import dicepoker

CHROMIUM = os.environ.get("DICEPOKER_CHROMIUM", "/usr/bin/chromium")
HERE = Path(__file__).parent
OUT = HERE / "out"
AXE = HERE / "vendor" / "axe.min.js"
SRC = Path(dicepoker.__file__).resolve().parent.parent
PATIENCE = 120.0
"""Seconds any one step may take before a test gives up: an upper bound only (every wait ends as soon as its
condition holds), generous because CI machines are shared and a loaded one is many times slower."""

try:
    from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
except ImportError:  # pragma: no cover - depends on the environment
    sync_playwright = None

if sync_playwright is None:
    pytest.skip("playwright is not installed (pip install -e '.[dev]')", allow_module_level=True)
if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
    pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """One ``dicepoker serve`` process on a loopback port with its own SQLite file; it can be killed and restarted."""

    def __init__(self, db: Path, *, port: int | None = None, bot_delay: float = 0.05, autofill: float = 1.0) -> None:
        self.db = db
        self.port = port or free_port()
        self.args = ["--bot-delay", str(bot_delay), "--autofill", str(autofill)]
        self.process: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
        command = [sys.executable, "-c", "from dicepoker.cli import main; main()", "serve"]
        command += ["--port", str(self.port), "--db", f"sqlite:///{self.db}", *self.args]
        command += ["--rate-limit", "0", "--max-open-tables", "0"]  # one test address opens many tables
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + PATIENCE  # start-up loads the rules' tables (a cold cache builds them)
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log_tail()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not answer /healthz within {PATIENCE:g} s: {self.log_tail()}")

    def log_tail(self, chars: int = 4000) -> str:
        """The end of the server's log (its errors are logged with their traceback): for failure messages."""
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else "(no log)"

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    # -- the public protocol, for setting up tables ------------------------------------------------------
    def create(
        self, game: str, seats: list[str], *, config: dict[str, Any] | None = None, clock: float | None = 60
    ) -> str:
        spec = {"game": game, "config": config or {}, "seats": seats, "clock": clock}
        response = httpx.post(f"{self.url}/api/tables", json=spec, timeout=PATIENCE)
        assert response.status_code == 201, f"{response.text}\nthe server's log ends:\n{self.log_tail()}"
        table_id: str = response.json()["id"]
        return table_id

    def join(self, table_id: str, seat: int, name: str) -> str:
        response = httpx.post(
            f"{self.url}/api/tables/{table_id}/join", json={"seat": seat, "name": name}, timeout=PATIENCE
        )
        assert response.status_code == 200, f"{response.text}\nthe server's log ends:\n{self.log_tail()}"
        token: str = response.json()["token"]
        return token

    def summary(self, table_id: str) -> dict[str, Any]:
        data: dict[str, Any] = httpx.get(f"{self.url}/api/tables/{table_id}", timeout=PATIENCE).json()
        return data


# Package scope, not session: Playwright's sync API keeps an event loop running in this thread while it is
# open, and the tests after this package (tests/server ...) call asyncio.run(), which refuses to nest.
@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("e2e") / "tables.db").start()
    yield running
    running.stop()


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield launched
        launched.close()


class Watched:
    """A page with its console errors, failed requests and requests to other hosts recorded."""

    def __init__(self, context: BrowserContext, base: str) -> None:
        self.context = context
        self.page: Page = context.new_page()
        self.base = base
        self.problems: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self.page.on(
            "console", lambda m: self.problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None
        )
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("request", self._request)
        self.page.on("websocket", self._websocket)

    def _request(self, request: Any) -> None:
        url: str = request.url
        host = self.base.split("//", 1)[1]
        if not (url.startswith(("data:", "blob:")) or url.split("//", 1)[-1].startswith(host)):
            self.problems.append(f"request to another host: {url}")

    def _websocket(self, socket: Any) -> None:
        def received(payload: str | bytes) -> None:
            try:
                self.frames.append(json.loads(payload))
            except (ValueError, TypeError):
                self.problems.append(f"a WebSocket frame that is not JSON: {payload[:80]!r}")

        socket.on("framereceived", received)

    def sit(self, table_id: str, seat: int, token: str, name: str = "Ann") -> None:
        """Store the seat's token as the lobby would, then open the table page."""
        self.page.goto(f"{self.base}/")
        stored = json.dumps({table_id: {"seat": seat, "token": token, "name": name, "at": 1}})
        self.page.evaluate("s => localStorage.setItem('dicepoker.seats', s)", stored)
        self.page.goto(f"{self.base}/#/table/{table_id}")
        self.page.wait_for_selector("[data-testid=table]")

    def attr(self, name: str) -> str:
        value = self.page.get_attribute("[data-testid=table]", name)
        return value or ""

    def check(self) -> None:
        assert not self.problems, "\n".join(self.problems)


@pytest.fixture
def open_page(browser: Browser, server: Server) -> Iterator[Callable[..., Watched]]:
    contexts: list[BrowserContext] = []

    def opener(width: int = 1280, height: int = 900, base: str | None = None) -> Watched:
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(PATIENCE * 1000)  # Playwright's own waits: 30 s by default
        contexts.append(context)
        return Watched(context, base or server.url)

    yield opener
    for context in contexts:
        context.close()


def wait_until(condition: Callable[[], bool], timeout: float = PATIENCE, what: str = "condition") -> None:
    """Poll ``condition`` (it drives a browser, so real time passes); fail saying ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
