"""CPU cost of reading and judging real pastes: every corpus case through ``ingest_text`` and the pipeline.

The figures are CPU seconds of this process, and ratios against a reference run in the same process on the same
cases (PyYAML's pure-Python loader parsing each case file again), so that a slower or busier machine moves the
reference with them. A digest of every finding (id, severity, title, message, evidence paths) and every undecided
rule (id, missing facts) is printed too: a change meant only to make reading or judging faster must leave it as it
was.

    python benchmarks/paste_speed.py            # every case of ../shared/corpus and tests/corpus
    python benchmarks/paste_speed.py --every 4  # a quarter of them
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ingest"))
sys.path.insert(0, str(ROOT))

from corpus_scoring import HOLDOUT_CORPUS, OWN_CORPUS, SHARED_CORPUS  # noqa: E402

from rocm_doctor.ingest import ingest_text  # noqa: E402
from rocm_doctor.judge.loader import load_rules  # noqa: E402
from rocm_doctor.pipeline import evaluate  # noqa: E402


def _case_files(every: int) -> list:
    files = [p for folder in (SHARED_CORPUS, OWN_CORPUS, HOLDOUT_CORPUS) if folder.is_dir() for p in sorted(folder.glob("*.yaml"))]
    return files[::every]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, help="take every Nth case file (default: all)")
    args = parser.parse_args()
    files = _case_files(max(1, args.every))
    texts = [(p.stem, p.read_text(encoding="utf-8")) for p in files]

    started = time.process_time()
    cases = [yaml.load(text, Loader=yaml.SafeLoader) for _, text in texts]  # the reference: pure-Python YAML
    reference = time.process_time() - started
    reports = [(name, case["report"]) for (name, _), case in zip(texts, cases) if isinstance(case, dict) and isinstance(case.get("report"), str)]

    rules = load_rules([], use_env=False)
    ingest_text("warm-up: the signature table and the readers' patterns are compiled once per process")
    started = time.process_time()
    facts = [ingest_text(report, origin_detail=name).facts for name, report in reports]
    reading = time.process_time() - started
    started = time.process_time()
    results = [evaluate(rules, f) for f in facts]
    judging = time.process_time() - started

    digest = hashlib.sha256()
    for result in results:
        digest.update(json.dumps([(f.id, f.severity, f.title, f.message, [e.path for e in f.evidence]) for f in result.findings]).encode())
        digest.update(json.dumps(sorted((u.id, u.missing) for u in result.undecided)).encode())

    print(f"{len(reports)} pastes, {sum(len(r) for _, r in reports):,} characters")
    print(f"{'stage':<28}{'CPU s':>8}{'ms/paste':>10}{'x reference':>13}")
    for stage, seconds in (("reference (PyYAML, pure)", reference), ("read (ingest_text)", reading), ("judge and decide", judging)):
        print(f"{stage:<28}{seconds:8.2f}{seconds * 1000 / max(1, len(reports)):10.1f}{seconds / reference if reference else float('nan'):13.2f}")
    print(f"findings digest: {digest.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
