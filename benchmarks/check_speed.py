"""Time ``rocm-doctor check``, ``check --no-torch`` and ``--version`` against ``python -m torch.utils.collect_env``.

All run in the same environment: the target interpreter (``--python``, the one that has
torch) runs ``collect_env``, and the doctor inspects that interpreter. Every command runs
once to warm the file cache; then ``--runs`` rounds, each running every command once in an
order that rotates from round to round (interleaved, so a burst of load from other processes
lands on all commands alike). Each round gives one ratio per command against that round's
collect_env, for wall time and for CPU time (user + system of the child and its children);
the median of the ratios is the figure, shown with the minimum and maximum. On a shared,
loaded machine the CPU ratios are the steadier confirmation of the wall-clock ones.

Targets: ``check --no-torch`` <= 0.25x collect_env, the full ``check`` <= 1.0x, ``--version``
<= 0.10x (exit code 1 when a wall-clock median misses its target).

``--paste FILE`` adds ``check --from FILE`` (reading and judging a pasted report in a fresh process: start-up,
the readers' patterns, the judge), with no target: its ratio to collect_env is printed for comparison between
revisions.

``--judged-env`` sets ``HSA_OVERRIDE_GFX_VERSION`` and three other variables the rules judge
in every command's environment (the case where the doctor must read its variable table).

    python benchmarks/check_speed.py --python /tmp/torchvenv/bin/python --runs 9
    python benchmarks/check_speed.py --python /tmp/torchvenv/bin/python --runs 9 --judged-env
    python benchmarks/check_speed.py --runs 9 --paste tests/ingest/seed_pastes/<file>.txt
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Mapping, Sequence, Tuple

TARGETS = {"check --no-torch": 0.25, "check": 1.0, "--version": 0.10}
TIMEOUT = 300.0
JUDGED_ENV = {
    "HSA_OVERRIDE_GFX_VERSION": "10.3.0",
    "HIP_VISIBLE_DEVICES": "0",
    "PYTORCH_ROCM_ARCH": "gfx1030",
    "AMD_SERIALIZE_KERNEL": "3",
}
"""Variables the rules judge (rules/data/env_vars.yaml rows and gfx/device rules read them)."""


def run_once(argv: Sequence[str], env: Mapping[str, str], ok_codes: Sequence[int]) -> Tuple[float, float]:
    """Wall-clock and CPU seconds (user + system, the child and its children) of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(list(argv), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(env))
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if proc.returncode not in ok_codes:
        tail = err.strip().splitlines()[-3:]
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}: {' | '.join(tail)}")
    return elapsed, usage.ru_utime + usage.ru_stime


def spread(values: List[float]) -> str:
    return f"{statistics.median(values):6.3f} ({min(values):.3f}-{max(values):.3f})"


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="interpreter that has torch (default: this one)")
    parser.add_argument("--doctor-python", default=sys.executable,
                        help="interpreter that has rocm-doctor installed (default: this one)")
    parser.add_argument("--runs", type=int, default=9, help="interleaved rounds (medians of the ratios reported)")
    parser.add_argument("--paste", type=Path, help="also time `check --from PASTE` (no target)")
    parser.add_argument("--judged-env", action="store_true",
                        help="set HSA_OVERRIDE_GFX_VERSION and three other judged variables")
    args = parser.parse_args(list(argv) or None)

    env = dict(os.environ)
    if args.judged_env:
        env.update(JUDGED_ENV)
    doctor = [args.doctor_python, "-m", "rocm_doctor"]
    commands: Dict[str, List[str]] = {
        "collect_env": [args.python, "-m", "torch.utils.collect_env"],
        "check": doctor + ["check", "--python", args.python],
        "check --no-torch": doctor + ["check", "--python", args.python, "--no-torch"],
        "--version": doctor + ["--version"],
    }
    if args.paste is not None:
        commands["check --from"] = doctor + ["check", "--from", str(args.paste)]
    # check exits 1 when it has findings: that is a result, not a failure of the run.
    ok = {label: (0,) if label in ("collect_env", "--version") else (0, 1) for label in commands}
    for label, command in commands.items():  # warm the file cache
        run_once(command, env, ok[label])
    wall: Dict[str, List[float]] = {label: [] for label in commands}
    cpu: Dict[str, List[float]] = {label: [] for label in commands}
    labels = list(commands)
    for round_ in range(args.runs):
        order = labels[round_ % len(labels):] + labels[:round_ % len(labels)]
        for label in order:
            w, c = run_once(commands[label], env, ok[label])
            wall[label].append(w)
            cpu[label].append(c)
    print(f"runs={args.runs} interleaved{'  env: ' + ' '.join(JUDGED_ENV) if args.judged_env else ''}")
    print(f"{'command':<18} {'wall s: median (min-max)':>26} {'cpu s: median (min-max)':>26}")
    for label in labels:
        print(f"{label:<18} {spread(wall[label]):>26} {spread(cpu[label]):>26}")
    print()
    print(f"{'ratio to collect_env':<22} {'wall: median (min-max)':>24} {'cpu: median (min-max)':>24}  target")
    met = True
    for label, target in [*TARGETS.items(), *([("check --from", None)] if "check --from" in commands else [])]:
        wall_ratios = [w / base for w, base in zip(wall[label], wall["collect_env"])]
        cpu_ratios = [c / base for c, base in zip(cpu[label], cpu["collect_env"])]
        median = statistics.median(wall_ratios)
        if target is None:
            print(f"{label:<22} {spread(wall_ratios):>24} {spread(cpu_ratios):>24}  (none)")
            continue
        verdict = "ok" if median <= target else "SLOWER THAN TARGET"
        met = met and median <= target
        print(f"{label:<22} {spread(wall_ratios):>24} {spread(cpu_ratios):>24}  <= {target:.2f} {verdict}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
