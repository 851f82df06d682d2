"""The reading order of findings: what explains the reported error first, catch-alls and guesses last."""

from __future__ import annotations

from typing import Any, Dict, List

from judge_helpers import fact
from rocm_doctor.ingest import ingest_text
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate
from rocm_doctor.model.rules import Rule


def _rule(rule_id: str, severity: str, when: Dict[str, Any], rank: str = "normal", category: str = "env", area: str = "env") -> Rule:
    return Rule.model_validate(
        {
            "id": rule_id,
            "name": f"order-{rule_id.lower()}",
            "severity": severity,
            "category": category,
            "area": area,
            "rank": rank,
            "when": when,
            "title": rule_id,
            "message": rule_id,
            "explanation": "test rule",
            "references": [{"url": "https://example.org/test"}],
        }
    )


ALWAYS = {"fact": "torch.version", "exists": True}
SHOWS_SEGFAULT = {"fact": "symptoms.signatures", "contains": "segfault"}


def _order(make_facts, rules: List[Rule]) -> List[str]:
    facts = make_facts({"symptoms": {"signatures": fact(["segfault"])}})
    return [f.id for f in evaluate(rules, facts).findings]


def test_a_finding_that_explains_the_reported_error_outranks_an_error_that_does_not(make_facts) -> None:
    rules = [_rule("TST901", "error", ALWAYS), _rule("TST902", "warning", {"all": [ALWAYS, SHOWS_SEGFAULT]})]
    assert _order(make_facts, rules) == ["TST902", "TST901"]


def test_catch_alls_then_the_unexplained_error_then_weak_inferences_rank_after_every_other_problem(make_facts) -> None:
    rules = [
        _rule("TST911", "error", SHOWS_SEGFAULT, rank="fallback"),
        _rule("TST912", "error", ALWAYS, rank="weak-inference"),
        _rule("TST913", "error", ALWAYS, rank="catch-all", category="platform", area="windows"),
        _rule("TST914", "warning", ALWAYS),
        _rule("TST915", "info", SHOWS_SEGFAULT),
    ]
    # a guess from a CPU model name ranks below the finding that names an error the report shows
    assert _order(make_facts, rules) == ["TST914", "TST913", "TST911", "TST912", "TST915"]


def test_severity_orders_findings_within_a_tier(make_facts) -> None:
    rules = [_rule("TST921", "warning", ALWAYS), _rule("TST922", "error", ALWAYS)]
    assert _order(make_facts, rules) == ["TST922", "TST921"]


def test_a_finding_that_explains_more_of_the_reported_errors_reads_before_an_error_that_explains_fewer(make_facts) -> None:
    # "/dev/kfd is missing" (an error) explains one of the two errors; the kernel's compute driver that did not come
    # up (a warning) explains both: the second reads first (rocm-1415: RD147 after RD518 before)
    facts = make_facts({"symptoms": {"signatures": fact(["segfault", "hang"])}})
    one = _rule("TST933", "error", SHOWS_SEGFAULT)
    both = _rule("TST934", "warning", {"all": [SHOWS_SEGFAULT, {"fact": "symptoms.signatures", "contains": "hang"}]})
    assert [f.id for f in evaluate([one, both], facts).findings] == ["TST934", "TST933"]
    # as many explained: severity decides
    other_one = _rule("TST935", "warning", {"fact": "symptoms.signatures", "contains": "hang"})
    assert [f.id for f in evaluate([other_one, one], facts).findings] == ["TST933", "TST935"]


def test_the_reporters_fix_reads_before_a_finding_that_explains_only_part_of_the_reported_errors(make_facts) -> None:
    facts = make_facts({"symptoms": {"signatures": fact(["segfault", "hang"])}})
    partial = _rule("TST936", "error", SHOWS_SEGFAULT)
    told = _rule("TST937", "warning", ALWAYS, rank="reported-fix")
    assert [f.id for f in evaluate([partial, told], facts).findings] == ["TST937", "TST936"]


def test_a_rule_that_says_it_explains_the_reported_error_ranks_with_those_that_test_it(make_facts) -> None:
    explaining = _rule("TST931", "error", ALWAYS).model_copy(update={"explains": ["segfault"]})
    rules = [explaining, _rule("TST932", "warning", {"all": [ALWAYS, SHOWS_SEGFAULT]})]
    assert _order(make_facts, rules) == ["TST931", "TST932"]


