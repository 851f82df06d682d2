"""hipBLASLt per torch release and ROCm (rules/data/hipblaslt.yaml, rocm_doctor/knowledge/hipblaslt.py)."""

from __future__ import annotations

import pytest

from rocm_doctor.data import load_table
from rocm_doctor.errors import InputError
from rocm_doctor.knowledge import hipblaslt as hl

ZERO = {"TORCH_BLAS_PREFER_HIPBLASLT": "0"}
ONE = {"TORCH_BLAS_PREFER_HIPBLASLT": "1"}


@pytest.mark.parametrize(
    ("gfx", "torch", "rocm", "expected"),
    [
        ("gfx90a", "2.4.1", "6.1", True),
        ("gfx908", "2.8.0", "6.3", True),  # MI100 on the allow-list from ROCm 6.3
        ("gfx908", "2.7.1", "6.2.4", False),
        ("gfx1100", "2.5.1", "6.2", False),
        ("gfx1100", "2.7.1", "6.3", True),
        ("gfx1151", "2.10.0", "7.0", True),  # gfx950/gfx1150/gfx1151 from ROCm 7.0
        ("gfx1151", "2.9.1", "6.4", False),
        ("gfx1103", "2.13.0", "7.2", None),  # on main's list; the first release is not known
        ("gfx1030", "2.13.0", "7.2", False),
    ],
)
def test_the_allow_list_depends_on_the_wheels_rocm(gfx, torch, rocm, expected) -> None:
    assert hl.allowed(gfx, torch, rocm) is expected


@pytest.mark.parametrize(
    ("gfx", "torch", "rocm", "expected"),
    [
        ("gfx942", "2.6.0", "6.2.4", True),
        ("gfx1201", "2.8.0", "6.4", True),  # from ROCm 6.4
        ("gfx1201", "2.8.0", "6.3", False),
        ("gfx950", "2.10.0", "7.0", True),
        ("gfx1100", "2.13.0", "7.2", False),  # never preferred upstream
        ("gfx1151", "2.13.0", "7.2", False),
    ],
)
def test_the_default_preference_list(gfx, torch, rocm, expected) -> None:
    assert hl.preferred(gfx, torch, rocm) is expected


def test_what_the_variable_does_per_release() -> None:
    assert hl.prefer_variable("2.3.1+rocm6.0") == "not-read"
    assert hl.prefer_variable("2.5.1+rocm6.2") == "default-on"
    assert hl.prefer_variable("2.10.0+rocm7.0") == "zero-ignored-on-preferred"
    assert hl.prefer_variable("2.11.0+rocm7.2") == "zero-ignored-on-preferred"
    assert hl.prefer_variable("2.12.0+rocm7.2") == "toggle"
    assert hl.prefer_variable("2.12.0.dev20260210+rocm7.1") is None  # a nightly may predate the change


def test_zero_is_ignored_on_preferred_gpus_in_2_6_to_2_11_and_a_switch_from_2_12() -> None:
    assert hl.uses_hipblaslt(["gfx1201"], "2.11.0", "7.2", ZERO) is True
    assert hl.uses_hipblaslt(["gfx942"], "2.8.0", "6.4", {"TORCH_BLAS_PREFER_CUBLASLT": "0"}) is True
    assert hl.uses_hipblaslt(["gfx1201"], "2.12.0", "7.2", ZERO) is False
    assert hl.uses_hipblaslt(["gfx1201"], "2.12.0", "7.2", {}) is True
    assert hl.uses_hipblaslt(["gfx1100"], "2.11.0", "7.2", ZERO) is False  # default there is hipBLAS


def test_2_4_and_2_5_default_to_hipblaslt_and_zero_selects_hipblas() -> None:
    assert hl.uses_hipblaslt(["gfx942"], "2.5.1", "6.2", {}) is True
    assert hl.uses_hipblaslt(["gfx942"], "2.5.1", "6.2", ZERO) is False
    assert hl.uses_hipblaslt(["gfx1100"], "2.5.1", "6.2", {}) is False  # not allowed: falls back


def test_every_gpu_must_be_preferred_and_allowed() -> None:
    assert hl.uses_hipblaslt(["gfx942", "gfx1100"], "2.13.0", "7.2", {}) is False
    assert hl.uses_hipblaslt(["gfx942", "gfx1030"], "2.13.0", "7.2", ONE) is False
    assert hl.uses_hipblaslt(["gfx942", "gfx1103"], "2.13.0", "7.2", ONE) is None


def test_torch_before_2_4_never_asks_for_hipblaslt() -> None:
    assert hl.uses_hipblaslt(["gfx942"], "2.3.1", "6.0", ONE) is False


@pytest.mark.parametrize(
    ("gfx", "rocm", "expected"),
    [
        ("gfx90a:sramecc+:xnack-", "5.5.1", True),
        ("gfx942", "5.6.0", False),  # MI300 kernels from ROCm 5.7
        ("gfx942", "5.7.1", True),
        ("gfx908", "6.0.2", False),  # MI100 never in these releases (ROCm/hipBLASLt#516)
        ("gfx1100", "6.1.2", False),
        ("gfx1100", "6.2.4", True),  # RDNA3 kernels from ROCm 6.2
        ("gfx1101", "6.2", True),
        ("gfx1030", "6.2.0", False),
    ],
)
def test_hipblaslts_own_kernels_per_rocm_release(gfx, rocm, expected) -> None:
    assert hl.library_has(gfx, rocm) is expected


@pytest.mark.parametrize("rocm", ["5.4.3", "6.3.0", "7.2", "not a version"])
def test_hipblaslts_kernels_are_unknown_outside_the_releases_read(rocm) -> None:
    assert hl.library_has("gfx1100", rocm) is None


def test_a_library_section_without_the_releases_it_covers_is_refused() -> None:
    data = dict(load_table("hipblaslt"))
    data["library"] = {"targets": [{"rocm": ">=6.2", "targets": ["gfx1100"], "source": "https://example.org/x"}]}
    with pytest.raises(InputError, match="covers_rocm"):
        hl.table(data)


@pytest.mark.parametrize(
    ("rocm", "present", "absent"),
    [
        ("5.6.1", ["gfx90a"], ["gfx942", "gfx908"]),
        ("5.7.1", ["gfx90a", "gfx942"], ["gfx908", "gfx1100", "gfx1030"]),
        ("6.1.2", ["gfx1100", "gfx1101"], ["gfx1102", "gfx908"]),  # navi31/32 logic from 6.0, beyond AMD's default targets
        ("6.2.0", ["gfx1102"], ["gfx1030", "gfx906"]),
    ],
)
def test_hipblaslt_gemm_logic_bounds_every_builder_per_release(rocm, present, absent) -> None:
    logic = hl.table().logic_targets(rocm)
    assert logic is not None
    assert all(g in logic for g in present) and not any(g in logic for g in absent)
    assert set(hl.table().library_targets(rocm) or ()) <= set(logic)


def test_hipblaslt_gemm_logic_is_unknown_outside_the_releases_read() -> None:
    assert hl.table().logic_targets("6.4.0") is None
