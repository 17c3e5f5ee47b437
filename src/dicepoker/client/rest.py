"""The HTTP side of the table server's protocol (:class:`ServerClient`): creating, joining, leaving and reading
tables. A seat's live WebSocket is :class:`~dicepoker.client.connection.TableConnection`, which
:meth:`ServerClient.table` opens.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Self
from urllib.parse import quote

import httpx

from dicepoker.client.connection import TableConnection
from dicepoker.client.protocol import read_answer
from dicepoker.core.errors import DicePokerError
from dicepoker.core.types import JSON, Seat
from dicepoker.protocol.rest import PlayNowSeat, SeatTaken, TableCreated

SEAT_ATTEMPTS = 4
"""Times a join or play-now is sent before its failure is the caller's (the same ``client_key`` each time)."""


RETRY_STATUSES = frozenset({0, 502, 503, 504})
"""Failures after which the request may or may not have been handled: only a keyed join may be sent again."""


class ServerError(DicePokerError):
    """An HTTP call answered with an error status (``status`` 0: the server could not be reached)."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"{status}: {detail}" if status else detail)
        self.status = status
        self.detail = detail


@dataclass(frozen=True, slots=True)
class Created:
    table: str
    commitment: str


@dataclass(frozen=True, slots=True)
class Seated:
    table: str
    seat: Seat
    token: str
    commitment: str | None = None
    """The table's dice commitment, published before any die: keep it to check the log (:mod:`.fairness`)."""


@dataclass(frozen=True, slots=True)
class Left:
    """A seat that left its table: ``version`` is the table's version right after its resignation."""

    table: str
    seat: Seat
    version: int


class ServerClient:
    """The HTTP side of the protocol. Errors become :class:`ServerError` with the server's reason."""

    def __init__(self, base_url: str, *, timeout: float = 10.0, transport: httpx.AsyncBaseTransport | None = None):
        self.base_url = base_url.rstrip("/")
        self._http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout, transport=transport)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def request(self, method: str, path: str, json: JSON = None, params: Mapping[str, str] | None = None) -> JSON:
        response = await self._send(method, path, json, params)
        return response.json()

    async def games(self) -> list[dict[str, JSON]]:
        games: list[dict[str, JSON]] = (await self.request("GET", "/api/games"))["games"]
        return games

    async def create_table(
        self,
        game: str,
        *,
        config: Mapping[str, JSON] | None = None,
        seats: list[str] | None = None,
        clock: float | Literal["default"] | None = "default",
    ) -> Created:
        body: dict[str, JSON] = {"game": game, "config": dict(config or {})}
        if seats is not None:
            body["seats"] = seats
        if clock != "default":
            body["clock"] = clock
        created = read_answer(TableCreated, await self.request("POST", "/api/tables", body))
        return Created(created.id, created.commitment)

    async def join(
        self, table: str, seat: Seat, name: str, client_seed: str | None = None, *, client_key: str | None = None
    ) -> Seated:
        """Take a seat. Sent with a ``client_key`` (a fresh random one unless given) and, when the answer
        is lost on the way (the server unreachable, a proxy's 502-504), sent again with the same key: the
        server answers a repeated join with the seat and token it gave the first time."""
        body: dict[str, JSON] = {"seat": seat, "name": name, "client_seed": client_seed}
        data = await self._seat_request(f"/api/tables/{quote(table, safe='')}/join", body, client_key)
        seated = read_answer(SeatTaken, data)
        return Seated(table, seated.seat, seated.token, seated.commitment)

    async def play_now(
        self, game: str, name: str, client_seed: str | None = None, *, client_key: str | None = None
    ) -> Seated:
        """A seat at the next play-now table of ``game``; retried like :meth:`join`."""
        body: dict[str, JSON] = {"game": game, "name": name, "client_seed": client_seed}
        seated = read_answer(PlayNowSeat, await self._seat_request("/api/play-now", body, client_key))
        return Seated(seated.id, seated.seat, seated.token, seated.commitment)

    async def _seat_request(self, path: str, body: dict[str, JSON], client_key: str | None) -> Any:
        body["client_key"] = client_key or secrets.token_urlsafe(24)
        for attempt in itertools.count():
            try:
                return await self.request("POST", path, body)
            except ServerError as exc:
                if exc.status not in RETRY_STATUSES or attempt + 1 >= SEAT_ATTEMPTS:
                    raise
            await asyncio.sleep(0.25 * 2**attempt)
        raise AssertionError("unreachable")

    async def rematch(self, table: str) -> Created:
        created = read_answer(TableCreated, await self.request("POST", f"/api/tables/{quote(table, safe='')}/rematch"))
        return Created(created.id, created.commitment)

    async def leave(self, table: str, token: str) -> Left:
        """Leave the game at ``table`` as the seat ``token`` holds (CM-7: leaving is resigning); safe to
        send again: a second leave is answered like the first."""
        data = await self.request("POST", f"/api/tables/{quote(table, safe='')}/leave", {"token": token})
        return Left(str(data["table"]), int(data["seat"]), int(data["version"]))

    async def tables(self, game: str | None = None, status: str | None = None) -> list[dict[str, JSON]]:
        params = {k: v for k, v in {"game": game, "status": status}.items() if v is not None}
        tables: list[dict[str, JSON]] = (await self.request("GET", "/api/tables", params=params))["tables"]
        return tables

    async def summary(self, table: str) -> dict[str, JSON]:
        data: dict[str, JSON] = await self.request("GET", f"/api/tables/{quote(table, safe='')}")
        return data

    async def log(self, table: str, *, history: bool = False) -> str:
        params = {"format": "history"} if history else None
        return (await self._send("GET", f"/api/tables/{quote(table, safe='')}/log", None, params)).text

    def table(self, table: str, token: str | None = None, **options: float | bool) -> TableConnection:
        """A (not yet opened) connection to a table; ``async with`` opens and closes it."""
        return TableConnection(self.base_url, table, token, **options)  # type: ignore[arg-type]

    async def _send(
        self, method: str, path: str, json: JSON, params: Mapping[str, str] | None = None
    ) -> httpx.Response:
        try:
            response = await self._http.request(method, path, json=json, params=params)
        except httpx.TransportError as exc:
            raise ServerError(0, f"cannot reach {self.base_url}: {exc!r}") from None
        if response.is_error:
            try:
                detail = str(response.json().get("detail", response.text))
            except ValueError:
                detail = response.text
            raise ServerError(response.status_code, detail)
        return response
