"""Dice Hold'em hand histories: a text format in the spirit of PokerKit's PHH (TOML, one line per action).

The header names the variant, the config and the seed; ``actions`` lists every action in order, dice
included: ``d draw 6r`` is the dealer drawing and rolling a die, ``p1 raise 30`` is seat 1 raising to
30. Comments (``#``) mark where each hand starts and how it ended; readers ignore them, so the actions
alone replay the game (CM-2). :func:`read_history` and :func:`write_history` round-trip an
:class:`~dicepoker.core.log.EventLog`.

>>> from dicepoker.core import Match
>>> from dicepoker.games.holdem import HoldemGame
>>> match = Match(HoldemGame(players=2, stack=30), seed=3)
>>> while not match.state.is_terminal:
...     match.act(match.state.legal_actions()[-1])
>>> text = write_history(match.log)
>>> text.splitlines()[1]
'variant = "holdem"'
>>> read_history(text) == match.log
True
"""

from __future__ import annotations

import json
import tomllib

from dicepoker.core.errors import CorruptLog
from dicepoker.core.log import Event, EventLog
from dicepoker.core.types import JSON
from dicepoker.dice.suited import describe, format_suited
from dicepoker.games.holdem import HoldemGame, HoldemState

TITLE = "# Dice Hold'em hand history (dicepoker): one line per action; 'd' is the dealer, 'pN' seat N."
CONFIG_KEYS = ("players", "stack", "ante")


def is_history(text: str) -> bool:
    return text.lstrip().startswith(TITLE)


def write_history(log: EventLog) -> str:
    """The log as a hand history, annotated hand by hand (replays the log to write the comments)."""
    if log.game != "holdem":
        raise CorruptLog(f"hand histories are for holdem games, not {log.game!r}")
    game = HoldemGame(**log.config)
    lines = [TITLE, 'variant = "holdem"']
    lines += [f"{key} = {json.dumps(log.config[key])}" for key in CONFIG_KEYS if key in log.config]
    lines.append(f"seed = {json.dumps(log.seed)}" if log.seed is not None else "# seed unknown")
    lines.append("actions = [")
    state = game.initial_state()
    for event in log.events:
        before = state
        state = state.apply(game.parse_action(event.action), event.seat)
        who = "d" if event.seat is None else f"p{event.seat}"
        lines.append(f"  {json.dumps(f'{who} {event.action}')},")
        if state.last_showdown is not before.last_showdown:
            lines.extend(_showdown_comments(state))
        if state.hand != before.hand and state.betting is not None:
            stacks = " ".join(str(s) for s in state.chips())
            lines.append(f"  # hand {state.hand}: dealer p{state.dealer}, chips {stacks}")
    if state.is_terminal:
        result = state.result()
        lines.append(f"  # game over: {result.reason}; chips {' '.join(str(s) for s in result.scores)}")
    lines.append("]")
    return "\n".join(lines) + "\n"


def _showdown_comments(state: HoldemState) -> list[str]:
    record = state.last_showdown
    if record is None:
        return []
    lines = [f"  # hand {record.hand} board: {format_suited(record.board) or '(none)'}"]
    lines += [f"  # p{seat} shows {format_suited(dice)}: {describe(value)}" for seat, dice, value in record.shown]
    for number, payout in enumerate(record.payouts):
        pot = "main pot" if number == 0 else f"side pot {number}"
        won = ", ".join(f"p{seat} {share}" for seat, share in zip(payout.winners, payout.shares, strict=True))
        lines.append(f"  # {pot} {payout.pot.amount}: {won}")
    return lines


def read_history(text: str) -> EventLog:
    """Read a hand history; raises :class:`CorruptLog` saying what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CorruptLog(f"not a hand history: {exc}") from exc
    if data.get("variant") != "holdem":
        raise CorruptLog('not a Dice Hold\'em hand history: variant must be "holdem"')
    config: dict[str, JSON] = {key: data[key] for key in CONFIG_KEYS if key in data}
    seed = data.get("seed")
    actions = data.get("actions")
    if not isinstance(actions, list) or (seed is not None and not isinstance(seed, int)):
        raise CorruptLog("a hand history needs an actions list (and an integer seed if any)")
    events = []
    for number, line in enumerate(actions, start=1):
        who, _, action = str(line).partition(" ")
        if who == "d":
            events.append(Event(None, action))
        elif who[:1] == "p" and who[1:].isdigit() and action:
            events.append(Event(int(who[1:]), action))
        else:
            raise CorruptLog(f"action {number} ({line!r}): expected 'd <dice>' or 'p<seat> <action>'")
    return EventLog("holdem", config, seed, tuple(events))
