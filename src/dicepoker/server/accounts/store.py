"""Where accounts and sessions are kept, behind a small protocol: in memory here, SQL in :mod:`.sql_store`."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Protocol


@dataclass(slots=True)
class Account:
    id: str
    name: str
    """As shown (NFKC, spaces collapsed)."""
    name_key: str
    """NFKC + casefold: unique among the accounts (see :func:`.names.name_key`)."""
    password_hash: str
    created: float


@dataclass(slots=True)
class Session:
    key: str
    """SHA-256 of the session id (the id itself is only in the player's cookie)."""
    account_id: str
    created: float
    expires: float
    """When the session ends unless it is used (sliding), never after ``created`` + the absolute limit."""


class NameTakenError(Exception):
    """Another account has this name key (the store's unique index said so)."""


class AccountStore(Protocol):
    async def add_account(self, account: Account) -> None:
        """Raises :class:`NameTakenError` (and stores nothing) when the name key is taken."""

    async def account_by_key(self, name_key: str) -> Account | None: ...

    async def account_by_id(self, account_id: str) -> Account | None: ...

    async def set_password_hash(self, account_id: str, password_hash: str) -> None: ...

    async def delete_account(self, account_id: str) -> None:
        """The account and all of its sessions."""

    async def add_session(self, session: Session) -> None: ...

    async def session(self, key: str) -> Session | None: ...

    async def renew_session(self, key: str, expires: float) -> None: ...

    async def delete_session(self, key: str) -> None: ...

    async def delete_sessions(self, account_id: str, *, keep: str | None = None) -> int:
        """Every session of the account but ``keep``; how many went."""


class MemoryAccountStore:
    """Accounts in dicts (tests and the in-memory server); records are copied in and out."""

    def __init__(self) -> None:
        self.accounts: dict[str, Account] = {}
        self.sessions: dict[str, Session] = {}

    async def add_account(self, account: Account) -> None:
        if any(a.name_key == account.name_key for a in self.accounts.values()):
            raise NameTakenError(account.name_key)
        self.accounts[account.id] = dataclasses.replace(account)

    async def account_by_key(self, name_key: str) -> Account | None:
        found = next((a for a in self.accounts.values() if a.name_key == name_key), None)
        return None if found is None else dataclasses.replace(found)

    async def account_by_id(self, account_id: str) -> Account | None:
        found = self.accounts.get(account_id)
        return None if found is None else dataclasses.replace(found)

    async def set_password_hash(self, account_id: str, password_hash: str) -> None:
        if account_id in self.accounts:
            self.accounts[account_id].password_hash = password_hash

    async def delete_account(self, account_id: str) -> None:
        self.accounts.pop(account_id, None)
        await self.delete_sessions(account_id)

    async def add_session(self, session: Session) -> None:
        self.sessions[session.key] = dataclasses.replace(session)

    async def session(self, key: str) -> Session | None:
        found = self.sessions.get(key)
        return None if found is None else dataclasses.replace(found)

    async def renew_session(self, key: str, expires: float) -> None:
        if key in self.sessions:
            self.sessions[key].expires = expires

    async def delete_session(self, key: str) -> None:
        self.sessions.pop(key, None)

    async def delete_sessions(self, account_id: str, *, keep: str | None = None) -> int:
        gone = [k for k, s in self.sessions.items() if s.account_id == account_id and k != keep]
        for key in gone:
            del self.sessions[key]
        return len(gone)
