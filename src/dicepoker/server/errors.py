"""Errors the table service raises for client input; the transport maps each to an HTTP status."""

from __future__ import annotations

from dicepoker.core.errors import DicePokerError


class ServiceError(DicePokerError):
    """A request the service refuses; nothing changed. ``status`` is the HTTP status that says so."""

    status = 400


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class Invalid(ServiceError):
    status = 422


class Unauthorized(ServiceError):
    status = 401


class Rejected(ServiceError):
    """An action refused (illegal, unreadable, stale, not this seat's): the table is unchanged."""

    status = 409


class Unavailable(ServiceError):
    """The server cannot do this now (its database is full or unreachable), through no fault of the
    request: nothing changed, and the same request may succeed later."""

    status = 503
