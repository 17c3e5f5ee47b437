"""``dicepoker serve`` as a real subprocess on a free loopback port: start, SIGKILL, start again."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

SRC = Path(__file__).resolve().parents[2] / "src"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServerProcess:
    """One server on one database; ``start`` may be called again after ``kill`` (same port, same file)."""

    def __init__(self, db: Path, *, port: int | None = None, autofill: float = 0.2, bot_delay: float = 0.0) -> None:
        self.db = db
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = ["--autofill", str(autofill), "--bot-delay", str(bot_delay)]
        self.process: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".server.log")
        self.kills = 0

    def start(self, timeout: float = 30.0) -> None:
        env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        code = "from dicepoker.cli import main; main()"
        command = [sys.executable, "-c", code, "serve", "--port", str(self.port), "--db", f"sqlite:///{self.db}"]
        command += ["--rate-limit", "0", "--max-open-tables", "0"]  # one test address opens many tables
        with self.log.open("ab") as out:
            self.process = subprocess.Popen([*command, *self.args], stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)  # waiting for a process to listen, not for game time
        raise RuntimeError(f"server did not answer /healthz within {timeout} s")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, no flush; whatever was committed must survive."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.kills += 1

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
