"""Passwords: argon2id with argon2-cffi's recommended parameters, the policy, the dummy hash (issue 20)."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher, extract_parameters
from argon2.profiles import RFC_9106_LOW_MEMORY

from dicepoker.server.accounts.passwords import BadPassword, Passwords, check_password, common_passwords


def test_argon2id_parameters_read_back_from_a_stored_hash() -> None:
    stored = Passwords().hash("correct horse battery staple")
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    parameters = extract_parameters(stored)
    assert parameters == RFC_9106_LOW_MEMORY
    assert "correct horse" not in stored


def test_verify_accepts_the_password_only() -> None:
    passwords = Passwords()
    stored = passwords.hash("correct horse battery staple")
    assert passwords.verify(stored, "correct horse battery staple")
    assert not passwords.verify(stored, "correct horse battery stapl")
    assert not passwords.verify(stored, "correct horse battery staple" + "x" * 300)  # too long: never matches
    assert not passwords.verify("not a hash", "whatever")


def test_an_unknown_name_costs_one_verification_like_a_wrong_password() -> None:
    passwords = Passwords(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    stored = passwords.hash("correct horse battery staple")
    before = passwords.hash_calls
    assert not passwords.verify(stored, "wrong password here")
    assert not passwords.verify(None, "wrong password here")
    assert passwords.hash_calls - before == 2


def test_hashes_with_older_parameters_need_a_rehash() -> None:
    old = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash("correct horse battery staple")
    passwords = Passwords()
    assert passwords.needs_rehash(old)
    assert not passwords.needs_rehash(passwords.hash("correct horse battery staple"))


def test_the_shipped_list_has_the_10000_most_common_passwords() -> None:
    common = common_passwords()
    assert len(common) >= 9_900  # a few differ only in case
    assert {"password", "123456", "qwerty", "iloveyou", "trustno1"} <= common


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("short", "at least 8"),
        ("x" * 257, "at most 256"),
        ("sunshine", "too common"),
        ("SunShine", "too common"),
        ("12345678", "too common"),
        ("baseball", "too common"),
        ("qwertyuiop", "too common"),
        ("ada-lovelace-1815", "contain the name"),
    ],
)
def test_new_passwords_are_checked_and_never_echoed(password: str, reason: str) -> None:
    with pytest.raises(BadPassword, match=reason) as refused:
        check_password(password, name="Ada-Lovelace")
    assert password not in str(refused.value)


def test_a_good_new_password_passes() -> None:
    check_password("violet kettle marching", name="Ada")
