"""The variable registry against ground truth it did not generate: AMD's documentation pages
(tests/tools/data/amd_env_var_docs.yaml) and the facts audit of 2026-11-28."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rocm_doctor.knowledge.env_reads import NOT_READ, UNKNOWN, env_reads

DOCS = yaml.safe_load((Path(__file__).parent / "data" / "amd_env_var_docs.yaml").read_text(encoding="utf-8"))
DOCUMENTED = sorted({name for page in DOCS["pages"] for name in page["names"]})
UNREAD = DOCS["documented_but_unread"]
RELEASES = ["6.0", "6.1", "6.2", "6.3", "7.0", "7.2", "7.14"]


def test_every_variable_amd_documents_is_marked_read():
    expected = [n for n in DOCUMENTED if n not in UNREAD]
    unread = [n for n in expected if not env_reads().is_read(n)]
    assert not unread, f"{len(expected) - len(unread)} of {len(expected)} documented variables read; not read: {unread}"


def test_the_documented_but_unread_list_holds_only_names_nothing_reads():
    assert set(UNREAD) <= set(DOCUMENTED)
    assert [n for n in UNREAD if env_reads().is_read(n)] == []


def test_every_page_is_pinned_to_a_tag_or_commit():
    for page in DOCS["pages"]:
        url = page["url"]
        assert url.startswith("https://github.com/") and "/blob/" in url or "/docs-" in url, url


@pytest.mark.parametrize("release", RELEASES)
def test_no_documented_variable_is_called_read_by_nothing(release):
    table = env_reads()
    assert [n for n in DOCUMENTED if table.at_release(n, release).read_by_nothing] == []


AUDIT_HIP_RUNTIME = ["AMD_LOG_LEVEL_SIZE", "AMD_LOG_ASYNC", "HIP_SKIP_ABORT_ON_GPU_ERROR", "HIP_MAX_SIGNAL_WAIT", "HIP_FORCE_SPIRV_CODEOBJECT"]


@pytest.mark.parametrize("name", AUDIT_HIP_RUNTIME)
def test_the_current_hip_runtime_flags_the_audit_found_are_read(name):
    reads = {r.component: r for r in env_reads().reads(name)}
    assert "hip-runtime" in reads and reads["hip-runtime"].url.endswith("projects/clr/rocclr/utils/flags.hpp")


def test_the_compiler_drivers_device_library_variable_is_read():
    reads = {r.component: r for r in env_reads().reads("HIP_DEVICE_LIB_PATH")}
    assert "clang-driver" in reads and "AMDGPU.cpp" in reads["clang-driver"].url


def test_graphics_driver_variables_are_out_of_scope_and_never_judged():
    table = env_reads()
    for name in ("AMD_VULKAN_ICD", "AMD_DEBUG", "RADV_PERFTEST"):
        assert table.out_of_scope(name)
        assert {table.at_release(name, r).status for r in RELEASES} == {UNKNOWN}


@pytest.mark.parametrize("name", [*AUDIT_HIP_RUNTIME, "HIP_DEVICE_LIB_PATH", "AMD_VULKAN_ICD"])
@pytest.mark.parametrize("release", RELEASES)
def test_the_seven_names_the_audit_found_wrongly_dead_are_never_called_dead(name, release):
    assert not env_reads().at_release(name, release).read_by_nothing


@pytest.mark.parametrize("name", ["AMD_LOG_LEVEL_SIZE", "AMD_LOG_ASYNC"])
def test_a_flag_of_a_later_hip_runtime_is_not_read_by_rocm_6_2_and_says_where_it_is(name):
    verdict = env_reads().at_release(name, "6.2.0", rocm_only=True)
    assert verdict.status == NOT_READ and [s.id for s in verdict.elsewhere] == ["hip-runtime@01d42af34cfa"]
    assert verdict.elsewhere[0].label == "a commit after 6.2.2"
    assert set(verdict.basis) == {f"hip-runtime@rocm-6.2.{p}" for p in (0, 1, 2)}


def test_the_per_node_override_is_read_only_after_rocm_6_2_4():
    verdict = env_reads().at_release("HSA_OVERRIDE_GFX_VERSION_1", "6.2", rocm_only=True)
    assert verdict.status == NOT_READ and verdict.elsewhere[0].id == "libhsakmt@c7785a6da1c1"
    assert env_reads().at_release("HSA_OVERRIDE_GFX_VERSION", "6.2").status == "read"


def test_the_registry_speaks_for_no_release_it_did_not_scan_completely():
    table = env_reads()
    for name in ("HSA_OVERRIDE_GFX_VERSON", "AMD_LOG_LEVL", "ROCBLAS_TURBO"):
        assert table.at_release(name, "6.2", torch_present=False).read_by_nothing
        assert table.at_release(name, "7.2", torch_present=False).status == UNKNOWN
        assert table.at_release(name, "5.7", torch_present=False).status == UNKNOWN


@pytest.mark.parametrize("name", ["HIPBLASLT_ALLOW_TF32", "NCCL_MADE_UP_SWITCH", "HSA_OVERRIDE_GFX_VERSON"])
def test_where_torch_is_installed_nothing_is_called_unread_because_its_cpp_was_not_scanned(name):
    # PyTorch reads HIPBLASLT_ALLOW_TF32 in aten/src/ATen/Context.cpp, which is not in the scanned
    # wheel, and no scanned ROCm source reads it
    verdict = env_reads().at_release(name, "6.2")
    assert verdict.status == UNKNOWN and "PyTorch" in verdict.reason


def test_pytorchs_c10d_headers_are_scanned():
    assert [r.component for r in env_reads().reads("NCCL_ASYNC_ERROR_HANDLING")] == ["PyTorch"]


def test_the_rocm_only_verdict_ignores_pytorch():
    assert env_reads().at_release("HIPBLASLT_ALLOW_TF32", "6.2", rocm_only=True).status == NOT_READ


def test_a_version_with_a_huge_part_is_no_release_and_no_crash():
    from rocm_doctor.knowledge.env_reads import release_series

    huge = "6." + "9" * 5000
    assert release_series(huge) is None
    assert env_reads().at_release("HSA_FOO", huge).status == UNKNOWN
