"""Passwords: the policy (length, common ones refused) and argon2id hashing through ``argon2-cffi``.

Hashes use ``PasswordHasher()``'s defaults, the RFC 9106 low-memory profile (argon2id, t=3, m=64 MiB, p=4);
a stored hash made with other parameters is rehashed at the next sign-in (:meth:`Passwords.needs_rehash`).
A password is never logged, stored, or put in an error message; only its hash is kept.

Hashing costs about 50 ms of one core on purpose, so the service calls these methods in a thread.
"""

from __future__ import annotations

import functools
from importlib import resources

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from dicepoker.server.errors import Invalid

MIN_LENGTH = 8
MAX_LENGTH = 256
"""Longer passwords are refused rather than hashed: the bound keeps a request's hashing work bounded."""
_DUMMY = "not a password: hashed for unknown names so that they cost what a wrong password costs"


class BadPassword(Invalid):
    """A new password the policy refuses (422); the message says why without repeating it."""


@functools.cache
def common_passwords() -> frozenset[str]:
    """The shipped list (``common-passwords.txt``: zxcvbn's 10,000 most common), casefolded."""
    text = resources.files(__package__).joinpath("common-passwords.txt").read_text(encoding="utf-8")
    return frozenset(line.casefold() for line in text.splitlines() if line and not line.startswith("#"))


def check_password(password: str, *, name: str = "") -> None:
    """Raise :class:`BadPassword` if ``password`` may not be a new password of the account ``name``.

    >>> check_password("correct horse battery staple")
    >>> check_password("password1")
    Traceback (most recent call last):
    ...
    dicepoker.server.accounts.passwords.BadPassword: password is too common: choose another
    """
    if len(password) < MIN_LENGTH:
        raise BadPassword(f"password must be at least {MIN_LENGTH} characters")
    if len(password) > MAX_LENGTH:
        raise BadPassword(f"password must be at most {MAX_LENGTH} characters")
    folded = password.casefold()
    if folded in common_passwords():
        raise BadPassword("password is too common: choose another")
    if name and name.casefold() in folded:
        raise BadPassword("password may not contain the name")


class Passwords:
    """argon2id hashing and verification; ``hash_calls`` counts the hashing work done (tests compare it)."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self.hash_calls = 0
        self._dummy: str | None = None

    def hash(self, password: str) -> str:
        self.hash_calls += 1
        return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; with ``stored=None`` (an unknown name) a dummy hash is
        verified instead, so that the answer costs the same work as a wrong password."""
        if self._dummy is None:  # made at the first verification of either kind: even that one tells nothing
            self._dummy = self.hasher.hash(_DUMMY)
        if stored is None:
            stored = self._dummy
        self.hash_calls += 1
        # A guess longer than any password can never match, but it costs the same work as any other guess
        # (hashed cut to the longest length, so that a huge one costs no more).
        too_long = len(password) > MAX_LENGTH
        try:
            return self.hasher.verify(stored, password[:MAX_LENGTH]) and not too_long
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        return self.hasher.check_needs_rehash(stored)
