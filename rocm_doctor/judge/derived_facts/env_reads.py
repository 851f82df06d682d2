"""Derived facts over the generated table of environment-variable reads (rules/data/env_reads.yaml).

A set variable is judged against the ROCm release(s) this machine's processes load: the ROCm a
ROCm build of torch was built for (its wheel carries that HIP runtime) and the system ROCm. A
verdict is given only when it is the same for every such release (see
:meth:`rocm_doctor.knowledge.env_reads.EnvReads.at_release`).
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import list_fact
from rocm_doctor.judge.derived_facts.env import with_env
from rocm_doctor.knowledge.env_reads import NOT_READ, EnvReads, Scan, env_reads, release_series, summarise_scans
from rocm_doctor.knowledge.env_vars import env_var_table

_SOURCE = "env + rules/data/env_reads.yaml"


def machine_releases(facts: Facts) -> List[str]:
    """The ROCm release series this machine's processes may load (``6.2``), each once, in a fixed order."""
    found: List[str] = []
    for fact in (facts.torch.rocm_version, facts.rocm.version):
        series = release_series(fact.value) if fact.is_known else None
        if series and series not in found:
            found.append(series)
    return found


def unread_here(
    name: str, reads: EnvReads, releases: List[str], torch_present: bool = True, rocm_only: bool = False
) -> Optional[Tuple[Tuple[str, ...], Tuple[Scan, ...]]]:
    """(scans the verdict rests on, scans of other releases that read it) when no release in
    ``releases`` reads ``name`` by every scan that covers it; None when any is read or unknown."""
    basis: List[str] = []
    elsewhere: Dict[str, Scan] = {}
    for release in releases:
        verdict = reads.at_release(name, release, torch_present=torch_present, rocm_only=rocm_only)
        if verdict.status != NOT_READ:
            return None
        basis.extend(verdict.basis)
        elsewhere.update((s.id, s) for s in verdict.elsewhere if release_series(s.release) not in releases)
    if not releases:
        return None
    return tuple(sorted(set(basis))), tuple(sorted(elsewhere.values(), key=lambda s: (s.order, s.id)))


def where_else(scans: Tuple[Scan, ...], releases: List[str], table: EnvReads) -> str:
    """``read from ROCm 6.3.0 on: libhsakmt@rocm-6.3.0`` / ``read by a commit after 6.2.4: libhsakmt@c7785a6da1c1``
    / ``read until ROCm 6.0.2: ...``: where a name this release does not read is read."""
    newest = max((tuple(int(p) for p in r.split(".")) for r in releases), default=(0, 0))
    undated = [s for s in scans if s.release is None and s.after is None]
    later = [s for s in scans if s not in undated and (s.order[0][:2] > newest or (s.order[0][:2] == newest and s.release is None))]
    earlier = [s for s in scans if s not in undated and s not in later]
    if not later and not earlier:
        return f"read by a commit of no known ROCm release: {summarise_scans(tuple(s.id for s in undated), table.scans)}"
    if later:
        first = later[0]
        ids = tuple(s.id for s in later if s.order == first.order)
        if first.release is not None:
            return f"read from ROCm {first.release} on: {summarise_scans(ids, table.scans)}"
        return f"read by {first.label}: {summarise_scans(ids, table.scans)}"
    last = earlier[-1]
    return f"read until ROCm {last.label}: {summarise_scans(tuple(s.id for s in earlier), table.scans)}"


def _judge(
    facts: Facts,
    tables: Tables,
    compute: Callable[[List[Tuple[str, Tuple[str, ...], Tuple[Scan, ...]]], EnvReads, List[str]], Fact],
    rocm_only: bool = False,
) -> Fact:
    """``compute(found, table, releases)`` over the set variables no release of this machine reads.

    ``rocm_only``: judge ROCm's components alone (RD701 speaks of "your ROCm"); otherwise PyTorch is
    a reader too wherever torch is installed (RD700 says "no scanned source reads it").
    """
    releases = machine_releases(facts)
    torch_present = facts.torch.version.status != "absent"

    def names(env: Dict[str, str]) -> Fact:
        # The table of reads is large (250 KB): its rows are read only when a variable it judges is set.
        stems = tuple(tables.head("env_reads").get("judged_stems") or ())
        if not any(name.startswith(stems) for name in env):
            return compute([], None, releases)  # type: ignore[arg-type] - no name to look up
        reads = env_reads(tables["env_reads"])
        known_vars = env_var_table(tables["env_vars"])
        if not releases:
            if any(reads.stem(n) and not reads.out_of_scope(n) for n in env):
                return unknown("the ROCm release this machine loads is not known (neither a ROCm torch build nor a system ROCm)")
            return compute([], reads, releases)
        found = []
        for name in sorted(env):
            answer = unread_here(name, reads, releases, torch_present=torch_present, rocm_only=rocm_only)
            # a name rocm-doctor's own table knows is never "read by nothing" here (RD400/RD401 report
            # the unread ones); that another release reads it is still worth saying
            if answer is not None and (answer[1] or known_vars.lookup(name) is None):
                found.append((name, answer[0], answer[1]))
        return compute(found, reads, releases)

    return with_env(facts, names)


def _label(releases: List[str]) -> str:
    return "ROCm " + " and ".join(releases)


@machine_fact(
    "env_vars_read_by_nothing",
    "Set variables that no scanned source reads at all, judged for this machine's ROCm release(s) only where "
    "every component that reads names of the variable's stem was scanned completely at that release "
    "(rules/data/env_reads.yaml); variables rules/data/env_vars.yaml lists are left to their own rules.",
)
def env_vars_read_by_nothing(facts: Facts, tables: Tables) -> Fact:
    return _judge(facts, tables, lambda found, _r, _rel: list_fact(
        [n for n, _b, elsewhere in found if not elsewhere], _SOURCE, "every set ROCm variable is read, or not judged"))


@machine_fact(
    "env_read_by_nothing_basis",
    "The scans (component@tag) the 'read by nothing' verdict rests on, and the release it is for.",
)
def env_read_by_nothing_basis(facts: Facts, tables: Tables) -> Fact:
    def compute(found, reads: EnvReads, releases: List[str]) -> Fact:
        basis = sorted({i for _n, b, elsewhere in found if not elsewhere for i in b})
        if not basis:
            return list_fact([], _SOURCE, "no set variable is read by nothing")
        return known(f"{_label(releases)}: {summarise_scans(tuple(basis), reads.scans)}", _SOURCE)

    return _judge(facts, tables, compute)


@machine_fact(
    "env_vars_not_read_by_this_rocm",
    "Set variables that this machine's ROCm release does not read (every component that reads names of "
    "the stem was scanned completely there) but another scanned release does, each with where it is read.",
)
def env_vars_not_read_by_this_rocm(facts: Facts, tables: Tables) -> Fact:
    return _judge(facts, tables, lambda found, reads, releases: list_fact(
        [f"{n} ({where_else(elsewhere, releases, reads)})" for n, _b, elsewhere in found if elsewhere],
        _SOURCE, "no set variable is read only by another ROCm release"), rocm_only=True)


@machine_fact(
    "env_rocm_releases",
    "The ROCm release series this machine's processes may load (a ROCm torch build's, the system's), as words.",
)
def env_rocm_releases(facts: Facts, tables: Tables) -> Fact:
    releases = machine_releases(facts)
    if not releases:
        return unknown("the ROCm release this machine loads is not known")
    return known(_label(releases), "torch.rocm_version, rocm.version")
