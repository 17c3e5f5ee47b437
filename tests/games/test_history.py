"""Hand histories (:mod:`dicepoker.games.history`): one writer and reader for holdem and peekpoker.

Round trips (CM-2: a game is its name, config and actions): a seeded bot game -> history text -> read back
-> equals the event log -> replays to the same final state. Bad files raise ``CorruptLog`` (CM-4).
"""

from __future__ import annotations

import re
from random import Random
from typing import Any

import pytest

from dicepoker.bots.registry import create_bot
from dicepoker.core import Match
from dicepoker.core.errors import CorruptLog
from dicepoker.core.log import EventLog
from dicepoker.core.types import Resign, Timeout
from dicepoker.games.history import is_history, read_history, variant_names, write_history
from dicepoker.games.peekpoker import PeekPokerConfig, PeekPokerState
from dicepoker.games.registry import create, replay

HOLDEM_TITLE = "# Dice Hold'em hand history (dicepoker): one line per action; 'd' is the dealer, 'pN' seat N."
PEEKPOKER_CONFIGS: list[dict[str, Any]] = [
    {},
    {"players": 3, "stack": 12, "blinds": True},
    {"players": 4, "stack": 20, "forced_bet": True, "split_community": True},
    {"players": 3, "stack": 10, "ace_rerolls": False},
]


def bot_game(name: str, config: dict[str, Any], seed: int, platform_actions: bool = True) -> Match:
    """A seeded game of random bots (seat choices from their own stream), with a timeout or resignation now and then."""
    match = Match(create(name, **config), seed=seed)
    bot, rng = create_bot(name, "random"), Random(seed)
    while not match.state.is_terminal:
        to_act = match.state.to_act
        assert isinstance(to_act, tuple)
        seat = to_act[rng.randrange(len(to_act))]
        roll = rng.random()
        if platform_actions and roll < 0.03:
            match.act(Timeout(), seat)
        elif platform_actions and roll < 0.035:
            match.act(Resign(), seat)
        else:
            match.act(bot.choose(match.state.view(seat), match.state.legal_actions(seat), rng), seat)
    return match


def test_every_peekpoker_option_is_in_some_config() -> None:
    options = {key for config in PEEKPOKER_CONFIGS for key in config}
    assert options == set(PeekPokerConfig.__dataclass_fields__)


@pytest.mark.parametrize(
    "config", PEEKPOKER_CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()) or "default"
)
def test_CM_2_peekpoker_history_round_trips(config: dict[str, Any]) -> None:
    """CM-2: bot game -> history -> read back == the event log -> replays to the identical final state."""
    for seed in range(3):
        match = bot_game("peekpoker", config, seed)
        text = write_history(match.log)
        assert is_history(text) and text.splitlines()[1] == 'variant = "peekpoker"'
        log = read_history(text)
        assert log == match.log
        assert dict(log.config) == create("peekpoker", **config).config_json(), "every option round-trips"
        assert replay(EventLog.from_jsonl(log.to_jsonl()))[-1] == match.state
        assert "game over" in text


def test_PK_14_options_are_written_as_toml_lines() -> None:
    """PK-14: every option of the config (aces may not be re-rolled included) is a line of the header."""
    config = {"players": 3, "stack": 10, "blinds": True, "forced_bet": True, "split_community": True}
    text = write_history(bot_game("peekpoker", {**config, "ace_rerolls": False}, 1).log)
    header = text.split("actions = [")[0]
    for line in ("players = 3", "stack = 10", "blinds = true", "forced_bet = true", "split_community = true"):
        assert f"\n{line}\n" in header
    assert "\nace_rerolls = false\n" in header
    assert read_history(text).config["ace_rerolls"] is False
    assert " may re-roll aces" not in text and "aces:" not in text, "PK-14: no ace decisions without re-rolls"


def test_comments_are_ignored_by_the_reader() -> None:
    match = bot_game("peekpoker", {"players": 3}, 2)
    text = write_history(match.log)
    bare = "\n".join(line for line in text.splitlines()[1:] if not line.strip().startswith("#"))
    assert read_history(text.splitlines()[0] + "\n" + bare) == match.log


