"""A bot that plays any dicepoker game over the network, with only httpx and websockets.

python protocol_bot.py http://127.0.0.1:8000 scorecard          # play now: join or open a table
python protocol_bot.py http://127.0.0.1:8000 holdem TABLE SEAT  # take a seat at a given table
"""

import asyncio
import json
import random
import sys
import uuid

import httpx
import websockets


async def play(url: str, game: str, table: str | None = None, seat: int = 0) -> None:
    async with httpx.AsyncClient(base_url=url) as http:
        if table is None:  # seats us at a waiting table of this game, or opens one (bots fill it later)
            answer = await http.post("/api/play-now", json={"game": game, "name": "protocol bot"})
        else:
            answer = await http.post(f"/api/tables/{table}/join", json={"seat": seat, "name": "protocol bot"})
        seated = answer.raise_for_status().json()
    address = f"{url.replace('http', 'ws', 1)}/api/tables/{seated.get('id', table)}/ws?token={seated['token']}"
    async with websockets.connect(address) as ws:
        async for message in ws:
            frame = json.loads(message)
            if frame["type"] == "error":  # e.g. a stale version: a newer state is on its way
                print("rejected:", frame["reason"])
            elif frame["type"] == "state" and frame["status"] == "finished":
                print("game over:", json.dumps(frame["result"]))
                return
            elif frame["type"] == "state" and frame["legal_actions"]:  # our turn: any legal action will do
                action = {"type": "action", "action": random.choice(frame["legal_actions"])}
                await ws.send(json.dumps({**action, "version": frame["version"], "id": uuid.uuid4().hex}))


if __name__ == "__main__":
    url, game, *where = sys.argv[1:]
    table, seat = (where[0], int(where[1])) if where else (None, 0)
    asyncio.run(play(url.rstrip("/"), game, table, seat))
