"""A variable a report sets to an expression (``$GFX``, ``${SLURM_LOCALID}``, ``$(cmd)``, a backtick, ``%HSA%``) is set
to a value the report does not show: rules that read it are undecided, never "malformed" or "unset"."""

from __future__ import annotations

import pytest

from rocm_doctor.ingest import ingest_text
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

GPU = "GPU: AMD Radeon RX 6700 XT (gfx1031)\n"


@pytest.mark.parametrize(
    "line",
    [
        "export HSA_OVERRIDE_GFX_VERSION=$GFX_VER",
        'export HSA_OVERRIDE_GFX_VERSION="${GFX}"',
        "export HSA_OVERRIDE_GFX_VERSION=$(cat ~/.gfx)",
        "export HSA_OVERRIDE_GFX_VERSION=`detect-gfx --hsa`",
        "set HSA_OVERRIDE_GFX_VERSION=%HSA%",
        "set -x HSA_OVERRIDE_GFX_VERSION $gfx",
        "HSA_OVERRIDE_GFX_VERSION=$GFX python train.py",
    ],
)
def test_a_value_shown_as_an_expression_is_not_read_as_the_value(line: str) -> None:
    facts = ingest_text(f"{line}\n{GPU}").facts
    assert "HSA_OVERRIDE_GFX_VERSION" not in (facts.env.vars.value or {})
    settings = [s for s in facts.env.settings.value or [] if s.name == "HSA_OVERRIDE_GFX_VERSION"]
    assert settings and "unexpanded" in (settings[0].reason or "")


def test_an_expression_is_not_called_a_malformed_override() -> None:
    facts = ingest_text(f"export HSA_OVERRIDE_GFX_VERSION=$GFX_VER\n{GPU}").facts
    findings = evaluate(load_rules([], use_env=False), facts).findings
    assert not [f for f in findings if f.severity == "error"]


def test_a_literal_value_is_still_read_and_judged() -> None:
    facts = ingest_text(f"export HSA_OVERRIDE_GFX_VERSION=11.0\n{GPU}").facts
    assert facts.env.vars.value["HSA_OVERRIDE_GFX_VERSION"] == "11.0"


@pytest.mark.parametrize("line", ["I set HSA_OVERRIDE_GFX_VERSION=`10.3.0` and it crashes", "HSA_OVERRIDE_GFX_VERSION = `10.3.0`"])
def test_one_word_in_markdown_inline_code_is_the_value(line: str) -> None:
    facts = ingest_text(f"{line}\n{GPU}").facts
    assert facts.env.vars.value["HSA_OVERRIDE_GFX_VERSION"] == "10.3.0"


def test_the_variables_own_default_is_taken() -> None:
    facts = ingest_text(f'export HSA_OVERRIDE_GFX_VERSION="${{HSA_OVERRIDE_GFX_VERSION:-10.3.0}}"\n{GPU}').facts
    assert facts.env.vars.value["HSA_OVERRIDE_GFX_VERSION"] == "10.3.0"


def test_a_dollar_in_an_environment_listing_is_literal() -> None:
    # a value the unexpanded test would take for an expression outside a listing ("$0" is none: it proved nothing)
    listing = "$ env | grep HIP\nHIP_PATH=/opt/rocm\nHIP_VISIBLE_DEVICES=$GPU\n"
    facts = ingest_text(listing).facts
    assert facts.env.vars.value.get("HIP_VISIBLE_DEVICES") == "$GPU"
    assert "HIP_VISIBLE_DEVICES" not in (ingest_text("export HIP_VISIBLE_DEVICES=$GPU\n").facts.env.vars.value or {})


def test_an_empty_own_default_is_the_empty_string_a_compose_file_passes() -> None:
    facts = ingest_text(f"environment:\n  - HSA_OVERRIDE_GFX_VERSION=${{HSA_OVERRIDE_GFX_VERSION:-}}\n{GPU}").facts
    assert facts.env.vars.value["HSA_OVERRIDE_GFX_VERSION"] == ""


def test_a_default_that_is_another_expansion_stays_an_expression() -> None:
    facts = ingest_text(f"export HSA_OVERRIDE_GFX_VERSION=${{HSA_OVERRIDE_GFX_VERSION:-$DETECTED}}\n{GPU}").facts
    assert "HSA_OVERRIDE_GFX_VERSION" not in (facts.env.vars.value or {})