def test_an_error_a_rule_says_it_explains_is_not_left_unexplained(make_facts) -> None:
    facts = make_facts({"symptoms": {"signatures": fact(["no_torch_for_this_python"])}})
    unexplained = _rule("TST942", "warning", {"fact": "derived.unexplained_signatures", "exists": True}, rank="fallback")
    silent = _rule("TST941", "error", ALWAYS)
    assert [f.id for f in evaluate([silent, unexplained], facts).findings] == ["TST941", "TST942"]
    explaining = silent.model_copy(update={"explains": ["no_torch_for_this_python"]})
    assert [f.id for f in evaluate([explaining, unexplained], facts).findings] == ["TST941"]


def test_a_rule_that_waits_for_no_other_problem_speaks_only_where_the_others_found_none(make_facts) -> None:
    facts = make_facts({})
    guess = _rule("TST945", "info", {"fact": "derived.first_phase_problems", "eq": 0}, rank="weak-inference")
    note = _rule("TST946", "info", ALWAYS)
    problem = _rule("TST947", "warning", ALWAYS)
    assert [f.id for f in evaluate([note, guess], facts).findings] == ["TST946", "TST945"]
    assert [f.id for f in evaluate([problem, note, guess], facts).findings] == ["TST947", "TST946"]



def test_the_problems_a_second_phase_rule_waits_on_are_the_first_phases_only(make_facts) -> None:
    # neither its own finding nor another second-phase rule's (RD599's "an error nothing explains") is counted (rev49d)
    facts = make_facts({"symptoms": {"signatures": fact(["no_torch_for_this_python"])}})
    guess = _rule("TST948", "info", {"fact": "derived.first_phase_problems", "eq": 0}, rank="weak-inference")
    unexplained = _rule("TST949", "warning", {"fact": "derived.unexplained_signatures", "exists": True}, rank="fallback")
    assert sorted(f.id for f in evaluate([guess, unexplained], facts).findings) == ["TST948", "TST949"]
    checklist = _rule("TST950", "warning", ALWAYS, rank="catch-all")
    assert [f.id for f in evaluate([checklist, guess], facts).findings] == ["TST950"]

def test_a_young_gpu_with_no_build_shown_gets_a_note_only_where_no_problem_was_found() -> None:
    # RD947: an R9700 (gfx1201) in a report that shows no torch, ROCm or program version
    rules = load_rules([], use_env=False)
    alone = "ROCm does not see my Radeon AI PRO R9700."
    ids = [f.id for f in evaluate(rules, ingest_text(alone).facts).findings]
    assert "RD947" in ids
    denied = alone + "\nUnable to open /dev/kfd read-write: Permission denied\n"
    ids = [f.id for f in evaluate(rules, ingest_text(denied).facts).findings]
    assert "RD516" in ids and "RD947" not in ids


def test_a_checklist_is_left_out_when_a_specific_problem_of_its_category_and_area_covers_it(make_facts) -> None:
    checklist = _rule("TST951", "warning", ALWAYS, rank="catch-all", category="platform", area="windows")
    specific = _rule("TST952", "warning", ALWAYS, category="platform", area="windows")
    assert _order(make_facts, [checklist, specific]) == ["TST952"]


def test_a_checklist_stays_beside_a_note_or_a_problem_of_another_area(make_facts) -> None:
    checklist = _rule("TST961", "warning", ALWAYS, rank="catch-all", category="platform", area="windows")
    note = _rule("TST962", "info", ALWAYS, category="platform", area="windows")
    elsewhere = _rule("TST963", "error", ALWAYS, category="platform", area="wsl2")
    other_category = _rule("TST964", "error", ALWAYS, category="gfx-unsupported", area="windows")
    assert _order(make_facts, [checklist, note, elsewhere, other_category]) == ["TST964", "TST963", "TST961", "TST962"]


def test_a_checklist_about_what_the_report_does_stays_beside_a_problem_that_is_not_about_it(make_facts) -> None:
    # The Windows training checklist (it tests the report's training workload) is not covered by a
    # Windows finding about something else (a preview wheel's crash).
    training = {"all": [ALWAYS, {"fact": "symptoms.signatures", "contains": "segfault"}]}
    checklist = _rule("TST971", "warning", training, rank="catch-all", category="platform", area="windows")
    other = _rule("TST972", "warning", ALWAYS, category="platform", area="windows")
    assert _order(make_facts, [checklist, other]) == ["TST972", "TST971"]
    about_it = _rule("TST973", "warning", training, category="platform", area="windows")
    assert _order(make_facts, [checklist, about_it]) == ["TST973"]


