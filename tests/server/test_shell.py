"""Issue 26, installable app: the service worker served at /sw.js with the shell's list and version, the
manifest and its icons, and the CSP that lets both load. (The worker itself runs in tests/e2e/test_pwa.py.)"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dicepoker.server.settings import Settings
from dicepoker.server.transport import shell
from dicepoker.server.transport.app import WEB_DIR, create_app
from dicepoker.server.transport.security import allowed_hosts


@pytest.fixture
def client() -> Iterator[TestClient]:
    settings = Settings(scheduler=False, warm_tables=False, allowed_hosts=allowed_hosts("127.0.0.1", ()))
    with TestClient(create_app(settings), base_url="http://localhost:8000") as test_client:
        yield test_client


def _stamped(source: str) -> tuple[str, list[str]]:
    version = re.search(r'const VERSION = "([0-9a-f]+)";', source)
    files = re.search(r"const SHELL = (\[.*?\]);", source)
    assert version and files, source[:400]
    return version.group(1), json.loads(files.group(1))


def test_the_service_worker_is_served_from_the_root_with_the_shell_filled_in(client: TestClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"  # a release is seen on the next check
    version, files = _stamped(answer.text)
    assert len(version) == 16
    assert "__SHELL" not in answer.text
    assert files[0] == "/"
    for needed in (
        "/index.html",
        "/style.css",
        "/js/app.js",
        "/js/theme-boot.js",
        "/js/offline.js",
        "/vendor/htm-preact.js",
        "/manifest.webmanifest",
        "/icons/icon.svg",
        "/icons/icon-192.png",
    ):
        assert needed in files
    assert "/sw.js" not in files  # the worker is not part of its own cache
    assert not [f for f in files if f.startswith("/api")]  # never an API answer
    for url in files:  # every listed file is served: cache.addAll would fail on one 404
        assert client.get(url).status_code == 200, url


def test_the_version_changes_with_any_file_of_the_shell(tmp_path: Path) -> None:
    """A new release replaces the old shell: the worker's bytes (its version) change when any file does."""
    web = tmp_path / "web"
    shutil.copytree(WEB_DIR, web, symlinks=False, ignore=shutil.ignore_patterns("rules.md"))
    before = _stamped(shell.service_worker.__wrapped__(web))[0]
    assert _stamped(shell.service_worker.__wrapped__(web))[0] == before  # stable while nothing changes
    style = web / "style.css"
    style.write_text(style.read_text() + "\n/* a release */\n")
    assert _stamped(shell.service_worker.__wrapped__(web))[0] != before


def test_the_manifest_and_its_icons(client: TestClient) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["start_url"] == "/" and manifest["scope"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"any", "192x192", "512x512"} <= sizes
    assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        assert not icon["src"].startswith(("http:", "https:", "//"))  # no outside host
        assert client.get(f"/{icon['src']}").status_code == 200, icon["src"]
    html = client.get("/").text
    assert '<link rel="manifest" href="manifest.webmanifest">' in html


def test_the_policy_allows_the_worker_and_the_manifest_from_this_server_only(client: TestClient) -> None:
    policy = client.get("/").headers["content-security-policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy
    assert client.get("/sw.js").headers["content-security-policy"] == policy
