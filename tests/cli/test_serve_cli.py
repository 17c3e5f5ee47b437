"""``dicepoker serve``: starts on a free port with its SQLite file, serves, and stops cleanly on SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.server.live import free_port

SRC = Path(__file__).resolve().parents[2] / "src"


def test_serve_answers_and_shuts_down_cleanly(tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(SRC), DICEPOKER_DATA_DIR=str(tmp_path))
    command = [sys.executable, "-c", "from dicepoker.cli import main; main()", "serve", "--port", str(port)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(300):  # waiting for the process to listen, not for game time
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
        created = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"game": "scorecard"})
        assert created.status_code == 201
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=20)
    # uvicorn shuts down gracefully, then re-raises the signal it caught: exit by SIGTERM after a clean stop.
    assert process.returncode in (0, -signal.SIGTERM), err
    assert '"event": "stopped"' in err, err
    assert f"http://127.0.0.1:{port}" in out
    assert (tmp_path / "server.db").exists()
    assert '"event": "created"' in err
