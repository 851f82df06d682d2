"""Every wording of the GPU compilers inside a ROCm torch (rules/data/gpu_jit_messages.yaml: Triton's AMD backend,
MIOpen's run-time builds and databases, PyTorch's SDPA gates) is read by the reader the table names, a wording
printed by several causes concludes no problem alone, and a wording that is not this machine's now gives none.

The examples are the table's own (in the shapes the programs print); assertions are about signature ids, rule ids
and facts, never about wording.
"""

from __future__ import annotations

from typing import Any, Dict, List

import pytest
from ingest_helpers import ingest

from rocm_doctor.data import read_yaml, rules_dir
from rocm_doctor.ingest.signatures import signatures as signature_table
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

ROWS: List[Dict[str, Any]] = list(read_yaml(rules_dir() / "data" / "gpu_jit_messages.yaml")["messages"])
READ = [row for row in ROWS if row.get("read_by")]
TABLE_READERS = {row["read_by"] for row in READ}


def _known(fact: Any) -> list:
    return list(fact.value or []) if fact.is_known else []


def _read(text: str) -> set:
    facts = ingest(text).facts
    return set(_known(facts.symptoms.signatures)) | set(_known(facts.symptoms.context))


def _serious(text: str) -> List[str]:
    findings = evaluate(load_rules([], use_env=False), ingest(text).facts).findings
    return [f.id for f in findings if f.severity in ("error", "warning")]


def test_every_row_names_a_signature_that_exists() -> None:
    ids = {s.id for s in signature_table()}
    assert not [row["id"] for row in READ if row["read_by"] not in ids]


def test_every_row_pins_its_source_or_says_why_not_and_says_how_many_causes_it_has() -> None:
    for row in ROWS:
        assert row.get("source") or row.get("unpinned"), row["id"]
        assert row["causes"] in ("one", "several", "none"), row["id"]
        assert row.get("read_by") or row.get("note"), row["id"]


@pytest.mark.parametrize("row", READ, ids=lambda r: r["id"])
def test_each_wording_is_read_by_its_signature(row: Dict[str, Any]) -> None:
    assert row["read_by"] in _read(row["example"]), row["id"]


@pytest.mark.parametrize("row", [r for r in ROWS if not r.get("read_by")], ids=lambda r: r["id"])
def test_a_wording_read_as_nothing_sets_none_of_these_readers(row: Dict[str, Any]) -> None:
    assert not TABLE_READERS & _read(row["example"]), row["id"]


@pytest.mark.parametrize("row", [r for r in ROWS if r["causes"] != "one"], ids=lambda r: r["id"])
def test_a_wording_of_several_causes_or_none_concludes_no_problem_alone(row: Dict[str, Any]) -> None:
    assert not _serious(row["example"]), row["id"]


@pytest.mark.parametrize("row_id", ["triton_lld_not_found", "triton_lld_not_found_set_path", "triton_lld_not_found_under"])
def test_triton_finding_no_linker_is_the_first_problem(row_id: str) -> None:
    row = next(r for r in ROWS if r["id"] == row_id)
    assert _serious(row["example"])[:1] == ["RD903"]


@pytest.mark.parametrize("row_id", ["inductor_cannot_import_triton_key", "inductor_cannot_import_attrs_descriptor"])
def test_inductor_failing_to_import_from_triton_is_the_first_problem(row_id: str) -> None:
    row = next(r for r in ROWS if r["id"] == row_id)
    assert _serious(row["example"])[:1] == ["RD906"]


def test_triton_finding_no_python_headers_is_the_first_problem() -> None:
    row = next(r for r in ROWS if r["id"] == "triton_driver_build_python_h")
    assert _serious(row["example"])[:1] == ["RD907"]


def test_a_python_header_missing_in_a_build_that_is_not_tritons_is_not_called_tritons() -> None:
    text = "pip install pycairo\n  src/cairomodule.c:3:10: fatal error: Python.h: No such file or directory\n  compilation terminated."
    assert "RD907" not in _serious(text)


def test_pip_naming_the_triton_of_a_rocm_torch_says_it_once() -> None:
    row = next(r for r in ROWS if r["id"] == "inductor_cannot_import_attrs_descriptor")
    pip = ("ERROR: pip's dependency resolver does not currently take into account all the packages that are installed.\n"
           "torch 2.6.0+rocm6.2.4 requires pytorch-triton-rocm==3.2.0, but you have pytorch-triton-rocm 3.3.0 which is incompatible.\n")
    serious = _serious(pip + row["example"])
    assert "RD675" in serious and "RD906" not in serious


