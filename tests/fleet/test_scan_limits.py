"""fleet walks each node file's limits once (facts.model.scan_limits), with the same verdicts as the
two walks it replaces (bounded_json.depth and facts.model.raw_over_limit)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocm_doctor import bounded_json
from rocm_doctor.facts import model
from rocm_doctor.limits import Limit

SMALL = {
    "JSON_DEPTH": Limit("json.max_depth", 4, "levels"),
    "FACTS_TEXT": Limit("facts.max_text", 6, "characters"),
    "FACTS_ENTRIES": Limit("facts.max_entries", 3, "entries"),
    "FACTS_GPUS": Limit("facts.max_gpus", 2, "GPU agents"),
}

scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=9))
keys = st.sampled_from(["status", "value", "reason", "source", "gpus", "agents", "x", "y"])
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(keys, inner, max_size=5)),
    max_leaves=40,
)


def expected(document: Any, facts: Any) -> tuple:
    return bounded_json.depth(document) > SMALL["JSON_DEPTH"].value, model.raw_over_limit(facts) is not None


@settings(max_examples=400, deadline=None)
@given(documents, st.sampled_from(["whole", "inside", "none"]))
def test_one_walk_gives_the_verdicts_of_the_two_walks(document: Any, where: str) -> None:
    if where == "inside":
        document = {"schema": "rocm-doctor/check/1", "facts": document, "findings": []}
        facts = document["facts"]
    else:
        facts = document if where == "whole" else None
    with pytest.MonkeyPatch.context() as patch:
        for name, limit in SMALL.items():
            patch.setattr(model, name, limit)
        patch.setattr(bounded_json, "JSON_DEPTH", SMALL["JSON_DEPTH"])
        too_deep, facts_over = model.scan_limits(document, facts)
        deep, over = expected(document, facts)
    assert too_deep == deep
    if not deep:
        assert facts_over == over


def test_a_fact_deep_inside_a_list_of_gpus_is_checked() -> None:
    facts = {"gpus": {"agents": [{"name": {"status": "known", "value": "x" * 70_000}}]}}
    assert model.scan_limits({"facts": facts}, facts) == (False, True)
    assert model.raw_over_limit(facts) is not None
