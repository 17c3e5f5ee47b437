"""Cross-site request forgery: which state-changing requests the account routes hear.

A request that changes state (any method but GET, HEAD, OPTIONS) is heard when:

- its ``Origin`` is the server's own (the same host and port as its ``Host`` header) or one of the
  configured allowed origins; ``Origin: null`` and any other origin are refused (403); or
- it has no ``Origin`` (not a browser, or an old one) and either carries no session cookie (a terminal
  client signing in) or carries ``X-CSRF-Token`` equal to the session's token from ``GET /api/me``.

``Sec-Fetch-Site: cross-site`` is refused whatever the Origin says. A cross-site form can set neither a
matching Origin nor a custom header, so it always fails.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from urllib.parse import urlsplit

from dicepoker.server.accounts.sessions import csrf_token
from dicepoker.server.errors import ServiceError

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
HEADER = "X-CSRF-Token"


class CrossSite(ServiceError):
    status = 403


def check_request(
    *,
    method: str,
    origin: str | None,
    host: str | None,
    fetch_site: str | None,
    allowed_origins: Iterable[str],
    session_id: str | None,
    token: str | None,
) -> None:
    """Raise :class:`CrossSite` unless the request may change state (see the module docstring)."""
    if method.upper() in SAFE_METHODS:
        return
    if fetch_site is not None and fetch_site.lower() == "cross-site":
        raise CrossSite("cross-site request refused")
    if origin is not None:
        if origin.rstrip("/") in {o.rstrip("/") for o in allowed_origins}:
            return
        if origin != "null" and host and urlsplit(origin).netloc.lower() == host.lower():
            return
        raise CrossSite("cross-site request refused")
    if session_id and not (token and hmac.compare_digest(token, csrf_token(session_id))):
        raise CrossSite(f"request without Origin needs the {HEADER} header from GET /api/me")
