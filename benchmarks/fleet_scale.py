"""Time ``rocm-doctor fleet`` on a generated fleet: 10,000 node files by default.

The node files are ``check --json`` documents of similar nodes (``tests/fleet_gen.py``: a
few with an older driver, one with another torch build, one GPU at 40% of its peers'
bandwidth), written once into a temporary folder. The timed part is what an operator runs,
``rocm-doctor fleet DIR --json`` in a fresh process, from start to exit: reading and
parsing every file, the aggregation and the JSON output. The median of ``--runs`` runs is
reported, with the time per 1,000 nodes.

    python benchmarks/fleet_scale.py --nodes 10000 --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

TESTS = Path(__file__).resolve().parent.parent / "tests"
TARGET_SECONDS = 10.0
"""Target for 10,000 nodes ("aggregate in seconds", issue 13)."""


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=10_000, help="node files to generate")
    parser.add_argument("--runs", type=int, default=3, help="timed runs (median reported)")
    args = parser.parse_args(list(argv) or None)

    sys.path.insert(0, str(TESTS))
    from fleet_gen import write_fleet

    from rocm_doctor.judge.loader import load_rules

    with tempfile.TemporaryDirectory(prefix="rocm-doctor-fleet-") as tmp:
        folder = Path(tmp) / "nodes"
        n = args.nodes
        fleet = write_fleet(folder, n, load_rules(use_env=False), old_driver=[n // 7, n // 3, n // 2],
                            other_torch=[n // 5], slow={n - 2: 0.4})
        size = sum(p.stat().st_size for p in folder.iterdir())
        times, cpu = [], []
        for _ in range(args.runs):
            start = time.perf_counter()
            with tempfile.TemporaryFile() as out:
                proc = subprocess.Popen([sys.executable, "-m", "rocm_doctor", "fleet", str(folder), "--json"],
                                        stdout=out, stderr=subprocess.DEVNULL)
                _, status, usage = os.wait4(proc.pid, 0)  # the CPU time too: on a shared machine wall time is not ours alone
                proc.returncode = os.waitstatus_to_exitcode(status)
                times.append(time.perf_counter() - start)
                cpu.append(usage.ru_utime + usage.ru_stime)
                out.seek(0)
                report = json.loads(out.read())
        odd = sorted(item["node"] for item in report["odd_nodes"])
        expected = sorted(fleet.old_driver | fleet.other_torch | set(fleet.slow))
        median = statistics.median(times)
        print(f"{n} node files ({size / 1e6:.0f} MB), {args.runs} runs: median {median:.2f} s "
              f"({median / n * 1000:.3f} s per 1,000 nodes); runs {', '.join(f'{t:.2f}' for t in times)}")
        print(f"CPU (user + system) median {statistics.median(cpu):.2f} s; runs {', '.join(f'{t:.2f}' for t in cpu)}")
        print(f"exit {proc.returncode}, verdict {report['verdict']}, odd nodes {odd} (expected {expected})")
        ok = odd == expected and (n < 10_000 or median * 10_000 / n <= TARGET_SECONDS)
        return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
