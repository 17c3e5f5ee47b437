"""The browser client's extra endpoints (``/api/web/...``): hints, hand names, replays, reviews, verification.

The public protocol (``/api/tables`` and the WebSocket) is the server's; these routes only answer questions
about positions and logs the browser already holds (a card and its dice, an uploaded log), so they are
stateless and never touch a table. The page never computes rules or scores itself: it asks here. A finished
table's replay, verification and review are served by id (:mod:`.replay_routes`), from the same builders.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from dicepoker.analysis.scorecard_review import describe, review_decisions
from dicepoker.analysis.scorecard_solver import Strategy, load_strategy
from dicepoker.core.errors import CorruptLog, DicePokerError
from dicepoker.core.log import EventLog
from dicepoker.core.types import CHANCE, JSON
from dicepoker.dice import poker, suited
from dicepoker.dice.scoring import Category, scores
from dicepoker.games import registry
from dicepoker.games.history.format import is_history, read_history
from dicepoker.games.holdem.view import dice_from_json
from dicepoker.server.tables.fairness import MOVES_NOT_COVERED, verify_log
from dicepoker.server.transport.offload import DEFAULT_WORK, HeavyWork

router = APIRouter(prefix="/api/web", tags=["web"])

MAX_LOG_BYTES = 4 * 1024 * 1024
"""A log or hand history uploaded for a replay: a long Hold'em game is a few hundred kilobytes. The app's
body limit gives these routes (:data:`UPLOAD_PATHS`) this limit instead of its own, smaller one."""
UPLOAD_PATHS = ("/api/web/replay", "/api/web/review", "/api/web/verify")
MAX_REPLAY_EVENTS = 20_000


# -- request bodies -----------------------------------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


Die = Annotated[int, Field(ge=1, le=6)]


class ScoresRequest(_Strict):
    dice: list[Die] = Field(min_length=5, max_length=5)


class HintRequest(_Strict):
    card: list[Annotated[int, Field(ge=0, le=1000)] | None] = Field(min_length=13, max_length=13)
    dice: list[Die] = Field(min_length=5, max_length=5)
    rolls_used: int = Field(ge=1, le=3)


class HandsRequest(_Strict):
    game: Literal["holdem", "peekpoker"]
    hands: list[Annotated[str, Field(max_length=40)]] = Field(default_factory=list, max_length=12)
    """Dice as text: ``"3b 4r 6w 6y 1b"`` (Hold'em, 5 to 7 dice) or ``"Q K A 9 A A"`` (PeekPoker, 6 dice)."""
    values: list[Annotated[int, Field(ge=0)]] = Field(default_factory=list, max_length=12)
    """Hold'em hand values as a showdown record gives them."""


# -- the scorecard: potential scores, hints, the end-of-game review ------------------------------------
@cache
def _strategy() -> Strategy:
    # Loaded once per process on first use (a few hundredths of a second from the cache, a build otherwise).
    return load_strategy().strategy


@router.post("/scorecard/scores")
def scorecard_scores(body: ScoresRequest) -> dict[str, JSON]:
    """What each box of the card would score with these dice (SC-4 … SC-12)."""
    row = scores(tuple(body.dice))
    return {"scores": list(row), "labels": [c.label for c in Category], "slugs": [c.slug for c in Category]}


@router.post("/scorecard/hint")
def scorecard_hint(body: HintRequest) -> dict[str, JSON]:
    """The optimal decision for this card and roll, and the expected points each other choice gives up."""
    card = tuple(body.card)
    try:
        ranked = _strategy().action_values(card, tuple(body.dice), body.rolls_used)
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    if not ranked:
        raise HTTPException(422, "the card is full: there is nothing to decide")
    best = ranked[0][1]
    options: list[JSON] = []
    seen: set[str] = set()
    for action, value in ranked:
        label = describe(action, body.dice, labels=True)
        if label in seen:
            continue  # keeping the same dice at other positions is the same choice: list it once, at its best
        seen.add(label)
        options.append(
            {"action": str(action), "label": label, "expected": round(value, 3), "cost": round(best - value, 3)}
        )
    return {"best": options[0], "options": options}


# -- hand names ---------------------------------------------------------------------------------------
@router.post("/hands")
def hand_names(body: HandsRequest) -> dict[str, JSON]:
    """Names of hands in words (``full house 6 6 6 2 2``), for showdowns and a player's own best hand."""
    names: list[JSON] = []
    try:
        if body.game == "holdem":
            for value in body.values:
                names.append(suited.describe(value))
            for text in body.hands:
                dice = dice_from_json(text.split())
                if not 5 <= len(dice) <= 7:
                    raise ValueError("a Hold'em hand is five to seven dice")
                names.append(suited.describe(suited.best_value(dice)))
        else:
            if body.values:
                raise ValueError("PeekPoker hands are named from their six dice, not values")
            for text in body.hands:
                names.append(poker.describe(poker.evaluate(poker.parse_dice(text, count=6))))
    except (DicePokerError, ValueError, IndexError, KeyError) as exc:
        raise HTTPException(422, f"not a hand: {exc}") from None
    return {"names": names}


# -- logs: replay, review, verify ---------------------------------------------------------------------
async def _read_text(request: Request) -> str:
    body = await request.body()
    if len(body) > MAX_LOG_BYTES:
        raise HTTPException(413, f"the file is larger than {MAX_LOG_BYTES // (1024 * 1024)} MiB")
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise HTTPException(422, "the file is not UTF-8 text") from None


def _parse_log(text: str) -> EventLog:
    try:
        log = read_history(text) if is_history(text) else EventLog.from_jsonl(text)
    except CorruptLog as exc:
        raise HTTPException(422, f"not a dicepoker log or hand history: {exc}") from None
    if len(log.events) > MAX_REPLAY_EVENTS:
        raise HTTPException(413, f"the log has more than {MAX_REPLAY_EVENTS} events")
    return log


def _fairness_record(text: str) -> JSON:
    """The log header's fairness object, if any (read from the header itself: older readers drop it)."""
    first = text.lstrip().split("\n", 1)[0]
    try:
        header = json.loads(first)
    except json.JSONDecodeError:
        return None
    fairness: JSON = header.get("fairness") if isinstance(header, dict) else None
    return fairness


def replay_answer(text: str, seat: int | None) -> dict[str, JSON]:
    """Every position of a logged game as ``seat`` saw it (no seat: a spectator). Heavy: run it in a worker
    thread through :class:`~.offload.HeavyWork`, as the routes do."""
    log = _parse_log(text)
    try:
        states = registry.replay(log)
    except CorruptLog as exc:
        raise HTTPException(422, f"the log does not replay: {exc}") from None
    players = states[0].num_players
    if seat is not None and seat >= players:
        raise HTTPException(422, f"there is no seat {seat}: this game has seats 0 to {players - 1}")
    frames: list[JSON] = []
    for index, state in enumerate(states):
        to_act = state.to_act
        event = log.events[index - 1] if index else None
        frames.append(
            {
                "view": state.view(seat).to_json(),
                "to_act": "chance" if to_act is CHANCE else list(to_act),
                "last": None if event is None else {"seat": event.seat, "action": event.action},
            }
        )
    final = states[-1]
    result: JSON = None
    if final.is_terminal:
        outcome = final.result()
        result = outcome.to_json()
    return {
        "game": log.game,
        "config": dict(log.config),
        "players": players,
        "seat": seat,
        "fairness": _fairness_record(text),
        "frames": frames,
        "result": result,
    }


def review_answer(text: str) -> dict[str, JSON]:
    """The scorecard post-game review: each decision's expected points lost against optimal play."""
    log = _parse_log(text)
    if log.game != "scorecard":
        raise HTTPException(422, f"reviews are for scorecard games, not {log.game!r}")
    try:
        decisions = [d.to_json() for d in review_decisions(log, _strategy())]
    except DicePokerError as exc:
        raise HTTPException(422, f"the log does not replay: {exc}") from None
    players = int(log.config.get("players", 2))
    lost = [round(sum(float(d["loss"]) for d in decisions if d["seat"] == s), 3) for s in range(players)]
    return {"decisions": list(decisions), "lost": list(lost)}


def verify_answer(text: str, seen_commitment: str | None = None) -> dict[str, JSON]:
    """Recompute the commitment and every die of a log from its revealed seeds (the fairness record);
    ``seen_commitment``: the one the player was shown at the table, which the log must carry (issue 19 §9)."""
    log = _parse_log(text)
    if _fairness_record(text) is None:
        return {"ok": None, "summary": "this log has no fairness record (it was not played on a server)"}
    try:
        report = verify_log(log, seen_commitment=seen_commitment)
    except DicePokerError as exc:
        return {"ok": False, "summary": f"cannot verify: {exc}"}
    checks = len(report.checks)
    if report.ok:
        summary = f"the commitment and all {checks} chance events match the revealed seeds"
        if seen_commitment is None:
            summary += " (the commitment was not compared with one kept when the table was joined)"
        else:
            summary += ", and the commitment is the one kept when the table was joined"
    else:
        problems = [f"{len(report.mismatches)} of {checks} chance events differ"] if report.mismatches else []
        if report.seen_commitment_ok is False:
            problems.append("the log's commitment is not the one kept when the table was joined")
        elif not report.commitment_ok:
            problems.append("the revealed server seed does not hash to the commitment")
        if report.end_problem is not None:
            problems.append(report.end_problem)
        summary = "MISMATCH: " + "; ".join(problems)
    return {"ok": report.ok, "summary": f"{summary}. Note: {MOVES_NOT_COVERED}", "report": report.to_json()}


def heavy_work(request: Request) -> HeavyWork:
    """The app's cache and worker threads (a router mounted alone shares a process-wide one)."""
    work: HeavyWork = getattr(request.app.state, "heavy_work", DEFAULT_WORK)
    return work


def client_of(request: Request) -> str | None:
    """The client's address, whose budget of heavy computations a request spends."""
    return request.client.host if request.client else None


def json_bytes(body: bytes) -> Response:
    return Response(body, media_type="application/json")


Commitment = Annotated[str | None, Query(max_length=128, pattern="^[0-9A-Fa-f]*$")]
"""The commitment a player kept from the table's creation or join (hex), to verify a log against."""


@router.post("/replay")
async def replay(request: Request, seat: Annotated[int | None, Query(ge=0, le=11)] = None) -> Response:
    """Every position of a logged game as ``seat`` saw it (no seat: a spectator), for stepping through.
    An uploaded log (up to 4 MiB); a finished table's is at ``GET /api/tables/{id}/replay``."""
    text = await _read_text(request)
    work, client = heavy_work(request), client_of(request)
    return json_bytes(await work.answer("replay", text, seat, replay_answer, text, seat, client=client))


@router.post("/review")
async def review(request: Request) -> Response:
    """The scorecard post-game review: each decision's expected points lost against optimal play."""
    text = await _read_text(request)
    work, client = heavy_work(request), client_of(request)
    return json_bytes(await work.answer("review", text, None, review_answer, text, client=client))


@router.post("/verify")
async def verify(request: Request, commitment: Commitment = None) -> Response:
    """Recompute the commitment and every die of a log from its revealed seeds (the fairness record)."""
    text = await _read_text(request)
    work, client = heavy_work(request), client_of(request)
    answer = await work.answer("verify", text, commitment, verify_answer, text, commitment, client=client)
    return json_bytes(answer)
