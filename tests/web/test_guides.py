"""Issue 21 §5: the players' guides (``web/guides/<game>.md``) say what the rules say.

Every dice picture in a guide's list of hands or boxes is checked against the engine: the hand named in bold is
the hand the dice make (BD-5, PK-9, HE-10), and a scorecard box's points are the points the box scores (SC-4 …
SC-12). A guide exists for every game the registry offers, and names no game title of its own (titles come from
``/api/games``)."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from dicepoker.dice.hands import PokerHand, classify
from dicepoker.dice.poker import HandCategory as PeekCategory
from dicepoker.dice.poker import evaluate, parse_dice
from dicepoker.dice.scoring import Category, score
from dicepoker.dice.suited import HandCategory as HoldemCategory
from dicepoker.dice.suited import category_of, parse_suited, python_best_value
from dicepoker.games.registry import infos

DICE_LINE = re.compile(r"^:dice\s+(pip|suited|poker)\s+([^|]+?)\s*\|\s*(.+)$", re.M)
BOLD = re.compile(r"\*\*([^*]+)\*\*")
BOARD_HANDS = {
    "five of a kind": PokerHand.FIVE_KIND,
    "four of a kind": PokerHand.FOUR_KIND,
    "full house": PokerHand.FULL_HOUSE,
    "straight": PokerHand.STRAIGHT,
    "three of a kind": PokerHand.THREE_KIND,
    "two pairs": PokerHand.TWO_PAIRS,
    "one pair": PokerHand.ONE_PAIR,
    "nothing": PokerHand.NOTHING,
}
PEEK_HANDS = {
    "five of a kind": PeekCategory.FIVE_KIND,
    "flush": PeekCategory.FLUSH,
    "large straight": PeekCategory.LARGE_STRAIGHT,
    "straight": PeekCategory.STRAIGHT,
    "four of a kind": PeekCategory.FOUR_KIND,
    "full house": PeekCategory.FULL_HOUSE,
    "three of a kind": PeekCategory.THREE_KIND,
    "two pairs": PeekCategory.TWO_PAIRS,
    "a pair": PeekCategory.PAIR,
}
HOLDEM_HANDS = {c.label: c for c in HoldemCategory}
BOXES = {c.name.replace("_", " ").lower().replace("kind", "of a kind"): c for c in Category}


def guide(game: str) -> str:
    return resources.files("dicepoker").joinpath("web", "guides", f"{game}.md").read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    return text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]


def pictures(text: str) -> list[tuple[str, str, str]]:
    return [(m[1], m[2], m[3]) for m in DICE_LINE.finditer(text)]


def named(caption: str) -> str:
    found = BOLD.search(caption)
    assert found, f"no hand in bold in {caption!r}"
    return found[1].lower()


@pytest.mark.parametrize("game", [i.name for i in infos()])
def test_every_game_has_a_guide_with_the_six_parts_and_dice_pictures(game: str) -> None:
    text = guide(game)
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[0] == "The goal" and headings[-2:] == ["The clock", "Leaving"]
    assert any(h.startswith("One ") for h in headings) and any(h.startswith("A worked example") for h in headings)
    assert pictures(text), "a guide shows its hands with dice pictures"
    for kind, faces, _ in pictures(text):
        count = len(faces.split())
        assert kind in ("pip", "suited", "poker") and 1 <= count <= 6
    # The titles come from the game's facts ({title}); a guide never spells one out.
    found = next(i for i in infos() if i.name == game)
    assert found.title not in text


@pytest.mark.parametrize("game", [i.name for i in infos()])
def test_leaving_is_resigning_and_two_timeouts_while_away_are_leaving_CM_7(game: str) -> None:
    leaving = " ".join(section(guide(game), "Leaving").split())
    assert "leaving is resigning" in leaving
    assert "disconnected" in leaving and "two decisions in a row" in leaving
    assert "bots still at the table finish the game at once" in leaving


def test_scorecard_boxes_score_what_the_guide_says_SC_4_to_SC_12() -> None:
    shown = pictures(section(guide("scorecard"), "The boxes"))
    assert len(shown) == 8
    for _, faces, caption in shown:
        box = BOXES[named(caption)]
        points = score(tuple(int(f) for f in faces.split()), box)
        assert re.search(rf"\b{points}\b", caption), f"{faces} scores {points} as {box.name}: {caption}"


@pytest.mark.parametrize("game", ["zepherin", "classic-board"])
def test_board_hands_are_the_hands_the_dice_make_BD_5(game: str) -> None:
    shown = pictures(section(guide(game), "The hands, best first"))
    checked = 0
    for _, faces, caption in shown:
        dice = tuple(int(f) for f in faces.split())
        name = named(caption)
        if name == "lucky 11":
            assert sum(dice) == 11 and classify(dice) is PokerHand.ONE_PAIR
        else:
            assert classify(dice) is BOARD_HANDS[name], f"{faces}: {caption}"
        checked += 1
    assert checked == len(BOARD_HANDS) + 1  # every hand, best first, and a Lucky 11 (BD-6)
    assert [named(c) for _, _, c in shown if named(c) in BOARD_HANDS] == list(BOARD_HANDS)


def test_peekpoker_hands_are_the_hands_the_dice_make_PK_9() -> None:
    shown = pictures(section(guide("peekpoker"), "The hands, best first"))
    assert [PEEK_HANDS[named(c)] for _, _, c in shown] == sorted(PeekCategory, reverse=True)
    for _, faces, caption in shown:
        assert evaluate(parse_dice(faces)).category is PEEK_HANDS[named(caption)], f"{faces}: {caption}"


def test_peekpoker_worked_example_is_a_full_house_over_two_pairs_PK_9() -> None:
    assert evaluate(parse_dice("A Q Q Q 9 A")).category is PeekCategory.FULL_HOUSE
    assert evaluate(parse_dice("K K 9 Q 9 A")).category is PeekCategory.TWO_PAIRS


def test_holdem_hands_are_the_hands_the_dice_make_HE_10() -> None:
    shown = pictures(section(guide("holdem"), "The hands, best first"))
    assert [HOLDEM_HANDS[named(c)] for _, _, c in shown] == sorted(HoldemCategory, reverse=True)
    for _, faces, caption in shown:
        value = python_best_value(parse_suited(faces))
        assert category_of(value) is HOLDEM_HANDS[named(caption)], f"{faces}: {caption}"


def test_holdem_worked_example_HE_9_HE_10() -> None:
    """Pocket 6y 2y; Flop 6r 3y 5y; Turn 4b (a straight); River 1y (a flush); the opponent's three 6s lose."""
    assert category_of(python_best_value(parse_suited("6y 2y 6r 3y 5y 4b"))) is HoldemCategory.STRAIGHT
    mine = python_best_value(parse_suited("6y 2y 6r 3y 5y 4b 1y"))
    theirs = python_best_value(parse_suited("6b 6w 6r 3y 5y 4b 1y"))
    assert category_of(mine) is HoldemCategory.FLUSH
    assert category_of(theirs) is HoldemCategory.THREE_KIND and mine > theirs
