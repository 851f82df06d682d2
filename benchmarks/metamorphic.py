"""Every meaning-preserving rewrite over every corpus case: the share of rewrites that keep the diagnosis.

``python benchmarks/metamorphic.py [-v] [-k WORDS]`` prints the table per kind of rewrite: the share that kept
the diagnosis and the share that kept every fact a rule may judge (``-v``: the cases that changed either,
held-back cases left out; ``-k docker``: only the kinds whose name holds every one of those words, to check one
reader; words no kind's name holds are an error, not an empty table). The CI test
(``tests/ingest/test_metamorphic.py``) runs a fixed sample of the same rewrites.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "ingest")]

from corpus_scoring import corpora  # noqa: E402
from metamorphic import REWRITES, check_case, table  # noqa: E402


def main(argv: list) -> int:
    from rocm_doctor.judge.loader import load_rules

    rules = load_rules([], use_env=False)
    kinds = list(REWRITES)
    if "-k" in argv:
        at = argv.index("-k") + 1
        words = argv[at].lower().split() if at < len(argv) else []
        kinds = [kind for kind in kinds if words and all(word in kind.lower() for word in words)]
        if not kinds:
            # a "-k" with no words, or words no kind's name holds, would print an empty table that reads as a pass
            print(f"-k needs words that a kind's name holds; the kinds: {', '.join(REWRITES)}", file=sys.stderr)
            return 2
    results = []
    for name, cases in corpora():
        for case in cases:
            kept = check_case(case, rules, kinds)
            results += kept
            if "-v" in argv and name not in ("holdout", "shared-held"):
                for r in kept:
                    if not r.kept:
                        print(f"CHANGED {r.kind:<22} {name:<7} {r.case_id[:55]:<55} {r.before[0]} {sorted(r.before[1])} -> {r.after[0]} {sorted(r.after[1])}")
                    elif not r.facts_kept:
                        print(f"FACTS   {r.kind:<22} {name:<7} {r.case_id[:55]:<55} (diagnosis kept, a fact read differently)")
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
