"""Compare two facts snapshots of one machine: what changed, grouped, most likely to matter first.

Only facts known (or definitely absent) on both sides are compared; a fact known on one side and
unknown on the other is listed under ``not_compared``, never called a change. Within the result,
a change that walks into a known regression (``rules/data/regressions.yaml``) comes first, then
the groups in :data:`~rocm_doctor.diff.model.GROUPS` order.

Volatile facts (free memory, probe timings, when the facts were gathered) are not compared.
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Sequence, Tuple

from packaging.utils import canonicalize_name

from rocm_doctor.diff.versions import machine_gfx, packages_of, platform_of
from rocm_doctor.diff.model import GROUPS, BenchDrop, Change, DiffResult, FindingRef, RegressionMatch
from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact
from rocm_doctor.judge.interpolate import render_value
from rocm_doctor.knowledge.regressions import Regression, regressions
from rocm_doctor.noise import MIN_PEERS, far_below, median_mad
from rocm_doctor.stack import Figure, gpu_order, headline_figures

KERNEL, ROCM, PY_STACK, PYTHON, ENV, GPUS, OTHER = GROUPS

STACK_PACKAGES = (
    "torch", "torchvision", "torchaudio", "triton", "pytorch-triton-rocm", "pytorch-triton", "triton-rocm",
    "amdsmi", "rocm", "rocm-sdk-core", "rocm-sdk-libraries-custom", "numpy",
)
"""The Python stack packages (the torch family, AMD's ROCm wheels, amdsmi); the CLI adds those the rules name."""

_FACTS: Tuple[Tuple[str, str, str], ...] = (
    (KERNEL, "kernel", "host.kernel_release"),
    (KERNEL, "amdgpu driver", "driver.amdgpu_version"),
    (KERNEL, "amdgpu DKMS", "driver.dkms_amdgpu"),
    (KERNEL, "AMD display driver", "windows.driver_version"),
    (KERNEL, "Windows", "host.windows_version"),
    (KERNEL, "WSL", "host.wsl_version"),
    (KERNEL, "kernel command line", "driver.kernel_cmdline"),
    (KERNEL, "operating system", "host.distro_name"),
    (ROCM, "ROCm", "rocm.version"),
    (ROCM, "HIP runtime", "rocm.hip_version"),
    (ROCM, "ROCm installs", "rocm.installs"),
    (ROCM, "ROCm path", "rocm.path"),
    (ROCM, "HIP SDK", "windows.hip_sdk_versions"),
    (ROCM, "HIP runtime DLLs", "windows.amdhip_dlls"),
    (PYTHON, "Python", "python.version"),
    (PYTHON, "interpreter", "python.executable"),
    (PYTHON, "environment kind", "python.env_kind"),
    (GPUS, "devices torch sees", "torch.live.device_count"),
    (GPUS, "GPU targets in the torch build", "torch.live.arch_list"),
)
"""(group, label, fact path) compared one to one."""

def fact_at(facts: Facts, path: str) -> Fact:
    node: object = facts
    for part in path.split("."):
        node = getattr(node, part)
    assert isinstance(node, Fact)
    return node


def _text(fact: Fact) -> Optional[str]:
    return render_value(fact.value) if fact.is_known else None


def _compare_fact(group: str, label: str, before: Fact, after: Fact, skipped: List[str]) -> Optional[Change]:
    if before.is_decided and after.is_decided:
        old, new = _text(before), _text(after)
        return None if old == new else Change(group=group, what=label, before=old, after=new)
    if before.is_decided != after.is_decided and (before.is_known or after.is_known):
        skipped.append(f"{label}: {'unknown now' if before.is_decided else 'unknown before'}")
    return None


def _packages(before: Facts, after: Facts, stack: Sequence[str], skipped: List[str]) -> List[Change]:
    old, new = packages_of(before), packages_of(after)
    if old is None or new is None:
        if (old is None) != (new is None):
            skipped.append(f"Python packages: {'unknown now' if new is None else 'unknown before'}")
        return []
    partial = not (before.packages.installed.is_known and after.packages.installed.is_known)
    wanted = [canonicalize_name(n) for n in stack]
    names = sorted(set(old) | set(new), key=lambda n: (wanted.index(n) if n in wanted else len(wanted), n))
    changes = []
    for name in names:
        if old.get(name) == new.get(name):
            continue
        if partial and (name not in old or name not in new):
            continue  # a paste that does not mention a package has not said it is gone
        group = PY_STACK if name in wanted else OTHER
        changes.append(Change(group=group, what=name, before=old.get(name), after=new.get(name)))
    return changes


def _env(before: Facts, after: Facts, skipped: List[str]) -> List[Change]:
    old_fact, new_fact = before.env.vars, after.env.vars
    if not (old_fact.is_known and new_fact.is_known):
        if old_fact.is_known != new_fact.is_known and (old_fact.value or new_fact.value):
            skipped.append(f"environment variables: {'unknown now' if old_fact.is_known else 'unknown before'}")
        return []
    old, new = dict(old_fact.value or {}), dict(new_fact.value or {})
    changes = []
    for name in sorted(set(old) | set(new)):
        if old.get(name) == new.get(name):
            continue
        if (name not in old and not before.env.covers(name)) or (name not in new and not after.env.covers(name)):
            skipped.append(f"{name}: not shown on one side")
            continue
        changes.append(Change(group=ENV, what=name, before=old.get(name), after=new.get(name)))
    return changes


def _gpus(before: Facts, after: Facts) -> List[Change]:
    old = gpu_order(before.model_dump(mode="json"))
    new = gpu_order(after.model_dump(mode="json"))
    changes = []
    if old != new and before.gpus.discovery.is_decided and after.gpus.discovery.is_decided:
        changes.append(Change(group=GPUS, what="GPUs in discovery order", before=old, after=new))
    for agent_before, agent_after in zip(before.gpus.agents, after.gpus.agents):
        label = _text(agent_after.name) or f"GPU {agent_after.index}"
        found = _compare_fact(KERNEL, f"display driver of {label}", agent_before.driver_version, agent_after.driver_version, [])
        if found is not None:
            changes.append(found)
    return changes


def _match(row: Regression, before: Optional[str], after: str) -> RegressionMatch:
    return RegressionMatch(
        id=row.id, text=row.sentence(before, after), source=row.source, fixed_in=row.fixed_in, last_good=row.last_good
    )


def _with_regressions(change: Change, facts: Facts) -> Change:
    """The change with the known regressions its update walks into."""
    component = {"torch": "torch", "ROCm": "rocm"}.get(change.what)
    if component is None or change.after is None:
        return change
    rows = regressions().matching_update(component, change.before, change.after, machine_gfx(facts), platform_of(facts))
    found = [_match(r, change.before, change.after) for r in rows]
    return change.model_copy(update={"regressions": found}) if found else change


def compare_facts(before: Facts, after: Facts, stack_packages: Iterable[str] = ()) -> Tuple[List[Change], List[str]]:
    """(changes, not compared): the changes ordered known regressions first, then by group."""
    skipped: List[str] = []
    changes: List[Change] = []
    for group, label, path in _FACTS:
        found = _compare_fact(group, label, fact_at(before, path), fact_at(after, path), skipped)
        if found is not None:
            changes.append(found)
    changes += _packages(before, after, [*STACK_PACKAGES, *stack_packages], skipped)
    changes += _env(before, after, skipped)
    changes += _gpus(before, after)
    ranked = sorted(
        enumerate(_with_regressions(c, after) for c in changes),
        key=lambda item: (not item[1].regressions, GROUPS.index(item[1].group), item[0]),
    )
    return [change for _, change in ranked], skipped


def bench_drops(history: Sequence[Sequence[Figure]], now: Sequence[Figure]) -> Tuple[List[BenchDrop], Optional[str]]:
    """Figures of ``now`` far below the earlier runs' median, by ``fleet``'s noise model (median and MAD).

    ``history``: the figures of each earlier run of this machine. With fewer than the model's
    minimum number of runs for a figure nothing is judged, and the note says so.
    """
    if not now:
        return [], None
    drops: List[BenchDrop] = []
    short: List[str] = []
    for figure in now:
        earlier = [f.value for run in history for f in run if (f.test, f.key) == (figure.test, figure.key)]
        if len(earlier) < MIN_PEERS:
            short.append(f"{figure.test} {figure.label}")
            continue
        median, mad = median_mad(earlier)
        if far_below(figure.value, median, mad):
            drops.append(BenchDrop(
                test=figure.test, metric=figure.label, unit=figure.unit, value=figure.value, median=median, mad=mad,
                ratio=figure.value / median, runs=len(earlier),
            ))
    note = None
    if short:
        note = (
            f"{len(short)} benchmark figure{'s' if len(short) > 1 else ''} not judged ({', '.join(short)}): "
            f"the noise model needs {MIN_PEERS} earlier runs with that figure"
        )
    return drops, note


def finding_changes(before: Iterable[FindingRef], after: Iterable[FindingRef]) -> Tuple[List[FindingRef], List[FindingRef]]:
    """(appeared, disappeared), most severe first."""
    rank = {"error": 0, "warning": 1, "info": 2}
    old = {(f.id, f.gpu): f for f in before}
    new = {(f.id, f.gpu): f for f in after}

    def ordered(items: Iterable[FindingRef]) -> List[FindingRef]:
        return sorted(items, key=lambda f: (rank.get(f.severity, 3), f.id, f.gpu if f.gpu is not None else -1))

    return ordered(f for k, f in new.items() if k not in old), ordered(f for k, f in old.items() if k not in new)


def diff(
    before: Facts,
    after: Facts,
    before_findings: Iterable[FindingRef] = (),
    after_findings: Iterable[FindingRef] = (),
    bench_history: Sequence[Sequence[Figure]] = (),
    stack_packages: Iterable[str] = (),
) -> DiffResult:
    """The whole comparison. ``bench_history`` defaults to the figures of ``before`` alone."""
    changes, skipped = compare_facts(before, after, stack_packages)
    history = list(bench_history) or [headline_figures(before.model_dump(mode="json"))]
    drops, note = bench_drops(history, headline_figures(after.model_dump(mode="json")))
    appeared, disappeared = finding_changes(before_findings, after_findings)
    return DiffResult(
        changes=changes, not_compared=skipped, bench=drops, bench_note=note, appeared=appeared, disappeared=disappeared
    )

