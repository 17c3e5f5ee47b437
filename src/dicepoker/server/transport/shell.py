"""The browser client as an installable app (issue 26): its service worker, stamped with the shell's version.

``web/sw.js`` is a template. This route serves it at ``/sw.js`` (the root, so that the worker's scope is the
whole client) with two things filled in: the list of the shell's files (HTML, CSS, scripts, vendor code,
icons, the manifest and the rules text) and a version, a hash of those files' names and bytes. Any change to
the shell changes the worker's bytes, so a browser installs the new worker, which fills a cache named after
the new version and deletes the old one: a release replaces the old shell without anyone bumping a number.

The worker never caches anything under ``/api`` (answers, WebSockets, table state), ``/healthz`` or any path
that is not in the list; see ``web/sw.js``.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import Response

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
TEMPLATE = "sw.js"
SHELL_SUFFIXES = frozenset({".html", ".css", ".js", ".svg", ".png", ".webmanifest", ".md", ".woff2"})
"""What the shell is made of; licence texts and READMEs are not needed to play offline."""

router = APIRouter(include_in_schema=False)


def shell_files(web_dir: Path = WEB_DIR) -> list[str]:
    """The URLs of the shell, relative to the site's root, ``/`` (the page itself) first."""
    files = sorted(
        path.relative_to(web_dir).as_posix()
        for path in web_dir.rglob("*")
        if path.is_file() and path.suffix in SHELL_SUFFIXES and path.name != TEMPLATE
    )
    return ["/", *(f"/{name}" for name in files)]


def shell_version(web_dir: Path, files: list[str]) -> str:
    digest = hashlib.sha256()
    for url in files:
        digest.update(url.encode())
        path = web_dir / (url.lstrip("/") or "index.html")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@cache
def service_worker(web_dir: Path = WEB_DIR) -> str:
    """The worker's source for this process: the shell does not change while the server runs."""
    files = shell_files(web_dir)
    template = (web_dir / TEMPLATE).read_text(encoding="utf-8")
    return template.replace('"__SHELL_VERSION__"', json.dumps(shell_version(web_dir, files))).replace(
        '["__SHELL_FILES__"]', json.dumps(files)
    )


@router.get("/sw.js")
async def sw_js() -> Response:
    if not (WEB_DIR / TEMPLATE).exists():
        raise HTTPException(404, "this server has no browser client")
    # no-cache: the browser asks again on every check (a revalidation), so a release is seen at once.
    return Response(service_worker(), media_type="text/javascript", headers={"cache-control": "no-cache"})
