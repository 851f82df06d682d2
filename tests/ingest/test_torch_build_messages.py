"""Messages only one torch build prints set that build; messages two builds print set none
(rules/data/torch_build_messages.yaml, read from PyTorch's c10 sources and hipify tables at the
release tags; issue 23, item 3)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest
import yaml
from ingest_helpers import ingest, signature_contexts, signature_errors

ROOT = Path(__file__).resolve().parents[2]
TABLE = yaml.safe_load((ROOT / "rules" / "data" / "torch_build_messages.yaml").read_text(encoding="utf-8"))
SIGNATURES = {row["id"]: row for row in yaml.safe_load((ROOT / "rules" / "data" / "signatures.yaml").read_text(encoding="utf-8"))["signatures"]}
MESSAGES: List[Dict[str, Any]] = TABLE["messages"]
PINNED_GITHUB = re.compile(r"^https://github\.com/[^/]+/[^/]+/(?:blob/(?:v\d[\w.]*|rocm-[\d.]+|[0-9a-f]{40})/|(?:issues|pull)/\d+$)")


def _flavour(text: str) -> Optional[str]:
    fact = ingest(text).facts.torch.flavour
    return str(fact.value) if fact.is_known else None


def _examples(rows: List[Dict[str, Any]]) -> List[Any]:
    return [pytest.param(row, example, id=f"{row['id']}-{n}") for row in rows for n, example in enumerate(row["examples"])]


READ = [row for row in MESSAGES if row["signature"]]


@pytest.mark.parametrize("row,example", _examples(READ))
def test_every_wording_in_the_table_is_read_by_the_signature_it_names(row: Dict[str, Any], example: str) -> None:
    assert re.search(row["wording"], example), "the table's own wording must match its example"
    assert row["signature"] in signature_errors(example) + sorted(signature_contexts(example))


@pytest.mark.parametrize("row,example", _examples([row for row in READ if row["implies"]]))
def test_a_message_only_one_build_prints_sets_that_torch_build(row: Dict[str, Any], example: str) -> None:
    assert _flavour("RX 7900 XTX on Ubuntu 22.04\n" + example + "\n") == row["implies"]


@pytest.mark.parametrize("row,example", _examples([row for row in MESSAGES if row["implies"] is None]))
def test_a_message_two_builds_print_sets_no_torch_build(row: Dict[str, Any], example: str) -> None:
    assert _flavour("RX 7900 XTX on Ubuntu 22.04\n" + example + "\n") is None


@pytest.mark.parametrize("row", MESSAGES, ids=[row["id"] for row in MESSAGES])
def test_the_table_and_the_signature_agree_on_the_build(row: Dict[str, Any]) -> None:
    builds = set(row["builds"])
    assert builds <= {"cuda", "rocm", "cpu"}
    # one build that prints it is the build it implies; two builds imply none
    assert row["implies"] == (next(iter(builds)) if len(builds) == 1 else None)
    if row["signature"]:
        implied = (SIGNATURES[row["signature"]].get("implies") or {}).get("torch.flavour")
        assert implied == row["implies"]
    elif row["implies"]:
        assert row.get("note"), "a message that shows the build but is not read says why"


@pytest.mark.parametrize("row", MESSAGES, ids=[row["id"] for row in MESSAGES])
def test_every_row_of_the_table_cites_program_text_pinned_to_a_tag(row: Dict[str, Any]) -> None:
    assert row["source"]
    assert all(PINNED_GITHUB.match(url) for url in row["source"])
    assert any("/blob/" in url for url in row["source"])


@pytest.mark.parametrize(
    "text",
    [
        # what a CUDA build prints for the same checks
        "RuntimeError: CUDA error: invalid device ordinal\nCUDA kernel errors might be asynchronously reported at some other API call, "
        "so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n",
        # the variable named by a person, not the hint PyTorch prints
        "I set AMD_SERIALIZE_KERNEL=3 and HIP_LAUNCH_BLOCKING=1 but it still crashes on my RX 6800\n",
        "Does HIP initialization take long on a 7900 XTX? hipGetDeviceCount returns 1 for me.\n",
        # a HIP program of its own (rocm-examples' HIP_CHECK) prints the bare words
        "HIP error: invalid device function at square.cpp:61\n",
    ],
)
def test_a_cuda_wording_or_a_variable_named_in_prose_sets_no_rocm_build(text: str) -> None:
    assert "torch_rocm_build_message" not in signature_contexts(text)
    assert _flavour(text) != "rocm"


@pytest.mark.parametrize(
    "text",
    [
        # a ROCm build's message a prose sentence gives as another person's or a document's (r34b)
        "RX 7900 XTX, Ubuntu 22.04, torch 2.5.1+cu124. My friend's laptop prints RuntimeError: HIP error: invalid device function.\n",
        "RX 7900 XTX, Ubuntu 22.04, torch 2.5.1+cu124. Someone said they get HIP initialization: Unexpected error from hipGetDeviceCount()\n",
        "RX 7900 XTX, Ubuntu 22.04, torch 2.5.1+cu124. The README says you may see HIP kernel errors might be asynchronously reported at some other API call.\n",
        "RX 7900 XTX, Ubuntu 22.04, torch 2.5.1+cu124. In the linked issue another user got \"RuntimeError: HIP error: invalid device function\".\n",
        "RX 7900 XTX, Ubuntu 22.04, torch 2.5.1+cu124. Another user gets RuntimeError: HIP error: invalid device function on the same card.\n",
        "RX 7900 XTX, Ubuntu 22.04, torch 2.5.1+cu124. Someone on reddit got RuntimeError: HIP error: invalid device function on the same card.\n",
    ],
)
def test_a_rocm_build_message_quoted_from_another_person_or_a_document_sets_no_rocm_build(text: str) -> None:
    assert _flavour(text) == "cuda"


@pytest.mark.parametrize(
    "text",
    [
        "RX 7900 XTX, Ubuntu 22.04. I get RuntimeError: HIP error: invalid device function when I run it.\n",
        "RX 7900 XTX, Ubuntu 22.04. I get RuntimeError: HIP error: invalid device function, the same as in the linked issue.\n",
    ],
)
def test_a_rocm_build_message_the_reporter_gets_still_sets_the_rocm_build(text: str) -> None:
    assert _flavour(text) == "rocm"
