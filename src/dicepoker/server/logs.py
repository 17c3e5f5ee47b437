"""Structured logs: table events as JSON lines through :mod:`logging`."""

from __future__ import annotations

import datetime
import json
import logging
from typing import Any


def log_event(logger: logging.Logger, event: str, **fields: Any) -> None:
    """Log one table event; :class:`JsonFormatter` writes its fields as a JSON object."""
    if logger.isEnabledFor(logging.INFO):
        logger.info(event, extra={"fields": fields})


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, event and the event's fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        entry.update(getattr(record, "fields", {}))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def configure(level: int = logging.INFO) -> None:
    """Send the server's logs to stderr as JSON lines."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger("dicepoker.server")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False
