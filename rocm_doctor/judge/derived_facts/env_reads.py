"""Derived facts over the generated table of environment-variable reads (rules/data/env_reads.yaml)."""

from __future__ import annotations

from typing import Dict, List

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import list_fact
from rocm_doctor.judge.derived_facts.env import with_env
from rocm_doctor.knowledge.env_reads import EnvReads, env_reads, is_judged
from rocm_doctor.knowledge.env_vars import EnvVarTable


def read_by_nothing(name: str, reads: EnvReads, known: EnvVarTable) -> bool:
    """True when ``name`` has a judged prefix, no scanned source reads it, and env_vars.yaml does
    not know a reader for it (a row there with read_by other than none keeps it)."""
    if not reads.judged(name) or reads.is_read(name):
        return False
    row = known.lookup(name)
    return row is None or row.read_by == "none"


@machine_fact(
    "env_vars_read_by_nothing",
    "Set variables with a prefix whose readers rules/data/env_reads.yaml covers (its judged_prefixes: "
    "HSA_, HIP_, ROCR_, AMD_ except AMD_COMGR_) that no scanned ROCm source reads and rules/data/env_vars.yaml does not list at all (variables it lists as "
    "read by nothing have RD400/RD401); absent when there are none.",
)
def env_vars_read_by_nothing(facts: Facts, tables: Tables) -> Fact:
    def names(env: Dict[str, str]) -> Fact:
        # The table of reads is large: read its rows only when a variable it judges is set.
        head = tables.head("env_reads")
        prefixes = tuple(head.get("judged_prefixes") or ()), tuple(head.get("unjudged_prefixes") or ())
        chosen: List[str] = []
        if any(is_judged(n, *prefixes) for n in env):
            reads = env_reads(tables["env_reads"])
            known = EnvVarTable.from_data(tables["env_vars"])
            chosen = [n for n in sorted(env) if read_by_nothing(n, reads, known) and known.lookup(n) is None]
        return list_fact(chosen, "env + rules/data/env_reads.yaml", "every set ROCm variable is read by some component")

    return with_env(facts, names)
