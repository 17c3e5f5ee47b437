"""Start-up speed: how long each ``dicepoker`` command takes to start, and how long each bot takes over its
first decision and over the slowest decision of its first game, each in a fresh process.

The reference, measured in the same run, is a bare ``python -c pass`` and an import of Typer + Rich (what
every command needs anyway). Each figure is the best of a few runs, since the machine is shared.
Every registered bot (``bots/registry.py``) is timed twice: *cold*, with ``DICEPOKER_CACHE_DIR`` set to a
fresh empty folder (as on a machine that never ran dicepoker: any table not shipped with the package is
built then), and *warm*, in a second process reading that folder back.

Run: ``python benchmarks/bench_startup.py [--quick]`` (or ``python benchmarks/run.py startup``).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from random import Random

ROOT = Path(__file__).resolve().parent.parent
COMMANDS: tuple[tuple[str, ...], ...] = (
    ("--help",),
    ("play", "--help"),
    ("play", "scorecard", "--help"),
    ("play", "holdem", "--help"),
    ("play", "peekpoker", "--help"),
    ("play", "zepherin", "--help"),
    ("odds", "scorecard"),
    ("odds", "holdem"),
    ("odds", "peekpoker"),
    ("odds", "zepherin"),
    ("hand", "holdem", "6r", "6b", "2w", "3y", "6w", "2r", "5y"),
    ("hand", "zepherin", "1", "1", "1", "1", "3"),
    ("score", "scorecard", "1", "1", "3", "3", "3"),
    ("equity", "peekpoker", "--own", "A A K", "--community", "T J Q", "--opponent", "9 9 9"),
    ("equity", "holdem", "--pocket", "6r 6b", "--vs", "2w 3y", "--board", "6w 2r 5y 1b"),
    ("solve", "scorecard"),
    ("simulate", "holdem", "--help"),
    ("replay", "--help"),
)
FIRST_DECISION_LIMIT = 0.2
"""Issue 13: no bot's first decision over 200 ms, even on an empty cache."""
_MAIN = "import sys; from dicepoker.cli import main; sys.argv[0] = 'dicepoker'; main()"
"""What the installed ``dicepoker`` script runs, with this tree's sources first on the path."""


def _bots() -> list[tuple[str, str]]:
    """Every (game, bot) of the registry, read in a child so that this process imports nothing of dicepoker."""
    code = "import json; "
    code += "from dicepoker.bots.registry import _BOTS as B; print(json.dumps([[g, b] for g in B for b in B[g]]))"
    out = subprocess.run([sys.executable, "-c", code], env=_environment(), capture_output=True, text=True, check=True)
    return [(game, bot) for game, bot in json.loads(out.stdout)]


def _environment(cache: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    if cache is not None:
        env["DICEPOKER_CACHE_DIR"] = cache
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def _wall(argv: list[str], repeats: int) -> tuple[float, float, int]:
    """Best wall-clock and best CPU seconds (user + system) of ``repeats`` runs, and the last exit status.

    CPU time is what the command itself costs; on a shared machine the wall clock also counts waiting.
    """
    best, best_cpu, status = float("inf"), float("inf"), 0
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        status = subprocess.run(argv, env=_environment(), capture_output=True, check=False).returncode
        best = min(best, time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best_cpu = min(best_cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best, best_cpu, status


def _bot_child(game_name: str, bot_name: str, hands: int) -> None:
    """In a fresh process: seconds to import the bot's module (what ``play`` does as it starts), of the
    bot's first decision (making the bot included) and of its slowest decision."""
    import importlib

    from dicepoker.bots.registry import _BOTS, create_bot
    from dicepoker.core.match import Match
    from dicepoker.games.registry import create

    game = create(game_name, players=2)
    match = Match(game, seed=1)
    rng = Random(1)
    others = create_bot(game_name, "random")
    first: float | None = None
    slowest = 0.0
    start = time.perf_counter()
    importlib.import_module(_BOTS[game_name][bot_name].split(":")[0])
    imported = time.perf_counter() - start
    start = time.perf_counter()
    bot = create_bot(game_name, bot_name)
    made = time.perf_counter() - start
    decisions = 0
    while match.state.to_act != () and decisions < 400 and getattr(match.state, "hand", 1) <= hands:
        seat = match.state.to_act[0]  # type: ignore[index]
        state = match.state
        player = bot if seat == 0 else others
        start = time.perf_counter()
        action = player.choose(state.view(seat), state.legal_actions(seat), rng)
        seconds = time.perf_counter() - start
        if seat == 0:
            if first is None:
                first = seconds + made
            slowest = max(slowest, seconds)
            decisions += 1
        match.act(action, seat)
    print(json.dumps({"import": imported, "first": first, "slowest": slowest, "decisions": decisions}))


def _bot(game_name: str, bot_name: str, repeats: int, hands: int) -> tuple[dict[str, float], dict[str, float]]:
    """Best figures of ``repeats`` cold runs (each on a new empty cache) and of the warm runs after them."""
    cold: dict[str, float] = {}
    warm: dict[str, float] = {}
    argv = [sys.executable, __file__, "--bot-child", game_name, bot_name, str(hands)]
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="dicepoker-cold-") as cache:
            for best in (cold, warm):
                out = subprocess.run(argv, env=_environment(cache), capture_output=True, text=True, check=True).stdout
                figures = json.loads(out.strip().splitlines()[-1])
                for key in ("import", "first", "slowest"):
                    best[key] = min(best.get(key, float("inf")), figures[key])
                best["decisions"] = figures["decisions"]
    return cold, warm


def run(quick: bool = False) -> None:
    repeats = 1 if quick else 3
    commands = COMMANDS[:3] if quick else COMMANDS
    print(f"best of {repeats} runs; wall clock / CPU time (user + system) of the whole process")
    for label, code in (("python -c pass", "pass"), ("import typer, rich, numpy", "import typer, rich.console, numpy")):
        seconds, cpu, _ = _wall([sys.executable, "-c", code], repeats)
        print(f"  {seconds * 1000:7.0f} ms {cpu * 1000:5.0f} ms cpu  reference: {label}")
    for command in commands:
        seconds, cpu, status = _wall([sys.executable, "-c", _MAIN, *command], repeats)
        flag = "" if status == 0 else f"  [exit {status}]"
        print(f"  {seconds * 1000:7.0f} ms {cpu * 1000:5.0f} ms cpu  dicepoker {' '.join(command)}{flag}")
    print("bots in a fresh process: import of the bot's module, first decision (making the bot included), and")
    print("the slowest decision of its first game (or 3 hands); cold = empty DICEPOKER_CACHE_DIR, warm = read back:")
    bots = _bots()
    over = []
    for game_name, bot_name in bots[:2] if quick else bots:
        cold, warm = _bot(game_name, bot_name, repeats, hands=3)
        if cold["first"] > FIRST_DECISION_LIMIT:
            over.append(f"{game_name} {bot_name}")
        print(
            f"  {game_name:>13} {bot_name:<8} import {cold['import'] * 1000:5.0f} ms"
            f"   first cold {cold['first'] * 1000:6.0f} ms  warm {warm['first'] * 1000:6.0f} ms"
            f"   slowest cold {cold['slowest'] * 1000:6.0f} ms  warm {warm['slowest'] * 1000:6.0f} ms"
            f"   ({cold['decisions']:.0f} decisions)"
        )
    limit = f"{FIRST_DECISION_LIMIT * 1000:.0f} ms"
    print(f"  first decisions over {limit} on an empty cache: {', '.join(over) if over else 'none'}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--bot-child"]:
        _bot_child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        run(quick="--quick" in sys.argv[1:])
