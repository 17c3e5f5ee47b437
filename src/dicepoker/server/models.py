"""Pydantic models of what clients send: every field typed and bounded."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter

Name = Annotated[StrictStr, Field(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f\x7f]+$")]
ClientSeed = Annotated[StrictStr, Field(max_length=256)]
GameName = Annotated[StrictStr, Field(min_length=1, max_length=40)]
Clock = Annotated[float, Field(gt=0, le=86_400, strict=True)]
ClientKey = Annotated[StrictStr, Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
"""A join's idempotency key, chosen by the client at random (128 bits or more): see docs/protocol.md."""


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: GameName
    config: dict[Annotated[str, Field(max_length=40)], Any] = Field(default_factory=dict, max_length=20)
    seats: list[Annotated[StrictStr, Field(max_length=40)]] | None = Field(default=None, max_length=12)
    clock: Clock | None = None
    """Omitted: the game's CM-6 default; ``null``: no clock."""
    time_bank: Clock | None = None
    """Betting games: seconds of time bank per seat, drawn once a decision's clock runs out; needs a clock."""


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: Annotated[StrictInt, Field(ge=0, le=1_000_000)]
    name: Name
    client_seed: ClientSeed | None = None
    client_key: ClientKey | None = None


class PlayNow(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: GameName
    name: Name
    client_seed: ClientSeed | None = None
    client_key: ClientKey | None = None


class Leave(BaseModel):
    """``POST /api/tables/{id}/leave``: the seat's token, as the WebSocket takes it (``?token=``)."""

    model_config = ConfigDict(extra="forbid")
    token: Annotated[StrictStr, Field(max_length=128)] | None = None


class ActionMessage(BaseModel):
    type: Literal["action"]
    action: Annotated[StrictStr, Field(max_length=200)]
    version: Annotated[StrictInt, Field(ge=0, le=2**53)] | None = None
    id: Annotated[StrictStr, Field(max_length=64)] | None = None


class PingMessage(BaseModel):
    type: Literal["ping"]


ClientMessage: TypeAdapter[ActionMessage | PingMessage] = TypeAdapter(
    Annotated[ActionMessage | PingMessage, Field(discriminator="type")]
)