# -- the comments of each PeekPoker hand ------------------------------------------------------------
def annotated_game() -> tuple[Match, str]:
    """A 3-player game with ace re-rolls, ace decisions again (PK-8) and side pots (PK-12)."""
    match = bot_game("peekpoker", {"players": 3, "stack": 6}, 24, platform_actions=False)
    return match, write_history(match.log)


def test_PK_8_showdown_and_ace_rerolls_are_annotated() -> None:
    """PK-8: who shows what, who may re-roll aces, what each decided (revealed together), what the dice became."""
    _, text = annotated_game()
    assert re.search(r"# showdown, community [9TJQKA ]+: p\d shows [9TJQKA ]+(, p\d shows [9TJQKA ]+)+", text)
    assert re.search(r"# p\d(, p\d)* may re-roll aces \(PK-8\)", text)
    assert re.search(r"# aces: p\d (re-rolls \d ace\(s\)|stands)", text)
    assert re.search(r"# p\d re-rolled \d ace\(s\): [9TJQKA ]+", text)
    assert "rolled aces again and may re-roll them (PK-8)" in text


def test_PK_12_pots_in_the_comments_add_up_to_the_chips_won() -> None:
    """PK-9/PK-11/PK-12: each hand's comments name the hands shown and who won which pot; per seat, the
    shares add up to what the engine paid (``PreviousHand.won``)."""
    match, text = annotated_game()
    won_by_hand = {}
    for state in replay(match.log):
        assert isinstance(state, PeekPokerState)
        if state.previous is not None:
            won_by_hand[state.previous.number] = state.previous.won
    annotated: dict[int, list[int]] = {}
    hand = 0
    for line in text.splitlines():
        if found := re.match(r"  # hand (\d+) community: ", line):
            hand = int(found[1])
            annotated[hand] = [0] * 3
        elif found := re.match(r"  # (main pot|side pot \d+|pot) \d+: (.*)", line):
            for seat, share in re.findall(r"p(\d) (\d+)", found[2]):
                annotated[hand][int(seat)] += int(share)
    assert annotated == {number: list(won) for number, won in won_by_hand.items()}
    assert "side pot 1" in text and "(the others folded, PK-11)" in text
    assert re.search(
        r"# p\d shows [9TJQKA ]+: (pair|two pairs|three|full house|four|five|large straight|straight)", text
    )
    assert re.search(r"# hand 2: dealer p\d, chips \d+ \d+ \d+\n", text)


# -- holdem stays as it was -------------------------------------------------------------------------
def test_holdem_title_and_header_are_unchanged() -> None:
    match = bot_game("holdem", {"players": 3, "stack": 20, "ante": 10}, 1)
    text = write_history(match.log)
    assert text.splitlines()[:6] == [
        HOLDEM_TITLE,
        'variant = "holdem"',
        "players = 3",
        "stack = 20",
        "ante = 10",
        "seed = 1",
    ]
    assert "  # hand 1: dealer p" in text and "  # main pot " in text
    assert read_history(text) == match.log
    assert replay(read_history(text))[-1] == match.state


def test_a_history_written_before_the_split_still_reads() -> None:
    """A Dice Hold'em history exactly as the first version wrote it (players, stack, ante, seed, actions)."""
    match = Match(create("holdem", players=2, stack=30), seed=3)
    while not match.state.is_terminal:
        match.act(match.state.legal_actions()[-1])
    actions = "\n".join(f'  "{"d" if e.seat is None else f"p{e.seat}"} {e.action}",' for e in match.log.events)
    old = (
        f'{HOLDEM_TITLE}\nvariant = "holdem"\nplayers = 2\nstack = 30\nante = 10\nseed = 3\nactions = [\n{actions}\n]\n'
    )
    assert read_history(old) == match.log
    assert write_history(match.log).replace("  #", "#").count("#") > 1  # the writer annotates


