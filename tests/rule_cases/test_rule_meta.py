"""Meta-tests over the whole rule database: what every rule must have."""

from __future__ import annotations

import re

from rocm_doctor.facts.model import Facts
from rocm_doctor.judge import conditions, paths
from rocm_doctor.judge.cases import load_baseline, load_cases
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.interpolate import fix_templates, placeholders
from rocm_doctor.judge.loader import load_retired
from rocm_doctor.model.rules import ACTIONS, CATEGORIES

from test_rule_cases import BASELINE, HERE, shipped_rules


def test_every_rule_has_a_case_file_with_a_firing_and_a_passing_case() -> None:
    lacking = []
    for rule in shipped_rules():
        path = HERE / f"{rule.id}.yaml"
        kinds = {case.kind for case in load_cases(path, rule.id)} if path.is_file() else set()
        if not {"fires", "passes"} <= kinds:
            lacking.append(f"{rule.id} ({path.name}: has {sorted(kinds) or 'no file'})")
    assert not lacking, "rules without a fires and a passes case: " + ", ".join(lacking)


def test_every_case_file_belongs_to_a_rule() -> None:
    ids = {rule.id for rule in shipped_rules()}
    orphans = [p.name for p in HERE.glob("*.yaml") if p.stem not in ids]
    assert not orphans, f"case files for rules that do not exist: {orphans}"


def test_gpus_expectations_only_on_per_gpu_rules() -> None:
    wrong = []
    for rule in shipped_rules():
        path = HERE / f"{rule.id}.yaml"
        if path.is_file() and rule.for_each != "gpu":
            wrong += [c.where for c in load_cases(path, rule.id) if c.gpus is not None]
    assert not wrong, f"'gpus' in cases of rules without for_each: gpu: {wrong}"


def test_every_rule_has_a_reference_an_explanation_and_a_known_category() -> None:
    for rule in shipped_rules():
        assert rule.references, rule.id
        assert all(ref.url.startswith(("http://", "https://")) for ref in rule.references), rule.id
        assert rule.explanation.strip(), rule.id
        assert rule.category in CATEGORIES, rule.id


def test_every_shipped_rule_names_its_action_class() -> None:
    """The default action is for users' own rule files; a shipped rule says what an operator does."""
    missing = [rule.id for rule in shipped_rules() if rule.action is None]
    assert not missing, f"rules without an 'action:' line: {missing}"
    assert {rule.action for rule in shipped_rules()} <= set(ACTIONS)


def test_info_rules_are_monitor_and_only_runtime_or_driver_rules_stop_scheduling() -> None:
    """A note never drains a node; isolate/reset come from measured faults or the kernel driver."""
    for rule in shipped_rules():
        if rule.severity == "info":
            assert rule.action == "monitor", rule.id
        if rule.action in ("isolate", "reset"):
            assert rule.category in ("runtime", "driver"), rule.id


def test_ids_and_names_are_unique_and_not_retired() -> None:
    rules = shipped_rules()
    assert len({r.id for r in rules}) == len(rules)
    assert len({r.name for r in rules}) == len(rules)
    assert not {r.id for r in rules} & set(load_retired())


def test_every_fact_path_a_rule_reads_exists() -> None:
    for rule in shipped_rules():
        per_gpu = rule.for_each == "gpu"
        used = conditions.validate(rule.when, per_gpu)
        used += placeholders(rule.title) + placeholders(rule.message)
        for fix in rule.fixes:
            used += [p for text in fix_templates(fix) for p in placeholders(text)]
        bad = {p: paths.check(p, per_gpu) for p in used if paths.check(p, per_gpu)}
        assert not bad, f"{rule.id}: {bad}"


def test_the_healthy_baseline_fires_no_error_or_warning() -> None:
    facts = Facts.from_dict(load_baseline(BASELINE))
    result = evaluate(shipped_rules(), facts)
    loud = [f"{f.id} {f.message}" for f in result.findings if f.severity in ("error", "warning")]
    assert not loud, f"the healthy baseline fires: {loud}"


def test_the_baseline_is_a_valid_facts_document_of_a_healthy_amd_machine() -> None:
    facts = Facts.from_dict(load_baseline(BASELINE))
    assert facts.gpus.agents[0].gfx.value == "gfx1100"
    assert facts.torch.flavour.value == "rocm"
    assert facts.env.vars.status == "known" and facts.env.vars.value == {}


def test_no_fix_tells_pip_uninstall_to_take_user() -> None:
    # pip uninstall has no --user option (its command defines -r, -y, --root-user-action and
    # --break-system-packages); a fix that says so fails with "no such option".
    wrong = [
        rule.id
        for rule in shipped_rules()
        for fix in rule.fixes
        if re.search(r"pip\s+uninstall\s[^`\n]*--user\b", fix.text or "")
    ]
    assert not wrong, f"fixes with 'pip uninstall --user': {wrong}"
