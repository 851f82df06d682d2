"""Time the test suite under pytest-xdist with different numbers of workers on this machine.

`-n auto` starts one worker per core (pytest-xdist's default). This script measures what another count would
cost: each round runs the suite once per worker count (in an order that rotates from
round to round, so a burst of load from other processes lands on every count alike) and records the wall time
and the CPU time (user + system of pytest and everything it started). The CPU figure shows the price of more
workers (each collects the suite and builds its module fixtures); the wall figure shows what overlapping the
tests that wait on a child buys.

    python benchmarks/suite_workers.py --workers 2,4 --runs 1
    python benchmarks/suite_workers.py --workers 2,3,4 --runs 2 -- tests/bench tests/contrib
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 1800.0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_suite(workers: int, paths: Sequence[str]) -> Tuple[float, float, int]:
    """One run of pytest with ``workers`` workers: (wall seconds, CPU seconds, exit code)."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-n", str(workers), *paths]
    cpu_before, start = _children_cpu(), time.monotonic()
    completed = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=TIMEOUT)
    return time.monotonic() - start, _children_cpu() - cpu_before, completed.returncode


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="2,4", help="comma-separated worker counts (default 2,4)")
    parser.add_argument("--runs", type=int, default=1, help="rounds; each runs the suite once per count")
    parser.add_argument("paths", nargs="*", default=[], help="test paths (default: the whole suite)")
    args = parser.parse_args(list(argv) or None)
    counts = [int(part) for part in args.workers.split(",") if part.strip()]
    results: Dict[int, List[Tuple[float, float]]] = {count: [] for count in counts}
    print(f"{os.cpu_count()} CPUs seen; load average at start {os.getloadavg()[0]:.1f}", flush=True)
    failed = False
    for round_index in range(args.runs):
        order = counts[round_index % len(counts):] + counts[: round_index % len(counts)]
        for count in order:
            wall, cpu, code = run_suite(count, args.paths)
            failed = failed or code != 0
            results[count].append((wall, cpu))
            print(f"round {round_index + 1}: -n {count}: {wall:.0f} s wall, {cpu:.0f} CPU-s, exit {code}", flush=True)
    print("\n| workers | wall (median, s) | CPU (median, s) | runs |\n|---|---|---|---|")
    for count in counts:
        walls = [wall for wall, _ in results[count]]
        cpus = [cpu for _, cpu in results[count]]
        print(f"| {count} | {statistics.median(walls):.0f} | {statistics.median(cpus):.0f} | {len(walls)} |")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
