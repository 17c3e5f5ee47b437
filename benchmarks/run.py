"""Run every benchmark: ``python benchmarks/run.py [--quick] [name ...]``.

Each ``bench_<name>.py`` beside this file has ``run(quick: bool = False) -> None`` that prints its
figures together with a reference measured in the same run. Names select benchmarks (``scorecard``,
``board``, ``holdem``, ``dice``, ``envs``, ``startup``, ``server``, ``scale``, ``memory``, ``playnow``); none
runs them all. ``--quick`` shrinks every workload for a smoke test.
"""

from __future__ import annotations

import argparse
import importlib
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    parser.add_argument("--quick", action="store_true", help="small workloads, for a smoke test")
    args = parser.parse_args()
    available = sorted(p.stem.removeprefix("bench_") for p in HERE.glob("bench_*.py"))
    chosen = args.names or available
    unknown = sorted(set(chosen) - set(available))
    if unknown:
        parser.error(f"unknown benchmark(s) {', '.join(unknown)}; available: {', '.join(available)}")
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(HERE.parent / "src"))  # measure this tree, not whatever dicepoker is installed
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}")
    for name in chosen:
        print(f"\n== {name} ==")
        importlib.import_module(f"bench_{name}").run(quick=args.quick)


if __name__ == "__main__":
    main()
