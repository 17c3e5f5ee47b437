"""A tiny stand-in for the table server that speaks the WebSocket protocol over a counting "game".

Seat 0 (token ``t0``) may send ``inc`` until the version reaches ``goal``; ``crash`` commits and then drops
the connection before the ack (as a SIGKILLed server does); token ``bad`` is closed with 4401.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve


@dataclass
class FakeTable:
    goal: int = 5
    version: int = 0
    log: list[str] = field(default_factory=list)
    accepted: dict[str, int] = field(default_factory=dict)
    clients: set[ServerConnection] = field(default_factory=set)
    drop_next_ack: bool = False

    def frame(self, seat: int | None) -> str:
        finished = self.version >= self.goal
        legal = ["inc", "crash"] if seat == 0 and not finished else []
        return json.dumps(
            {
                "type": "state",
                "table": "fake",
                "seat": seat,
                "version": self.version,
                "status": "finished" if finished else "playing",
                "view": {"count": self.version},
                "to_act": [] if finished else [0],
                "legal_actions": legal,
                "clock": None,
                "seats": [],
                "last": None,
                "result": {"count": self.version} if finished else None,
            }
        )

    async def announce(self, seats: list[dict[str, object]]) -> None:
        """A presence frame to every connection, as the server sends when a seat (dis)connects."""
        for client in list(self.clients):
            await client.send(json.dumps({"type": "presence", "table": "fake", "seats": seats}))

    async def handler(self, ws: ServerConnection) -> None:
        assert ws.request is not None
        token = parse_qs(urlsplit(ws.request.path).query).get("token", [None])[0]
        if token == "bad":
            await ws.close(4401, "bad token")
            return
        seat = 0 if token == "t0" else None
        self.clients.add(ws)
        try:
            await ws.send(self.frame(seat))
            async for message in ws:
                data = json.loads(message)
                if data["type"] == "ping":
                    await ws.send('{"type": "pong"}')
                    continue
                ident = data["id"]
                if ident in self.accepted:
                    await ws.send(json.dumps({"type": "ack", "id": ident, "version": self.accepted[ident]}))
                elif data["version"] != self.version:
                    reason = f"stale version {data['version']} (table is at {self.version})"
                    await ws.send(json.dumps({"type": "error", "id": ident, "reason": reason}))
                elif seat != 0 or data["action"] not in ("inc", "crash"):
                    await ws.send(json.dumps({"type": "error", "id": ident, "reason": "illegal"}))
                else:
                    self.version += 1
                    self.log.append(data["action"])
                    self.accepted[ident] = self.version
                    if data["action"] == "crash":
                        ws.transport.abort()  # no close frame, no ack
                        return
                    for client in list(self.clients):
                        await client.send(self.frame(0 if client is ws else None))
                    await ws.send(json.dumps({"type": "ack", "id": ident, "version": self.version}))
        finally:
            self.clients.discard(ws)


async def start(table: FakeTable) -> tuple[Server, str]:
    server = await serve(table.handler, "127.0.0.1", 0)
    port = next(iter(server.sockets)).getsockname()[1]
    return server, f"http://127.0.0.1:{port}"
