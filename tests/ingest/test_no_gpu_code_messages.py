"""Every wording of 'the build has no code for this GPU' in rules/data/no_gpu_code_messages.yaml is read
by the signature or reader the table names, and a target is read as the device's only where the message
names the device (never a target the binary holds, nor a library file that exists).

The examples are the table's own (written in the shapes the programs print, per their source at the
release tags the rows cite); assertions are about signature ids and facts, never about wording.
"""

from __future__ import annotations

from typing import Any, Dict, List

import pytest
from ingest_helpers import ingest

from rocm_doctor.ingest.signatures import signatures as signature_table
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate
from rocm_doctor.data import read_yaml, rules_dir

READERS = ("hip_code_objects",)
"""Readers (ingest/formats modules) a row may name instead of a signature."""


def _rows() -> List[Dict[str, Any]]:
    return list(read_yaml(rules_dir() / "data" / "no_gpu_code_messages.yaml")["messages"])


def _known(fact: Any) -> list:
    return list(fact.value or []) if fact.is_known else []


ROWS = _rows()
READ = [row for row in ROWS if row.get("read_by")]


def test_every_row_names_a_signature_or_reader_that_exists() -> None:
    ids = {s.id for s in signature_table()}
    unknown = [row["id"] for row in READ if row["read_by"] not in ids and row["read_by"] not in READERS]
    assert not unknown, unknown


def test_every_row_says_what_it_names_and_pins_its_source_or_says_why_not() -> None:
    for row in ROWS:
        assert row["names"] in ("device", "build", "none"), row["id"]
        assert row.get("source") or row.get("unpinned"), row["id"]
        assert (row["names"] == "device") == bool(row.get("gfx")), row["id"]


@pytest.mark.parametrize("row", [r for r in READ if r["read_by"] not in READERS], ids=lambda r: r["id"])
def test_each_wording_is_read_by_its_signature(row: Dict[str, Any]) -> None:
    facts = ingest(row["example"]).facts
    assert row["read_by"] in _known(facts.symptoms.signatures) + _known(facts.symptoms.context), row["id"]


@pytest.mark.parametrize("row", [r for r in READ if r["names"] == "device"], ids=lambda r: r["id"])
def test_a_wording_that_names_the_device_gives_its_target_as_the_errors(row: Dict[str, Any]) -> None:
    facts = ingest(row["example"]).facts
    assert row["gfx"] in _known(facts.symptoms.error_gfx), row["id"]


@pytest.mark.parametrize("row", [r for r in READ if r["names"] == "build"], ids=lambda r: r["id"])
def test_a_list_of_bundled_targets_is_the_builds_never_a_device(row: Dict[str, Any]) -> None:
    facts = ingest(row["example"]).facts
    assert _known(facts.symptoms.build_targets), row["id"]
    assert not [a.gfx.value for a in facts.gpus.agents if a.gfx.is_known], row["id"]


def test_the_tensile_files_listed_after_a_missing_one_are_not_devices() -> None:
    row = next(r for r in ROWS if r["id"] == "rocblas_cannot_read_library_for_arch")
    agents = [a.gfx.value for a in ingest(row["example"]).facts.gpus.agents if a.gfx.is_known]
    assert agents == [row["gfx"]]


def test_the_runtime_listing_judges_the_not_found_device_against_the_bundled_targets() -> None:
    # gfx1100 not found, the binary built for gfx1030/900/906/90a: nothing of the RDNA3 family, no override helps
    text = "\n".join([
        "I get `RuntimeError: HIP error: invalid device function` on my RX 7900 XT. With AMD_LOG_LEVEL=3:",
        "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!",
        "  Devices:",
        "    amdgcn-amd-amdhsa--gfx1100 - [Not Found]",
        "  Bundled Code Objects:",
        "    host-x86_64-unknown-linux-- - [Unsupported]",
        "    hipv4-amdgcn-amd-amdhsa--gfx1030 - [code object targetID is amdgcn-amd-amdhsa--gfx1030]",
        "    hipv4-amdgcn-amd-amdhsa--gfx900 - [code object targetID is amdgcn-amd-amdhsa--gfx900]",
        "    hipv4-amdgcn-amd-amdhsa--gfx90a - [code object targetID is amdgcn-amd-amdhsa--gfx90a]",
    ])
    findings = evaluate(load_rules([], use_env=False), ingest(text).facts).findings
    assert "RD795" in [f.id for f in findings if f.severity == "error"]


@pytest.mark.parametrize("row", [r for r in ROWS if not r.get("read_by")], ids=lambda r: r["id"])
def test_a_wording_read_as_nothing_of_this_kind_sets_no_missing_target(row: Dict[str, Any]) -> None:
    facts = ingest(row["example"]).facts
    gfx_signatures = {r["read_by"] for r in READ}
    assert not gfx_signatures & set(_known(facts.symptoms.signatures)), row["id"]
    assert not _known(facts.symptoms.error_gfx), row["id"]
    assert not [a.gfx.value for a in facts.gpus.agents if a.gfx.is_known], row["id"]


def _serious(text: str) -> List[str]:
    findings = evaluate(load_rules([], use_env=False), ingest(text).facts).findings
    return [f.id for f in findings if f.severity in ("error", "warning")]


@pytest.mark.parametrize(
    "text",
    [
        # another person's machine
        "My friend's laptop shows `rocBLAS warning: No paths matched /opt/rocm/lib/rocblas/library/*gfx1031*co. Make sure that ROCBLAS_TENSILE_LIBPATH is set correctly.`",
        # a past state, fixed
        "This used to fail with `rocBLAS warning: No paths matched /opt/rocm/lib/rocblas/library/*gfx1031*co` but it works now with the override.",
        # a healthy listing of the Tensile files that exist
        "$ ls /opt/rocm/lib/rocblas/library/\nTensileLibrary_lazy_gfx1030.dat  TensileLibrary_lazy_gfx1100.dat  TensileLibrary_lazy_gfx90a.dat\n"
        "torch.cuda.is_available() is True and training runs on my 7900 XTX.",
    ],
)
def test_a_no_code_message_that_is_not_this_machines_now_gives_no_finding(text: str) -> None:
    assert not _serious(text)
