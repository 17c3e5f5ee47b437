"""An unexpected error is a 500 saying only "internal error", and the server's log gets the whole traceback."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator, Sequence

import pytest
from fastapi.testclient import TestClient

from dicepoker.server.logs import JsonFormatter
from dicepoker.server.settings import Settings
from dicepoker.server.storage.records import EventRecord, MemoryStorage, TableRecord
from dicepoker.server.transport.app import create_app


class BrokenStorage(MemoryStorage):
    async def save(self, table: TableRecord, events: Sequence[EventRecord] = ()) -> None:
        raise RuntimeError("the disk went away")


@pytest.fixture
def server_log() -> Iterator[io.StringIO]:
    """The server's logs as ``dicepoker serve`` writes them (logs.configure), into a buffer."""
    root = logging.getLogger("dicepoker.server")
    saved = root.handlers[:], root.level, root.propagate
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(JsonFormatter())
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    root.propagate = False
    yield buffer
    root.handlers[:], root.level, root.propagate = saved


def test_an_unexpected_error_is_logged_with_its_traceback(server_log: io.StringIO) -> None:
    app = create_app(Settings(storage=BrokenStorage(), scheduler=False, warm_tables=False))
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.post("/api/tables", json={"game": "scorecard", "seats": ["open", "open"]})
    assert response.status_code == 500 and response.json() == {"detail": "internal error"}
    entries = [json.loads(line) for line in server_log.getvalue().splitlines()]
    errors = [e for e in entries if e["level"] == "error"]
    assert len(errors) == 1
    assert errors[0]["event"] == "unexpected error on POST /api/tables"
    assert "RuntimeError: the disk went away" in errors[0]["exception"]
    assert "create_table" in errors[0]["exception"]  # where it happened, not only what
