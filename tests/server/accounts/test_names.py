"""Account names: 3-20 characters, NFKC + casefold comparison, reserved words refused (issue 20)."""

from __future__ import annotations

import pytest

from dicepoker.bots.registry import bot_names
from dicepoker.server.accounts.names import BadName, check_name, name_key


@pytest.mark.parametrize("name", ["Ada", "x" * 20, "Ada Lovelace", "bob_2-x.y", "Zoë", "名人戦の王"])
def test_good_names_are_kept_as_shown(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("ab", "3 to 20"),
        ("x" * 21, "3 to 20"),
        ("   ", "3 to 20"),
        ("bad\x00name", "control"),
        ("zero\u200bwidth", "control"),  # a format character: two names that look the same
        ("a<script>", "letters, digits"),
        ("guest", "reserved"),
        ("Guest 4821", "reserved"),
        ("ADMIN", "reserved"),
        ("Deleted  Player", "reserved"),
        ("ＡＤＭＩＮ", "reserved"),  # fullwidth letters: NFKC makes them "ADMIN"
    ],
)
def test_bad_names_are_refused_with_a_reason(name: str, reason: str) -> None:
    with pytest.raises(BadName, match=reason):
        check_name(name)


def test_every_bot_name_is_reserved_in_any_case() -> None:
    for bot in {b for game in ("scorecard", "holdem", "zepherin") for b in bot_names(game)}:
        if len(bot) >= 3:
            with pytest.raises(BadName, match="reserved"):
                check_name(bot.upper())


def test_names_compare_after_nfkc_and_casefold() -> None:
    assert name_key("ＡＬＩＣＥ") == name_key("alice") == name_key("Alice") == name_key(" alice ")
    assert name_key("STRASSE") == name_key("straße")  # casefold, not lower
    assert name_key("Ann  Lee") == name_key("ann lee")
    assert name_key("alice") != name_key("alicia")


def test_shown_name_is_nfkc_with_single_spaces() -> None:
    assert check_name("  Ａda   Lovelace ") == "Ada Lovelace"
