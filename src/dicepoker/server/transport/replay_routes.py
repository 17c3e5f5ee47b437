"""A finished table's replay, verification and review, by table id (issue 19 §3).

The browser used to download a finished table's log and send it back as a body to ``/api/web/replay``,
``/verify`` and ``/review``; a long game's log is larger than the app's body limit, so those games could
not be replayed at all. These routes read the log on the server (:meth:`.offload.HeavyWork.finished_log`:
once per table, it never changes) and answer with the very builders of the upload routes, cached and
computed off the event loop. Uploads stay for logs from elsewhere. While a game runs its log is not
published: 409, as ``GET /api/tables/{id}/log``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from fastapi import Path as PathParam

from dicepoker.server.transport.web_routes import (
    Commitment,
    client_of,
    heavy_work,
    json_bytes,
    replay_answer,
    review_answer,
    verify_answer,
)

router = APIRouter(prefix="/api/tables", tags=["replays"])
TableId = Annotated[str, PathParam(min_length=1, max_length=64)]


async def _log(request: Request, table_id: str) -> str:
    service = request.app.state.service
    return await heavy_work(request).finished_log(service, table_id, client=client_of(request))


@router.get("/{table_id}/replay")
async def replay(
    request: Request, table_id: TableId, seat: Annotated[int | None, Query(ge=0, le=11)] = None
) -> Response:
    """Every position of a finished table's game as ``seat`` saw it (no seat: a spectator), with the log's
    fairness record: the answer of ``POST /api/web/replay`` for this table's log."""
    text = await _log(request, table_id)
    work, client = heavy_work(request), client_of(request)
    return json_bytes(await work.answer("replay", text, seat, replay_answer, text, seat, client=client))


@router.get("/{table_id}/verify")
async def verify(request: Request, table_id: TableId, commitment: Commitment = None) -> Response:
    """Every die of a finished table checked against its revealed seeds; ``commitment``: the one you were
    shown when the table was created or joined (the browser keeps it), which the log must carry."""
    text = await _log(request, table_id)
    work, client = heavy_work(request), client_of(request)
    answer = await work.answer("verify", text, commitment, verify_answer, text, commitment, client=client)
    return json_bytes(answer)


@router.get("/{table_id}/review")
async def review(request: Request, table_id: TableId) -> Response:
    """A finished scorecard game's review: each decision's expected points lost against optimal play."""
    text = await _log(request, table_id)
    work, client = heavy_work(request), client_of(request)
    return json_bytes(await work.answer("review", text, None, review_answer, text, client=client))
