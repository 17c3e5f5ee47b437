"""Accounts and sessions in the table server's SQL database (SQLite or PostgreSQL), on its engine.

The tables come with the server's Alembic migrations (revision 0004), which :meth:`SqlStorage.open` runs.
Each call is one short transaction of its own: account writes are rare and need no group commit.
"""

from __future__ import annotations

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from dicepoker.server.accounts.store import Account, NameTakenError, Session
from dicepoker.server.storage.sql import SqlStorage
from dicepoker.server.storage.sql_schema import accounts, sessions


class SqlAccountStore:
    """:class:`~.store.AccountStore` over the engine of an open :class:`SqlStorage`."""

    def __init__(self, storage: SqlStorage) -> None:
        self.storage = storage

    @property
    def engine(self) -> AsyncEngine:
        return self.storage.engine

    async def add_account(self, account: Account) -> None:
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    insert(accounts).values(
                        id=account.id,
                        name=account.name,
                        name_key=account.name_key,
                        password_hash=account.password_hash,
                        created=account.created,
                    )
                )
        except IntegrityError as exc:
            raise NameTakenError(account.name_key) from exc

    async def account_by_key(self, name_key: str) -> Account | None:
        return await self._account(accounts.c.name_key == name_key)

    async def account_by_id(self, account_id: str) -> Account | None:
        return await self._account(accounts.c.id == account_id)

    async def _account(self, where: object) -> Account | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(accounts).where(where))).first()  # type: ignore[arg-type]
        if row is None:
            return None
        return Account(row.id, row.name, row.name_key, row.password_hash, row.created)

    async def set_password_hash(self, account_id: str, password_hash: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(accounts).where(accounts.c.id == account_id).values(password_hash=password_hash))

    async def delete_account(self, account_id: str) -> None:
        async with self.engine.begin() as conn:
            # Sessions first: SQLite enforces the cascade only with its foreign_keys pragma on.
            await conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            await conn.execute(delete(accounts).where(accounts.c.id == account_id))

    async def add_session(self, session: Session) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(sessions).values(
                    key=session.key, account_id=session.account_id, created=session.created, expires=session.expires
                )
            )

    async def session(self, key: str) -> Session | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(sessions).where(sessions.c.key == key))).first()
        if row is None:
            return None
        return Session(row.key, row.account_id, row.created, row.expires)

    async def renew_session(self, key: str, expires: float) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(sessions).where(sessions.c.key == key).values(expires=expires))

    async def delete_session(self, key: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(sessions).where(sessions.c.key == key))

    async def delete_sessions(self, account_id: str, *, keep: str | None = None) -> int:
        where = sessions.c.account_id == account_id
        if keep is not None:
            where = where & (sessions.c.key != keep)
        async with self.engine.begin() as conn:
            result = await conn.execute(delete(sessions).where(where))
        return int(result.rowcount)
