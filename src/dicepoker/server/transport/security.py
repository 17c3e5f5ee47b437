"""What every response and handshake gets checked for or carries (issue 19, item 12).

- :class:`HostCheck`: the ``Host`` header must name this server. A page on another site can make a browser
  send requests to ``http://127.0.0.1:8000`` under a name it controls that resolves to 127.0.0.1 (DNS
  rebinding); the browser then sends that name as ``Host``, and the check refuses it (HTTP 400, or close
  1008 for a WebSocket). :func:`allowed_hosts` gives the default: the loopback names when the server
  listens on loopback, no check otherwise unless names are configured (``serve --allowed-host``).
- :class:`SecurityHeaders`: a Content-Security-Policy that fits the browser client (it has no inline
  script or style: ``js/app.js`` is a module, ``style.css`` a file; Preact sets element styles through the
  CSSOM, which a CSP does not restrict), ``frame-ancestors 'none'``, ``nosniff`` and a referrer policy.
  FastAPI's ``/docs`` and ``/redoc`` load their scripts from a CDN and start them inline: they get a
  policy of their own that allows exactly that, and nothing else does.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import TYPE_CHECKING, Any

from dicepoker.server.transport.limits import SocketCap, refuse_socket
from dicepoker.server.transport.openapi import document_errors

if TYPE_CHECKING:
    from fastapi import FastAPI

    from dicepoker.server.settings import Settings

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
CLIENT_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; "
    "worker-src 'self'; manifest-src 'self'"  # the installable app: web/sw.js and the manifest (issue 26)
)
CDN = "https://cdn.jsdelivr.net"
FONTS = "https://fonts.googleapis.com"  # /redoc's
DOCS_POLICY = (
    f"default-src 'self'; script-src 'self' 'unsafe-inline' {CDN}; style-src 'self' 'unsafe-inline' {CDN} {FONTS}; "
    f"img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; worker-src blob:; connect-src 'self'; "
    "font-src https://fonts.gstatic.com; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
DOCS_PATHS = ("/docs", "/docs/oauth2-redirect", "/redoc")
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers that predate it
]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_hosts(bind: str, configured: Iterable[str]) -> tuple[str, ...] | None:
    """The Host names a server listening on ``bind`` answers to; ``None``: any (no check).

    Listening on loopback: the loopback names, and those configured. Elsewhere: only those configured, or
    any when none are (a server on a public address must be told its names to check them)."""
    names = tuple(name.lower() for name in configured)
    if is_loopback(bind):
        return LOOPBACK_NAMES + tuple(n for n in names if n not in LOOPBACK_NAMES)
    return names or None


def host_name(header: str) -> str:
    """``example.org:8000`` -> ``example.org``; ``[::1]:8000`` -> ``::1``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    return header.rpartition(":")[0] if header.count(":") == 1 else header


class HostCheck:
    """ASGI middleware: refuse requests whose ``Host`` is not one of ``hosts`` (400 / close 1008)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], hosts: tuple[str, ...]) -> None:
        self.app = app
        self.hosts = frozenset(hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = next((value.decode("latin-1") for name, value in scope.get("headers", ()) if name == b"host"), "")
        if host_name(host) in self.hosts:
            await self.app(scope, receive, send)
            return
        reason = "this server does not answer to that Host name (see serve --allowed-host)"
        if scope["type"] == "websocket":
            await refuse_socket(receive, send, reason)
            return
        body = json.dumps({"detail": reason}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        headers += [(b"content-security-policy", CLIENT_POLICY.encode()), *HEADERS]  # it is outside SecurityHeaders
        await send({"type": "http.response.start", "status": 400, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP response (errors included)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = DOCS_POLICY if scope.get("path") in DOCS_PATHS else CLIENT_POLICY

        async def with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", ()) if k.lower() != b"content-security-policy"]
                message["headers"] = [*headers, (b"content-security-policy", policy.encode()), *HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


def protect(app: FastAPI, settings: Settings) -> None:
    """Add this module's and :mod:`.limits`' middleware to ``app`` (the Host check outermost, so that a
    refused name counts towards nothing), and document the error answers."""
    if settings.max_sockets_per_client:
        app.add_middleware(SocketCap, limit=settings.max_sockets_per_client)
    app.add_middleware(SecurityHeaders)
    if settings.allowed_hosts is not None:
        app.add_middleware(HostCheck, hosts=settings.allowed_hosts)
    document_errors(app)
