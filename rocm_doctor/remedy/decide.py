"""The one chooser: every finding's fixes -> exact, consistent steps for this machine.

Decided here, once, before anything is rendered:

* per finding, each alternative group (``one_of``) gets its default: the first fix that can be
  applied here (``--keep-torch`` rules out the fixes that replace torch; a fix whose torch build
  does not fit this machine is ruled out with the reason); the others stay alternatives;
* one torch build for the whole plan, over the GPUs the plan's own visibility variables leave
  (a hidden iGPU does not drive the wheel choice) and meeting every chosen fix's ``torch``/``rocm``
  specifiers, the driver's user-space range and ``--torch``;
* the plan as a whole: a variable set twice differently or set and unset is a conflict (reported,
  not written); visibility variables that leave no GPU are a conflict; a variable the runtime does
  not read is never set; info findings and diagnostic settings stay advice and are never written;
* every step's exact lines for the target's shell and where it is done.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import (
    Callable,
    Dict,
    Iterable,
    List,
    Optional,
    Sequence,
    Set,
    Tuple,
    TypeVar,
)

from pydantic import BaseModel

from rocm_doctor import quoting
from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import known
from rocm_doctor.judge.derived import Tables
from rocm_doctor.judge.derived_facts.devices import visibility
from rocm_doctor.judge.derived_facts.driver import kernel_driver
from rocm_doctor.knowledge.env_vars import is_read_by_runtime
from rocm_doctor.model.fixes import TORCH_INTENTS, CodeFix, DockerFix, EnvFix, ManualFix, PipFix, replaces_torch
from rocm_doctor.model.rules import SEVERITY_ORDER, Finding
from rocm_doctor import shells
from rocm_doctor.envlines import env_line
from rocm_doctor.remedy import shell_choice
from rocm_doctor.wheels.choice import (
    KernelDriver,
    Machine,
    Needs,
    NoChoice,
    TorchChoice,
    choose_torch,
    machine_of,
)
from rocm_doctor.model.remedy import (
    Alternative,
    Conflict,
    Group,
    Option,
    Plan,
    Refusal,
    Remedy,
    Step,
    Target,
    TorchPlan,
    Wheel,
)
from rocm_doctor.remedy.pip import (
    Requirement,
    intent_commands,
    target_python,
    torch_commands,
)
from rocm_doctor.remedy.pip import Target as PipTarget
from rocm_doctor.wheels.platform import applies, is_windows, machine_platforms

M = TypeVar("M", bound=BaseModel)
VISIBILITY = ("ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES")
PHASES = {"manual": 0, "pip": 1, "after_torch": 2, "env": 3, "docker": 4, "code": 5}
"""Order in which steps are done: system steps first, torch before what edits torch's files, settings last."""


def runtime_reads(name: str) -> bool:
    """False only when the env-var knowledge table says the runtime does not read ``name``."""
    return is_read_by_runtime(name) is not False


@dataclass(frozen=True)
class Context:
    """What the user asked for: the shell and interpreter to write for, and choices to honour."""

    shell: Optional[str] = None
    python: Optional[str] = None
    installer: str = "pip"
    index_url: Optional[str] = None
    torch: Optional[str] = None
    """``--torch``: install this version, or refuse with the reasons."""
    keep_torch: bool = False
    is_read: Callable[[str], bool] = field(default=runtime_reads, compare=False)


@dataclass(frozen=True)
class Decision:
    """The findings with their remedies, the machine's plan, and the torch build behind it."""

    findings: List[Finding]
    plan: Plan
    choice: Optional[TorchChoice] = None
    requirements: List[Requirement] = field(default_factory=list)


def _ordered(findings: Sequence[Finding]) -> List[Finding]:
    return sorted(findings, key=lambda f: -SEVERITY_ORDER[f.severity])


def _advisory(finding: Finding, fix: object) -> bool:
    return finding.severity == "info" or (isinstance(fix, EnvFix) and fix.diagnostic)


def _platform_label(facts: Facts) -> str:
    if is_windows(facts):
        return "windows"
    if facts.host.wsl_version.is_known and facts.host.wsl_version.value == 2:
        return "wsl2"
    if facts.host.container.is_known:
        return "container"
    return "linux"


