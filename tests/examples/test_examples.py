"""The examples of issue 12 run on a small seed and say what they claim (research extra only)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("gymnasium", reason="the research extra is not installed: pip install -e '.[research]'")
pytest.importorskip("pettingzoo", reason="the research extra is not installed: pip install -e '.[research]'")

ROOT = Path(__file__).resolve().parents[2]


def _run(script: str, *args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    command = [sys.executable, str(ROOT / "examples" / script), *args]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_trained_gymnasium_agent_beats_random() -> None:
    out = _run("train_gymnasium.py", "--seed", "0", "--small")
    trained = re.search(r"trained linear policy: +win rate ([\d.]+)% \[95% CI ([\d.]+)%", out)
    untrained = re.search(r"untrained .*win rate ([\d.]+)%", out)
    assert trained and untrained, out
    assert float(trained.group(2)) > 50, "the lower end of the interval is above 50%"
    assert float(trained.group(1)) > float(untrained.group(1)) + 10
    assert "beats random: yes" in out


def test_the_pettingzoo_episode_ends_with_a_winner_and_replays() -> None:
    out = _run("pettingzoo_episode.py", "--seed", "0", "--small")
    assert "rewards: {'player_0': 1.0, 'player_1': -1.0}" in out
    assert "winner: player_0" in out, "on seed 0 the expert (player_0) takes every chip"
    assert _run("pettingzoo_episode.py", "--seed", "0", "--small") == out, "a seed replays the episode"


def test_openspiel_mcts_beats_uniform_random() -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install -e '.[research]'")
    out = _run("openspiel_algorithm.py", "--seed", "0", "--small")
    assert "MCTS won 4 of 4 games" in out, out
