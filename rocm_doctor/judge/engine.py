"""The judge stage: rules evaluated over facts and their derived values; one pass, pure, deterministic."""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Set, Tuple, Union

from rocm_doctor import __version__
from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact
from rocm_doctor.judge.conditions import Truth, evaluate as evaluate_condition
from rocm_doctor.crashlog import write_crash_log
from rocm_doctor.judge.derived import DerivedValues, registered_names
from rocm_doctor.judge.derived_facts.gpus import CPU_IMPLIED_SOURCE, amd_agents
from rocm_doctor.judge.derived_facts.pasted import EXPLAINED_SIGNATURES, FIRST_PHASE_PROBLEMS
from rocm_doctor.judge.interpolate import NOT_GIVEN, interpolate, interpolate_fix
from rocm_doctor.judge import paste_verdict
from rocm_doctor.errors import DoctorError
from rocm_doctor.facts.model import Crash
from rocm_doctor.model.rules import CATEGORIES, SEVERITY_ORDER, Evidence, Finding, Rule, Undecided
from rocm_doctor.judge.paths import Scope, resolve
from rocm_doctor.judge.report import CheckResult, Summary


def _evidence(path: str, fact: Fact) -> Evidence:
    value = fact.model_dump(mode="json")["value"]
    return Evidence(path=path, status=fact.status, value=value, source=fact.source)


def _judge(rule: Rule, scope: Scope) -> Union[Finding, Undecided, None]:
    gpu = scope.agent.index if scope.agent is not None else None
    outcome = evaluate_condition(rule.when, scope)
    if outcome.truth is Truth.UNKNOWN:
        return Undecided(id=rule.id, name=rule.name, gpu=gpu, missing=outcome.missing, supported=outcome.supported)
    if outcome.truth is Truth.FALSE:
        return None
    category = rule.category
    if rule.category_from:
        chosen = resolve(rule.category_from, scope)
        if chosen.is_known and chosen.value in CATEGORIES:
            category = chosen.value
    return Finding(
        id=rule.id,
        name=rule.name,
        severity=_severity(rule, scope, [path for path, _ in outcome.evidence]),
        category=category,
        action=rule.effective_action,
        area=rule.area,
        # a pasted report is no machine at hand: a fact it does not give is named, not "unknown"
        title=interpolate(rule.title, scope, named=NOT_GIVEN if scope.facts.meta.origin == "paste" else ()),
        message=interpolate(rule.message, scope, named=NOT_GIVEN if scope.facts.meta.origin == "paste" else ()),
        explanation=rule.explanation,
        evidence=[_evidence(path, fact) for path, fact in outcome.evidence],
        fixes=[interpolate_fix(fix, scope) for fix in rule.fixes],
        references=list(rule.references),
        gpu=gpu,
        rule_status=rule.status,
        rule_basis=rule.basis,
    )


AMD_PRESENCE = frozenset({"derived.has_amd_gpu", "derived.amd_gpu_count", "derived.amd_discrete_count", "derived.amd_integrated_count"})
"""Machine facts that count the AMD GPUs: with only a CPU-implied iGPU among them, they rest on that weak fact."""


def _severity(rule: Rule, scope: Scope, evidence: List[str]) -> str:
    """The rule's severity, at most a warning where it rests on a GPU inferred only from the CPU model the report
    names (a CPU model implies its iGPU only as a weak fact; the device that ran may be another the
    report does not name): a rule judged for that GPU, or one that counts the AMD GPUs when that is the only one.
    RD504 called "Ryzen 7 4800U" beside "invalid device function" an error of gfx90c's override, and RD101 a
    CPU torch on "a Ryzen 7 5800H with an RTX 3070" a CPU build on an AMD machine (r47b)."""
    if rule.severity != "error":
        return rule.severity
    if scope.agent is not None and scope.agent.source.startswith(CPU_IMPLIED_SOURCE):
        return "warning"
    if AMD_PRESENCE.intersection(evidence):
        agents = amd_agents(scope.facts)
        if agents and all(agent.source.startswith(CPU_IMPLIED_SOURCE) for agent in agents):
            return "warning"
    return rule.severity