def _where_text(where: str, platform: str) -> str:
    if where == "environment":
        return "in the environment that runs torch"
    if where == "image":
        return "in the container image (Dockerfile, docker run)"
    if where == "windows":
        return "in Windows, outside WSL" if platform == "wsl2" else "in Windows"
    return {
        "container": "on the host, outside this container",
        "wsl2": "in this WSL2 distribution (system-wide)",
        "windows": "in Windows",
    }.get(platform, "on this machine (system-wide)")


@dataclass
class _Entry:
    """One finding's applicable fixes, grouped."""

    finding: Finding
    groups: List[Tuple[Optional[str], List[object]]]


def _entries(findings: Sequence[Finding], tags: frozenset) -> List[_Entry]:
    entries = []
    for finding in findings:
        groups: Dict[str, Tuple[Optional[str], List[object]]] = {}
        for number, fix in enumerate(finding.fixes):
            if not applies(fix.platforms, tags):
                continue
            key = fix.one_of or f"#{number}"
            groups.setdefault(key, (fix.one_of, []))[1].append(fix)
        entries.append(_Entry(finding, list(groups.values())))
    return entries


Key = Tuple[int, int, int]
"""(entry, group, option) positions."""


class _Chooser:
    """Defaults per group, with the reasons options were ruled out."""

    def __init__(self, entries: List[_Entry], facts: Facts, context: Context, driver: KernelDriver) -> None:
        self.entries = entries
        self.facts = facts
        self.context = context
        self.driver = driver
        self.ruled_out: Dict[Key, str] = {}
        self.choice: Optional[TorchChoice] = None
        self.torch_ids: List[str] = []
        self.hidden: Set[int] = set()
        if context.keep_torch:
            for key, fix in self._all():
                if replaces_torch(fix):
                    self.ruled_out[key] = "--keep-torch: the installed torch stays"

    def _all(self) -> Iterable[Tuple[Key, object]]:
        for e, entry in enumerate(self.entries):
            for g, (_name, options) in enumerate(entry.groups):
                for o, fix in enumerate(options):
                    yield (e, g, o), fix

    def default(self, e: int, g: int) -> Optional[int]:
        options = self.entries[e].groups[g][1]
        return next((o for o in range(len(options)) if (e, g, o) not in self.ruled_out), None)

    def chosen(self) -> Iterable[Tuple[Key, object]]:
        for e, entry in enumerate(self.entries):
            for g, (_name, options) in enumerate(entry.groups):
                o = self.default(e, g)
                if o is not None:
                    yield (e, g, o), options[o]

    def settle(self) -> None:
        """Rule out torch fixes no build satisfies, until the chosen set is consistent."""
        for _ in range(64):
            self.hidden = self._hidden_by_plan()
            if not self._torch_round():
                return

    def _changes(self) -> Dict[str, Optional[str]]:
        """The environment changes of the chosen (non-advisory) settings."""
        changes: Dict[str, Optional[str]] = {}
        for (e, _g, _o), fix in self.chosen():
            if isinstance(fix, EnvFix) and not _advisory(self.entries[e].finding, fix):
                changes.update(fix.set)
                changes.update({n: None for n in fix.unset})
        return changes

    def _hidden_by_plan(self) -> Set[int]:
        return hidden_by(self.facts, self._changes())

    def machine(self) -> "Machine":
        """The machine as the plan leaves it: hidden GPUs left out, overrides applied."""
        return machine_of(self.facts, self.driver, self.hidden, environment_after(self.facts, self._changes()))

    def _torch_round(self) -> bool:
        """Choose one build for every chosen torch fix; False when nothing had to be ruled out."""
        machine = self.machine()
        needs, route, choice, ids = Needs(), "auto", None, []
        for key, fix in self.chosen():
            finding = self.entries[key[0]].finding
            if not replaces_torch(fix) or _advisory(finding, fix):
                continue
            asked = TORCH_INTENTS[fix.intent]  # type: ignore[attr-defined]
            if asked != "auto" and route not in ("auto", asked):
                self.ruled_out[key] = f"another fix in this plan installs torch from {route}"
                return True
            wanted = needs.merged(Needs(fix.torch, fix.rocm))  # type: ignore[attr-defined]
            try:
                choice = choose_torch(machine, asked if asked != "auto" else route, self.context.torch, wanted)
            except NoChoice as refusal:
                self.ruled_out[key] = _no_build(refusal, wanted, self.context.torch)
                return True
            needs, route = wanted, (asked if asked != "auto" else route)
            ids.append(finding.id)
        self.choice, self.torch_ids = choice, ids
        return False