def test_the_unlisted_os_finding_ranks_after_a_problem_of_another_category() -> None:
    # RD730 fires on any report of a system AMD does not list for its ROCm release, whatever the
    # error: it must not be read before a finding about the report's own problem.
    from rocm_doctor.ingest import ingest_text
    from rocm_doctor.judge.loader import load_rules

    rd730 = [r for r in load_rules([], use_env=False) if r.id == "RD730"]
    problem = _rule("TST981", "warning", {"fact": "rocm.version", "exists": True}, category="gfx-unsupported", area="zz-last")
    facts = ingest_text("### Operating System\n\nfedora 41\n\n### ROCm Version\n\nrocm6.3\n").facts
    assert [f.id for f in evaluate(rd730 + [problem], facts).findings] == ["TST981", "RD730"]


def test_a_problem_that_tests_the_checklists_words_only_as_absent_or_as_one_choice_does_not_cover_it(make_facts) -> None:
    # A Windows finding that fires unless the report shows the segfault with a hang, or on the segfault OR
    # anything else, is not about what the checklist tests: the checklist stays.
    shows = {"fact": "symptoms.signatures", "contains": "segfault"}
    checklist = _rule("TST991", "warning", {"all": [ALWAYS, shows]}, rank="catch-all", category="platform", area="windows")
    hang = {"fact": "symptoms.signatures", "contains": "hang"}
    unless = _rule("TST992", "warning", {"all": [ALWAYS, {"not": {"all": [shows, hang]}}]}, category="platform", area="windows")
    assert _order(make_facts, [checklist, unless]) == ["TST992", "TST991"]
    either = _rule("TST993", "warning", {"any": [ALWAYS, shows]}, category="platform", area="windows")
    assert _order(make_facts, [checklist, either]) == ["TST993", "TST991"]


def test_a_gpu_that_needs_the_override_reads_after_the_wsl_requirements_the_report_runs_into() -> None:
    # RD511 says what the report does not show (whether HSA_OVERRIDE_GFX_VERSION is set): a fallback
    report = "Windows 11, WSL2, Ubuntu 22.04\nGPU: RX 6700 XT\nrocminfo: HSA_STATUS_ERROR_OUT_OF_RESOURCES\n"
    findings = evaluate(load_rules([], use_env=False), ingest_text(report).facts).findings
    shown = [f.id for f in findings if f.severity in ("error", "warning")]
    assert "RD511" in shown and "RD529" in shown
    assert shown.index("RD529") < shown.index("RD511")


def test_the_override_set_at_a_gpu_memory_fault_reads_before_a_problem_that_explains_no_error() -> None:
    # RD921 fires only where the report shows the fault, and says the override is what causes it (as RD214 does
    # where the GPU's family is known): it reads with the findings that explain the reported error (ollama#8851:
    # a gfx803 note read first)
    rules = load_rules([], use_env=False)
    rd921 = [r for r in rules if r.id == "RD921"]
    unrelated = _rule("TST982", "error", {"fact": "symptoms.signatures", "exists": True}, category="gfx-unsupported", area="aa-first")
    report = (
        "export HSA_OVERRIDE_GFX_VERSION=11.0.0\n$ ollama serve\n"
        "Memory access fault by GPU node-1 (Agent handle: 0x55d0c0a0) on address 0x7f1200000000. "
        "Reason: Page not present or supervisor privilege.\n"
    )
    findings = evaluate(rd921 + [unrelated], ingest_text(report).facts).findings
    assert [f.id for f in findings] == ["RD921", "TST982"]


def test_a_signature_a_rule_requires_absent_is_no_error_it_explains(make_facts) -> None:
    # a rule that fires beside "hang" only through another branch of an `any` that requires it absent explains the
    # segfault alone: the finding that explains both reads first
    facts = make_facts({"symptoms": {"signatures": fact(["segfault", "hang"])}})
    hang = {"fact": "symptoms.signatures", "contains": "hang"}
    both = _rule("TST938", "warning", {"all": [SHOWS_SEGFAULT, hang]})
    one = _rule("TST939", "error", {"all": [SHOWS_SEGFAULT, {"any": [{"not": hang}, ALWAYS]}]})
    assert [f.id for f in evaluate([one, both], facts).findings] == ["TST938", "TST939"]