def _scopes(rule: Rule, facts: Facts, derived: DerivedValues) -> List[Scope]:
    if rule.for_each == "gpu":
        return [Scope(facts, derived, agent) for agent in judged_agents(facts)]
    return [Scope(facts, derived, None)]


def judged_agents(facts: Facts) -> List[GpuAgent]:
    """The GPUs a per-GPU rule judges: every agent, less an iGPU inferred only from the CPU model where the report
    shows another GPU (any vendor's). The weak fact may order the GPUs but never becomes the judged GPU beside one
    the report names: "Ryzen 9 7950X, RTX 4090" gave RD527 ("no release build of PyTorch has kernels for gfx1036")
    on an NVIDIA machine (cudawheel48's probe)."""
    agents = list(facts.gpus.agents)
    if any(not agent.source.startswith(CPU_IMPLIED_SOURCE) for agent in agents):
        return [agent for agent in agents if not agent.source.startswith(CPU_IMPLIED_SOURCE)]
    return agents


RANKS = ("catch-all", "fallback", "weak-inference")
"""Tiers after the other problems, in reading order: a guess from a CPU model name reads last."""
LEADING_RANK = "reported-fix"
"""The rank read with the problems that explain a reported error: the reporter's own statement of what fixed
it is evidence of the cause as strong as the error itself (measured: top-1 on the development sets is the same
in tier 0 and tier 1; probes where another finding of the report's symptom is a warning read it first only in tier 0)."""


def _order(rules: List[Rule], facts: Facts, by_id: Optional[Dict[str, Rule]] = None) -> Callable[[Finding], Tuple]:
    """The reading order of findings: a problem (error or warning) that explains an error
    signature the report shows or rests on the reporter's statement of the fix, then the other problems, then catch-alls and weak inferences, then
    notes. Among the problems that explain the report's errors, one that explains more of the signatures it shows reads
    first (the reporter's statement of the fix counts as explaining all of them): "/dev/kfd is missing" explains one of
    "no /dev/kfd" and "the kernel log has no KFD line", the kernel driver that did not come up explains both. Severity
    decides next, then area, rule id and GPU for a stable order."""
    reported = facts.symptoms.signatures.value if facts.symptoms.signatures.is_known else None
    shown = set(reported or [])
    if by_id is None:
        by_id = {rule.id: rule for rule in rules}

    def tier(finding: Finding) -> Tuple[int, int]:
        """The finding's tier, and in the first one the number of the report's signatures it explains (negated)."""
        rule = by_id.get(finding.id)
        if rule is None:
            return 1, 0
        if rule.rank == LEADING_RANK:
            return 0, -len(shown)
        if rule.rank != "normal":
            return 2 + RANKS.index(rule.rank), 0
        explained = len(shown.intersection(explained_by(rule)))
        return (0, -explained) if explained else (1, 0)

    def key(finding: Finding) -> Tuple:
        gpu = -1 if finding.gpu is None else finding.gpu
        return (finding.severity == "info", *tier(finding), -SEVERITY_ORDER[finding.severity], finding.area, finding.id, gpu)

    return key


def _report_evidence(node: Any) -> Set[Tuple[str, str]]:
    """What a condition requires of the report's own words (``symptoms.*``: an error signature, a workload
    such as training), as (fact, value) pairs: the tests every firing passes, at the top or under
    ``all``. A test under ``not`` requires the words absent, and one under ``any`` may not be what
    fired, so neither says the finding is about them."""
    if isinstance(node, dict):
        if "all" in node:
            return _report_evidence(node["all"])
        if "fact" in node and str(node["fact"]).startswith("symptoms.") and ("contains" in node or "eq" in node):
            return {(str(node["fact"]), str(node.get("contains", node.get("eq", ""))))}
        return set()
    if isinstance(node, list):
        return set().union(*(_report_evidence(v) for v in node))
    return set()


