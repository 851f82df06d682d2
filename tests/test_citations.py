"""Every citation in the rule database is a public URL anyone can open, and no text shown to a
user cites the team's own notes (``facts.md``, key-style ``[TI]`` citations, "corpus <id>") or
tracker ("issue 3"). Every data table says when it was checked and against what.

A GitHub file link must name a commit or a release tag, so that what it shows cannot change
under the citation (``blob/main`` and ``blob/develop`` drift).
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any, Iterator, List, Tuple

import pytest

from rocm_doctor.data import read_yaml, rules_dir
from rocm_doctor.judge.cases import case_facts, load_baseline, load_cases
from rocm_doctor.judge.derived import DerivedValues, load_all
from rocm_doctor.judge.engine import verdicts
from rocm_doctor.judge.interpolate import fix_templates
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.ruledb import rule_database_info, table_checks

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "rule_cases"
URL = re.compile(r"^https?://[^\s<>\"]+$")
GITHUB_FILE = re.compile(r"^https://github\.com/[^/]+/[^/]+/(?:blob|tree)/([^/#?]+)/")
PINNED_REF = re.compile(r"^(?:[0-9a-f]{40}|v?\d+(?:\.\d+)*(?:-[0-9A-Za-z.]+)?|rocm-\d[\w.\-]*)$")
NOTES_CITATION = re.compile(
    r"facts\.md|\bcorpus [a-z]|\bissue #?\d+|perf\.md|\[(?:TI|PV|BLD|CM|SR|ROCR|CLR|KFD|ROCK|TR|OLL|LLVM|PCI)\]",
    re.IGNORECASE,
)


def _citation_problem(url: Any) -> str:
    """Why ``url`` is not an acceptable citation; empty when it is."""
    if not isinstance(url, str) or not URL.match(url.strip()):
        return f"not an http(s) URL: {url!r}"
    match = GITHUB_FILE.match(url.strip())
    if match and not PINNED_REF.match(match.group(1)):
        return f"a GitHub file on branch {match.group(1)!r}, not at a commit or tag: {url}"
    return ""


def _sources(node: Any, where: str) -> Iterator[Tuple[str, Any]]:
    """Every (location, value) of a ``source`` / ``*_source`` key anywhere in a data table."""
    if isinstance(node, dict):
        for key, value in node.items():
            here = f"{where}.{key}"
            if key == "source" or str(key).endswith("_source"):
                yield here, value
            else:
                yield from _sources(value, here)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _sources(item, f"{where}[{index}]")


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for item in node:
            yield from _strings(item)
    elif isinstance(node, str):
        yield node


def _tables() -> List[Path]:
    return sorted((rules_dir() / "data").glob("*.yaml"))


@pytest.mark.parametrize("value", ["facts.md E.1", "[TI] 5510fd052", "https://github.com/ROCm/clr/blob/develop/x.cpp", "ROCm/hip#3874"])
def test_the_guard_rejects_what_is_not_a_public_pinned_url(value: str) -> None:
    assert _citation_problem(value)


@pytest.mark.parametrize(
    "value",
    [
        "https://github.com/ROCm/clr/blob/f9f995c6d0aecec28debd3db0f41df0c15ec003d/rocclr/utils/flags.hpp#L27",
        "https://github.com/torvalds/linux/blob/v6.17/drivers/gpu/drm/amd/amdkfd/kfd_device.c",
        "https://github.com/pytorch/pytorch/pull/174377",
        "https://rocm.docs.amd.com/en/docs-7.1.1/compatibility/compatibility-matrix.html",
    ],
)
def test_the_guard_accepts_public_pinned_urls(value: str) -> None:
    assert _citation_problem(value) == ""


def test_the_constraints_file_rules_cite_pips_guide_at_a_release() -> None:
    # pip.pypa.io/en/stable/ changes with every pip release; the guide at a tag does not
    refs = [ref.url for r in load_rules(use_env=False) if r.id in ("RD821", "RD825") for ref in r.references]
    pip_guide = [u for u in refs if "user_guide" in u]
    assert len(pip_guide) == 2 and not any("/en/stable/" in u or "/en/latest/" in u for u in pip_guide), pip_guide


def test_every_rule_reference_is_a_public_url() -> None:
    problems = [f"{r.id}: {p}" for r in load_rules(use_env=False) for ref in r.references if (p := _citation_problem(ref.url))]
    assert not problems, "\n".join(problems)


def test_every_data_row_source_is_a_public_url_or_a_list_of_them() -> None:
    problems: List[str] = []
    seen = 0
    for path in _tables():
        for where, value in _sources(read_yaml(path), path.stem):
            seen += 1
            urls = value if isinstance(value, list) else [value]
            if not urls:
                problems.append(f"{where}: empty")
            problems += [f"{where}: {p}" for p in map(_citation_problem, urls) if p]
    assert seen > 300, "the walk found too few sources: is the table layout still what this test expects?"
    assert not problems, "\n".join(problems)


UNVERSIONED_DOC = re.compile(
    r"^https://(?:rocm\.docs\.amd\.com/(?:projects/[^/]+/)?en/(?:latest|develop|stable)/"
    r"|(?:docs\.)?pytorch\.org/docs/(?:stable|main)/"
    r"|www\.freedesktop\.org/software/systemd/man/latest/)"
)
"""A documentation page that follows the newest release: what it says changes under the citation.
A versioned page (``/en/docs-6.4.1/``, ``/docs/2.7/``) or the docs source at a tag or commit does not."""

STILL_UNVERSIONED = {
    # Citations not yet pinned (each needs a versioned page that says the same). Remove a line
    # when its URL is pinned; never add one. The ROCm 7.0-era user/kernel-space rows are pinned.
    "https://rocm.docs.amd.com/projects/amdsmi/en/develop/how-to/amdsmi-wsl-mode.html",
}


def _every_citation() -> List[Tuple[str, str]]:
    cited = [(r.id, ref.url) for r in load_rules(use_env=False) for ref in r.references]
    for path in _tables():
        for where, value in _sources(read_yaml(path), path.stem):
            cited += [(where, u) for u in (value if isinstance(value, list) else [value]) if isinstance(u, str)]
    cited += [(f"{c.name}.against", u) for c in table_checks() for u in c.against]
    return cited


@pytest.mark.parametrize(
    "url",
    [
        "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/reference/user-kernel-space-compat-matrix.html",
        "https://rocm.docs.amd.com/en/latest/compatibility/compatibility-matrix.html",
        "https://rocm.docs.amd.com/projects/amdsmi/en/develop/how-to/amdsmi-wsl-mode.html",
        ],
)
def test_an_unversioned_doc_page_is_recognised(url: str) -> None:
    assert UNVERSIONED_DOC.match(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.3.0/reference/user-kernel-space-compat-matrix.html",
        "https://rocm.docs.amd.com/en/docs-7.1.1/compatibility/compatibility-matrix.html",
        "https://github.com/ROCm/amdgpu-docs/blob/30.10.0/docs/compatibility/compatibility-matrix.rst",
    ],
)
def test_a_versioned_doc_page_is_not_taken_for_an_unversioned_one(url: str) -> None:
    assert not UNVERSIONED_DOC.match(url)


def test_no_citation_is_an_unversioned_doc_page_beyond_the_known_unpinned_ones() -> None:
    cited = _every_citation()
    new = sorted({f"{where}: {url}" for where, url in cited if UNVERSIONED_DOC.match(url) and url not in STILL_UNVERSIONED})
    assert not new, "cite a versioned page or the docs source at a tag:\n" + "\n".join(new)
    pinned_since = sorted(STILL_UNVERSIONED - {url for _, url in cited})
    assert not pinned_since, "no longer cited; remove from STILL_UNVERSIONED:\n" + "\n".join(pinned_since)


def test_the_driver_compatibility_rules_and_table_cite_no_unversioned_page() -> None:
    # RD384, RD120, RD104, RD107 and rules/data/amdgpu_driver.yaml cited unversioned pages until session 48
    cited = [(w, u) for w, u in _every_citation() if w in ("RD384", "RD120", "RD104", "RD107") or w.startswith("amdgpu_driver")]
    assert len(cited) > 15
    assert not [f"{w}: {u}" for w, u in cited if UNVERSIONED_DOC.match(u)]


NOT_A_BRANCH_COMMIT = {
    # GitHub's test merge of a pull request (refs/pull/N/merge): on no branch, recomputed when the PR or its base
    # moves, so a blob URL at it can stop resolving. Cite the branch commit the PR was merged onto instead.
    "bda783e17c76e862aacd743ab2b081d4a5a8fc83": "ROCm/rocm-install-on-linux refs/pull/330/merge (develop is f297bde3)",
}


def test_no_citation_is_pinned_to_a_pull_requests_test_merge() -> None:
    # review rev48d: session 48 pinned RD300-302/RD346/RD348/RD380 to rocm-install-on-linux at bda783e, PR #330's merge ref
    bad = sorted({f"{w}: {u}" for w, u in _every_citation() for sha in NOT_A_BRANCH_COMMIT if sha in u})
    assert not bad, "\n".join(bad)


def test_no_rule_text_cites_the_teams_notes_or_tracker() -> None:
    problems = []
    for rule in load_rules(use_env=False):
        texts = [rule.title, rule.message, rule.explanation] + [ref.title or "" for ref in rule.references]
        for fix in rule.fixes:
            texts += fix_templates(fix)
        problems += [f"{rule.id}: {m.group(0)!r}" for text in texts for m in [NOTES_CITATION.search(text)] if m]
    assert not problems, problems


def test_no_data_table_text_cites_the_teams_notes() -> None:
    problems = [
        f"{path.name}: {m.group(0)!r} in {text[:80]!r}"
        for path in _tables()
        for text in _strings(read_yaml(path))
        for m in [NOTES_CITATION.search(text)]
        if m
    ]
    assert not problems, problems


def test_no_derived_fact_description_cites_the_teams_notes() -> None:
    problems = [f"{path}: {m.group(0)!r}" for path, entry in load_all().items() for m in [NOTES_CITATION.search(entry.doc)] if m]
    assert not problems, problems


def test_no_fact_source_shown_in_a_finding_cites_the_teams_notes() -> None:
    # Each rule's evidence as its own firing cases show it (judging every rule on every case showed the
    # same sources and took a tenth of the suite's time).
    rules = {rule.id: rule for rule in load_rules(use_env=False)}
    baseline = load_baseline(CASES / "baseline.json")
    shown = 0
    problems = []
    for path in sorted(CASES.glob("RD*.yaml")):
        for case in load_cases(path, path.stem):
            if case.kind != "fires" or path.stem not in rules:
                continue
            facts = case_facts(baseline, case)
            for finding in verdicts([rules[path.stem]], facts, DerivedValues(facts)).findings:
                for item in finding.evidence:
                    shown += 1
                    if item.source and NOTES_CITATION.search(item.source):
                        problems.append(f"{case.where} {finding.id} {item.path}: {item.source}")
    assert shown > 100
    assert not problems, problems


def test_no_shipped_code_or_document_cites_the_teams_notes() -> None:
    files = [*ROOT.joinpath("rocm_doctor").rglob("*.py"), *ROOT.joinpath("docs").rglob("*.md"), ROOT / "README.md"]
    problems = [
        f"{f.relative_to(ROOT)}:{n}: {m.group(0)!r}"
        for f in files
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), start=1)
        for m in [NOTES_CITATION.search(line)]
        if m
    ]
    assert not problems, problems


def test_every_data_table_says_when_and_against_what_it_was_checked() -> None:
    checks = {c.name: c for c in table_checks()}
    assert set(checks) == {p.stem for p in _tables()}
    today = datetime.date.today()
    for name, check in checks.items():
        assert check.checked <= today, name
        assert check.against and all(not _citation_problem(url) for url in check.against), name
    info = rule_database_info()
    assert info["checked"] == min(c.checked for c in checks.values()).isoformat()
    assert info["version"].startswith("rules-")


UNVERSIONED_GNU_MANUAL = re.compile(r"^https://www\.gnu\.org/software/[^/]+/manual/")
"""gnu.org's manual pages follow the latest release; a pinned copy is a release tag's source."""


def test_the_env_scope_rules_and_their_derived_facts_cite_no_unversioned_gnu_manual() -> None:
    env_scope = [r for r in load_rules(use_env=False) if (r.source_file or "").endswith("env_scope.yaml")]
    assert env_scope
    cited = [f"{r.id}: {ref.url}" for r in env_scope for ref in r.references if UNVERSIONED_GNU_MANUAL.match(ref.url)]
    docstring = (ROOT / "rocm_doctor" / "judge" / "derived_facts" / "env_reach.py").read_text(encoding="utf-8")
    cited += [f"env_reach.py: {m}" for m in re.findall(r"https://www\.gnu\.org/software/[^/\s]+/manual/\S*", docstring)]
    assert not cited, "\n".join(cited)


def test_a_rule_citing_the_rocm_63_wsl_pytorch_page_says_that_page_copies_the_runtime_in() -> None:
    # review rev48d: the docs-6.3 WSL page removes torch's libhsa-runtime64.so and copies /opt/rocm's in its place
    # (AMD on ROCm/ROCm#4749; from ROCm 6.4.1 for WSL removing it is enough); RD506's fix only removed it
    page = "https://rocm.docs.amd.com/projects/radeon/en/docs-6.3/docs/install/wsl/install-pytorch.html"
    for rule in load_rules(use_env=False):
        if any(ref.url == page for ref in rule.references) and "libhsa-runtime64" in " ".join(
            t for fix in rule.fixes for t in fix_templates(fix)
        ):
            fixes = " ".join(t for fix in rule.fixes for t in fix_templates(fix))
            assert "6.3" in fixes and "/opt/rocm" in fixes, rule.id
            assert any("ROCm/ROCm/issues/4749" in ref.url for ref in rule.references), rule.id
