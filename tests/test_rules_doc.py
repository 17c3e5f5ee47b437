"""The rules text: docs/RULES.md is the canonical shared RULES.md, and the browser's rules page serves that one text.

``src/dicepoker/web/rules.md`` is a symbolic link to ``docs/RULES.md`` (one source); a built wheel or sdist holds a
copy of the file's bytes, since the build follows the link.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import zipfile
from importlib.resources import files
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS_RULES = ROOT / "docs" / "RULES.md"
PACKAGE_RULES = ROOT / "src" / "dicepoker" / "web" / "rules.md"
SHARED_RULES = ROOT.parent / "shared" / "RULES.md"


@pytest.mark.skipif(not SHARED_RULES.exists(), reason=f"no canonical rules next to this clone ({SHARED_RULES})")
def test_docs_rules_is_byte_equal_to_the_canonical_shared_rules() -> None:
    assert DOCS_RULES.read_bytes() == SHARED_RULES.read_bytes(), (
        f"docs/RULES.md differs from {SHARED_RULES}: copy it over and make the engine match the changed clauses"
    )


def test_the_package_rules_page_is_a_link_to_docs_rules_not_a_second_copy() -> None:
    assert PACKAGE_RULES.is_symlink(), "src/dicepoker/web/rules.md must link to docs/RULES.md, not copy it"
    assert PACKAGE_RULES.resolve() == DOCS_RULES.resolve()


def test_the_installed_package_reads_the_same_rules_text() -> None:
    shipped = files("dicepoker").joinpath("web", "rules.md").read_bytes()
    assert shipped == DOCS_RULES.read_bytes()


def test_the_server_serves_the_rules_text_to_the_browser() -> None:
    from dicepoker.server.transport.app import create_app

    async def fetch() -> httpx.Response:
        transport = httpx.ASGITransport(app=create_app())
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.get("/rules.md")

    response = asyncio.run(fetch())
    assert response.status_code == 200
    assert response.content == DOCS_RULES.read_bytes()


@pytest.mark.slow
def test_a_built_wheel_holds_the_rules_text_itself(tmp_path: Path) -> None:
    """Building follows the link: the wheel's web/rules.md is a plain file with the rules' bytes."""
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
        check=False,
    )
    if build.returncode != 0 and "setuptools" in build.stderr and "No matching distribution" in build.stderr:
        pytest.skip("the build backend (setuptools>=77) cannot be fetched here")
    assert build.returncode == 0, build.stderr[-3000:]
    (wheel,) = tmp_path.glob("dicepoker-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        info = archive.getinfo("dicepoker/web/rules.md")
        assert info.external_attr >> 28 != 0o12, "the wheel holds a symbolic link"
        assert archive.read(info) == DOCS_RULES.read_bytes()