def _without_covered_checklists(
    rules: List[Rule], findings: List[Finding], by_id: Optional[Dict[str, Rule]] = None
) -> List[Finding]:
    """The findings less each ``catch-all`` problem whose evidence a specific problem already covers: an
    error or warning of a ``normal`` rule of the same category and area that also tests whatever the
    checklist tests of the report's words (the Windows checklist beside "this torch has no
    torch.distributed on Windows"; the Windows training checklist stays beside a finding that is not
    about training). The checklist says the platform has requirements of its own; the specific finding
    says which one the report breaks, and a maintainer reads that one. A note (info) covers nothing."""
    if by_id is None:
        by_id = {rule.id: rule for rule in rules}
    specific = [
        (f.category, f.area, _report_evidence(by_id[f.id].when)) for f in findings
        if f.severity in ("error", "warning") and f.id in by_id and by_id[f.id].rank == "normal"
    ]

    def covered(finding: Finding) -> bool:
        rule = by_id.get(finding.id)
        if rule is None or rule.rank != "catch-all" or finding.severity not in ("error", "warning"):
            return False
        needs = _report_evidence(rule.when)
        return any(category == finding.category and area == finding.area and needs <= tested for category, area, tested in specific)

    return [f for f in findings if not covered(f)]


SECOND_PHASE = ("derived.unexplained_signatures", "derived.unexplained_signature_category", "derived.first_phase_problems")
"""Derived facts that need the first phase's findings; rules reading them run after every other rule."""


def _mentions(node: Any, paths: Tuple[str, ...]) -> bool:
    if isinstance(node, dict):
        return node.get("fact") in paths or any(_mentions(v, paths) for v in node.values())
    if isinstance(node, list):
        return any(_mentions(v, paths) for v in node)
    return False


_SECOND_PHASE_OF: Dict[int, Tuple[Any, bool]] = {}
"""Whether a rule's condition reads a second-phase fact, by the identity of the condition (kept in the entry,
so that an id is not reused while its entry lives): the same loaded rules judge every report of a run."""


def _reads_second_phase(rule: Rule) -> bool:
    entry = _SECOND_PHASE_OF.get(id(rule.when))
    if entry is None or entry[0] is not rule.when:
        if len(_SECOND_PHASE_OF) > 20_000:  # rule sets loaded again and again (tests) do not grow it forever
            _SECOND_PHASE_OF.clear()
        entry = _SECOND_PHASE_OF[id(rule.when)] = (rule.when, _mentions(rule.when, SECOND_PHASE))
    return entry[1]


class _Phases(NamedTuple):
    """A rule set split once: the rules of each phase, and the rules by id (all of them, and the first phase's)."""

    rules: Tuple[Rule, ...]
    first: List[Rule]
    second: List[Rule]
    by_id: Dict[str, Rule]
    first_by_id: Dict[str, Rule]


_PHASES: Dict[Tuple[int, ...], _Phases] = {}
"""Rule sets split so far, by the identities of their rules in order (the entry keeps the rules, so that no id is
reused while it lives): the same loaded rules judge every report of a run, and the split and the by-id tables were
made again for each."""


def _phases(rules: List[Rule]) -> _Phases:
    key = tuple(map(id, rules))
    entry = _PHASES.get(key)
    if entry is None:
        if len(_PHASES) > 64:  # rule sets made again and again (a rule's cases, tests) do not grow it forever
            _PHASES.clear()
        first: List[Rule] = []
        second: List[Rule] = []
        for rule in rules:
            (second if _reads_second_phase(rule) else first).append(rule)
        entry = _PHASES[key] = _Phases(
            tuple(rules), first, second, {rule.id: rule for rule in rules}, {rule.id: rule for rule in first}
        )
    return entry


def explained_by(rule: Rule) -> List[str]:
    """The signature ids a finding of ``rule`` explains: those its condition tests and its ``explains``."""
    return _signatures_in(rule.when) + list(rule.explains)


def _signatures_in(node: Any) -> List[str]:
    """The signature ids a condition tests with ``symptoms.signatures contains``, less those it tests under ``not``:
    those it requires absent, in the branch that holds them, are no error the finding explains (RD516 fires beside
    rocminfo's refused open only where a denial is shown too, and explains the denial, not the refusal)."""
    if isinstance(node, dict):
        own = [str(node["contains"])] if node.get("fact") == "symptoms.signatures" and "contains" in node else []
        return own + [s for key, v in node.items() if key != "not" for s in _signatures_in(v)]
    if isinstance(node, list):
        return [s for v in node for s in _signatures_in(v)]
    return []


