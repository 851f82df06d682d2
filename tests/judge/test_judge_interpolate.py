"""``{path}`` interpolation: facts only, never Python attribute access or str.format."""

from __future__ import annotations

from judge_helpers import fact
from rocm_doctor.judge.derived import DerivedValues
from rocm_doctor.judge.interpolate import interpolate, placeholders
from rocm_doctor.judge.paths import Scope


def _scope(facts, agent=None):
    return Scope(facts, DerivedValues(facts), agent)


def test_paths_lists_dicts_and_booleans_render_as_text(make_facts) -> None:
    facts = make_facts({"env": {"vars": fact({"HIP_VISIBLE_DEVICES": "0,1"})}})
    scope = _scope(facts, facts.gpus.agents[0])
    text = "{gpu.name} {gpu.gfx} on {rocm.version}; devices {env.vars.HIP_VISIBLE_DEVICES}; kfd {host.dev_kfd}"
    assert interpolate(text, scope) == "AMD Radeon RX 7900 XTX gfx1100 on 7.2.0; devices 0,1; kfd yes"
    assert interpolate("{host.render_nodes}", scope) == "/dev/dri/renderD128"


def test_unknown_and_absent_values_print_as_words(make_facts) -> None:
    facts = make_facts({"torch": {"version": {"status": "failed", "source": "x", "reason": "timeout"}}})
    assert interpolate("torch {torch.version}", _scope(facts)) == "torch unknown"
    assert interpolate("{env.vars.HSA_XNACK}", _scope(facts)) == "absent"


def test_python_internals_are_never_reached(make_facts) -> None:
    scope = _scope(make_facts())
    for template in ("{__class__}", "{torch.__class__}", "{a.b.__init__}", "{torch.version.__class__.__mro__}",
                     "{meta.__dict__}", "{gpu.__init__}", "{derived.__globals__}"):
        assert interpolate(template, scope) == "unknown", template


def test_format_specs_and_non_paths_are_left_alone(make_facts) -> None:
    scope = _scope(make_facts())
    assert interpolate("{torch.version!r} {torch.version:>30} {0}", scope) == "{torch.version!r} {torch.version:>30} {0}"
    assert interpolate('json {"a": 1} and {}', scope) == 'json {"a": 1} and {}'
    assert placeholders("{a.b} {c} {d e}") == ["a.b", "c"]


def test_dict_keys_with_dashes_resolve(make_facts) -> None:
    assert interpolate("{packages.installed.pytorch-triton-rocm}", _scope(make_facts())) == "3.5.0"
