"""Player names: one check for every place a name enters (join, play-now; accounts later).

No transport and no storage here, so anything that takes a name can reuse it. :func:`check_name` returns
the name as it is kept and shown, or raises :class:`BadName` with the reason (nothing is kept then):

1. **NFKC**: compatibility forms become their plain letters (fullwidth ``Ａｎｎ`` is ``Ann``, ``ﬁ`` is
   ``fi``), so two names that look the same are usually the same text. Runs of spaces become one space,
   and spaces at either end go.
2. **Nothing invisible or unprintable**: control (Cc), format (Cf: the bidi controls that turned the
   lobby's text around, zero-width spaces and joiners, the BOM), surrogate, private-use and unassigned
   characters, line and paragraph separators, variation selectors (but for an emoji's presentation
   selector right after a symbol, as in ``❤️``), and the letters that draw nothing (Hangul fillers, the
   braille blank, the combining grapheme joiner) are refused, as are more than
   :data:`MAX_MARKS` combining marks on one letter. A name must show at least one letter, digit or symbol.
3. **1 to** :data:`MAX_LENGTH` **characters after normalising** (NFKC may lengthen a name).
4. **Mixed scripts are marked, not refused**: Latin with Cyrillic (``раypal``) or Greek is how a name
   passes for another. Such a name is accepted (a person may well be called so) and flagged:
   ``mixed_scripts`` is true in the join answer and on its seat in summaries and state frames, and the
   browser shows a marker beside it. Which mixes are ordinary follows Unicode TS #39 "highly
   restrictive": one script, or Latin with Han and Japanese kana, with Han and Bopomofo, or with Han and
   Hangul. Digits, punctuation and symbols belong to no script.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass

from dicepoker.core.errors import DicePokerError

MAX_LENGTH = 40
MAX_MARKS = 2
"""Combining marks allowed on one letter: enough for any language's accents, not for a "zalgo" tower."""
REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character (bidi control, zero-width space or joiner)",
    "Cs": "a surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
INVISIBLE = {
    0x034F: "COMBINING GRAPHEME JOINER",
    0x115F: "HANGUL CHOSEONG FILLER",
    0x1160: "HANGUL JUNGSEONG FILLER",
    0x2800: "BRAILLE PATTERN BLANK",
    0x3164: "HANGUL FILLER",
    0xFFA0: "HALFWIDTH HANGUL FILLER",
}
"""Characters of ordinary categories (letters, marks, symbols) that draw nothing."""
_ORDINARY_MIXES = (
    frozenset({"Latin", "Han", "Hiragana", "Katakana"}),
    frozenset({"Latin", "Han", "Bopomofo"}),
    frozenset({"Latin", "Han", "Hangul"}),
)
_NOT_A_SCRIPT = frozenset({"MODIFIER", "LETTER", "SMALL", "CAPITAL", "SCRIPT", "MATHEMATICAL"})


class BadName(DicePokerError, ValueError):
    """A name refused; the message says why in plain words."""


@dataclass(frozen=True, slots=True)
class CheckedName:
    text: str
    """The name as kept and shown (NFKC, spaces tidied)."""
    scripts: frozenset[str]
    """The scripts of its letters (``Latin``, ``Cyrillic``, ``Han``, ...)."""

    @property
    def mixed_scripts(self) -> bool:
        return is_mixed(self.scripts)


def check_name(raw: str) -> CheckedName:
    """The name ``raw`` as kept, or :class:`BadName`. Idempotent: ``check_name(check_name(x).text)``
    gives the same name back.

    >>> check_name("  Ａｎｎ   Lee ").text
    'Ann Lee'
    >>> check_name("p\\u0430ypal").mixed_scripts   # a Cyrillic "а" among Latin letters
    True
    """
    if not isinstance(raw, str):
        raise BadName("a name is text")
    for previous, char in zip(" " + raw, raw, strict=False):  # before NFKC too: the reason names what was sent
        _refuse_invisible(char, previous)
    text = " ".join(unicodedata.normalize("NFKC", raw).split())
    # NFKC once more: tidying spaces can put a combining mark next to a new base letter.
    text = unicodedata.normalize("NFKC", text)
    if not text:
        raise BadName("a name needs at least one visible character")
    if len(text) > MAX_LENGTH:
        raise BadName(f"a name is at most {MAX_LENGTH} characters (after normalising: {len(text)})")
    marks = 0
    visible = False
    scripts: set[str] = set()
    for previous, char in zip(" " + text, text, strict=False):
        _refuse_invisible(char, previous)
        category = unicodedata.category(char)
        if category.startswith("M"):
            marks += 1
            if marks > MAX_MARKS:
                raise BadName(f"at most {MAX_MARKS} combining marks on one letter")
            continue
        marks = 0
        if category[0] in "LNS":
            visible = True
        if category[0] == "L" and category != "Lm":  # modifier letters (the kana length mark) join any script
            script = script_of(char)
            if script is not None:
                scripts.add(script)
    if not visible:
        raise BadName("a name needs at least one letter, digit or symbol")
    return CheckedName(text, frozenset(scripts))


def is_mixed(scripts: frozenset[str] | set[str]) -> bool:
    """Whether letters of these scripts together look like an attempt to pass for another name."""
    if len(scripts) <= 1:
        return False
    return not any(scripts <= ordinary for ordinary in _ORDINARY_MIXES)


@functools.lru_cache(maxsize=4096)
def mixed_scripts(name: str | None) -> bool:
    """Whether a stored name mixes scripts (``False`` for no name, and for one this module would refuse).
    Cached: every frame shows every seat's name."""
    if not name:
        return False
    try:
        return check_name(name).mixed_scripts
    except BadName:
        return False


def name_marks(name: str | None) -> dict[str, bool]:
    """What a seat's JSON adds about its name: ``{"mixed_scripts": True}``, or nothing (most names)."""
    return {"mixed_scripts": True} if mixed_scripts(name) else {}


def script_of(char: str) -> str | None:
    """The script of a letter, from its Unicode name (Python has no Script property); ``None`` if unnamed.

    >>> script_of("a"), script_of("\\u0430"), script_of("\\u4e00"), script_of("\\u3042")
    ('Latin', 'Cyrillic', 'Han', 'Hiragana')
    """
    name = unicodedata.name(char, "")
    if not name:
        return None
    first = name.split()[0]
    if first == "CJK":
        return "Han"
    # The first word names the script of nearly every letter (LATIN, CYRILLIC, HANGUL, ...); where it
    # does not (OLD ITALIC, TAI THAM), two letters of one script still get the same word.
    return None if first in _NOT_A_SCRIPT else first.title()


def _refuse_invisible(char: str, previous: str) -> None:
    category = unicodedata.category(char)
    if category in REFUSED_CATEGORIES:
        raise BadName(f"names may not contain {REFUSED_CATEGORIES[category]} (U+{ord(char):04X})")
    if ord(char) in INVISIBLE or (_is_variation_selector(char) and not _emoji_style(char, previous)):
        raise BadName(f"names may not contain invisible characters (U+{ord(char):04X})")


def _emoji_style(char: str, previous: str) -> bool:
    """U+FE0E/U+FE0F right after a symbol: text or emoji presentation (``❤️``, as phones type it), the one
    place a variation selector is shown rather than hidden."""
    return char in "\ufe0e\ufe0f" and unicodedata.category(previous) == "So"


def _is_variation_selector(char: str) -> bool:
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or 0x180B <= code <= 0x180D