def test_hipcc_without_standard_headers_is_the_first_problem_on_linux() -> None:
    row = next(r for r in ROWS if r["id"] == "hipcc_standard_header")
    assert _serious("Ubuntu 22.04, ROCm 5.4, building the HIP examples:\n" + row["example"])[:1] == ["RD904"]


def test_hipcc_without_standard_headers_on_windows_is_not_called_a_missing_linux_package() -> None:
    row = next(r for r in ROWS if r["id"] == "hipcc_standard_header")
    text = "Windows 11, HIP SDK 6.2, in PowerShell:\nC:\\Users\\me\\src> hipcc test.cpp\n" + row["example"]
    assert "RD904" not in _serious(text)


def test_miopen_stopping_at_a_standard_header_is_a_note_that_names_both_causes() -> None:
    row = next(r for r in ROWS if r["id"] == "miopen_build_log_standard_header")
    findings = evaluate(load_rules([], use_env=False), ingest(row["example"]).facts).findings
    assert [(f.id, f.severity) for f in findings if f.id in ("RD904", "RD905")] == [("RD905", "info")]


@pytest.mark.parametrize(
    "text",
    [
        # solved, a past state
        "This used to fail with 'limits' file not found in MIOpen but after installing libstdc++-12-dev it works now.",
        # a question about a message seen in documentation, not this run
        "Should I set TRITON_HIP_LLD_PATH? The docs mention \"ROCm linker /opt/rocm/llvm/bin/ld.lld not found\" for custom installs; mine works.",
        # a project's own header missing is not a standard library header
        "hipcc main.cpp\nmain.cpp:3:10: fatal error: 'mylib/config.h' file not found\n1 error generated when compiling for gfx1100.",
    ],
)
def test_a_compiler_message_that_is_not_this_machines_now_gives_no_problem(text: str) -> None:
    assert not {"RD903", "RD904"} & set(_serious(text))


def test_a_warning_raised_from_the_hip_sdpa_source_shows_a_rocm_torch() -> None:
    row = next(r for r in ROWS if r["id"] == "sdpa_torch_not_compiled_with_flash")
    facts = ingest(row["example"]).facts
    assert facts.torch.flavour.is_known and facts.torch.flavour.value == "rocm"


@pytest.mark.parametrize(
    "text",
    [
        # the CUDA build's file
        "UserWarning: 1Torch was not compiled with flash attention. (Triggered internally at ..\\aten\\src\\ATen\\native\\transformers\\cuda\\sdp_utils.cpp:455.)",
        # a link to the source, no warning raised
        "see https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/native/transformers/hip/sdp_utils.cpp for the gate",
    ],
)
def test_the_cuda_sdpa_source_or_a_link_to_the_hip_one_shows_no_build(text: str) -> None:
    assert not ingest(text).facts.torch.flavour.is_known


def test_the_triton_processor_tables_name_each_gfx_target_once_and_only_targets() -> None:
    import re

    tables = read_yaml(rules_dir() / "data" / "gpu_jit_messages.yaml")["triton_llvm_processors"]
    for release, targets in tables.items():
        assert all(re.fullmatch(r"gfx[0-9a-f]{3,4}", t) for t in targets), release
        assert len(targets) == len(set(targets)), release


def test_each_torch_release_pins_one_triton_release_and_never_an_older_one_than_before() -> None:
    from packaging.version import Version

    pins = read_yaml(rules_dir() / "data" / "gpu_jit_messages.yaml")["torch_triton_pins"]
    ordered = sorted(pins.items(), key=lambda item: Version(item[0]))
    tritons = [Version(triton) for _, triton in ordered]
    assert tritons == sorted(tritons)


def test_no_row_of_the_table_gives_a_field_twice() -> None:
    import yaml

    def duplicated(node: yaml.Node) -> list:
        found = []
        if isinstance(node, yaml.MappingNode):
            keys = [key.value for key, _ in node.value]
            found += [key for key in set(keys) if keys.count(key) > 1]
            found += [d for _, value in node.value for d in duplicated(value)]
        elif isinstance(node, yaml.SequenceNode):
            found += [d for item in node.value for d in duplicated(item)]
        return found

    text = (rules_dir() / "data" / "gpu_jit_messages.yaml").read_text(encoding="utf-8")
    assert not duplicated(yaml.compose(text))


def test_the_linker_message_names_a_folder_with_spaces() -> None:
    text = "Exception: ROCm linker not found under /opt/my rocm/llvm/bin/ld.lld. Set 'TRITON_HIP_LLD_PATH' to its path."
    assert "triton_hip_linker_missing" in _read(text)
