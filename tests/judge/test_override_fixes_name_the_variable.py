"""Per-node HSA_OVERRIDE_GFX_VERSION_<N>: the fixes name the variable that is wrong.

The suffix is the KFD topology node id; CPU nodes come first, so on the baseline machine the
RX 7900 XTX is node 1 and ``_0`` names the CPU, which never reads it (ROCR-Runtime topology.c).
"""

from __future__ import annotations

from typing import Dict, List

from judge_helpers import fact, two_gpu_overlay
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules

RULES = load_rules(use_env=False)


def _unsets(make_facts, env: Dict[str, str], rule_id: str) -> List[List[str]]:
    result = evaluate(RULES, make_facts({"env": {"vars": fact(env)}}))
    return [fix.unset for f in result.findings if f.id == rule_id for fix in f.fixes if fix.unset]


def test_a_malformed_per_node_variable_is_what_rd210_unsets(make_facts) -> None:
    assert _unsets(make_facts, {"HSA_OVERRIDE_GFX_VERSION_1": "11.0"}, "RD210") == [["HSA_OVERRIDE_GFX_VERSION_1"]]


def test_a_malformed_global_variable_is_what_rd210_unsets(make_facts) -> None:
    assert _unsets(make_facts, {"HSA_OVERRIDE_GFX_VERSION": "gfx1100"}, "RD210") == [["HSA_OVERRIDE_GFX_VERSION"]]


def test_only_the_variable_a_gpu_reads_is_blamed(make_facts) -> None:
    # The only GPU (node 1) reads its own _1 and never the global one.
    env = {"HSA_OVERRIDE_GFX_VERSION": "gfx1100", "HSA_OVERRIDE_GFX_VERSION_1": "11.0"}
    assert _unsets(make_facts, env, "RD210") == [["HSA_OVERRIDE_GFX_VERSION_1"]]


def test_two_malformed_variables_read_by_two_gpus_are_unset_each_by_name(make_facts) -> None:
    # Node 1 reads _1, node 2 (an RX 6700 XT) reads the global variable.
    env = {"HSA_OVERRIDE_GFX_VERSION": "gfx1100", "HSA_OVERRIDE_GFX_VERSION_1": "11.0"}
    facts = make_facts({**two_gpu_overlay(), "env": {"vars": fact(env)}})
    result = evaluate(RULES, facts)
    unsets = [fix.unset for f in result.findings if f.id == "RD210" for fix in f.fixes if fix.unset]
    assert unsets == [["HSA_OVERRIDE_GFX_VERSION", "HSA_OVERRIDE_GFX_VERSION_1"]]


def test_an_override_for_node_0_is_flagged_and_unset_by_name(make_facts) -> None:
    assert _unsets(make_facts, {"HSA_OVERRIDE_GFX_VERSION_0": "11.0.0"}, "RD218") == [["HSA_OVERRIDE_GFX_VERSION_0"]]
    result = evaluate(RULES, make_facts({"env": {"vars": fact({"HSA_OVERRIDE_GFX_VERSION_0": "11.0.0"})}}))
    finding = next(f for f in result.findings if f.id == "RD218")
    assert "nodes 1" in finding.message


def test_a_malformed_override_for_the_cpu_node_does_not_claim_topology_fails(make_facts) -> None:
    assert _unsets(make_facts, {"HSA_OVERRIDE_GFX_VERSION_0": "gfx1100"}, "RD210") == []