def environment_after(facts: Facts, changes: Dict[str, Optional[str]]) -> Optional[Dict[str, str]]:
    """The environment once ``changes`` are applied; None when the environment is not known."""
    if not facts.env.vars.is_known:
        return None
    return dict(with_env(facts, changes).env.vars.value or {})


def hidden_by(facts: Facts, changes: Dict[str, Optional[str]]) -> Set[int]:
    """Agents the visibility variables hide once ``changes`` are applied (none when that cannot be told)."""
    if not any(n in VISIBILITY for n in changes) or not facts.env.vars.is_known:
        return set()
    seen = visibility(with_env(facts, changes)).visible
    if not seen:
        return set()
    visible = {a.index for a in seen}
    return {a.index for a in facts.gpus.agents if a.index not in visible}


def with_env(facts: Facts, changes: Dict[str, Optional[str]]) -> Facts:
    """``facts`` as they would be with ``changes`` applied to the environment (None unsets)."""
    current = dict(facts.env.vars.value or {}) if facts.env.vars.is_known else {}
    for name, value in changes.items():
        if value is None:
            current.pop(name, None)
        else:
            current[name] = value
    return facts.model_copy(update={"env": facts.env.model_copy(update={"vars": known(current, "plan")})})


def _no_build(refusal: NoChoice, needs: Needs, requested: Optional[str]) -> str:
    """One sentence: no build fits, and the reasons, each once with the builds it ruled out."""
    wanted = needs.describe()
    head = f"no torch build{(' with ' + wanted) if wanted else ''}{(' for --torch ' + requested) if requested else ''} fits this machine"
    by_reason: Dict[str, List[str]] = {}
    for line in refusal.ruled_out:
        label, _, reason = line.partition(": ")
        if "only a release candidate" in reason or "this fix needs" in reason:
            continue
        by_reason.setdefault(reason or label, []).append(label if reason else "")
    parts = []
    for reason, labels in list(by_reason.items())[:2]:
        named = [l for l in labels if l]
        parts.append(reason + (f" ({', '.join(named[:3])}{', ...' if len(named) > 3 else ''})" if named else ""))
    return head + (": " + "; ".join(parts) if parts else "")


def _fix_text(fix: object) -> str:
    text = getattr(fix, "text", None)
    if text:
        return str(text)
    if isinstance(fix, EnvFix):
        return ", ".join([f"set {n}={v}" for n, v in fix.set.items()] + [f"unset {n}" for n in fix.unset])
    if isinstance(fix, PipFix):
        return f"pip: {fix.intent or ' '.join(fix.packages)}"
    return fix.__class__.__name__


