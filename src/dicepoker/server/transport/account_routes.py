"""HTTP routes of the accounts (issue 20) over :class:`~.accounts.service.AccountService`.

``install(app, settings, storage)`` adds them to the app; ``docs/accounts.md`` describes them. The session
id travels only in the ``dp_session`` cookie (HttpOnly, SameSite=Lax, Path=/, Secure behind https).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from dicepoker.core.types import JSON
from dicepoker.server.accounts import csrf
from dicepoker.server.accounts.guard import MemoryCounts, SignInGuard, TooManyAttempts
from dicepoker.server.accounts.service import AccountService, SignedIn
from dicepoker.server.accounts.sessions import COOKIE, IDLE_LIMIT
from dicepoker.server.accounts.store import AccountStore, MemoryAccountStore
from dicepoker.server.settings import Settings
from dicepoker.server.storage.records import Storage


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)
    password: str = Field(max_length=1024)


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    old_password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)


def account_store(storage: Storage) -> AccountStore:
    """Accounts beside the tables: in the same SQL database, or in memory with the memory storage."""
    from dicepoker.server.storage.sql import SqlStorage

    if isinstance(storage, SqlStorage):
        from dicepoker.server.accounts.sql_store import SqlAccountStore

        return SqlAccountStore(storage)
    return MemoryAccountStore()


def _guard(app: FastAPI, settings: Settings) -> SignInGuard:
    """Counts in Redis when the server is one of a cluster (every process sees every failure)."""
    counts = MemoryCounts(settings.now)
    cluster = getattr(app.state, "service", None) and app.state.service.cluster
    if cluster is None:
        return SignInGuard(settings.now, counts=counts)
    from dicepoker.server.accounts.redis_counts import RedisCounts

    return SignInGuard(settings.now, counts=RedisCounts(cluster.redis, prefix=settings.redis_prefix, fallback=counts))


def install(app: FastAPI, settings: Settings, storage: Storage) -> AccountService:
    """Add the account routes to ``app`` (its service is ``app.state.accounts``)."""
    service = AccountService(account_store(storage), now=settings.now, guard=_guard(app, settings))
    app.state.accounts = service
    app.include_router(_router(service, settings))

    @app.exception_handler(TooManyAttempts)
    async def too_many(request: Request, exc: TooManyAttempts) -> JSONResponse:
        headers = {"Retry-After": str(int(exc.retry_after + 0.999))}
        return JSONResponse({"detail": str(exc)}, status_code=exc.status, headers=headers)

    return service


async def _same_site(request: Request) -> None:
    """Every state-changing account route: Origin checked (sign-in and sign-up are not cookie-authenticated)."""
    _check_csrf(request, session_id=None)


def _check_csrf(request: Request, *, session_id: str | None) -> None:
    settings: Settings = request.app.state.settings
    csrf.check_request(
        method=request.method,
        origin=request.headers.get("origin"),
        host=request.headers.get("host"),
        fetch_site=request.headers.get("sec-fetch-site"),
        allowed_origins=settings.allowed_origins,
        session_id=session_id,
        token=request.headers.get(csrf.HEADER),
    )


async def _signed_in(request: Request, response: Response) -> SignedIn:
    """The cookie's session; a state-changing request without Origin must also carry its CSRF token."""
    _check_csrf(request, session_id=request.cookies.get(COOKIE))
    service: AccountService = request.app.state.accounts
    found = await service.require(request.cookies.get(COOKIE))
    if found.renewed:
        _set_cookie(response, found.session_id, request.app.state.settings)
    return found


Me = Annotated[SignedIn, Depends(_signed_in)]


def _router(service: AccountService, settings: Settings) -> APIRouter:
    router = APIRouter(prefix="/api", tags=["accounts"], dependencies=[Depends(_same_site)])

    @router.post("/account", status_code=201)
    async def sign_up(body: Credentials, response: Response) -> dict[str, JSON]:
        """Create an account and sign it in (the response sets the session cookie)."""
        found = await service.sign_up(body.name, body.password)
        _set_cookie(response, found.session_id, settings)
        return found.to_json()

    @router.post("/session")
    async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, JSON]:
        """Sign in: a new session id in the cookie (any session id the browser sent before is not reused)."""
        previous = request.cookies.get(COOKIE)
        found = await service.sign_in(body.name, body.password, _client(request), previous=previous)
        _set_cookie(response, found.session_id, settings)
        return found.to_json()

    @router.delete("/session")
    async def sign_out(me: Me, response: Response, everywhere: bool = False) -> dict[str, JSON]:
        """Sign out this browser, or with ``?everywhere=true`` every session of the account."""
        ended = await service.sign_out(me, everywhere=everywhere)
        _clear_cookie(response, settings)
        return {"signed_out": ended}

    @router.get("/me")
    async def me(me: Me) -> dict[str, JSON]:
        """The signed-in account, with the CSRF token for requests that send no Origin."""
        return me.to_json()

    @router.post("/me/password")
    async def change_password(body: PasswordChange, me: Me, request: Request, response: Response) -> dict[str, JSON]:
        """Change the password (the old one required): every other session ends; this one gets a new id."""
        found = await service.change_password(me, body.old_password, body.new_password, _client(request))
        _set_cookie(response, found.session_id, settings)
        return found.to_json()

    @router.delete("/me")
    async def delete_me(me: Me, response: Response) -> dict[str, JSON]:
        """Delete the account: its name, password hash and sessions go (every browser is signed out)."""
        await service.delete_account(me)
        _clear_cookie(response, settings)
        return {"deleted": True}

    return router


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _set_cookie(response: Response, session_id: str, settings: Settings) -> None:
    response.set_cookie(
        COOKIE,
        session_id,
        max_age=int(IDLE_LIMIT),
        path="/",
        httponly=True,
        samesite="lax",
        secure=settings.behind_https,
    )


def _clear_cookie(response: Response, settings: Settings) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=settings.behind_https)
