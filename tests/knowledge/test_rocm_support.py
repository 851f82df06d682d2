"""ROCm release -> supported gfx per platform (rules/data/rocm_support.yaml)."""

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
    assert rs.windows_runtime_supported("gfx1030", "7.2") is False
    assert rs.windows_runtime_supported("gfx1030", "6.4.2") is True
    assert rs.windows_runtime_supported("gfx1201") is True
    assert rs.windows_runtime_supported("gfx1031", "7.2") is False  # RX 6700 XT crossed in the 7.2 table


def test_therock_status_per_platform() -> None:
    assert rs.therock_status("gfx1031", "linux") == "release_ready"
    assert rs.therock_status("gfx1201", "windows") == "build_only"
    assert rs.therock_status("gfx803", "linux") is None


def test_a_retired_target_is_unsupported_on_linux_and_windows_alike() -> None:
    from rocm_doctor.knowledge.rocm_support import linux_supported, windows_runtime_supported

    assert windows_runtime_supported("gfx803") is False
    assert linux_supported("gfx803", "6.2.0") is False
    assert windows_runtime_supported("gfx1030", "6.4.2") is True  # a listed target is unaffected


def test_therock_windows_build_only_targets_include_the_gcn5_ones() -> None:
    for gfx in ("gfx1200", "gfx1201", "gfx1153", "gfx906", "gfx90c", "gfx900"):
        assert rs.therock_status(gfx, "windows") == "build_only", gfx


def test_gfx90c_is_built_by_therock_but_has_no_device_extra() -> None:
    assert rs.therock_status("gfx90c", "linux") == "build_only"
    assert rs.therock_device_extra("gfx90c") is False
    assert rs.therock_device_extra("gfx906") is True
    assert rs.therock_device_extra("gfx1031") is True


def test_rocm_7_2_and_7_14_have_rows() -> None:
    assert rs.linux_supported("gfx1100", "7.2.1") is None  # the 7.2.x list was not read: unknown
    assert rs.linux_supported("gfx1103", "7.14.0") is True  # TheRock release-ready
    assert rs.linux_supported("gfx906", "7.14.0") is False


def test_a_windows_runtime_release_is_judged_by_the_newest_table_of_its_major_not_newer_than_its_series() -> None:
    assert rs.windows_runtime_supported("gfx1030", "6.4") is True  # the 6.4.2 table
    assert rs.windows_runtime_supported("gfx1030", "6") is True  # amdhip64_6.dll: the newest 6.x table
    assert rs.windows_runtime_supported("gfx1030", "7") is False
    assert rs.windows_runtime_supported("gfx1030", "7.2.1") is False
    assert rs.windows_runtime_supported("gfx1030", "6.2") is True  # the HIP SDK 6.2.4 table
    assert rs.windows_runtime_supported("gfx906", "6.1") is False  # the HIP SDK 6.1.2 table: Radeon PRO VII unsupported
    assert rs.windows_runtime_supported("gfx1030", "6.0") is True  # the HIP SDK 6.0.2 table
    assert rs.windows_runtime_supported("gfx1030", "5.7") is None  # the 5.7.1 table is kept partial
    assert rs.windows_runtime_supported("gfx1030", "7.1") is None  # the 7.2 table is newer than 7.1
    assert rs.windows_runtime_supported("gfx1030", "not-a-version") is None


def test_without_a_release_the_windows_runtime_verdict_must_hold_for_every_table() -> None:
    # RDNA2 gfx1030 is listed for the HIP runtime up to 6.4.2 and as unsupported in 7.2: a report that does not
    # show its runtime release (ollama and ZLUDA bundle a 5.7 or 6.x runtime) must not be judged by 7.2 alone.
    from rocm_doctor.knowledge.rocm_support import windows_runtime_supported

    assert windows_runtime_supported("gfx1030") is None
    assert windows_runtime_supported("gfx1032") is None
    assert windows_runtime_supported("gfx1100") is True  # listed by every full table
    assert windows_runtime_supported("gfx906") is False  # unsupported wherever a table names it
    assert windows_runtime_supported("gfx803") is False  # retired
    assert windows_runtime_supported("gfx1151") is True  # listed by the 6.4.2 and 7.2 Ryzen tabs, named by no other
    assert windows_runtime_supported("gfx1103") is None  # no full table names it
