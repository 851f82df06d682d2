"""The rule-case format: overlays on the baseline, and what a failing case reports."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from judge_helpers import BASELINE, FIXTURE_RULES, fact
from rocm_doctor.judge.cases import Case, load_baseline, load_cases, overlay, run_case
from rocm_doctor.judge.loader import RuleFileError, load_files

RULES = {r.id: r for r in load_files(FIXTURE_RULES, retired={})}


def test_overlay_merges_dicts_replaces_facts_and_lists() -> None:
    base = {"a": {"x": {"status": "known", "value": [1, 2], "source": "s"}, "y": 1}, "l": [1, 2]}
    change = {"a": {"x": {"status": "absent"}}, "l": [3]}
    assert overlay(base, change) == {"a": {"x": {"status": "absent"}, "y": 1}, "l": [3]}
    assert base["a"]["x"]["value"] == [1, 2]


def test_overlay_with_integer_keys_edits_list_items() -> None:
    base = {"agents": [{"gfx": {"status": "known", "value": "gfx1100"}, "index": 0}]}
    assert overlay(base, {"agents": {0: {"gfx": fact("gfx1101")}}})["agents"][0]["gfx"]["value"] == "gfx1101"
    with pytest.raises(ValueError, match="outside"):
        overlay(base, {"agents": {3: {}}})


def _cases(tmp_path: Path, text: str):
    path = tmp_path / "TST002.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_cases(path, "TST002")


def test_case_files_load_and_run(tmp_path: Path) -> None:
    cases = _cases(tmp_path, """\
        fires:
          - name: wheel without gfx1100
            facts: {torch: {live: {arch_list: {status: known, value: [gfx90a], source: test}}}}
            gpus: [0]
        passes:
          - name: healthy
            facts: {}
        undecided:
          - name: no live probe
            facts: {torch: {live: {arch_list: {status: unknown, reason: --no-torch}}}}
        """)
    assert [c.kind for c in cases] == ["fires", "passes", "undecided"]
    baseline = load_baseline(BASELINE)
    assert [run_case(RULES["TST002"], c, baseline) for c in cases] == [None, None, None]


def test_a_failing_case_says_what_happened_instead(tmp_path: Path) -> None:
    baseline = load_baseline(BASELINE)
    silent = Case("TST002", "fires", "healthy", {}, where="x.yaml:2")
    assert run_case(RULES["TST002"], silent, baseline) == "x.yaml:2: TST002 fires case 'healthy': the rule did not fire"
    wrong_gpu = Case("TST002", "fires", "gpu", {"torch": {"live": {"arch_list": fact(["gfx90a"])}}}, [1], "x.yaml:3")
    assert "fired on GPUs [0], expected [1]" in run_case(RULES["TST002"], wrong_gpu, baseline)


def test_malformed_case_file_names_the_line(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError, match=r"TST002.yaml:3: unknown key 'fact' in a case"):
        _cases(tmp_path, """\
            fires:
              - name: typo
                fact: {}
            """)
