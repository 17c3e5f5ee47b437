"""What every multi-process test asserts about the tables it ran, against the database (the record)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from typer.testing import CliRunner

import dicepoker.cli.replay
import dicepoker.cli.verify  # noqa: F401  (both register their commands)
from dicepoker.cli.app import app
from tests.server.scale.harness import query
from tests.server.scale.players import Record

runner = CliRunner()


def stored_events(db: str, table_id: str) -> list[tuple[int, int | None, str, str | None]]:
    rows = query(db, "SELECT seq, seat, action, client_id FROM dp_events WHERE table_id = %s ORDER BY seq", table_id)
    return [(int(r[0]), r[1], str(r[2]), r[3]) for r in rows]  # type: ignore[call-overload]


def check_table(
    db: str, base_url: str, table_id: str, clients: list[tuple[int | None, Record]], folder: Path
) -> dict[str, Any]:
    """The game is over; its published log is the stored one and passes replay and verify; every client saw
    the versions in order up to the end, consistent with the log; every acked action is in it exactly once."""
    events = stored_events(db, table_id)
    assert [e[0] for e in events] == list(range(1, len(events) + 1)), "the log has a hole or a repeat"
    status = query(db, "SELECT status, version FROM dp_tables WHERE id = %s", table_id)
    assert status == [("finished", len(events))], f"table {table_id}: {status}, {len(events)} events"

    text = httpx.get(f"{base_url}/api/tables/{table_id}/log", timeout=10).text
    logged = [json.loads(line) for line in text.splitlines()[1:] if line.strip()]
    assert len(logged) == len(events)
    path = folder / f"{table_id}.jsonl"
    path.write_text(text)
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output
    verified = runner.invoke(app, ["verify", str(path)])
    assert verified.exit_code == 0, verified.output

    timeouts = [e for e in events if e[2] == "timeout"]
    for seat, record in clients:
        versions = record.versions
        # In order; the same version may come twice (a frame re-sent after a join or a presence change).
        assert versions == sorted(versions), f"seat {seat}: versions out of order: {versions}"
        assert versions and versions[-1] == len(events), f"seat {seat} did not see the end"
        for frame in record.frames:
            last = frame.get("last") if frame.get("type") == "state" else None
            if last is None or last.get("action") is None:
                continue
            played = [e for e in events[: frame["version"]] if e[1] is not None]
            assert played and (played[-1][1], played[-1][2]) == (last["seat"], last["action"]), (frame, played[-1:])
        if seat is None:
            continue
        ids = Counter(e[3] for e in events if e[3] is not None and e[1] == seat)
        for ident, version in record.acked.items():
            assert ids[ident] == 1, f"acked action {ident} is {ids[ident]} times in the log"
            found = next(e for e in events if e[3] == ident and e[1] == seat)
            assert found[2] == record.sent[ident] and found[0] <= version
    return {"events": len(events), "timeouts": len(timeouts)}
