"""The table server under load: ``dicepoker serve`` (SQLite) against a bare Starlette WebSocket echo server.

Both servers run as their own uvicorn process; the load generator runs in another process, so the three
share this machine's cores as they would in production (server + clients). Figures:

- echo (the reference): round trips per second with as many connections as the saturated phase uses,
  each sending its next message as soon as the previous one came back, and p50/p99 round-trip time;
- saturated: tables whose two seats are played by the load generator as fast as the server answers
  (random legal actions): committed actions per second (acks: each one is in the database before it is
  broadcast) and p50/p99 latency from sending an action to receiving the new state on that connection;
- human pace: 250 and 1,000 tables each making one action per second, same latency figures;
- clocks: tables with a 1 s clock that nobody plays; how late each ``timeout`` reaches a client after
  its deadline (p50/p99);
- reconnect: during the 250-table phase, a seat's client connects again and waits for its first state
  frame (the catch-up), p50/p99.

Run: ``python benchmarks/bench_server.py [--quick] [--profile FILE]`` (or ``python benchmarks/run.py server``);
``--profile`` records the server with py-spy during the saturated phase and prints where its time goes.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("scorecard", "holdem", "zepherin")
"""Saturated tables cycle through these (default configs: long games, so few tables are created)."""
ECHO_SERVER = """
import sys, uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
async def echo(ws):
    await ws.accept()
    try:
        while True:
            await ws.send_text(await ws.receive_text())
    except Exception:
        pass
uvicorn.run(Starlette(routes=[WebSocketRoute("/ws", echo)]), host="127.0.0.1", port=int(sys.argv[1]),
            log_level="warning")