def test_variants_and_detection() -> None:
    assert variant_names() == ["holdem", "peekpoker"]
    assert not is_history(bot_game("peekpoker", {}, 0).log.to_jsonl())
    assert is_history("\n# Some Game hand history (dicepoker): one line per action\n")


# -- bad input (CM-4) ---------------------------------------------------------------------------------
def peekpoker_text() -> str:
    return write_history(bot_game("peekpoker", {"players": 3, "stack": 12}, 4).log)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace('variant = "peekpoker"', 'variant = "omaha"'), "unknown hand-history variant 'omaha'"),
        (lambda t: t.replace('variant = "peekpoker"', 'variant = "scorecard"'), "unknown hand-history variant"),
        (lambda t: t.replace('variant = "peekpoker"\n', ""), "unknown hand-history variant None"),
        (lambda t: t.replace("actions = [", "actions = [[", 1), "not a hand history"),
        (lambda t: t.replace("ace_rerolls = true", 'ace_rerolls = "no"'), "bad config"),
        (lambda t: t.replace("stack = 12", "stack = 1"), "bad config"),
        (lambda t: t.replace("stack = 12", "stack = 12\nbankroll = 3"), "unknown key(s) bankroll"),
        (lambda t: t.replace("seed = 4", "seed = true"), "integer seed"),
        (lambda t: t.replace('"d high-roll', '"dealer high-roll', 1), "expected 'd <dice>' or 'p<seat> <action>'"),
        (lambda t: t.replace('"d high-roll', '"d crazy-roll', 1), "event 1"),
        (lambda t: t.replace('"d rolled ', '"d rolled A A A A ', 1), "event"),
        (lambda t: re.sub(r'"p(\d) (check|call|bet \d+|raise \d+|fold)"', r'"p\1 reroll A"', t, count=1), "event"),
        (lambda t: re.sub(r'"p(\d) ', '"p7 ', t, count=1), "event"),
    ],
    ids=[
        "unknown-variant",
        "game-without-histories",
        "no-variant",
        "bad-toml",
        "text-option",
        "small-stack",
        "unknown-key",
        "bool-seed",
        "bad-seat-word",
        "unknown-chance",
        "four-dice",
        "reroll-while-betting",
        "no-such-seat",
    ],
)
def test_CM_4_bad_histories_raise_corrupt_log(change: Any, message: str) -> None:
    text = peekpoker_text()
    damaged = change(text)
    assert damaged != text
    with pytest.raises(CorruptLog, match=re.escape(message)):
        read_history(damaged)


def test_CM_4_writing_refuses_games_without_histories_and_bad_logs() -> None:
    scorecard = Match(create("scorecard", players=1), seed=1).log
    with pytest.raises(CorruptLog, match="hand histories are for holdem and peekpoker games, not 'scorecard'"):
        write_history(scorecard)
    log = bot_game("peekpoker", {}, 1).log
    with pytest.raises(CorruptLog, match="bad config"):
        write_history(EventLog(log.game, {**log.config, "players": 9}, log.seed, log.events))
    with pytest.raises(CorruptLog, match="event 1"):
        write_history(EventLog(log.game, log.config, log.seed, log.events[1:]))


@pytest.mark.parametrize("server_seed", [None, "00" * 32])
def test_the_fairness_record_round_trips(server_seed: str | None) -> None:
    """A hand history downloaded from an online table keeps its fairness record, so it can be verified."""
    fairness = {"scheme": "hmac-sha256-v1", "commitment": "ab", "client_seeds": ['a"\\\x7f\x01 é 😀', ""]}
    match = bot_game("holdem", {"players": 2, "stack": 30}, 3, platform_actions=False)
    log = EventLog(match.log.game, match.log.config, None, match.log.events, {**fairness, "server_seed": server_seed})
    text = write_history(log)
    assert ("server_seed" in text) == (server_seed is not None)
    assert read_history(text) == log
    assert "fairness" not in write_history(match.log)
    with pytest.raises(CorruptLog, match="fairness"):
        read_history(text.replace('"scheme" = "hmac-sha256-v1"', '"scheme" = 1'))
