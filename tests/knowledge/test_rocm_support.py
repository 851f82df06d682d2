"""ROCm release -> supported gfx per platform (rules/data/rocm_support.yaml, facts.md B)."""

from __future__ import annotations

from rocm_doctor.knowledge import rocm_support as rs


def test_linux_matrix_by_release() -> None:
    assert rs.linux_supported("gfx1100", "6.2.0") is True
    assert rs.linux_supported("gfx1101", "6.4.0") is False
    assert rs.linux_supported("gfx1101", "6.4.1") is True
    assert rs.linux_supported("gfx950", "7.0.2") is True
    assert rs.linux_supported("gfx1031", "6.2.0") is False
    assert rs.linux_supported("gfx1100", "5.7.1") is None
    assert rs.linux_supported("gfx1100", "not-a-version") is None


def test_windows_runtime_dropped_rdna2_in_7_2() -> None:
    assert rs.windows_runtime_supported("gfx1030") is False
    assert rs.windows_runtime_supported("gfx1030", "6.4.2") is True
    assert rs.windows_runtime_supported("gfx1201") is True
    assert rs.windows_runtime_supported("gfx1151") is None


def test_therock_status_per_platform() -> None:
    assert rs.therock_status("gfx1031", "linux") == "release_ready"
    assert rs.therock_status("gfx1201", "windows") == "build_only"
    assert rs.therock_status("gfx803", "linux") is None


def test_a_retired_target_is_unsupported_on_linux_and_windows_alike() -> None:
    from rocm_doctor.knowledge.rocm_support import linux_supported, windows_runtime_supported

    assert windows_runtime_supported("gfx803") is False
    assert linux_supported("gfx803", "6.2.0") is False
    assert windows_runtime_supported("gfx1030", "6.4.2") is True  # a listed target is unaffected
