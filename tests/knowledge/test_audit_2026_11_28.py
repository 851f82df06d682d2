"""The wrong and outdated claims the facts audit of 2026-11-28 found (../shared/research/
facts-audit-2026-11-28.md), each pinned in its corrected form."""

from __future__ import annotations

from typing import Any, Dict

import yaml

from rocm_doctor.data import rules_dir
from rocm_doctor.judge.loader import load_rules


def _rule(rule_id: str):
    return next(r for r in load_rules() if r.id == rule_id)


def _table(name: str) -> Dict[str, Any]:
    return yaml.safe_load((rules_dir() / "data" / f"{name}.yaml").read_text(encoding="utf-8"))


def test_rd403_says_pytorch_179781_gated_on_hip_7_2_not_rocm_7_0_2():
    """Row 39: the #179781 gate was TORCH_HIP_VERSION < 702, i.e. HIP 7.2 (7.0.x and 7.1.x left out)."""
    rule = _rule("RD403")
    text = " ".join([rule.explanation, *(r.title for r in rule.references)]).replace("\n", " ")
    assert "TORCH_HIP_VERSION >= 702" in text and "HIP 7.2" in text
    assert "ROCm 7.0.2" not in " ".join(text.split()) and "#179781's 7.0.2" not in text


def test_rd703_knows_the_extra_debug_log_level_5():
    """Row 13: current HIP lists LOG_EXTRA_DEBUG = 5."""
    rule = _rule("RD703")
    assert "5 extra debug" in " ".join(rule.explanation.split())
    assert any("debug_hip_env.rst" in r.url for r in rule.references)


def test_the_release_2_10_backport_of_the_hipblaslt_toggle_cites_rocm_pytorch_3078():
    """Row 55: ROCm/pytorch#3077 is the main-line pick, #3078 the release/2.10 one."""
    rows = [r for r in _table("hipblaslt")["prefer_variable"] if r["behaviour"] == "toggle"]
    assert rows and "https://github.com/ROCm/pytorch/pull/3078" in rows[0]["source"]
    assert "#3078" in rows[0]["note"] and "release/2.10" in rows[0]["note"]


def test_the_end_of_per_family_nightlies_cites_the_issue_that_says_so():
    """Row 63: TheRock#5954 could not be found; TheRock#6550 (2026-07-14) confirms the end."""
    text = yaml.safe_dump(_table("torch_wheels"))
    assert "TheRock/issues/5954" not in text and "TheRock/issues/6550" in text


def _env_row(name: str) -> Dict[str, Any]:
    return next(r for r in _table("env_vars")["variables"] if r["name"] == name)


def test_dxg_detection_cites_librocdxg_not_a_page_that_never_names_it():
    """Row 12: TheRock's docs/development/wsl_rocdxg.md never mentions HSA_ENABLE_DXG_DETECTION."""
    sources = _env_row("HSA_ENABLE_DXG_DETECTION")["source"]
    assert not any("wsl_rocdxg.md" in s for s in sources)
    assert any(s.startswith("https://github.com/ROCm/librocdxg/blob/") and s.endswith("/README.md") for s in sources)


def test_the_per_node_override_row_says_whose_node_index_n_is_and_which_libhsakmt_reads_it():
    """Row 9 caveat: N is libhsakmt's node index, which skips nodes whose render node cannot be
    opened; and libhsakmt at rocm-6.2.x reads only the global variable (found by the registry)."""
    row = _env_row("HSA_OVERRIDE_GFX_VERSION_<N>")
    assert "libhsakmt's node index" in row["meaning"] and "render node" in row["meaning"]
    assert "after ROCm 6.2.4" in row["meaning"]
    assert any("ROCT-Thunk-Interface/blob/rocm-6.2.4/" in s for s in row["source"])


def test_every_fix_that_suggests_the_per_node_override_says_which_rocm_reads_it():
    """Found by the registry: libhsakmt at rocm-6.2.x reads only the global HSA_OVERRIDE_GFX_VERSION."""
    texts = [(r.id, f.text) for r in load_rules() for f in r.fixes
             if ("HSA_OVERRIDE_GFX_VERSION_" in (f.text or "") or "per-node form" in (f.text or "")) and "Remove" not in f.text]
    assert {rule_id for rule_id, _ in texts} >= {"RD201", "RD202", "RD215", "RD702"}
    assert [rule_id for rule_id, text in texts if "only after ROCm 6.2.4" not in text] == []
