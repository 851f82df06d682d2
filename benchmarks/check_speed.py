"""Time ``rocm-doctor check`` and ``check --no-torch`` against ``python -m torch.utils.collect_env``.

All three run in the same environment: the target interpreter (``--python``, the one
that has torch) runs ``collect_env``, and the doctor inspects that interpreter. Each
command runs once to warm the file cache, then ``--runs`` times; the median wall time
is reported with the ratios against collect_env.

Targets: ``check --no-torch`` at most a third of collect_env's time; the full
``check`` no slower than collect_env.

    python benchmarks/check_speed.py --python /tmp/torchvenv/bin/python --runs 7
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from typing import Dict, List, Sequence

TARGETS = {"check --no-torch": 1 / 3, "check": 1.0}
TIMEOUT = 300.0


def time_command(argv: Sequence[str], runs: int, ok_codes: Sequence[int]) -> List[float]:
    """Wall-clock seconds of ``runs`` runs of ``argv`` after one warm-up run."""
    times: List[float] = []
    for attempt in range(runs + 1):
        start = time.perf_counter()
        done = subprocess.run(list(argv), capture_output=True, text=True, timeout=TIMEOUT, check=False)
        elapsed = time.perf_counter() - start
        if done.returncode not in ok_codes:
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {' | '.join(tail)}")
        if attempt:
            times.append(elapsed)
    return times


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="interpreter that has torch (default: this one)")
    parser.add_argument("--doctor-python", default=sys.executable,
                        help="interpreter that has rocm-doctor installed (default: this one)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per command (median reported)")
    args = parser.parse_args(list(argv) or None)

    doctor = [args.doctor_python, "-m", "rocm_doctor", "check", "--python", args.python]
    commands: Dict[str, List[str]] = {
        "collect_env": [args.python, "-m", "torch.utils.collect_env"],
        "check": doctor,
        "check --no-torch": doctor + ["--no-torch"],
    }
    medians: Dict[str, float] = {}
    print(f"{'command':<18} {'median s':>9} {'min s':>7} {'max s':>7}  (runs={args.runs})")
    for label, command in commands.items():
        # check exits 1 when it has findings: that is a result, not a failure of the run.
        times = time_command(command, args.runs, ok_codes=(0, 1) if label != "collect_env" else (0,))
        medians[label] = statistics.median(times)
        print(f"{label:<18} {medians[label]:>9.3f} {min(times):>7.3f} {max(times):>7.3f}")
    print()
    met = True
    for label, target in TARGETS.items():
        ratio = medians[label] / medians["collect_env"]
        verdict = "ok" if ratio <= target else "SLOWER THAN TARGET"
        met = met and ratio <= target
        print(f"{label} / collect_env = {ratio:.2f}  (target <= {target:.2f}: {verdict})")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
