"""Session ids: opaque, 256 bits from the OS's secure source; only their SHA-256 is ever stored.

Durations (documented in ``docs/accounts.md``): a session ends :data:`IDLE_LIMIT` after its last use
(sliding: each use more than :data:`RENEW_AFTER` after the last renewal moves the end on) and in any case
:data:`ABSOLUTE_LIMIT` after the sign-in that made it.
"""

from __future__ import annotations

import hashlib
import secrets

COOKIE = "dp_session"
IDLE_LIMIT = 14 * 24 * 3600.0
"""Seconds a session lives without being used."""
RENEW_AFTER = 24 * 3600.0
"""Renew (write the new end, send the cookie again) at most once a day, not at every request."""
ABSOLUTE_LIMIT = 90 * 24 * 3600.0
"""Seconds a session lives at most, used or not: then the player signs in again."""


def new_session_id() -> str:
    """A fresh id: 32 random bytes, URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(32)


def session_key(session_id: str) -> str:
    """What the database keeps: the id's SHA-256 (hex). A leaked table gives no usable cookie."""
    return hashlib.sha256(session_id.encode()).hexdigest()


def csrf_token(session_id: str) -> str:
    """The session's CSRF token (``X-CSRF-Token``): derived one-way from the id, so knowing it gives
    nothing that opens the session, and nothing more needs storing."""
    return hashlib.sha256(b"dicepoker csrf\0" + session_id.encode()).hexdigest()
