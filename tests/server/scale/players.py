"""Test clients over real WebSockets: a player that reconnects (to whichever process nginx picks) and
resends its unanswered action with the same id, and a spectator; both record every frame they get."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

Frame = dict[str, Any]


@dataclass
class Record:
    """What one client saw."""

    frames: list[Frame] = field(default_factory=list)
    acked: dict[str, int] = field(default_factory=dict)
    """client action id -> the version its ack gave."""
    sent: dict[str, str] = field(default_factory=dict)
    """client action id -> action text."""
    errors: list[Frame] = field(default_factory=list)
    connections: int = 0
    processes: set[str] = field(default_factory=set)

    @property
    def versions(self) -> list[int]:
        return [f["version"] for f in self.frames if f.get("type") == "state"]

    @property
    def finished(self) -> bool:
        return any(f.get("type") == "state" and f.get("status") == "finished" for f in self.frames)

    def summary(self) -> str:
        """One line for a failing test's diagnostics."""
        versions = self.versions
        return (
            f"{len(self.frames)} frames, last version {versions[-1] if versions else None}, "
            f"finished {self.finished}, {self.connections} connection(s), {len(self.acked)} acked, "
            f"last errors {[e.get('reason') for e in self.errors[-2:]]}"
        )


async def play(
    ws_url: str,
    token: str | None,
    record: Record,
    *,
    rng: random.Random,
    think: tuple[float, float] = (0.0, 0.05),
    sleepy: float = 0.0,
    resign_after: int | None = None,
    deadline: float = 300.0,
) -> None:
    """Play (``token``) or watch (``None``) until the table is finished. ``sleepy``: chance of letting a
    decision's clock run out; ``resign_after``: resign after that many accepted actions."""
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    pending: dict[str, Any] | None = None
    counter = 0
    url = ws_url if token is None else f"{ws_url}?token={token}"

    async def decide(ws: Any, frame: Frame | None) -> None:
        """Act on the latest state frame if it is this seat's turn and nothing is awaiting an answer."""
        nonlocal pending, counter
        legal = (frame or {}).get("legal_actions") or []
        if token is None or frame is None or not legal or pending is not None:
            return
        if sleepy and rng.random() < sleepy:
            return  # let the clock run out
        await asyncio.sleep(rng.uniform(*think))
        resign = resign_after is not None and len(record.acked) >= resign_after
        counter += 1
        ident = f"{frame['seat']}-{counter}-{rng.getrandbits(32):08x}"
        pending = {
            "type": "action",
            "action": "resign" if resign else rng.choice(legal),
            "version": frame["version"],
            "id": ident,
        }
        record.sent[ident] = pending["action"]
        await ws.send(json.dumps(pending))

    while loop.time() < end:
        latest: Frame | None = None
        try:
            async with websockets.connect(url, open_timeout=5, close_timeout=1, max_size=2**22) as ws:
                record.connections += 1
                if pending is not None:
                    await ws.send(json.dumps(pending))  # same id: answered, never applied twice
                async for raw in ws:
                    frame = json.loads(raw)
                    record.frames.append(frame)
                    kind = frame.get("type")
                    if kind == "ack":
                        record.acked[frame["id"]] = frame["version"]
                        if pending is not None and pending["id"] == frame["id"]:
                            pending = None
                    elif kind == "error":
                        record.errors.append(frame)
                        if pending is not None and frame.get("id") == pending["id"]:
                            pending = None  # rejected (stale, or no longer legal): decide again
                    elif kind == "state":
                        if frame["status"] == "finished":
                            return
                        latest = frame
                    await decide(ws, latest)
        except (ConnectionClosed, InvalidHandshake, InvalidStatus, OSError, TimeoutError) as exc:
            if isinstance(exc, ConnectionClosed) and exc.rcvd is not None and exc.rcvd.code in (4401, 4404):
                raise AssertionError(f"the server refused the connection: {exc.rcvd}") from exc
            await asyncio.sleep(0.2)  # the process died: nginx sends the next attempt to another one
    raise AssertionError(f"the table did not finish within {deadline} s (last: {record.frames[-1:]})")


async def watch_all(tasks: list[asyncio.Task[None]], timeout: float) -> None:
    done, pending = await asyncio.wait(tasks, timeout=timeout)
    for task in pending:
        task.cancel()
    for task in pending:
        with contextlib.suppress(BaseException):
            await task
    for task in done:
        task.result()
    names = sorted(t.get_name() for t in pending)
    assert not pending, f"{len(pending)} client(s) did not see their table finish in {timeout} s: {names}"
