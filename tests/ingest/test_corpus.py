"""Accuracy on real bug reports, as aggregates: ``check --from`` over every corpus case.

The cases are public reports whose root cause their thread established
(``../shared/corpus`` and ``tests/corpus``, with ``tests/corpus/holdout`` scored but
never used to tune a reader or rule). The test prints the table of recall and top-1
per class and asserts aggregate floors, never one expected result per case: a reader
or rule that only fits one report cannot move these figures much, and a change that
breaks reading in general drops them.

* no healthy case gets an error (a false alarm on a working machine is the worst result);
* no case crashes the reader or the judge;
* recall over the problem cases of each corpus stays at or above its floor.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Set

import pytest
from corpus_scoring import (
    HOLDOUT_CORPUS,
    OWN_CORPUS,
    SHARED_CORPUS,
    Outcome,
    corpora,
    heldback_other_categories,
    load,
    recall,
    score,
    shared_heldback_ids,
    table,
)

from rocm_doctor.judge.loader import load_rules

FLOORS = {"shared": 0.82, "shared-held": 0.61, "tests": 0.74, "holdout": 0.44}
"""Recall floors per corpus (problem cases with an error or warning of the right category).

Set a few points under what was measured when they were last raised (see the table this
test prints), so that a regression fails and noise does not. Measured 2026-11-28 (issue 23, third
round): shared 47/54 (0.87), shared-held 17/25 (0.68), tests 97/121 (0.80), holdout 26/46 (0.57;
its cases changed: 13 that development cases duplicated or a search showed were taken out, 18 added).
Holdout lowered on 2026-11-28 (fifth round) when 13 fresh held-back reports (branch h30f) joined it:
45/90 (0.50), of which the new batch 3/11; then 11 more (branch h30m): 47/100 (0.47), that batch 2/10.
Tests lowered to 0.75 on 2026-12-01 (learn55e): its blind batch of 7 reports drawn with neutral queries joined the
development cases scored before anything was learnt from them; 5 stay missed (458/603, 0.760; 456/597, 0.764 before).
Lowered to 0.74 on 2026-12-01 (session 56): seven held-back reports whose threads' openings development searches had
shown joined the development cases, five of them missed (496/664, 0.747; 494/657, 0.752 before). Shared-held
lowered to 0.61 (recall and top-1) the same day: two of its cases left it for the same reason, both hits (13/21,
0.619; 15/23, 0.652 before).
Tests raised to 0.76 at the end of session 59 (524/680, 0.771, after its reader and rule changes).
Tests lowered to 0.74 on 2026-12-03 (session 67's re-split): half of the held-back cases, 94 problem reports of which
49 are hits, joined the development cases scored before anything was learnt from them (633/837, 0.756; 584/743, 0.786
before). The remaining held-back part is 50/99 (0.505), as it was before the move.
The floor guards against regressions, not the target.
"""
TOP1_FLOORS = {"shared": 0.82, "shared-held": 0.61, "tests": 0.71, "holdout": 0.40}
"""Floors for the share of problem cases whose first error or warning is of the right category
(what a maintainer reads first). Measured 2026-11-28, third round: shared 47/54 (0.87), shared-held
17/25 (0.68), tests 94/121 (0.78), holdout 23/46 (0.50); holdout 42/90 (0.47) after the fifth round's first fresh batch, 44/100 (0.44) after its second. Tests lowered
to 0.74 on 2026-12-01: the blind batches of sessions 52-53 add development cases scored before anything was
learnt from them, and some stay missed (419/552, 0.759, after batch learn53j; 0.762 before it), so the share falls
without a regression. Lowered to 0.73 on 2026-12-01 for the same reason (learn55e's blind batch: 445/603, 0.738;
443/597, 0.742 before). Lowered to 0.72 on 2026-12-01 (learn56c: a blind batch of 5
permissions_render_group reports, all missed: 465/638, 0.729; 465/633, 0.735 before). Lowered to 0.71 on 2026-12-02
(drv57: a blind batch of 4 driver_too_old reports, all missed: 480/668, 0.719; 480/664, 0.723 before). Back to 0.72
at the end of session 57 (490/678, 0.723, after its reader and rule changes). Raised to 0.73 at the end of session 59
(506/680, 0.744). Lowered to 0.71 on 2026-12-03 (session 67's re-split: 94 held-back problem reports joined, 46 of them
top-1: 607/837, 0.725; 561/743, 0.755 before)."""
MIN_CASES = {"shared": 76, "shared-held": 25, "tests": 1167, "holdout": 160}


@pytest.fixture(scope="module")
def outcomes() -> List[Outcome]:
    present = [(name, cases) for name, cases in corpora() if cases]
    if not present:
        pytest.skip(f"no corpus found ({SHARED_CORPUS}, {OWN_CORPUS})")
    return score(load_rules([], use_env=False), present)


def test_the_corpus_table_is_printed_and_nothing_crashes(outcomes: List[Outcome], capsys: pytest.CaptureFixture) -> None:
    with capsys.disabled():
        print("\n" + table(outcomes))
    crashed = [(o.case_id, o.crashed) for o in outcomes if o.crashed]
    assert not crashed


def test_no_healthy_report_gets_an_error(outcomes: List[Outcome]) -> None:
    alarms = [(o.corpus, o.case_id, o.shown) for o in outcomes if o.expected is None and not o.hit]
    assert not alarms


@pytest.mark.parametrize("corpus", sorted(FLOORS))
def test_recall_per_corpus_stays_above_its_floor(outcomes: List[Outcome], corpus: str) -> None:
    members = [o for o in outcomes if o.corpus == corpus]
    if not members:
        pytest.skip(f"the {corpus} corpus is not present")
    assert len(members) >= MIN_CASES[corpus], f"the {corpus} corpus shrank to {len(members)} cases"
    assert recall(members) >= FLOORS[corpus], table(members)


@pytest.mark.parametrize("corpus", sorted(TOP1_FLOORS))
def test_the_first_problem_shown_is_the_right_one_often_enough(outcomes: List[Outcome], corpus: str) -> None:
    problems = [o for o in outcomes if o.corpus == corpus and o.expected is not None and o.klass != "other"]
    if not problems:
        pytest.skip(f"the {corpus} corpus is not present")
    assert sum(o.top1 for o in problems) / len(problems) >= TOP1_FLOORS[corpus], table(problems)


def test_every_case_has_the_fields_and_a_public_source() -> None:
    for path in (OWN_CORPUS, HOLDOUT_CORPUS):
        for case in load(path):
            assert {"id", "source", "report", "root_cause_class", "root_cause"} <= set(case), case.get("id")
            assert str(case["source"]).startswith("https://"), case["id"]


def test_no_thread_is_two_cases_of_one_corpus() -> None:
    # one thread scored twice counts its outcome twice, and two labels for it means one of them is always a miss
    for path in (OWN_CORPUS, HOLDOUT_CORPUS):
        sources = [str(case["source"]).rstrip("/").lower() for case in load(path)]
        assert len(sources) == len(set(sources)), sorted({s for s in sources if sources.count(s) > 1})


def test_held_back_class_other_categories_name_held_back_other_cases_and_real_categories() -> None:
    from rocm_doctor.model.rules import CATEGORIES

    listed = heldback_other_categories()
    held = {case["id"]: case["root_cause_class"] for case in load(HOLDOUT_CORPUS)}
    held.update({case["id"]: case["root_cause_class"] for name, cases in corpora() if name == "shared-held" for case in cases})
    assert all(held.get(case_id) == "other" for case_id in listed), sorted(i for i in listed if held.get(i) != "other")
    assert all(categories and categories <= set(CATEGORIES) for categories in listed.values())


def test_no_thread_is_both_a_development_case_and_a_held_back_one() -> None:
    # a thread a reader was written from is no longer unseen: its held-back copy would flatter the estimate
    def threads(cases: List[dict]) -> set:
        return {str(case["source"]).rstrip("/").lower() for case in cases}

    developed = threads(load(OWN_CORPUS)) | threads(load(SHARED_CORPUS))
    assert not developed & threads(load(HOLDOUT_CORPUS))


_ROOT = Path(__file__).resolve().parents[2]
_THREAD_URL = re.compile(r"https?://(?:www\.)?github\.com/([\w.-]+/[\w.-]+)/(?:issues|pull|discussions)/(\d+)", re.IGNORECASE)
_THREAD_REF = re.compile(r"(?<![\w/.-])([A-Za-z0-9][\w.-]*/[\w.-]+)#(\d+)\b")
# GitHub keeps old names as redirects: AMD's organisations were merged into ROCm, ROCm/ROCm's issues moved
_RENAMED = {"radeonopencompute": "rocm", "rocm-developer-tools": "rocm", "rocmsoftwareplatform": "rocm", "amdcomputelibraries": "rocm"}


def _thread(repo: str, number: str) -> str:
    owner, name = repo.lower().split("/", 1)
    owner = _RENAMED.get(owner, owner)
    if (owner, name) == ("rocm", "rocm"):
        name = "legacy-rocm-build"
    return f"{owner}/{name}#{int(number)}"


def _threads_in(text: str) -> Set[str]:
    return {_thread(m.group(1), m.group(2)) for pattern in (_THREAD_URL, _THREAD_REF) for m in pattern.finditer(text)}


def test_no_held_back_thread_is_a_source_of_a_rule_or_reader() -> None:
    # a thread a rule, signature or reader cites was read while writing it: held back, it would flatter the
    # estimate on unseen reports (2026-11-29: 14 such cases found and moved to the development set)
    held = [case for case in load(HOLDOUT_CORPUS)]
    shared_ids = shared_heldback_ids()
    held += [case for case in load(SHARED_CORPUS) if case.get("id") in shared_ids]
    held_threads = {t: case["id"] for case in held for t in _threads_in(str(case["source"]))}
    cited: Set[str] = set()
    for path in list((_ROOT / "rules").rglob("*.yaml")) + list((_ROOT / "rocm_doctor").rglob("*.py")):
        cited |= _threads_in(path.read_text(encoding="utf-8", errors="replace"))
    assert not sorted(held_threads[t] for t in held_threads.keys() & cited)


def test_thread_references_are_read_in_both_forms() -> None:
    assert _threads_in("see https://github.com/RadeonOpenCompute/ROCm/issues/1080 and ROCm/hip#2265.") == {
        "rocm/legacy-rocm-build#1080",
        "rocm/hip#2265",
    }


# Reserved threads (../shared/corpus/is-reserved: kept back for the team's measurement) that rules cited before
# this check existed; each was read while writing the rule, so the measurement on them is not on unseen reports.
# Listed in the closing note of 2026-11-29 so the measurement can leave them out; no new one may join.
_RESERVED_CITED_BEFORE_THE_CHECK = {
    "pytorch/pytorch#133259",
    "pytorch/pytorch#179865",
    "rocm/legacy-rocm-build#3060",
    "rocm/legacy-rocm-build#4625",
    "rocm/librocdxg#46",
    "rocm/rocblas#1398",
    "vllm-project/vllm#12572",
}


def test_no_rule_or_reader_cites_a_thread_reserved_for_measurement() -> None:
    import hashlib

    digests = Path(SHARED_CORPUS) / "reserved-sources.sha256"
    if not digests.exists():
        pytest.skip("../shared/corpus/reserved-sources.sha256 is not present")
    reserved = {line.strip() for line in digests.read_text().splitlines() if line.strip() and not line.startswith("#")}

    def is_reserved(thread: str) -> bool:
        repo, number = thread.split("#")
        forms = {f"github.com/{repo}/issues/{number}", f"github.com/{repo}/pull/{number}"}
        if repo == "rocm/legacy-rocm-build":
            forms.add(f"github.com/rocm/rocm/issues/{number}")
        return any(hashlib.sha256(form.encode()).hexdigest() in reserved for form in forms)

    cited: Set[str] = set()
    for path in list((_ROOT / "rules").rglob("*.yaml")) + list((_ROOT / "rocm_doctor").rglob("*.py")):
        cited |= _threads_in(path.read_text(encoding="utf-8", errors="replace"))
    assert sorted(t for t in cited if is_reserved(t) and t not in _RESERVED_CITED_BEFORE_THE_CHECK) == []
