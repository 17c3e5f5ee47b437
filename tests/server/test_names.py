"""Player names (issue 19, item 11): NFKC, nothing invisible, mixed scripts marked; at join and play-now."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicepoker.server.errors import Invalid
from dicepoker.server.storage.records import MemoryStorage
from dicepoker.server.tables.names import MAX_LENGTH, BadName, check_name, is_mixed, mixed_scripts
from tests.server.conftest import FakeClock, new_service, run

BIDI_AND_ZERO_WIDTH = [
    "\u202e",  # RIGHT-TO-LEFT OVERRIDE: the character that turned the lobby's text around
    "\u202d",
    "\u2066",  # LEFT-TO-RIGHT ISOLATE
    "\u2069",
    "\u200f",  # RIGHT-TO-LEFT MARK
    "\u200b",  # ZERO WIDTH SPACE
    "\u200d",  # ZERO WIDTH JOINER
    "\u2060",  # WORD JOINER
    "\ufeff",  # BOM
    "\u00ad",  # SOFT HYPHEN
]
INVISIBLE_LETTERS = ["\u3164", "\u115f", "\u2800", "\u034f", "\ufe0f"]


@pytest.mark.parametrize("bad", BIDI_AND_ZERO_WIDTH + INVISIBLE_LETTERS + ["\x00", "\x1b", "\u2028", "\ue000"])
def test_invisible_and_control_characters_are_refused(bad: str) -> None:
    with pytest.raises(BadName, match=f"U\\+{ord(bad):04X}"):
        check_name(f"ann{bad}lee")


def test_nfkc_and_spaces_make_look_alike_forms_one_name() -> None:
    assert check_name("  Ａｎｎ\u3000\u3000Lee ").text == "Ann Lee"  # fullwidth letters, ideographic spaces
    assert check_name("\ufb01sh").text == "fish"  # the "fi" ligature
    assert check_name("Cafe\u0301").text == "Caf\u00e9"  # a combining accent is composed


def test_an_emoji_keeps_its_presentation_selector_but_nothing_else_does() -> None:
    assert check_name("Ann \u2764\ufe0f").text == "Ann \u2764\ufe0f"  # a red heart as phones type it
    with pytest.raises(BadName, match="U\\+FE0F"):
        check_name("An\ufe0fn")  # after a letter it hides
    with pytest.raises(BadName, match="U\\+200D"):
        check_name("\U0001f468\u200d\U0001f469")  # emoji joined by ZWJ (a format character) are refused


def test_empty_long_and_zalgo_names_are_refused() -> None:
    for bad in ("", "   ", "\u3000", "..."):
        with pytest.raises(BadName):
            check_name(bad)
    with pytest.raises(BadName, match="at most 40"):
        check_name("\ufdfa" * 3)  # three characters, 18 each after NFKC: the limit is on what is kept
    with pytest.raises(BadName, match="combining marks"):
        check_name("a\u0300\u0301\u0302\u0303")
    assert check_name("x" * MAX_LENGTH).text == "x" * MAX_LENGTH


def test_mixed_scripts_are_marked_but_ordinary_mixes_are_not() -> None:
    assert check_name("p\u0430ypal").mixed_scripts  # Cyrillic a among Latin letters
    assert check_name("\u0391lice").mixed_scripts  # Greek capital alpha
    assert not check_name("\u0418\u0432\u0430\u043d").mixed_scripts  # all Cyrillic
    assert not check_name("\u5c71\u7530\u305f\u308d\u3046 Taro").mixed_scripts  # Han, Hiragana and Latin
    assert not check_name("\uae40\ubbfc\uc900 Kim").mixed_scripts  # Hangul and Latin
    assert not check_name("\u30ab\u30fc\u30c9").mixed_scripts  # Katakana with the prolonged sound mark
    assert not check_name("ann_42 \u2665").mixed_scripts  # digits, punctuation, symbols: no script
    assert is_mixed({"Latin", "Cyrillic"}) and not is_mixed({"Latin", "Han", "Hangul"})
    assert mixed_scripts("p\u0430ypal") and not mixed_scripts(None) and not mixed_scripts("\u202e")


NAMES = st.text(min_size=0, max_size=50)


@given(NAMES)
def test_a_kept_name_is_visible_normalised_and_stable(raw: str) -> None:
    try:
        checked = check_name(raw)
    except BadName:
        return
    text = checked.text
    assert 1 <= len(text) <= MAX_LENGTH
    assert unicodedata.normalize("NFKC", text) == text
    assert text == text.strip() and "  " not in text
    assert not any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") for c in text)
    assert check_name(text) == checked  # idempotent: a kept name passes again unchanged


@given(st.text(min_size=1, max_size=10), st.sampled_from(BIDI_AND_ZERO_WIDTH), st.text(max_size=10))
def test_no_bidi_or_zero_width_character_ever_gets_through(before: str, bad: str, after: str) -> None:
    with pytest.raises(BadName):
        check_name(before + bad + after)


def test_join_and_play_now_check_names_and_keep_the_normal_form() -> None:
    clock = FakeClock()

    async def main() -> None:
        storage = MemoryStorage()
        service = new_service(storage, clock)
        await service.start(scheduler=False)
        try:
            table_id = str((await service.create_table("scorecard", seats=["open", "open"]))["id"])
            with pytest.raises(Invalid, match=r"name: .*U\+202E"):
                await service.join(table_id, 0, "evil\u202eexe.txt")
            assert storage.tables[table_id].seats[0].kind == "open"  # refused: nothing changed
            joined = await service.join(table_id, 0, "Ｐ\u0430ypal")
            assert joined["name"] == "P\u0430ypal" and joined["mixed_scripts"] is True
            assert storage.tables[table_id].seats[0].name == "P\u0430ypal"
            seats = (await service.summary(table_id))["seats"]
            assert isinstance(seats, list) and seats[0] == {**seats[0], "mixed_scripts": True}  # type: ignore[dict-item]
            assert "mixed_scripts" not in seats[1]  # type: ignore[operator]
            tables_before = len(storage.tables)
            with pytest.raises(Invalid, match="name"):
                await service.play_now("scorecard", "\u200b")
            assert len(storage.tables) == tables_before  # no play-now table opened for a refused name
            played = await service.play_now("scorecard", "  bob ")
            assert played["name"] == "bob" and played["mixed_scripts"] is False
        finally:
            await service.stop()

    run(main())
