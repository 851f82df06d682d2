"""CPU seconds of the doctor itself over the development corpora: ``ingest_text`` and ``pipeline.evaluate``.

Reads every case of ``../shared/corpus`` (less the held-back ids) and ``tests/corpus`` (never the holdout
folder), then times, in this process, ``--runs`` passes of (1) a reference, PyYAML's pure-Python loader parsing
the case files again, (2) reading every report (``ingest_text``) and (3) judging and deciding every one
(``pipeline.evaluate`` with the shipped rules). Each stage's figure is the median over the runs of its CPU seconds
(``time.process_time``) and of its ratio to the same run's reference, so that a busier machine moves the
reference with it. A warm-up pass over a few cases comes first (patterns compiled once per process).

It also prints a digest of every result's whole JSON (facts, findings, undecided rules, asks, plan): a change
made only for speed must leave the digest as it was. ``--profile N`` adds a cProfile of reading and judging the
first N cases, sorted by self time.

    python benchmarks/doctor_cpu.py                 # 3 runs over every development case
    python benchmarks/doctor_cpu.py --runs 5 --every 2
    python benchmarks/doctor_cpu.py --runs 1 --profile 300
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import statistics
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ingest"))
sys.path.insert(0, str(ROOT))

from corpus_scoring import OWN_CORPUS, SHARED_CORPUS, shared_heldback_ids  # noqa: E402

from rocm_doctor.ingest import ingest_text  # noqa: E402
from rocm_doctor.judge.loader import load_rules  # noqa: E402
from rocm_doctor.pipeline import evaluate  # noqa: E402


def _texts(every: int) -> list:
    """(id, file text) of the development cases: the shared corpus less its held-back part, then tests/corpus."""
    held = shared_heldback_ids()
    files = [p for p in sorted(SHARED_CORPUS.glob("*.yaml")) if p.stem not in held] if SHARED_CORPUS.is_dir() else []
    files += sorted(OWN_CORPUS.glob("*.yaml"))  # glob is not recursive: tests/corpus/holdout is not read
    return [(p.stem, p.read_text(encoding="utf-8")) for p in files[::every]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed passes (default 3); the median is printed")
    parser.add_argument("--every", type=int, default=1, help="take every Nth case (default: all)")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="also profile reading and judging N cases")
    args = parser.parse_args()
    texts = _texts(max(1, args.every))
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    cases = [yaml.load(text, Loader=loader) for _, text in texts]
    reports = [c["report"] for c in cases if isinstance(c, dict) and isinstance(c.get("report"), str)]

    rules = load_rules([], use_env=False)
    for report in reports[:50]:  # warm-up: lazily compiled patterns, cached tables
        evaluate(rules, ingest_text(report).facts)

    rows = {"reference (PyYAML, pure)": [], "read (ingest_text)": [], "judge and decide (evaluate)": []}
    digests = set()
    for _ in range(max(1, args.runs)):
        started = time.process_time()
        for _, text in texts:
            yaml.load(text, Loader=yaml.SafeLoader)
        reference = time.process_time() - started
        started = time.process_time()
        facts = [ingest_text(report).facts for report in reports]
        reading = time.process_time() - started
        started = time.process_time()
        results = [evaluate(rules, f) for f in facts]
        judging = time.process_time() - started
        for stage, seconds in zip(rows, (reference, reading, judging)):
            rows[stage].append((seconds, seconds / reference if reference else float("nan")))
        digest = hashlib.sha256()
        for result in results:
            digest.update(result.model_dump_json().encode())
        digests.add(digest.hexdigest()[:16])
        del facts, results

    print(f"{len(reports)} reports, {sum(len(r) for r in reports):,} characters, {max(1, args.runs)} runs (medians)")
    print(f"{'stage':<30}{'CPU s':>8}{'ms/report':>11}{'x reference':>13}")
    for stage, values in rows.items():
        seconds = statistics.median(v[0] for v in values)
        ratio = statistics.median(v[1] for v in values)
        print(f"{stage:<30}{seconds:8.2f}{seconds * 1000 / max(1, len(reports)):11.2f}{ratio:13.2f}")
    print(f"results digest: {', '.join(sorted(digests))}" + ("  (differs between runs!)" if len(digests) > 1 else ""))

    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for report in reports[: args.profile]:
            evaluate(rules, ingest_text(report).facts)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
