"""Long fuzz mode: thousands of hostile inputs per channel, a table of exit codes, time and memory.

    python benchmarks/fuzz_long.py                       # 10,000 examples per channel
    python benchmarks/fuzz_long.py --examples 500 --channels rules,facts --jobs 2

Uses the strategies of ``tests/fuzz/fuzz_channels.py`` (the suite runs a few examples of
each). The ``secrets`` channel plants credentials in every field of a recorded machine or in a
real paste and counts those a report keeps: the column "secrets survived" (must be 0; an example
that keeps any is counted under "leak" and written to ``--out``). Every channel runs in its own worker process, so a signal death is seen and counted
(with the input that caused it) instead of ending the run; a worker that dies is restarted
for the examples left. Printed per channel: examples, counts by exit code (3 is an internal
error: an exception out of the runner or a broken invariant), signal deaths, runs over 20 s,
the slowest input, and the peak resident memory of the worker and of its children.
Failures and inputs slower than 5 s are written, with their input, to ``--out`` (default
``fuzz-failures/``). Each worker runs at most 500 examples, so the memory column is rocm-doctor's
peak (plus a bounded generator history), not hypothesis's history of every example.
Options: ``--scale N`` multiplies the hostile sizes (long lines, deep nesting, floods).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, List

ROOT = Path(__file__).resolve().parents[1]
FUZZ = ROOT / "tests" / "fuzz"
SLOW_SECONDS = 20.0
NOTE_SECONDS = 5.0
"""Inputs slower than this are written to --out (ten per worker at most), to be looked at."""
PER_WORKER = 500
"""Examples per worker process: hypothesis keeps what it generated, so a fresh worker every so many
examples keeps the peak memory that of rocm-doctor, not of the generator's history."""
EXAMPLE_ALARM = 120
"""A single example that runs this long is stopped and counted as a hang (exit code "hang")."""