class _Steps:
    """Exact steps for a fix, for this machine's shell and interpreter."""

    def __init__(self, facts: Facts, context: Context, chooser: _Chooser) -> None:
        self.facts = facts
        self.context = context
        self.driver = chooser.driver
        self.shell, self.shell_why = shell_choice.detect(facts, context.shell)
        self.python, self.python_why = target_python(facts, context.python)
        self.pip = PipTarget(self.python, context.installer, context.index_url)
        self.platform = _platform_label(facts)
        self.windows = is_windows(facts)
        self.notes: List[str] = []
        self.torch_commands: List = []
        self.requirements: List[Requirement] = []
        self.torch_notes: List[str] = []
        if chooser.choice is not None:
            self.torch_commands, self.requirements, self.torch_notes = torch_commands(chooser.choice, facts, self.pip)
        self.torch_replaced = chooser.choice is not None

    def step(self, kind: str, where: str, text: str, ids: Sequence[str], **extra: object) -> Step:
        return Step(kind=kind, where=where, where_text=_where_text(where, self.platform), text=text, finding_ids=list(ids), **extra)  # type: ignore[arg-type]

    def env_commands(self, env: Dict[str, Optional[str]]) -> List[str]:
        return [env_line(self.shell, name, value) for name, value in env.items()]

    def env_problem(self, name: str, value: str) -> Optional[str]:
        """Why ``name=value`` cannot be written for the target shell (a line break, a NUL, cmd's ``"``/``!``)."""
        try:
            env_line(self.shell, name, value)
        except InputError as exc:
            return str(exc)
        return None

    def command(self, line: str) -> str:
        return line if self.windows else shells.posix_command(self.shell, line)

    def alternative_torch(self, fix: PipFix, finding: Finding, hidden: Set[int]) -> Tuple[List[Step], Optional[str]]:
        """The steps of a torch fix that is not the default (its own build, for the GPUs' own gfx: an
        alternative to an override does not rely on it), or why it cannot be done here."""
        needs = Needs(fix.torch, fix.rocm)
        try:
            choice = choose_torch(machine_of(self.facts, self.driver, hidden), TORCH_INTENTS[fix.intent or ""], self.context.torch, needs)
        except NoChoice as refusal:
            return [], _no_build(refusal, needs, self.context.torch)
        commands, _requirements, _notes = torch_commands(choice, self.facts, self.pip)
        text = _fix_text(fix)
        return [self.step(
            "pip", "environment", text, (finding.id,),
            commands=[shells.quote_argv(self.shell, c.argv) for c in commands], argv=[list(c.argv) for c in commands],
        )], None

    def of(self, fix: object, finding: Finding, advisory: bool) -> List[Step]:
        ids, text = (finding.id,), _fix_text(fix)
        if isinstance(fix, EnvFix):
            env: Dict[str, Optional[str]] = {}
            bad = [n for n in [*fix.set, *fix.unset] if not quoting.IDENTIFIER.match(n)]
            for name in bad:  # a placeholder filled from the facts: no env file, ENV or -e gets it
                self.notes.append(f"not changing {name!r}: not an environment variable name ({finding.id})")
            for name, value in fix.set.items():
                if name in bad:
                    continue
                if not advisory and not self.context.is_read(name):
                    self.notes.append(f"not setting {name}={value}: the ROCm/PyTorch runtime does not read {name} ({finding.id})")
                    continue
                problem = self.env_problem(name, value)
                if problem is not None:  # a value filled from the facts that this shell cannot carry
                    self.notes.append(f"not setting {name}: {problem} ({finding.id})")
                    continue
                env[name] = value
            env.update({name: None for name in fix.unset if name not in bad})
            if not env:
                return []
            text = _text_here(fix, self.facts)
            return [self.step("advice" if advisory else "env", "environment", text, ids, env=env, commands=self.env_commands(env))]
        if isinstance(fix, PipFix):
            if replaces_torch(fix):
                commands = self.torch_commands
            else:
                if self.torch_replaced and fix.intent in ("remove-cuda-triton", "reinstall-torchvision-matching"):
                    return []  # the torch replacement removes triton and installs matching companions
                commands, notes = intent_commands(fix, self.facts, self.pip)
                self.notes += [f"{note} ({finding.id})" for note in notes]
            if not commands:
                return []
            return [self.step(
                "advice" if advisory else "pip", "environment", text, ids,
                commands=[shells.quote_argv(self.shell, c.argv) for c in commands],
                argv=[list(c.argv) for c in commands],
            )]
        if isinstance(fix, ManualFix):
            lines = [("sudo " if fix.needs_root and not c.startswith("sudo ") and not self.windows else "") + c for c in fix.commands]
            return [self.step(
                "advice" if advisory else "manual", fix.runs_on, text, ids,
                commands=[self.command(c) for c in lines], needs_root=fix.needs_root, after_torch=fix.after_torch,
            )]
        if isinstance(fix, DockerFix):
            return [self.step("advice" if advisory else "docker", "image", text, ids,
                              run_flags=list(fix.run_flags), dockerfile=list(fix.dockerfile), base=fix.base)]
        if isinstance(fix, CodeFix):
            return [self.step("advice" if advisory else "code", "environment", text, ids)]
        return []


CONFIGURED_ORIGINS = ("systemd", "dockerfile", "docker-run", "compose", "setx", "persistent")
"""Settings made in a file or a launcher: a shell command does not change them for the next run."""


def configured_where(facts: Facts, names: Sequence[str]) -> List[str]:
    """For a pasted report: where each of ``names`` is configured outside a shell (a Dockerfile
    ``ENV``, a systemd unit, compose, ``setx``), so the fix says to change it there."""
    settings = facts.env.settings.value if facts.env.settings.is_known else None
    out: List[str] = []
    for setting in settings or []:
        if setting.name in names and setting.origin in CONFIGURED_ORIGINS and setting.reaches is not False:
            line = f"{setting.name} is set for {setting.where} ({setting.source.replace('paste:', 'report ')}): change it there."
            if line not in out:
                out.append(line)
    return out


