"""The account service over the memory store and the SQL store (SQLite, PostgreSQL): sessions, renewal,
sign-out everywhere, password change, deletion, rehash, no enumeration (issue 20)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from argon2 import PasswordHasher, extract_parameters
from argon2.profiles import RFC_9106_LOW_MEMORY

from dicepoker.server.accounts import sessions as ids
from dicepoker.server.accounts.passwords import Passwords
from dicepoker.server.accounts.service import WRONG, AccountService, Forbidden
from dicepoker.server.accounts.store import AccountStore, MemoryAccountStore
from dicepoker.server.errors import Conflict, Unauthorized
from tests.server.conftest import FakeClock, postgres_available

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
PASSWORD = "violet kettle marching"
Scenario = Callable[[AccountService, FakeClock], Awaitable[None]]


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    if request.param == "postgresql" and not postgres_available():
        pytest.skip("PostgreSQL is not reachable at 127.0.0.1:5432 (database 'test')")
    return f"{request.param}:{tmp_path / 'accounts.db'}"


@contextlib.asynccontextmanager
async def _store(backend: str) -> AsyncIterator[AccountStore]:
    kind, _, path = backend.partition(":")
    if kind == "memory":
        yield MemoryAccountStore()
        return
    import secrets

    from dicepoker.server.accounts.sql_store import SqlAccountStore
    from dicepoker.server.storage.sql import SqlStorage
    from tests.server.conftest import POSTGRES_URL

    if kind == "sqlite":
        storage = SqlStorage(f"sqlite:///{path}")
    else:
        storage = SqlStorage(POSTGRES_URL, schema=f"dp_test_{secrets.token_hex(6)}")
    await storage.open()
    try:
        yield SqlAccountStore(storage)
    finally:
        await storage.drop_schema()
        await storage.close()


def _run(backend: str, scenario: Scenario, hasher: PasswordHasher = CHEAP) -> None:
    async def main() -> None:
        async with _store(backend) as store:
            clock = FakeClock()
            await scenario(AccountService(store, now=clock, passwords=Passwords(hasher)), clock)

    asyncio.run(main())


def test_sign_up_then_sign_in_gives_a_new_session_id_each_time(backend: str) -> None:
    async def scenario(service: AccountService, clock: FakeClock) -> None:
        first = await service.sign_up("Ada", PASSWORD)
        second = await service.sign_in("ada", PASSWORD, "c1")
        third = await service.sign_in("ＡＤＡ", PASSWORD, "c1")
        assert len({first.session_id, second.session_id, third.session_id}) == 3
        assert len(first.session_id) == 43  # 32 bytes, base64url
        assert first.account.id == second.account.id == third.account.id
        stored = await service.store.session(ids.session_key(second.session_id))
        assert stored is not None and stored.key != second.session_id  # only the hash is kept
        assert await service.store.session(second.session_id) is None
        me = await service.require(third.session_id)
        assert me.account.name == "Ada"

    _run(backend, scenario)


def test_names_are_unique_after_nfkc_and_casefold(backend: str) -> None:
    async def scenario(service: AccountService, clock: FakeClock) -> None:
        await service.sign_up("Ada", PASSWORD)
        with pytest.raises(Conflict, match="name is taken"):
            await service.sign_up("ＡＤＡ", PASSWORD + "!")

    _run(backend, scenario)


def test_the_database_refuses_a_second_account_with_the_same_key(backend: str) -> None:
    async def scenario(service: AccountService, clock: FakeClock) -> None:
        from dicepoker.server.accounts.store import Account, NameTakenError

        await service.store.add_account(Account("a" * 32, "Ada", "ada", "h", 1.0))
        with pytest.raises(NameTakenError):  # as if two processes signed up at once
            await service.store.add_account(Account("b" * 32, "ADA", "ada", "h", 1.0))

    _run(backend, scenario)


def test_sessions_slide_then_expire_and_have_an_absolute_limit(backend: str) -> None:
    async def scenario(service: AccountService, clock: FakeClock) -> None:
        session_id = (await service.sign_up("Ada", PASSWORD)).session_id
        clock.advance(ids.RENEW_AFTER / 2)
        assert not (await service.require(session_id)).renewed  # renewed at most once a day
        clock.advance(ids.RENEW_AFTER)
        renewed = await service.require(session_id)
        assert renewed.renewed and renewed.session.expires == clock.time + ids.IDLE_LIMIT
        clock.advance(ids.IDLE_LIMIT - 1)
        assert await service.authenticate(session_id) is not None  # used within the idle limit: alive
        for _ in range(int(ids.ABSOLUTE_LIMIT // ids.IDLE_LIMIT) + 1):
            clock.advance(ids.IDLE_LIMIT - 1)
            if await service.authenticate(session_id) is None:
                break
        else:
            pytest.fail("the session outlived its absolute limit")
        stale = (await service.sign_in("Ada", PASSWORD, "c")).session_id
        clock.advance(ids.IDLE_LIMIT)
        assert await service.authenticate(stale) is None  # unused for the idle limit: over

    _run(backend, scenario)


def test_a_stolen_session_stops_working_after_sign_out_everywhere(backend: str) -> None:
    async def scenario(service: AccountService, clock: FakeClock) -> None:
        mine = await service.sign_up("Ada", PASSWORD)
        stolen = (await service.sign_in("Ada", PASSWORD, "c")).session_id
        assert await service.authenticate(stolen) is not None
        assert await service.sign_out(mine, everywhere=True) == 2
        assert await service.authenticate(stolen) is None
        assert await service.authenticate(mine.session_id) is None

    _run(backend, scenario)


def test_sign_out_ends_only_this_session(backend: str) -> None:
    async def scenario(service: AccountService, clock: FakeClock) -> None:
        mine = await service.sign_up("Ada", PASSWORD)
        other = (await service.sign_in("Ada", PASSWORD, "c")).session_id
        await service.sign_out(mine)
        assert await service.authenticate(mine.session_id) is None
        assert await service.authenticate(other) is not None

    _run(backend, scenario)


def test_a_password_change_needs_the_old_one_and_ends_every_other_session(backend: str) -> None:
    async def scenario(service: AccountService, clock: FakeClock) -> None:
        mine = await service.sign_up("Ada", PASSWORD)
        stolen = (await service.sign_in("Ada", PASSWORD, "c")).session_id
        with pytest.raises(Forbidden, match="wrong password"):
            await service.change_password(mine, "not the password", "a new long secret", "c")
        changed = await service.change_password(mine, PASSWORD, "a new long secret", "c")
        assert changed.session_id != mine.session_id
        assert await service.authenticate(stolen) is None
        assert await service.authenticate(mine.session_id) is None
        assert await service.authenticate(changed.session_id) is not None
        with pytest.raises(Unauthorized):
            await service.sign_in("Ada", PASSWORD, "c")
        await service.sign_in("Ada", "a new long secret", "c")

    _run(backend, scenario)


def test_deleting_the_account_frees_the_name_and_ends_its_sessions(backend: str) -> None:
    async def scenario(service: AccountService, clock: FakeClock) -> None:
        mine = await service.sign_up("Ada", PASSWORD)
        other = (await service.sign_in("Ada", PASSWORD, "c")).session_id
        await service.delete_account(mine)
        assert await service.authenticate(other) is None
        assert await service.store.account_by_id(mine.account.id) is None
        with pytest.raises(Unauthorized, match=WRONG):
            await service.sign_in("Ada", PASSWORD, "c")
        await service.sign_up("Ada", "another long secret")

    _run(backend, scenario)


def test_a_hash_with_old_parameters_is_rehashed_at_sign_in(backend: str) -> None:
    async def scenario(service: AccountService, clock: FakeClock) -> None:
        service.passwords = Passwords(CHEAP)
        account = (await service.sign_up("Ada", PASSWORD)).account
        service.passwords = Passwords()  # the recommended parameters: the stored hash is outdated
        await service.sign_in("Ada", PASSWORD, "c")
        stored = await service.store.account_by_id(account.id)
        assert stored is not None and extract_parameters(stored.password_hash) == RFC_9106_LOW_MEMORY
        await service.sign_in("Ada", PASSWORD, "c")

    _run(backend, scenario, hasher=PasswordHasher())


def test_unknown_name_and_wrong_password_look_the_same_and_cost_the_same(backend: str) -> None:
    """No enumeration: same error, same message, and the same hashing work (one argon2 verification each)."""

    async def scenario(service: AccountService, clock: FakeClock) -> None:
        await service.sign_up("Ada", PASSWORD)
        answers = []
        for name in ("Ada", "Nobody", "Ada", "Nobody"):
            before = service.passwords.hash_calls
            with pytest.raises(Unauthorized) as refused:
                await service.sign_in(name, "wrong password!", f"client-{name}")
            answers.append((type(refused.value), str(refused.value), service.passwords.hash_calls - before))
        assert len(set(answers)) == 1 and answers[0][2] == 1

    _run(backend, scenario)