def _shown(example: Any, limit: int = 300) -> str:
    text = repr(example)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def worker(channel_name: str, examples: int, seed: int, report: Path, last: Path, out: Path) -> None:
    """Run ``examples`` examples of one channel in this process; write the tallies to ``report``."""
    import signal

    sys.path.insert(0, str(FUZZ))
    sys.path.insert(0, str(FUZZ.parent))  # tests/: the planting helpers of the secrets channel
    from hypothesis import HealthCheck, Phase, given, seed as hypothesis_seed, settings

    from fuzz_channels import CHANNELS, SecretsSurvived

    channel = CHANNELS[channel_name]
    tally: Dict[str, Any] = {"examples": 0, "codes": {}, "slow": 0, "slowest": [0.0, ""], "failures": [], "secrets": 0}

    class Hang(BaseException):
        """Raised by the alarm; a BaseException, so no ``except Exception`` in the code under test swallows it."""

    def alarm(_signum: int, _frame: Any) -> None:
        raise Hang()

    signal.signal(signal.SIGALRM, alarm)

    @hypothesis_seed(seed)
    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(channel.strategy)
    def run(example: Any) -> None:
        last.write_text(repr(example), encoding="utf-8", errors="replace")
        started = time.monotonic()
        signal.alarm(EXAMPLE_ALARM)
        try:
            with tempfile.TemporaryDirectory() as scratch:
                code = str(channel.run(example, Path(scratch)))
        except Hang:
            code = "hang"
        except SecretsSurvived as leak:
            code = "leak"
            tally["secrets"] += leak.count
            if len(tally["failures"]) < 20:
                path = out / f"{channel_name}-{seed}-{tally['examples']}-leak.txt"
                path.write_text(repr(example) + "\n\n" + str(leak), encoding="utf-8", errors="replace")
                tally["failures"].append({"input": _shown(example), "error": str(leak)[:300], "file": str(path)})
        except Exception:  # noqa: BLE001 - an internal error is what we are looking for
            code = "3"
            if len(tally["failures"]) < 20:
                path = out / f"{channel_name}-{seed}-{tally['examples']}.txt"
                path.write_text(repr(example) + "\n\n" + traceback.format_exc(), encoding="utf-8", errors="replace")
                tally["failures"].append({"input": _shown(example), "error": traceback.format_exc().splitlines()[-1],
                                          "file": str(path)})
        finally:
            signal.alarm(0)
        seconds = time.monotonic() - started
        if seconds > NOTE_SECONDS and tally.setdefault("noted_slow", 0) < 10:
            tally["noted_slow"] += 1
            path = out / f"{channel_name}-{seed}-{tally['examples']}-slow-{seconds:.0f}s.txt"
            path.write_text(repr(example), encoding="utf-8", errors="replace")
        tally["examples"] += 1
        tally["codes"][code] = tally["codes"].get(code, 0) + 1
        tally["slow"] += seconds > SLOW_SECONDS
        if seconds > tally["slowest"][0]:
            tally["slowest"] = [seconds, _shown(example)]
        if tally["examples"] % 100 == 0:
            report.write_text(json.dumps(tally), encoding="utf-8")

    run()
    tally["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    tally["children_peak_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    report.write_text(json.dumps(tally), encoding="utf-8")


def run_channel(name: str, examples: int, seed: int, scale: int, out: Path) -> Dict[str, Any]:
    """Run one channel in worker processes until ``examples`` ran; count signal deaths on the way."""
    total: Dict[str, Any] = {"channel": name, "examples": 0, "codes": {}, "slow": 0, "slowest": [0.0, ""],
                             "failures": [], "deaths": [], "harness_errors": [], "peak_mb": 0.0, "children_peak_mb": 0.0,
                             "secrets": 0}
    started = time.monotonic()
    attempt = 0
    while total["examples"] < examples and attempt < 10 + 2 * examples // PER_WORKER:
        attempt += 1
        with tempfile.TemporaryDirectory() as scratch:
            report, last = Path(scratch) / "report.json", Path(scratch) / "last.txt"
            argv = [sys.executable, __file__, "--worker", name, "--examples", str(min(PER_WORKER, examples - total["examples"])),
                    "--seed", str(seed + attempt), "--report", str(report), "--last", str(last), "--out", str(out)]
            env = dict(os.environ, ROCM_DOCTOR_FUZZ_SCALE=str(scale))
            done = subprocess.run(argv, env=env, capture_output=True, text=True)
            tally = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {"examples": 0, "codes": {}}
            if done.returncode < 0:
                total["deaths"].append({"signal": -done.returncode, "input": last.read_text(errors="replace")[:300]
                                        if last.exists() else "?"})
                tally["examples"] = tally.get("examples", 0) + 1
            elif done.returncode != 0:
                # The worker failed outside an example (a strategy that could not generate): note it, go on.
                log = out / f"{name}-worker-{seed + attempt}.log"
                log.write_text(done.stderr, encoding="utf-8")
                total["harness_errors"].append(str(log))
        total["examples"] += tally.get("examples", 0)
        for code, count in tally.get("codes", {}).items():
            total["codes"][code] = total["codes"].get(code, 0) + count
        total["slow"] += tally.get("slow", 0)
        total["secrets"] += tally.get("secrets", 0)
        if tally.get("slowest", [0.0])[0] > total["slowest"][0]:
            total["slowest"] = tally["slowest"]
        total["failures"] += tally.get("failures", [])
        total["peak_mb"] = max(total["peak_mb"], tally.get("peak_mb", 0.0))
        total["children_peak_mb"] = max(total["children_peak_mb"], tally.get("children_peak_mb", 0.0))
        if tally.get("examples", 0) == 0 and done.returncode >= 0:
            break  # hypothesis could not generate more
    total["seconds"] = time.monotonic() - started
    # Written as each channel ends, so a run cut short keeps the channels that finished.
    (out / f"{name}.result.json").write_text(json.dumps(total), encoding="utf-8")
    print(f"  {name}: {total['examples']:,} examples in {total['seconds']:.0f} s, codes {total['codes']}", file=sys.stderr, flush=True)
    return total


def print_table(results: List[Dict[str, Any]]) -> None:
    header = ["channel", "examples", "exit 0", "exit 1", "exit 2", "exit 3", "hang", "signal deaths", "over 20 s",
              "secrets survived", "slowest s", "peak MB", "children peak MB", "wall s"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in results:
        codes = r["codes"]
        row = [r["channel"], r["examples"], *(codes.get(c, 0) for c in ("0", "1", "2", "3", "hang")), len(r["deaths"]),
               r["slow"], r.get("secrets", 0), f"{r['slowest'][0]:.2f}", f"{r['peak_mb']:.0f}", f"{r['children_peak_mb']:.0f}",
               f"{r['seconds']:.0f}"]
        print("| " + " | ".join(str(c) for c in row) + " |")
    print()
    for r in results:
        print(f"{r['channel']}: slowest input ({r['slowest'][0]:.2f} s): {r['slowest'][1]}")
        for death in r["deaths"]:
            print(f"{r['channel']}: SIGNAL {death['signal']} on: {death['input']}")
        for failure in r["failures"]:
            print(f"{r['channel']}: FAILURE {failure['error']} on: {failure['input']}  ({failure.get('file', '')})")
        for log in r["harness_errors"]:
            print(f"{r['channel']}: the fuzz worker itself failed (not rocm-doctor; see {log}); restarted")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--channels", default="from,rules,facts,machine,python,env,bench,secrets")
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100_000)
    parser.add_argument("--scale", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2))
    parser.add_argument("--out", type=Path, default=Path("fuzz-failures"))
    parser.add_argument("--worker")
    parser.add_argument("--report", type=Path)
    parser.add_argument("--last", type=Path)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.worker:
        worker(args.worker, args.examples, args.seed, args.report, args.last, args.out)
        return
    names = [n for n in args.channels.split(",") if n]
    print(f"fuzz_long: {args.examples:,} examples per channel, seed {args.seed}, scale {args.scale}, {args.jobs} jobs",
          flush=True)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda n: run_channel(n, args.examples, args.seed, args.scale, args.out), names))
    print_table(results)
    bad = sum(r["codes"].get("3", 0) + r["codes"].get("hang", 0) + len(r["deaths"]) + r["slow"] + r.get("secrets", 0)
              for r in results)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
