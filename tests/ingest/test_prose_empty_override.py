"""An override the report says in words is defined and empty ("Empty `HSA_OVERRIDE_GFX_VERSION` env var breaks ROCm
initialization", aaronsb/knowledge-graph-system#199; "define HSA_OVERRIDE_GFX_VERSION as an empty string",
Osmantic/ODS#1779; the compose default that "sets the variable to an **empty string**", jamiepine/voicebox#864) is
read as the empty override libhsakmt rejects; advice, conditions, negations and a bare "is empty" (said of an unset
variable: an empty ``echo``) are not."""

from __future__ import annotations

import pytest

from rocm_doctor.ingest import ingest_text
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

GPU = "GPU: AMD Radeon RX 7900 XTX (gfx1100)\n"
STATED = [
    "Bug fix: Empty `HSA_OVERRIDE_GFX_VERSION` env var breaks ROCm initialization.",
    "In the container HSA_OVERRIDE_GFX_VERSION is set to an empty string and no GPU is found.",
    "The compose file sets HSA_OVERRIDE_GFX_VERSION to an **empty string** and torch finds 0 devices.",
    "HSA_OVERRIDE_GFX_VERSION is an empty string in the pod and no GPU is found.",
    "HSA_OVERRIDE_GFX_VERSION was defined as empty by the chart, and no GPU shows up.",
]
NOT_STATED = [
    "If HSA_OVERRIDE_GFX_VERSION is empty, ROCm detects the GPU itself.",
    "HSA_OVERRIDE_GFX_VERSION is not empty here, it is 11.0.0.",
    "You should never leave an empty HSA_OVERRIDE_GFX_VERSION in a compose file.",
    "The empty HIP_VISIBLE_DEVICES hides every GPU.",
    # rev57a: a bare "is empty" / "was empty" is what reporters say of an unset variable
    "I checked and echo $HSA_OVERRIDE_GFX_VERSION is empty, so no override is set.",
    "The output of `env | grep HSA_OVERRIDE_GFX_VERSION` was empty.",
    "HSA_OVERRIDE_GFX_VERSION was empty before; I set it to 11.0.0 and now it works.",
    "HSA_OVERRIDE_GFX_VERSION empty -> works fine, 1 device gfx1100",
    "Fixed in 2.3: empty HSA_OVERRIDE_GFX_VERSION env var is no longer exported by the compose file.",
    "An empty HSA_OVERRIDE_GFX_VERSION is not the same as an unset one, per the docs.",
]


def _override_read(text: str) -> bool:
    return (ingest_text(f"{text}\n{GPU}").facts.env.vars.value or {}).get("HSA_OVERRIDE_GFX_VERSION") == ""


def test_every_stated_empty_override_is_read_and_judged_malformed() -> None:
    rules = load_rules([], use_env=False)
    read = [t for t in STATED if _override_read(t)]
    judged = [t for t in STATED if any(f.id == "RD210" for f in evaluate(rules, ingest_text(f"{t}\n{GPU}").facts).findings)]
    assert (len(read), len(judged)) == (len(STATED), len(STATED)), (read, judged)


@pytest.mark.parametrize("text", NOT_STATED)
def test_advice_conditions_negations_and_other_variables_are_no_empty_override(text: str) -> None:
    assert not _override_read(text)
