"""Time ``rocm-doctor ps`` on a machine with many processes (2,000 by default).

Starts ``--processes`` processes in all, on top of what already runs: ``--python`` of them
are Python children that mapped a fake torch's libraries (``ps`` reads their ``maps``: they are
candidates and get listed), the rest are ``sleep`` (one psutil pass each, never read further).
Each timed run is what a user runs, ``rocm-doctor ps --json`` in a fresh process, from start to
exit; the median of ``--runs`` runs is reported, with two references measured in the same run:
procps ``ps -eo pid,user,args`` (the floor: one pass over /proc in C) and the in-process scan
alone (``scan_processes(LiveSystem())``, no interpreter start or imports). Every process this
script started is stopped by its pid, and waited for, before it exits.

    python benchmarks/ps_scale.py --processes 2000 --runs 5
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, List, Sequence

TESTS = Path(__file__).resolve().parent.parent / "tests"
TARGET_SECONDS = 1.0
"""``ps`` on a machine with 2,000 processes answers in under a second (issue 24)."""


def _median(run: Callable[[], object], runs: int) -> List[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return times


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2000, help="processes to start")
    parser.add_argument("--python", type=int, default=20, help="of which Python children that mapped torch libraries")
    parser.add_argument("--runs", type=int, default=5, help="timed runs (median reported)")
    args = parser.parse_args(list(argv) or None)

    sys.path.insert(0, str(TESTS / "processes"))
    from process_support import fake_torch, start_child

    from rocm_doctor.facts.process_scan import scan_processes
    from rocm_doctor.system.live import LiveSystem

    sleep = shutil.which("sleep")
    if sleep is None:
        print("needs sleep(1)")
        return 2
    started: List[subprocess.Popen] = []
    children = []
    with tempfile.TemporaryDirectory(prefix="rocm-doctor-ps-") as tmp:
        try:
            libraries = fake_torch(Path(tmp) / "site", "rocm", "2.9.1+rocm6.4")
            for _ in range(args.python):
                children.append(start_child(libraries))
            for _ in range(max(0, args.processes - args.python)):
                started.append(subprocess.Popen([sleep, "3600"], stdin=subprocess.DEVNULL))
            command = [sys.executable, "-m", "rocm_doctor", "ps", "--json"]
            subprocess.run(command, capture_output=True, timeout=120, check=False)  # warm-up (page cache)
            doctor = _median(lambda: subprocess.run(command, capture_output=True, timeout=120, check=False), args.runs)
            procps = _median(lambda: subprocess.run(["ps", "-eo", "pid,user,args"], capture_output=True, timeout=120,
                                                    check=False), args.runs)
            scan = _median(lambda: scan_processes(LiveSystem()), args.runs)
            done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
            document = json.loads(done.stdout)
        finally:
            for child in children:
                child.stop()
            for process in started:
                process.kill()
            for process in started:
                process.wait(timeout=60)
    listed = sum(1 for p in document["processes"] if p["torch"] and p["torch"]["version"] == "2.9.1+rocm6.4")
    median = statistics.median(doctor)
    print(f"{document['scanned']} processes in the table ({args.processes} started, {args.python} of them Python "
          f"with torch mapped), {document['candidates']} candidates read, {listed} listed with the fake torch")
    print(f"rocm-doctor ps --json: median {median:.3f} s (runs {', '.join(f'{t:.3f}' for t in doctor)})")
    print(f"  in-process scan alone: median {statistics.median(scan):.3f} s; "
          f"procps ps -eo pid,user,args: median {statistics.median(procps):.3f} s "
          f"(rocm-doctor {median / statistics.median(procps):.1f}x procps)")
    ok = listed == args.python and (args.processes < 2000 or median <= TARGET_SECONDS)
    print("target met" if ok else f"target missed (under {TARGET_SECONDS:.0f} s, every Python child listed)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
