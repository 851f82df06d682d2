"""Weighing pieces into one Facts snapshot: trust, conflicts, GPUs, unknowns, facts documents."""

from __future__ import annotations

from ingest_helpers import gpu, ingest

from rocm_doctor.ingest import REPORT_MARKER
from rocm_doctor.ingest.assemble import NOT_IN_PASTE


def test_facts_the_paste_does_not_give_stay_unknown_with_the_reason() -> None:
    facts = ingest("PyTorch version: 2.5.1+rocm6.2\nIs CUDA available: True\n").facts
    assert facts.torch.version.value == "2.5.1+rocm6.2"
    assert facts.torch.version.source == "paste:block 1 line 1"
    assert facts.rocm.version.status == "unknown" and facts.rocm.version.reason == NOT_IN_PASTE
    assert facts.env.vars.status == "unknown"
    assert facts.meta.origin == "paste"


def test_tool_output_beats_a_template_field() -> None:
    text = "### ROCm Version\n\nROCm 6.1\n\n```\nAMDSMI Tool: 24.6 | ROCm version: 6.2.1 | amdgpu version: 6.8.5\n```\n"
    assert ingest(text).facts.rocm.version.value == "6.2.1"


def test_two_equally_trusted_different_values_make_the_fact_unknown() -> None:
    text = "```\nPyTorch version: 2.5.1+rocm6.2\nIs CUDA available: True\n```\n```\nPyTorch version: 2.4.0+rocm6.1\nIs CUDA available: True\n```\n"
    version = ingest(text).facts.torch.version
    assert version.status == "unknown"
    assert "2.5.1+rocm6.2" in version.reason and "2.4.0+rocm6.1" in version.reason


def test_gpu_listings_merge_into_one_agent_per_gpu() -> None:
    text = """\
```
03:00.0 VGA compatible controller [0300]: Advanced Micro Devices, Inc. [AMD/ATI] Navi 31 [Radeon RX 7900 XT/7900 XTX] [1002:744c] (rev c8)
```
```
GPU models and configuration: AMD Radeon RX 7900 XTX (gfx1100)
PyTorch version: 2.5.1+rocm6.2
```
"""
    result = ingest(text)
    assert len(result.facts.gpus.agents) == 1
    fields = gpu(result)
    assert fields["gfx"] == "gfx1100" and fields["device_id"] == "0x744c" and fields["pci_bus"] == "0000:03:00.0"
    assert result.facts.gpus.discovery.value == "paste:torch"
    assert "via rules/data/gpus.yaml" not in result.facts.gpus.agents[0].gfx.source


def test_a_gfx_inferred_from_a_name_says_it_came_from_the_table() -> None:
    result = ingest("### GPU\n\nAMD Radeon RX 6600 XT\n")
    assert result.facts.gpus.agents[0].gfx.value == "gfx1032"
    assert result.facts.gpus.agents[0].gfx.source.endswith("via rules/data/gpus.yaml")


def test_a_facts_document_is_the_base_and_a_log_adds_symptoms(tmp_path) -> None:
    from rocm_doctor.facts.model import Facts

    base = Facts.from_dict({
        "schema_version": 1, "meta": {},
        "torch": {"version": {"status": "known", "value": "2.5.1+rocm6.2", "source": "x"}},
        "symptoms": {"signatures": {"status": "absent", "source": "paste", "reason": "no report was pasted"}},
    })
    text = "```json\n" + base.to_json() + "\n```\nRuntimeError: HIP error: invalid device function\n"
    facts = ingest(text).facts
    assert facts.torch.version.value == "2.5.1+rocm6.2"
    assert facts.symptoms.signatures.value == ["hip_invalid_device_function"]


def test_inside_a_rocm_doctor_report_only_the_facts_json_counts() -> None:
    from rocm_doctor.facts.model import Facts

    base = Facts.from_dict({"schema_version": 1, "meta": {}})
    text = f"{REPORT_MARKER} v1 -->\n- RD503 HIP error: invalid device function\n\n```json\n{base.to_json()}\n```\n"
    result = ingest(text)
    assert [p.kind for p in result.pieces] == ["rocm-doctor-facts"]
    assert result.facts.symptoms.signatures.status == "unknown"


def test_a_value_of_the_wrong_type_becomes_unknown_not_an_error() -> None:
    from rocm_doctor.ingest.assemble import _validate, _skeleton
    from rocm_doctor.facts.model import Facts

    tree = _skeleton(Facts)
    tree["host"]["windows_build"] = {"status": "known", "value": "not a number", "source": "x"}
    facts = _validate(tree)
    assert facts.host.windows_build.status == "unknown"


def test_a_pasted_check_json_document_gives_its_facts() -> None:
    import json

    from rocm_doctor.facts.model import Facts

    facts = Facts.from_dict({"schema_version": 1, "meta": {}, "rocm": {"version": {"status": "known", "value": "6.2.0", "source": "x"}}})
    document = {"schema": "rocm-doctor/check/1", "tool_version": "0.1.0", "facts": facts.model_dump(mode="json"), "findings": []}
    result = ingest(json.dumps(document, indent=2))
    assert result.facts.rocm.version.value == "6.2.0"
    assert [p.kind for p in result.pieces] == ["rocm-doctor-facts"]