def _text_here(fix: object, facts: Facts) -> str:
    """The fix's text, and for environment fixes where the report configures the variable."""
    text = _fix_text(fix)
    if isinstance(fix, EnvFix):
        text = " ".join([text] + configured_where(facts, list(fix.set) + list(fix.unset)))
    return text


def _why_default(options: List[object], chosen: int, ruled_out: Dict[int, str]) -> Optional[str]:
    if len(options) < 2:
        return None
    if any(o in ruled_out for o in range(chosen)):
        return "the rule's first choice is not possible here (the reason is given with it)"
    fix = options[chosen]
    others = [options[o] for o in range(len(options)) if o != chosen]
    if not replaces_torch(fix) and any(replaces_torch(o) for o in others):
        return "keeps the installed torch (no reinstall); the alternatives replace it"
    if replaces_torch(fix) and not all(replaces_torch(o) for o in others):
        return "removes the cause with a torch build that has no such problem; use an alternative (or --keep-torch) to keep the installed torch"
    return "the rule's first choice that applies here"


def _phase(step: Step) -> int:
    if step.kind == "manual" and step.after_torch:
        return PHASES["after_torch"]
    return PHASES.get(step.kind, len(PHASES))


def _merge(items: Iterable[M]) -> List[M]:
    """Identical steps (or alternatives) asked for by several findings (GPUs) become one citing them all.

    Steps that do the same thing (the same commands, variables, flags or Dockerfile lines) are
    identical whatever their wording: two findings asking for the same torch reinstall get one.
    """
    merged: Dict[str, M] = {}
    for item in items:
        acts = isinstance(item, Step) and (item.commands or item.argv or item.env or item.run_flags or item.dockerfile)
        key = item.model_dump_json(exclude={"finding_ids", "text"} if acts else {"finding_ids"})
        if key in merged:
            ids = list(dict.fromkeys(merged[key].finding_ids + item.finding_ids))  # type: ignore[attr-defined]
            merged[key] = merged[key].model_copy(update={"finding_ids": ids})
        else:
            merged[key] = item
    return list(merged.values())


def _resolve_env(steps: List[Step], facts: Facts, build: _Steps) -> Tuple[List[Step], List[Conflict]]:
    """Drop and report variables the plan would set twice differently (or set and unset), and
    visibility settings that would leave no GPU."""
    wanted: Dict[str, Dict[Optional[str], List[str]]] = {}
    for step in steps:
        for name, value in step.env.items():
            wanted.setdefault(name, {}).setdefault(value, []).extend(step.finding_ids)
    conflicts: List[Conflict] = []
    dropped: Set[str] = set()
    for name, values in wanted.items():
        if len(values) > 1:
            choices = [(f"unset {name}" if v is None else f"{name}={v}") + f" (from {', '.join(dict.fromkeys(ids))})" for v, ids in values.items()]
            ids = list(dict.fromkeys(i for found in values.values() for i in found))
            conflicts.append(Conflict(subject=f"environment variable {name}", choices=choices, finding_ids=ids))
            dropped.add(name)
    final = {n: next(iter(v)) for n, v in wanted.items() if n not in dropped}
    touched = {n: v for n, v in final.items() if n in VISIBILITY}
    if touched and facts.env.vars.is_known:
        seen = visibility(with_env(facts, touched))
        if seen.visible is not None and not seen.visible:
            after = dict(facts.env.vars.value or {})
            after.update({n: v for n, v in touched.items() if v is not None})
            shown = ", ".join(f"{n}={after[n]}" for n in VISIBILITY if n in after and after[n] is not None)
            ids = list(dict.fromkeys(i for n in touched for found in wanted[n].values() for i in found))
            conflicts.append(Conflict(
                subject="GPU visibility",
                choices=[f"{shown} leaves no GPU (HIP indexes into what ROCR_VISIBLE_DEVICES left)"],
                finding_ids=ids,
            ))
            dropped.update(touched)
    if not dropped:
        return steps, conflicts
    kept: List[Step] = []
    for step in steps:
        env = {n: v for n, v in step.env.items() if n not in dropped}
        if step.env and not env:
            continue
        kept.append(step.model_copy(update={"env": env, "commands": build.env_commands(env)}) if step.env else step)
    return kept, conflicts


