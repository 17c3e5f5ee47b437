"""Issue 26, installable app: the service worker installs and keeps the client shell; with the server stopped
the shell still opens and says "offline"; when the server returns on the same port the page recovers by itself;
no /api answer is ever in the cache. The server here is this test's own, so that it can be stopped."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from . import conftest
from .conftest import PATIENCE, SRC, Server, Watched, wait_until

CACHED_URLS = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
  }
  return { names: await caches.keys(), urls };
}"""


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "tables.db").start()
    yield running
    running.stop()


def test_the_shell_opens_offline_and_the_page_recovers(browser: Browser, own_server: Server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(PATIENCE * 1000)
    try:
        page = Watched(context, own_server.url)
        page.page.goto(f"{own_server.url}/")
        page.page.wait_for_selector(".game-card")  # /api/games and /api/tables answered through the page
        page.page.evaluate("navigator.serviceWorker.ready")
        wait_until(lambda: page.page.evaluate("!!navigator.serviceWorker.controller"), 30, "the worker to take over")
        assert not page.page.is_visible("[data-testid=offline]")

        # The worker cached the shell under a versioned name, and nothing of the API.
        page.page.goto(f"{own_server.url}/#/")  # a request or two more through the controlling worker
        page.page.wait_for_selector(".game-card")
        cached = page.page.evaluate(CACHED_URLS)
        assert len(cached["names"]) == 1 and cached["names"][0].startswith("dicepoker-shell-")
        assert {"/", "/style.css", "/js/app.js", "/js/theme-boot.js", "/vendor/htm-preact.js"} <= set(cached["urls"])
        assert {"/icons/icon.svg", "/manifest.webmanifest"} <= set(cached["urls"])
        assert not [url for url in cached["urls"] if url.startswith("/api") or url == "/healthz"]
        page.check()

        # The server goes away: the shell opens from the cache and says so.
        own_server.stop()
        page.page.reload()
        page.page.wait_for_selector("main h1")
        banner = page.page.wait_for_selector("[data-testid=offline]")
        assert "Offline" in banner.inner_text() and "cannot be reached" in banner.inner_text()
        assert not page.page.is_visible(".game-card")  # no game list: it came from /api, which is never cached

        # The server returns on the same port: the banner goes and the lobby fills in, with no reload.
        own_server.start()
        page.page.wait_for_selector("[data-testid=offline]", state="detached")
        page.page.wait_for_selector(".game-card")
        cached = page.page.evaluate(CACHED_URLS)
        assert not [url for url in cached["urls"] if url.startswith("/api")]
    finally:
        context.close()


def test_the_worker_and_manifest_load_under_the_policy(browser: Browser, own_server: Server) -> None:
    """The page's CSP allows the worker and the manifest from this server (a CSP refusal is a console error)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(PATIENCE * 1000)
    try:
        page = Watched(context, own_server.url)
        page.page.goto(f"{own_server.url}/")
        page.page.wait_for_selector(".game-card")
        scope = page.page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
        assert scope == f"{own_server.url}/"
        manifest = page.page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())")
        for icon in manifest["icons"]:
            status = page.page.evaluate(f"fetch('/{icon['src']}').then((r) => r.status)")
            assert status == 200, icon["src"]
        page.check()
    finally:
        context.close()


def test_a_new_release_replaces_the_old_shell(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same server restarted from a copy of the source whose style.css changed (a release): the next visit
    installs the new worker, which drops the old cache, and the lobby reloads itself into the new shell."""
    old = Server(tmp_path / "tables.db").start()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(PATIENCE * 1000)
    try:
        page = Watched(context, old.url)
        page.page.goto(f"{old.url}/")
        page.page.wait_for_selector(".game-card")
        page.page.evaluate("navigator.serviceWorker.ready")
        wait_until(lambda: page.page.evaluate("!!navigator.serviceWorker.controller"), 30, "the worker to take over")
        page.page.reload()  # a returning visitor: the page is served by the worker from the start
        page.page.wait_for_selector(".game-card")
        before = page.page.evaluate(CACHED_URLS)["names"]
        old.stop()

        release = tmp_path / "release"
        shutil.copytree(SRC / "dicepoker", release / "dicepoker", ignore=shutil.ignore_patterns("__pycache__"))
        style = release / "dicepoker" / "web" / "style.css"
        style.write_text(style.read_text() + "\n/* release marker 26 */\n")
        new = Server(tmp_path / "tables.db", port=old.port)
        monkeypatch.setattr(conftest, "SRC", release)  # Server.start puts SRC first on the PYTHONPATH
        new.start()
        try:
            # The check a browser makes on its own at a navigation; the page then reloads itself (not awaited).
            with page.page.expect_navigation(timeout=60_000):
                page.page.evaluate("() => { navigator.serviceWorker.getRegistration().then((r) => r.update()); }")
            page.page.wait_for_selector(".game-card")
            after = page.page.evaluate(CACHED_URLS)["names"]
            assert len(after) == 1 and after != before  # the old shell's cache is gone
            served = page.page.evaluate("fetch('/style.css').then((r) => r.text())")  # from the new cache
            assert "release marker 26" in served
        finally:
            new.stop()
    finally:
        context.close()
        old.stop()
