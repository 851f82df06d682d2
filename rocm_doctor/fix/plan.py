"""Findings -> an ordered, grouped fix plan.

Groups come in the order they must be applied: manual/system steps (drivers,
groups, BIOS: things only the user can do) -> Python packages -> environment
-> Docker -> code advice. Every change keeps the ids of the findings it resolves.

Conflicts are reported, never merged: two values for one variable, a set and an
unset of the same variable, or two different torch builds. A conflicting
variable is left out of the environment changes until the user decides.

A fix marked ``keep_torch`` is the alternative for a user who keeps the installed
torch (``TORCH_BLAS_PREFER_HIPBLASLT=0`` instead of a ROCm 6.3+ wheel): by default
it is listed under ``alternatives`` and not applied; with ``keep_torch=True`` it is
applied and the fixes that replace torch are left out instead.

A fix never *sets* a variable the runtime does not read (the env-var table in
:mod:`rocm_doctor.knowledge.env_vars`, e.g. ``HIP_DISABLE_IPC``, facts.md E.4):
such a set is dropped with a note. Unsetting one is kept, because removing a
myth from the environment is the fix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from rocm_doctor import quoting
from rocm_doctor.facts.model import Facts
from rocm_doctor.fix.platform import applies, machine_platforms
from rocm_doctor.judge.model import SEVERITY_ORDER, Finding, Fix

Ids = Tuple[str, ...]

TORCH_INTENTS: Dict[str, str] = {
    "install-rocm-torch": "auto",
    "install-amd-windows-torch": "amd-windows",
    "install-therock-torch": "therock",
}
"""pip intents that replace torch, and the wheel source each asks for (``auto``: chosen per machine)."""


@dataclass(frozen=True)
class EnvChange:
    """Set (``value`` is a string) or unset (``value`` is None) one variable."""

    name: str
    value: Optional[str]
    finding_ids: Ids

    @property
    def is_unset(self) -> bool:
        return self.value is None


@dataclass(frozen=True)
class Step:
    """A manual step, a code advice or a Docker change, as the rule wrote it."""

    kind: str
    text: str
    finding_ids: Ids
    commands: Tuple[str, ...] = ()
    needs_root: bool = False
    run_flags: Tuple[str, ...] = ()
    dockerfile: Tuple[str, ...] = ()
    base: Optional[str] = None


@dataclass(frozen=True)
class PipRequest:
    """One pip fix: an intent the pip planner expands, or explicit packages."""

    intent: Optional[str]
    packages: Tuple[str, ...]
    index_url: Optional[str]
    text: Optional[str]
    finding_ids: Ids


@dataclass(frozen=True)
class Conflict:
    """Fixes that disagree; each choice carries the findings that asked for it."""

    subject: str
    choices: Tuple[Tuple[str, Ids], ...]

    def describe(self) -> str:
        parts = [f"{text} (from {', '.join(ids)})" for text, ids in self.choices]
        return f"{self.subject}: " + " vs ".join(parts)


@dataclass(frozen=True)
class Note:
    """Something the planner left out, and why."""

    text: str
    finding_ids: Ids


@dataclass(frozen=True)
class FixPlan:
    """Everything to change, grouped in application order."""

    manual: Tuple[Step, ...] = ()
    pip: Tuple[PipRequest, ...] = ()
    env: Tuple[EnvChange, ...] = ()
    docker: Tuple[Step, ...] = ()
    code: Tuple[Step, ...] = ()
    conflicts: Tuple[Conflict, ...] = ()
    notes: Tuple[Note, ...] = ()
    alternatives: Tuple[Tuple[Fix, Ids], ...] = ()
    """Fixes for a user who keeps the installed torch (applied with ``keep_torch=True``)."""
    finding_ids: Ids = ()

    @property
    def is_empty(self) -> bool:
        return not (self.manual or self.pip or self.env or self.docker or self.code or self.conflicts)

    @property
    def torch_route(self) -> Optional[str]:
        """The torch wheel source the pip fixes ask for, None when no fix replaces torch."""
        routes = {TORCH_INTENTS[p.intent] for p in self.pip if p.intent in TORCH_INTENTS}
        explicit = routes - {"auto"}
        if explicit:
            return sorted(explicit)[0]
        return "auto" if routes else None

    def pip_finding_ids(self) -> Ids:
        return _unique(i for p in self.pip for i in p.finding_ids)


def runtime_reads(name: str) -> bool:
    """False only when the env-var knowledge table says the runtime does not read ``name``.

    A variable the table does not know is trusted to the rule that asked for it.
    """
    from rocm_doctor.knowledge.env_vars import is_read_by_runtime

    return is_read_by_runtime(name) is not False


def _unique(items: Iterable[str]) -> Ids:
    return tuple(dict.fromkeys(items))


@dataclass
class _EnvCollector:
    """Collects set/unset requests per variable, remembering who asked."""

    requests: Dict[str, Dict[Optional[str], List[str]]] = field(default_factory=dict)
    order: List[str] = field(default_factory=list)

    def add(self, name: str, value: Optional[str], finding_id: str) -> None:
        if name not in self.requests:
            self.requests[name] = {}
            self.order.append(name)
        self.requests[name].setdefault(value, []).append(finding_id)

    def resolve(self) -> Tuple[List[EnvChange], List[Conflict]]:
        changes: List[EnvChange] = []
        conflicts: List[Conflict] = []
        for name in self.order:
            wanted = self.requests[name]
            if len(wanted) == 1:
                value, ids = next(iter(wanted.items()))
                changes.append(EnvChange(name, value, _unique(ids)))
                continue
            choices = tuple(
                ((f"unset {name}" if value is None else f"{name}={value}"), _unique(ids)) for value, ids in wanted.items()
            )
            conflicts.append(Conflict(f"environment variable {name}", choices))
        return changes, conflicts


def _ordered(findings: Sequence[Finding]) -> List[Finding]:
    """Errors first, then warnings, then info; stable within a severity."""
    return sorted(findings, key=lambda f: -SEVERITY_ORDER[f.severity])


def _torch_conflicts(requests: Sequence[PipRequest]) -> List[Conflict]:
    """Two different explicit torch sources, or two different torch pins, cannot both be installed."""
    by_route: Dict[str, List[str]] = {}
    for request in requests:
        route = TORCH_INTENTS.get(request.intent or "")
        if route and route != "auto":
            by_route.setdefault(route, []).extend(request.finding_ids)
    conflicts: List[Conflict] = []
    if len(by_route) > 1:
        choices = tuple((f"torch from {route}", _unique(ids)) for route, ids in by_route.items())
        conflicts.append(Conflict("torch build", choices))
    pins: Dict[str, List[str]] = {}
    for request in requests:
        for spec in request.packages:
            name = spec.split("==", 1)[0].split("[", 1)[0].strip().lower()
            if name == "torch" and "==" in spec:
                pins.setdefault(spec.split("==", 1)[1].strip(), []).extend(request.finding_ids)
    if len(pins) > 1:
        conflicts.append(Conflict("torch version", tuple((f"torch=={v}", _unique(ids)) for v, ids in pins.items())))
    return conflicts


def build_plan(
    findings: Sequence[Finding],
    facts: Facts,
    is_read: Callable[[str], bool] = runtime_reads,
    keep_torch: bool = False,
) -> FixPlan:
    """Group the fixes of ``findings`` into a plan for the machine described by ``facts``.

    ``keep_torch``: the user keeps the installed torch, so fixes that replace it are left
    out (with a note) and the ``keep_torch`` alternatives are applied instead.
    """
    platforms = machine_platforms(facts)
    alternatives: List[Tuple[Fix, Ids]] = []
    manual: List[Step] = []
    docker: List[Step] = []
    code: List[Step] = []
    pip: List[PipRequest] = []
    notes: List[Note] = []
    env = _EnvCollector()
    for finding in _ordered(findings):
        for fix in finding.fixes:
            if not applies(fix.platforms, platforms):
                continue
            if fix.keep_torch and not keep_torch:
                _add_alternative(alternatives, fix, finding.id)
                continue
            if keep_torch and fix.kind == "pip" and fix.intent in TORCH_INTENTS:
                notes.append(Note(f"keeping the installed torch: not running '{fix.intent}'", (finding.id,)))
                continue
            _collect(fix, finding.id, is_read, env, manual, docker, code, pip, notes)
    env_changes, conflicts = env.resolve()
    conflicts.extend(_torch_conflicts(pip))
    return FixPlan(
        manual=tuple(manual),
        pip=tuple(pip),
        env=tuple(env_changes),
        docker=tuple(docker),
        code=tuple(code),
        conflicts=tuple(conflicts),
        notes=_merged_notes(notes),
        alternatives=tuple(alternatives),
        finding_ids=_unique(f.id for f in _ordered(findings)),
    )


def _merged_notes(notes: Sequence[Note]) -> Tuple[Note, ...]:
    """One note per text, carrying every finding that led to it (several GPUs, several rules)."""
    merged: Dict[str, Ids] = {}
    for note in notes:
        merged[note.text] = _unique(merged.get(note.text, ()) + note.finding_ids)
    return tuple(Note(text, ids) for text, ids in merged.items())


def _add_alternative(alternatives: List[Tuple[Fix, Ids]], fix: Fix, finding_id: str) -> None:
    """Record a keep-torch alternative once, however many findings (GPUs) ask for it."""
    for position, (known_fix, ids) in enumerate(alternatives):
        if known_fix == fix:
            alternatives[position] = (known_fix, _unique(ids + (finding_id,)))
            return
    alternatives.append((fix, (finding_id,)))


def _collect(
    fix: Fix,
    finding_id: str,
    is_read: Callable[[str], bool],
    env: _EnvCollector,
    manual: List[Step],
    docker: List[Step],
    code: List[Step],
    pip: List[PipRequest],
    notes: List[Note],
) -> None:
    ids = (finding_id,)
    if fix.kind == "env":
        bad = [n for n in [*fix.set, *fix.unset] if not quoting.IDENTIFIER.match(n)]
        for name in bad:  # a placeholder filled from the facts: no env file, ENV or -e gets it
            notes.append(Note(f"not changing {name!r}: not an environment variable name", ids))
        for name, value in fix.set.items():
            if name in bad:
                continue
            if not is_read(name):
                notes.append(
                    Note(f"not setting {name}={value}: the ROCm/PyTorch runtime does not read {name}", ids)
                )
                continue
            env.add(name, value, finding_id)
        for name in fix.unset:
            if name not in bad:
                env.add(name, None, finding_id)
    elif fix.kind == "pip":
        pip.append(PipRequest(fix.intent, tuple(fix.packages), fix.index_url, fix.text, ids))
    elif fix.kind == "manual":
        manual.append(Step("manual", fix.text or "", ids, tuple(fix.commands), fix.needs_root))
    elif fix.kind == "docker":
        docker.append(
            Step("docker", fix.text or "", ids, run_flags=tuple(fix.run_flags), dockerfile=tuple(fix.dockerfile), base=fix.base)
        )
    elif fix.kind == "code":
        code.append(Step("code", fix.text or "", ids))
    # Merge identical steps that several findings asked for.
    for group in (manual, docker, code):
        _merge_last(group)


def _merge_last(group: List[Step]) -> None:
    """If the newest step repeats an earlier one, fold its finding ids into the earlier one."""
    if len(group) < 2:
        return
    last = group[-1]
    for position, step in enumerate(group[:-1]):
        if (step.text, step.commands, step.run_flags, step.dockerfile, step.base) == (
            last.text,
            last.commands,
            last.run_flags,
            last.dockerfile,
            last.base,
        ):
            group[position] = Step(
                step.kind,
                step.text,
                _unique(step.finding_ids + last.finding_ids),
                step.commands,
                step.needs_root,
                step.run_flags,
                step.dockerfile,
                step.base,
            )
            group.pop()
            return
