"""Account names: what is allowed, and the key under which two names are "the same".

Two names are the same when their keys are equal: Unicode NFKC, then casefold, then runs of spaces as one
(``"Ａlice"``, ``"ALICE"`` and ``"alice"`` are one name). The key is what the database keeps unique.

A name is 3 to 20 characters (after NFKC), made of letters, digits, single inner spaces and ``_ - .``;
it may not be, or start like, a reserved word: the bots' names, ``guest`` (guests are "Guest 4821"),
``admin``, ``deleted player`` and a few words that would let someone pass for the site.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from dicepoker.bots import registry as bots
from dicepoker.games import registry as games
from dicepoker.server.errors import Invalid

MIN_LENGTH = 3
MAX_LENGTH = 20
_ALLOWED = re.compile(r"[\w.\-]+(?: [\w.\-]+)*")
_RESERVED_WORDS = frozenset(
    {
        "admin",
        "administrator",
        "root",
        "system",
        "server",
        "moderator",
        "mod",
        "support",
        "staff",
        "dicepoker",
        "anonymous",
        "nobody",
        "null",
        "none",
        "me",
        "bot",
        "deleted player",
        "deleted",
    }
)
_RESERVED_PREFIXES = ("guest", "bot ", "bot-", "bot_", "deleted player")


class BadName(Invalid):
    """A name that cannot be an account's (422); the message says why."""


def name_key(name: str) -> str:
    """The comparison key: NFKC, casefold, spaces collapsed.

    >>> name_key("  Ａlice   Smith ") == name_key("alice smith")
    True
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


@functools.cache
def reserved_keys() -> frozenset[str]:
    """Every reserved word's key: the fixed words and every bot's name in every game."""
    names = {name_key(bot) for game in games.names() for bot in bots.bot_names(game)}
    return frozenset(names | {name_key(word) for word in _RESERVED_WORDS})


def check_name(name: str) -> str:
    """The name as it will be shown (NFKC, spaces collapsed), or :class:`BadName` saying what is wrong.

    >>> check_name(" Ada  Lovelace ")
    'Ada Lovelace'
    >>> check_name("Guest 4821")
    Traceback (most recent call last):
    ...
    dicepoker.server.accounts.names.BadName: name is reserved
    """
    shown = " ".join(unicodedata.normalize("NFKC", name).split())
    if any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs", "Cn") for c in shown):
        raise BadName("name has control or invisible characters")
    if not MIN_LENGTH <= len(shown) <= MAX_LENGTH:
        raise BadName(f"name must be {MIN_LENGTH} to {MAX_LENGTH} characters")
    if not _ALLOWED.fullmatch(shown):
        raise BadName("name may have letters, digits, single spaces and _ - . only")
    key = name_key(shown)
    if key in reserved_keys() or key.startswith(_RESERVED_PREFIXES):
        raise BadName("name is reserved")
    return shown
