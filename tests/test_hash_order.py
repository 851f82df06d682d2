"""Orderings that feed patterns, redaction and test ids are the same under any PYTHONHASHSEED.

pytest-xdist collects the suite once per worker process, and every process draws its own hash
seed: an ordering taken from a set (names of equal length sorted by length alone) gave each
worker different test ids, and ``pytest -n 2`` stopped at collection.
"""

from __future__ import annotations

import os
import subprocess
import sys

_SEEDS = ("0", "1", "2", "3", "4", "5")


def _under_seeds(code: str) -> set:
    """The stdout of ``code`` run once per hash seed (a set of one when the order never depends on hash)."""
    outputs = set()
    for seed in _SEEDS:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, PYTHONHASHSEED=seed))
        assert done.returncode == 0, done.stderr
        outputs.add(done.stdout)
    return outputs


def test_the_code_name_pattern_is_the_same_under_every_hash_seed() -> None:
    code = "from rocm_doctor.knowledge.gpu_table import codename_regex; print(codename_regex().pattern)"
    assert len(_under_seeds(code)) == 1


def test_redaction_rules_are_in_the_same_order_under_every_hash_seed() -> None:
    code = (
        "from rocm_doctor.redact import Redactor\n"
        "r = Redactor.from_names(['abcd', 'wxyz', 'pqrs'], ['host1', 'host2'], ['/home/abcd', '/home/wxyz', '/home/pqrs'])\n"
        "print([(p.pattern, s) for p, s in r.rules])"
    )
    assert len(_under_seeds(code)) == 1