def _judge_all(
    rules: List[Rule], facts: Facts, derived: DerivedValues, findings: List[Finding], undecided: List[Undecided], crashes: List[Crash]
) -> None:
    # The scopes are the same for every rule of a kind (a Scope is only read), so they are made once per pass.
    machine_scopes: List[Scope] = []
    gpu_scopes: List[Scope] = []
    for rule in rules:
        if rule.for_each == "gpu":
            scopes = gpu_scopes = gpu_scopes or _scopes(rule, facts, derived)
        else:
            scopes = machine_scopes = machine_scopes or _scopes(rule, facts, derived)
        for scope in scopes:
            try:
                verdict = _judge(rule, scope)
            except DoctorError:
                raise
            except Exception as exc:  # noqa: BLE001 - a rule that raises is a crashed row, not a silence
                crashes.append(Crash(what=f"rule {rule.id}", reason=f"{type(exc).__name__}: {exc}", log=write_crash_log(f"rule {rule.id}")))
                break
            if isinstance(verdict, Finding):
                findings.append(verdict)
            elif isinstance(verdict, Undecided):
                undecided.append(verdict)


class Verdicts(NamedTuple):
    """What the rules concluded over one facts snapshot: findings (worst first), undecided rules, rules that raised."""

    findings: List[Finding]
    undecided: List[Undecided]
    crashes: List[Crash]


def verdicts(rules: Iterable[Rule], facts: Facts, derived: DerivedValues) -> Verdicts:
    """The rules' verdicts alone: what :func:`judge` concludes, without the derived facts and the paste verdict a
    :class:`CheckResult` also carries (a rule's own firing and passing cases read only these; computing every
    derived fact for each case was four fifths of running them)."""
    rules = list(rules)
    findings: List[Finding] = []
    undecided: List[Undecided] = []
    crashes: List[Crash] = []
    phases = _phases(rules)
    first, second = phases.first, phases.second
    _judge_all(first, facts, derived, findings, undecided, crashes)
    if second:
        by_id = phases.first_by_id
        explained = sorted({s for f in findings for s in explained_by(by_id[f.id])} if by_id else set())
        problems = sum(1 for f in findings if f.severity in ("error", "warning"))
        derived.continue_with(
            derived.tables.with_overrides({EXPLAINED_SIGNATURES: explained, FIRST_PHASE_PROBLEMS: problems}), SECOND_PHASE
        )
        _judge_all(second, facts, derived, findings, undecided, crashes)
    findings = _without_covered_checklists(rules, findings, phases.by_id)
    findings.sort(key=_order(rules, facts, phases.by_id))
    undecided.sort(key=lambda u: (u.id, -1 if u.gpu is None else u.gpu))
    return Verdicts(findings, undecided, crashes)


def judge(rules: Iterable[Rule], facts: Facts, derived: DerivedValues) -> CheckResult:
    """The judge stage: ``facts`` judged with ``rules``, findings (worst first), undecided rules and counts.

    ``derived`` is the derive stage's memo of derived facts over the same ``facts``. ``for_each: gpu``
    rules run once per GPU agent (every agent: rules that are about AMD GPUs say ``gpu.is_amd``); their
    findings carry the agent's index. Rules that read a second-phase fact (which error signatures no
    finding explains) run after the others. The findings carry no remedy and the result no plan:
    deciding them is the next stage's (:func:`rocm_doctor.pipeline.evaluate` runs them in order).
    """
    rules = list(rules)
    findings, undecided, rule_crashes = verdicts(rules, facts, derived)
    count = len(rules)
    summary = Summary(**{s: sum(1 for f in findings if f.severity == s) for s in SEVERITY_ORDER})
    machine = {path: derived.machine(path) for path in registered_names("machine")}
    pasted = facts.meta.origin == "paste"
    asked = paste_verdict.asks(rules, undecided, facts, derived, _phases(rules).by_id) if pasted else []  # its titles may read derived facts
    crashes = [*facts.meta.crashes, *derived.crashes, *rule_crashes]
    return CheckResult(
        tool_version=__version__,
        facts=facts,
        findings=findings,
        undecided=undecided,
        asks=asked,
        coverage=paste_verdict.coverage(facts) if pasted else [],
        summary=summary,
        derived={p: f for p, f in machine.items() if f is not None},
        rules_evaluated=count,
        crashes=crashes,
    )