def decide(
    findings: Sequence[Finding], facts: Facts, context: Context = Context(), driver: Optional[KernelDriver] = None
) -> Decision:
    """Resolve every finding's remedy and the machine's plan (see the module docstring).

    ``driver``: the kernel driver's derived values (the pipeline passes those of its derive stage);
    computed from the facts and the shipped tables when not given.
    """
    ordered = _ordered(findings)
    entries = _entries(ordered, machine_platforms(facts))
    chooser = _Chooser(entries, facts, context, driver if driver is not None else kernel_driver(facts, Tables()))
    chooser.settle()
    refusal: Optional[Refusal] = None
    requested = False
    if context.torch and chooser.choice is None:
        try:
            chooser.choice = choose_torch(chooser.machine(), "auto", context.torch)
            requested = True
        except NoChoice as refused:
            refusal = Refusal(message=str(refused), ruled_out=list(refused.ruled_out), alternatives=list(refused.alternatives))
    elif context.torch and chooser.choice is not None:
        requested = True
    build = _Steps(facts, context, chooser)
    resolved: Dict[int, Remedy] = {}
    plan_steps: List[Step] = []
    advice: List[Step] = []
    alternatives: List[Alternative] = []
    for e, entry in enumerate(entries):
        groups: List[Group] = []
        for g, (name, fixes) in enumerate(entry.groups):
            chosen = chooser.default(e, g)
            ruled = {o: chooser.ruled_out[(e, g, o)] for o in range(len(fixes)) if (e, g, o) in chooser.ruled_out}
            options: List[Option] = []
            for o, fix in enumerate(fixes):
                advisory = _advisory(entry.finding, fix)
                if o != chosen and o not in ruled and replaces_torch(fix):
                    steps, not_here = build.alternative_torch(fix, entry.finding, chooser.hidden)  # type: ignore[arg-type]
                    if not_here:
                        ruled[o] = not_here
                else:
                    steps = build.of(fix, entry.finding, advisory) if o not in ruled else []
                available = o not in ruled
                if o == chosen:
                    why = _why_default(fixes, o, ruled)
                    (advice if advisory else plan_steps).extend(steps)
                else:
                    why = ruled.get(o) or ("an alternative to the default" if chosen is not None else None)
                    if not advisory and len(fixes) > 1:
                        alternatives.append(Alternative(finding_ids=[entry.finding.id], text=_text_here(fix, facts), available=available, why=why, steps=steps))
                options.append(Option(text=_text_here(fix, facts), default=o == chosen, available=available, why=why, steps=steps))
            groups.append(Group(name=name, options=options))
        resolved[e] = Remedy(shell=build.shell, groups=groups)
    merged_steps, conflicts = _resolve_env(_merge(plan_steps), facts, build)
    merged_steps.sort(key=_phase)
    torch_plan = None
    if chooser.choice is not None:
        choice = chooser.choice
        torch_plan = TorchPlan(
            route=choice.route, torch=choice.torch, rocm=choice.rocm, index_url=choice.index_url,
            torchvision=choice.torchvision, torchaudio=choice.torchaudio,
            reasons=list(choice.reasons), ruled_out=list(choice.ruled_out), requested=requested,
            wheels=[Wheel(name=r.name, spec=r.spec, version=r.version, index_url=r.index_url, url=r.url) for r in build.requirements],
        )
        if requested and not chooser.torch_ids:
            merged_steps.append(build.step(
                "pip", "environment", f"install torch {choice.torch} (--torch {context.torch})", [],
                commands=[shells.quote_argv(build.shell, c.argv) for c in build.torch_commands],
                argv=[list(c.argv) for c in build.torch_commands],
            ))
            merged_steps.sort(key=_phase)
    plan = Plan(
        target=Target(python=build.python, python_why=build.python_why, shell=build.shell, shell_why=build.shell_why, platform=build.platform),
        torch=torch_plan,
        steps=merged_steps,
        advice=_merge(advice),
        alternatives=_merge(alternatives),
        conflicts=conflicts,
        notes=list(dict.fromkeys(build.torch_notes + build.notes)),
        refusal=refusal,
        finding_ids=list(dict.fromkeys(i for s in merged_steps for i in s.finding_ids)),
    )
    with_remedies = [entry.finding.model_copy(update={"remedy": resolved[e]}) for e, entry in enumerate(entries)]
    position = {id(f): n for n, f in enumerate(findings)}
    by_original = sorted(zip(ordered, with_remedies), key=lambda pair: position[id(pair[0])])
    return Decision(findings=[f for _, f in by_original], plan=plan, choice=chooser.choice, requirements=build.requirements)
