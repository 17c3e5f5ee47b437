"""The account service: sign up, sign in, sessions, password change, deletion (no transport inside).

Every answer that could tell a stranger whether a name exists is the same for an unknown name and a
wrong password: ``401 wrong name or password``, after the same argon2 work (:meth:`.Passwords.verify`
hashes a dummy for unknown names). Hashing runs in a thread so that the event loop keeps serving tables.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from dicepoker.core.types import JSON
from dicepoker.server.accounts import sessions as ids
from dicepoker.server.accounts.guard import SignInGuard
from dicepoker.server.accounts.names import check_name, name_key
from dicepoker.server.accounts.passwords import Passwords, check_password
from dicepoker.server.accounts.store import Account, AccountStore, NameTakenError, Session
from dicepoker.server.errors import Conflict, ServiceError, Unauthorized
from dicepoker.server.logs import log_event

logger = logging.getLogger("dicepoker.server.accounts")
MAX_NAME_INPUT = 100
"""Longest name accepted as sign-in input (longer: the same "wrong name or password", no lookup)."""
WRONG = "wrong name or password"
HASHING_SLOTS = 4
"""argon2id hashes computed at once by one process (each takes 64 MiB and ~50 ms of a core): a burst of
sign-ins queues instead of exhausting memory or the worker threads."""


class Forbidden(ServiceError):
    status = 403


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A valid session: its account, its id (from the cookie) and whether its end moved on just now."""

    account: Account
    session_id: str
    session: Session
    renewed: bool = False

    def to_json(self) -> dict[str, JSON]:
        return {
            "id": self.account.id,
            "name": self.account.name,
            "created": self.account.created,
            "csrf_token": ids.csrf_token(self.session_id),
            "session_expires": self.session.expires,
        }


class AccountService:
    def __init__(
        self,
        store: AccountStore,
        *,
        now: Callable[[], float] = time.time,
        passwords: Passwords | None = None,
        guard: SignInGuard | None = None,
    ) -> None:
        self.store = store
        self.now = now
        self.passwords = passwords or Passwords()
        self.guard = guard or SignInGuard(now)
        self._hashing = asyncio.Semaphore(HASHING_SLOTS)

    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.passwords.hash, password)

    async def _verify(self, stored: str | None, password: str) -> bool:
        async with self._hashing:
            return await asyncio.to_thread(self.passwords.verify, stored, password)

    async def sign_up(self, name: str, password: str) -> SignedIn:
        """A new account, signed in. 422 for a bad name or password, 409 for a taken name."""
        shown = check_name(name)
        check_password(password, name=shown)
        key = name_key(shown)
        if await self.store.account_by_key(key) is not None:
            raise Conflict("name is taken")
        password_hash = await self._hash(password)
        account = Account(secrets.token_hex(16), shown, key, password_hash, self.now())
        try:
            await self.store.add_account(account)
        except NameTakenError:
            raise Conflict("name is taken") from None
        log_event(logger, "account created", account=account.id)
        return await self._new_session(account)

    async def sign_in(self, name: str, password: str, client: str, *, previous: str | None = None) -> SignedIn:
        """A new session (a new id at every sign-in: no fixation). 401 ``wrong name or password`` for an
        unknown name and for a wrong password alike; 429 while the guard makes the name or client wait.
        ``previous``: the session id this browser held until now, which ends once the sign-in succeeds."""
        key = name_key(name[:MAX_NAME_INPUT])
        await self.guard.check(key, client)
        account = await self.store.account_by_key(key) if len(name) <= MAX_NAME_INPUT else None
        stored = account.password_hash if account is not None else None
        matches = await self._verify(stored, password)
        if account is None or not matches:
            await self.guard.failed(key, client)
            log_event(logger, "sign-in failed", client=client)
            raise Unauthorized(WRONG)
        await self.guard.succeeded(key)
        if self.passwords.needs_rehash(account.password_hash):
            account.password_hash = await self._hash(password)
            await self.store.set_password_hash(account.id, account.password_hash)
            log_event(logger, "password rehashed", account=account.id)
        if previous and len(previous) <= 100:
            await self.store.delete_session(ids.session_key(previous))
        return await self._new_session(account)

    async def authenticate(self, session_id: str | None) -> SignedIn | None:
        """The session of this cookie value, renewed if due; ``None`` if there is none or it ended."""
        if not session_id or len(session_id) > 100:
            return None
        key = ids.session_key(session_id)
        session = await self.store.session(key)
        if session is None:
            return None
        now = self.now()
        if now >= session.expires:
            await self.store.delete_session(key)
            return None
        account = await self.store.account_by_id(session.account_id)
        if account is None:
            return None
        renewed = False
        limit = session.created + ids.ABSOLUTE_LIMIT
        due = min(now + ids.IDLE_LIMIT, limit)
        if due - session.expires >= ids.RENEW_AFTER:
            session.expires = due
            await self.store.renew_session(key, due)
            renewed = True
        return SignedIn(account, session_id, session, renewed)

    async def require(self, session_id: str | None) -> SignedIn:
        found = await self.authenticate(session_id)
        if found is None:
            raise Unauthorized("not signed in")
        return found

    async def sign_out(self, signed_in: SignedIn, *, everywhere: bool = False) -> int:
        """End this session, or (``everywhere``) every session of the account; how many ended."""
        if everywhere:
            return await self.store.delete_sessions(signed_in.account.id)
        await self.store.delete_session(signed_in.session.key)
        return 1

    async def change_password(self, signed_in: SignedIn, old: str, new: str, client: str) -> SignedIn:
        """Needs the old password (guarded like a sign-in). Every session ends; this browser gets a new one."""
        account = signed_in.account
        await self.guard.check(account.name_key, client)
        if not await self._verify(account.password_hash, old):
            await self.guard.failed(account.name_key, client)
            raise Forbidden("wrong password")
        check_password(new, name=account.name)
        account.password_hash = await self._hash(new)
        await self.store.set_password_hash(account.id, account.password_hash)
        await self.store.delete_sessions(account.id)
        log_event(logger, "password changed", account=account.id)
        return await self._new_session(account)

    async def delete_account(self, signed_in: SignedIn) -> None:
        """The account, its name, its password hash and every session go."""
        await self.store.delete_account(signed_in.account.id)
        log_event(logger, "account deleted", account=signed_in.account.id)

    async def _new_session(self, account: Account) -> SignedIn:
        session_id = ids.new_session_id()
        now = self.now()
        session = Session(ids.session_key(session_id), account.id, now, now + ids.IDLE_LIMIT)
        await self.store.add_session(session)
        return SignedIn(account, session_id, session, renewed=True)
