"""rules/data/gpu_access_messages.yaml: what ROCm programs print when the GPU's device nodes cannot be
opened, read from their source at release tags. Every wording the table says a signature reads is read by
it, and the four situations stay apart: only a permission refusal becomes a permissions error; a missing
node, the driver refusing the open, and a line several causes (or a healthy run) print do not."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import pytest
import yaml

from rocm_doctor.ingest import ingest_text
from rocm_doctor.ingest.signatures import signatures
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

TABLE = Path(__file__).resolve().parents[2] / "rules" / "data" / "gpu_access_messages.yaml"
ROWS: List[Dict[str, Any]] = yaml.safe_load(TABLE.read_text(encoding="utf-8"))["messages"]
SITUATIONS = {"permission", "missing_node", "driver_refused", "driver_not_loaded", "nothing_alone", "healthy"}


def _row_id(row: Dict[str, Any]) -> str:
    return f"{row['program'].split()[0]}: {row['example'][:60]}"


@pytest.fixture(scope="module")
def rules():  # type: ignore[no-untyped-def]
    return load_rules([], use_env=False)


def _read(text: str) -> List[str]:
    symptoms = ingest_text(text).facts.symptoms
    read = list(symptoms.signatures.value or []) if symptoms.signatures.is_known else []
    return read + (list(symptoms.context.value or []) if symptoms.context.is_known else [])


def test_every_row_names_a_situation_and_a_signature_that_exists() -> None:
    known = {row.id for row in signatures()}
    for row in ROWS:
        assert row["implies"] in SITUATIONS, row
        assert row["signature"] is None or row["signature"] in known, row
        assert str(row["source"]).startswith("https://") or all(str(s).startswith("https://") for s in row["source"]), row


def test_one_signature_never_reads_wordings_of_two_situations() -> None:
    situation: Dict[str, str] = {}
    for row in ROWS:
        if row["signature"]:
            assert situation.setdefault(row["signature"], row["implies"]) == row["implies"], row


@pytest.mark.parametrize("row", [r for r in ROWS if r["signature"]], ids=_row_id)
def test_each_wording_is_read_by_the_signature_the_table_names(row: Dict[str, Any]) -> None:
    assert row["signature"] in _read(row["example"])


@pytest.mark.parametrize("row", [r for r in ROWS if r["implies"] == "permission"], ids=_row_id)
def test_a_permission_refusal_gives_a_permissions_error(row: Dict[str, Any], rules) -> None:  # type: ignore[no-untyped-def]
    findings = evaluate(rules, ingest_text(row["example"]).facts).findings
    assert any(f.severity == "error" and f.category == "permissions" for f in findings)


@pytest.mark.parametrize("row", [r for r in ROWS if r["implies"] != "permission"], ids=_row_id)
def test_a_missing_node_a_driver_refusal_or_an_ambiguous_line_gives_no_permissions_error(row: Dict[str, Any], rules) -> None:  # type: ignore[no-untyped-def]
    findings = evaluate(rules, ingest_text(row["example"]).facts).findings
    assert not [f.id for f in findings if f.severity == "error" and f.category == "permissions"]


@pytest.mark.parametrize("row", [r for r in ROWS if r["implies"] in ("healthy", "nothing_alone", "driver_refused")], ids=_row_id)
def test_no_wording_that_names_no_permission_cause_is_read_as_a_permissions_signature(row: Dict[str, Any]) -> None:
    category = {s.id: s.category for s in signatures()}
    assert [s for s in _read(row["example"]) if category.get(s) == "permissions" and s != "hsa_out_of_resources"] == []


def test_rocminfo_before_rocm_3_5_printing_the_video_line_beside_its_agents_is_no_error(rules) -> None:  # type: ignore[no-untyped-def]
    # Up to rocm-3.3.0 rocminfo printed the video-group line on every run, then listed the agents.
    text = "\n".join(
        [
            "ROCk module is loaded",
            'bob is not member of "video" group, the default DRM access group. Users must be a member of the '
            '"video" group or another DRM access group in order for ROCm applications to run successfully.',
            "HSA Agents",
            "  Name:                    gfx900",
        ]
    )
    findings = evaluate(rules, ingest_text(text).facts).findings
    assert not [f.id for f in findings if f.severity in ("error", "warning") and f.category == "permissions"]


def test_an_errno_other_than_eacces_before_out_of_resources_is_not_called_a_group_problem(rules) -> None:  # type: ignore[no-untyped-def]
    # rocminfo up to rocm-4.0.0 went on to hsa_init after the failed open, so both lines appear.
    text = "\n".join(
        [
            "ROCk module is loaded",
            "Unable to open /dev/kfd read-write: Operation not permitted",
            "maria is member of render group",
            "hsa api call failure at: rocminfo.cc:1102",
            "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.",
        ]
    )
    findings = evaluate(rules, ingest_text(text).facts).findings
    assert not [f.id for f in findings if f.category == "permissions" and f.severity in ("error", "warning")]


def test_rocminfo_not_member_line_after_another_errno_is_not_called_a_refusal(rules) -> None:  # type: ignore[no-untyped-def]
    # From rocm-3.5.0 rocminfo prints the group line after any failed open; the errno says why it failed.
    text = "\n".join(
        [
            "ROCk module is loaded",
            "Unable to open /dev/kfd read-write: Invalid argument",
            'bob is not member of "render" group, the default DRM access group. Users must be a member of the '
            '"render" group or another DRM access group in order for ROCm applications to run successfully.',
        ]
    )
    findings = [f for f in evaluate(rules, ingest_text(text).facts).findings if f.severity in ("error", "warning")]
    assert findings and findings[0].category == "driver"
    assert not [f.id for f in findings if f.category == "permissions"]


@pytest.mark.parametrize(
    "text",
    [
        "RX 6800 on Ubuntu 22.04: turns out the user is not in the render group.",
        "My user is not a member of the video group on this box.",
        "The user is not member of the render group, so I added it.",
    ],
)
def test_a_reporter_saying_the_user_is_not_in_the_group_is_still_read(text: str) -> None:
    # only roc-2.6.0's own 'User is not member of "video" group' line is left to the table's row
    assert "group_fix_mentioned" in _read(text)


@pytest.mark.parametrize(
    "text",
    [
        "portage does not belongs to video and render group, therefore it cannot open /dev/kfd.",
        "It looks to me like user B is not in the `render` group.",
        "My user isn't in the render group on this RX 6800 box.",
        "I checked: my user is not a member of the render or video groups.",
        "The ollama user is not part of the **render** group.",
        "The container user is not in group render.",
        "The service user is not in the render/video groups.",
    ],
)
def test_the_user_not_in_the_gpu_group_is_read_in_the_wordings_reporters_use(text: str) -> None:
    assert "group_fix_mentioned" in _read(text)


@pytest.mark.parametrize(
    "text",
    [
        "If your user is not in the render group, add it with usermod.",
        "If renderD128 exists but your user is not in the `render` group, see section 2.3.",
        "If the current user is not in the render group, ask an administrator to add it.",
        "Is my user not in the render group?",
        "I am not in the \"render\" group but rocminfo works fine on my RX 6800.",
        "It used to be that my user was not in the render group.",
        "rocm is not in video memory yet",
    ],
)
def test_a_condition_question_or_a_sentence_that_says_it_works_is_no_group_statement(text: str) -> None:
    assert "group_fix_mentioned" not in _read(text)


def test_the_user_not_in_render_and_the_gpu_unused_is_a_permissions_finding() -> None:
    rules = load_rules([], use_env=False)
    text = "The ollama user is not in the render group, so ollama falls back to CPU on my RX 7900 XTX."
    findings = [f for f in evaluate(rules, ingest_text(text).facts).findings if f.severity in ("error", "warning")]
    assert findings and findings[0].category == "permissions"


def test_not_in_the_group_but_still_failing_is_read() -> None:
    # "but ... works" says access is not the problem; "but ... doesn't find the GPU" says the failure goes on
    assert "group_fix_mentioned" in _read("My user is not in the render group but torch still doesn't find the GPU.")


@pytest.mark.parametrize(
    "text",
    [
        # the past: the state before a change the sentence itself tells (rev48f)
        "I wasn't in the render group, so I added myself and rebooted. torch.cuda.is_available() still returns False.",
        "I was not a member of the video group; after usermod and a reboot torch.cuda.is_available() returns False.",
        "The ollama user was not in the render group before I ran usermod.",
        # a general rule, not this machine's user
        "Users who are not in the render group cannot open /dev/kfd. torch.cuda.is_available() returns False.",
        "A user not in the render group won't see the GPU, but I am in it.",
        "Note that users not in the video group can't access the GPU.",
        "Anyone who isn't in the render group gets HSA_STATUS_ERROR_OUT_OF_RESOURCES.",
        # a guess
        "Maybe the ollama user is not in the render group. ollama falls back to CPU on my RX 7900 XTX.",
        "Perhaps the container user isn't part of the video group?",
    ],
)
def test_the_past_a_general_rule_or_a_guess_is_no_group_statement(text: str) -> None:
    assert "group_fix_mentioned" not in _read(text)


def test_the_present_statement_beside_those_guards_is_still_read() -> None:
    assert "group_fix_mentioned" in _read("The ollama user is not in the render group, so it falls back to CPU.")
    assert "group_fix_mentioned" in _read("My user isn't a member of the video group.")