"""
ACTION_LIKE = json.dumps({"type": "action", "action": "reroll 1 3 5", "version": 123, "id": "0123456789abcdef"})


# -- servers ------------------------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}


def _start(command: list[str], url: str, log: Path) -> subprocess.Popen[bytes]:
    import httpx

    with log.open("ab") as out:  # a file, not a pipe: a pipe nobody reads would block the server's logging
        process = subprocess.Popen(command, env=_environment(), stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {log.read_text()[-2000:]}")
        try:
            httpx.get(url, timeout=1)
            return process
        except httpx.TransportError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"{command[:3]} did not start")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# -- load generator (runs in its own process) ---------------------------------------------------------------
@dataclass
class Stats:
    acks: int = 0
    errors: int = 0
    latencies: list[float] = field(default_factory=list)
    measuring: bool = False
    stopping: bool = False
    ready: int = 0
    """Tables whose first game has both seats connected."""


@dataclass
class Pace:
    """One action per ``period`` seconds for the whole table (both seats share it)."""

    period: float
    next_at: float = 0.0

    async def wait(self) -> None:
        now = time.monotonic()
        self.next_at = max(self.next_at, now)
        delay, self.next_at = self.next_at - now, self.next_at + self.period
        await asyncio.sleep(delay)


async def _seat(ws: Any, stats: Stats, pace: Pace | None, rng: random.Random) -> None:
    pending: tuple[int, float] | None = None
    acted = -1
    latest: dict[str, Any] | None = None
    while not stats.stopping:
        try:
            message = await asyncio.wait_for(ws.recv(), timeout=0.5)
        except TimeoutError:
            continue
        frame = json.loads(message)
        now = time.perf_counter()
        kind = frame["type"]
        if kind == "ack":
            stats.acks += stats.measuring
            continue
        if kind == "error":
            stats.errors += 1
            pending, acted = None, -1  # choose again on the newest state
            frame = latest
            if frame is None:
                continue
        elif kind != "state":
            continue
        latest = frame
        if pending is not None and frame["version"] > pending[0]:
            if stats.measuring:
                stats.latencies.append(now - pending[1])
            pending = None
        if frame["status"] == "finished":
            return
        if frame["legal_actions"] and pending is None and frame["version"] != acted:
            if pace is not None:
                await pace.wait()
            acted = frame["version"]
            action = rng.choice(frame["legal_actions"])
            text = json.dumps({"type": "action", "action": action, "version": acted, "id": f"{acted}-{rng.random()}"})
            pending = (acted, time.perf_counter())
            await ws.send(text)


async def _new_table(http: Any, game: str, clock: float | None = None) -> tuple[str, list[str]]:
    created = (await http.post("/api/tables", json={"game": game, "seats": ["open", "open"], "clock": clock})).json()
    tokens = []
    for seat in (0, 1):
        joined = await http.post(f"/api/tables/{created['id']}/join", json={"seat": seat, "name": f"load{seat}"})
        tokens.append(joined.json()["token"])
    return created["id"], tokens


async def _table_worker(url: str, http: Any, game: str, stats: Stats, pace: Pace | None, seed: int) -> None:
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    ws_base = url.replace("http", "ws", 1)
    first = True
    while not stats.stopping:
        table, tokens = await _new_table(http, game)
        async with (
            connect(f"{ws_base}/api/tables/{table}/ws?token={tokens[0]}", compression=None) as ws0,
            connect(f"{ws_base}/api/tables/{table}/ws?token={tokens[1]}", compression=None) as ws1,
        ):
            stats.ready += first
            first = False
            await asyncio.gather(_seat(ws0, stats, pace, rng), _seat(ws1, stats, pace, rng))


async def _reconnects(url: str, http: Any, stats: Stats, samples: list[float]) -> None:
    from websockets.asyncio.client import connect

    table, tokens = await _new_table(http, "holdem")
    ws_base = url.replace("http", "ws", 1)
    while not stats.stopping:
        await asyncio.sleep(0.1)
        if not stats.measuring:
            continue
        start = time.perf_counter()
        async with connect(f"{ws_base}/api/tables/{table}/ws?token={tokens[0]}", compression=None) as ws:
            await ws.recv()
            samples.append(time.perf_counter() - start)


async def _load(url: str, tables: int, period: float | None, seconds: float, reconnects: bool) -> dict[str, Any]:
    import httpx

    stats = Stats()
    catch_up: list[float] = []
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        workers = [
            asyncio.create_task(
                _table_worker(url, http, GAMES[n % len(GAMES)], stats, Pace(period, 0) if period else None, n)
            )
            for n in range(tables)
        ]
        if reconnects:
            workers.append(asyncio.create_task(_reconnects(url, http, stats, catch_up)))
        setup = time.perf_counter()
        while stats.ready < tables and time.perf_counter() - setup < 120:
            await asyncio.sleep(0.1)  # every table created, joined and connected
        setup = time.perf_counter() - setup
        await asyncio.sleep(2.0)  # warm
        stats.measuring = True
        started = time.perf_counter()
        await asyncio.sleep(seconds)
        stats.measuring = False
        elapsed = time.perf_counter() - started
        stats.stopping = True
        await asyncio.gather(*workers, return_exceptions=True)
    return {
        "rate": stats.acks / elapsed,
        "latencies": stats.latencies,
        "errors": stats.errors,
        "catch_up": catch_up,
        "setup": setup,
    }


async def _echo(url: str, connections: int, seconds: float) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    latencies: list[float] = []
    count = 0
    measuring = stopping = False

    async def client() -> None:
        nonlocal count
        async with connect(url, compression=None) as ws:
            while not stopping:
                start = time.perf_counter()
                await ws.send(ACTION_LIKE)
                await ws.recv()
                if measuring:
                    count += 1
                    latencies.append(time.perf_counter() - start)

    tasks = [asyncio.create_task(client()) for _ in range(connections)]
    await asyncio.sleep(2.0)
    measuring = True
    await asyncio.sleep(seconds)
    measuring, stopping = False, True
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"rate": count / seconds, "latencies": latencies, "errors": 0, "catch_up": []}


async def _timeouts(url: str, tables: int, seconds: float) -> dict[str, Any]:
    """Tables with a 1 s clock nobody plays: lateness of each timeout after the deadline a client was told."""
    import httpx
    from websockets.asyncio.client import connect

    lateness: list[float] = []
    stopping = measuring = False
    ready = 0

    async def watch(http: httpx.AsyncClient) -> None:
        nonlocal ready
        first = True
        while not stopping:
            table, tokens = await _new_table(http, "scorecard", clock=1.0)
            async with connect(f"{url.replace('http', 'ws', 1)}/api/tables/{table}/ws?token={tokens[0]}") as ws:
                ready += first
                first = False
                deadlines: dict[int, float] = {}
                while not stopping:
                    try:
                        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=0.5))
                    except TimeoutError:
                        continue
                    if frame.get("type") != "state":
                        continue
                    received = time.time()
                    last, clock = frame.get("last") or {}, frame.get("clock")
                    if last.get("action") == "timeout" and deadlines and measuring:
                        lateness.append(received - deadlines[max(deadlines)])
                        deadlines.clear()
                    if clock:
                        deadlines[frame["version"]] = clock["deadline"]
                    if frame["status"] == "finished":
                        break

    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        tasks = [asyncio.create_task(watch(http)) for _ in range(tables)]
        setup = time.perf_counter()
        while ready < tables and time.perf_counter() - setup < 60:
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.5)  # every table's first clock running
        measuring = True
        await asyncio.sleep(seconds)
        stopping = True
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"rate": len(lateness) / seconds, "latencies": lateness, "errors": 0, "catch_up": []}


def _run_load(kind: str, url: str, *args: Any) -> dict[str, Any]:
    """Entry point of the load-generator process."""
    runner = {"load": _load, "echo": _echo, "timeouts": _timeouts}[kind]
    result: dict[str, Any] = asyncio.run(runner(url, *args))  # type: ignore[operator]
    return result


# -- the benchmark ------------------------------------------------------------------------------------------
def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.1f}"


def _row(name: str, result: dict[str, Any], unit: str, reference: float | None = None) -> str:
    ratio = f"{result['rate'] / reference:.2f}" if reference else "-"
    return (
        f"{name:<38} {result['rate']:>9.0f} {unit:<10} {_ms(result['latencies'], 0.5):>8} "
        f"{_ms(result['latencies'], 0.99):>8} {ratio:>8} {result['errors']:>6}"
    )


def run(quick: bool = False, profile: Path | None = None) -> None:
    seconds = 3.0 if quick else 12.0
    saturated_tables = 16 if quick else 64
    paced = (25, 50) if quick else (250, 1000)
    pool = ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn"))
    rows: list[str] = []
    header = f"{'':<38} {'rate':>9} {'':<10} {'p50 ms':>8} {'p99 ms':>8} {'vs echo':>8} {'errors':>6}"
    try:
        folder = Path(tempfile.mkdtemp(prefix="bench-server-"))
        port = _free_port()
        echo = _start([sys.executable, "-c", ECHO_SERVER, str(port)], f"http://127.0.0.1:{port}/", folder / "echo.log")
        try:
            ref = pool.submit(_run_load, "echo", f"ws://127.0.0.1:{port}/ws", 2 * saturated_tables, seconds).result()
        finally:
            _stop(echo)
        rows.append(_row(f"echo, {2 * saturated_tables} connections (reference)", ref, "msgs/s"))

        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        serve = [sys.executable, "-c", "from dicepoker.cli import main; main()", "serve", "--port", str(port)]
        serve += ["--db", f"sqlite:///{folder / 'bench.db'}", "--bot-delay", "0"]
        # all load comes from one address: no caps per client
        serve += [
            "--max-connections-per-client",
            "0",
            "--max-sockets-per-client",
            "0",
            "--rate-limit",
            "0",
            "--max-open-tables",
            "0",
        ]
        server = _start(serve, f"{url}/healthz", folder / "serve.log")
        try:
            spy = _profile(server.pid, seconds, profile) if profile else None
            sat = pool.submit(_run_load, "load", url, saturated_tables, None, seconds, False).result()
            if spy is not None:
                spy.wait()
            rows.append(_row(f"serve saturated, {saturated_tables} tables", sat, "actions/s", ref["rate"]))
            reconnect: dict[str, Any] = {}
            setups: list[str] = []
            for tables in paced:
                result = pool.submit(_run_load, "load", url, tables, 1.0, seconds, tables == paced[0]).result()
                rows.append(_row(f"serve human pace, {tables} tables", result, "actions/s"))
                setups.append(f"{tables} tables set up (created, joined, connected) in {result['setup']:.1f} s")
                reconnect = reconnect or result
            timeouts = pool.submit(_run_load, "timeouts", url, 20 if quick else 100, seconds).result()
            rows.append(_row(f"timeouts, {20 if quick else 100} idle tables, 1 s clock", timeouts, "timeouts/s"))
            catch_up = {"rate": len(reconnect["catch_up"]) / seconds, "latencies": reconnect["catch_up"], "errors": 0}
            rows.append(_row(f"reconnect catch-up ({paced[0]}-table phase)", catch_up, "per s"))
            rows.extend(setups)
        finally:
            _stop(server)
            shutil.rmtree(folder, ignore_errors=True)
    finally:
        pool.shutdown()
    print(f"{seconds:.0f} s per phase; latency = send to the new state on the sender's connection")
    print(header)
    print("\n".join(rows))
    print("timeouts row: p50/p99 = how late a timeout reached a client after its deadline")
    if profile:
        _summarize_profile(profile)


def _profile(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes]:
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    command = [spy, "record", "--pid", str(pid), "--duration", str(int(seconds + 2)), "--rate", "50"]
    command += ["--format", "raw", "--output", str(out), "--nonblocking"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _summarize_profile(path: Path, top: int = 25) -> None:
    """Inclusive share of samples per function, from py-spy's raw (collapsed stacks) output."""
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        frames = [f.split(" (")[0] + " " + f.rsplit("/", 1)[-1].rstrip(")") for f in stack.split(";")]
        total += int(count)
        own[frames[-1]] += int(count)
        for frame in set(frames):
            inclusive[frame] += int(count)
    print(f"\nprofile of the server during the saturated phase ({total} samples), inclusive share:")
    for frame, count in inclusive.most_common(top):
        print(f"  {100 * count / total:5.1f}%  {frame}")
    print("self share:")
    for frame, count in own.most_common(top):
        print(f"  {100 * count / total:5.1f}%  {frame}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--profile", type=Path, help="record the server with py-spy into this file")
    options = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    run(quick=options.quick, profile=options.profile)
