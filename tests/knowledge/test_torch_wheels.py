"""The torch wheel knowledge API over rules/data/torch_wheels.yaml (facts.md A)."""

from __future__ import annotations

import copy

import pytest

from rocm_doctor.data import load_table
from rocm_doctor.errors import InputError
from rocm_doctor.knowledge import torch_wheels as tw
from rocm_doctor.knowledge._tables import source_urls


def test_releases_are_sorted_and_cover_1_13_to_2_14() -> None:
    names = tw.releases()
    assert names[0] == "1.13" and names[-1] == "2.14"
    assert names.index("2.9") < names.index("2.10")


def test_rocm_variants_and_pythons_accept_full_versions_with_local_tags() -> None:
    assert tw.rocm_variants("2.5.1+rocm6.2") == ["6.1", "6.2"]
    assert tw.rocm_variants("2.10.0") == ["7.0", "7.1"]
    assert tw.python_versions("2.5") == ["3.9", "3.10", "3.11", "3.12"]
    assert "3.9" not in tw.python_versions("2.13.0+rocm7.2")
    assert tw.rocm_variants("3.0") == [] and tw.python_versions("0.4") == []


def test_gfx_targets_follow_the_release_and_rocm_variant() -> None:
    assert "gfx1100" not in tw.gfx_targets("2.0.1")
    assert "gfx942" not in tw.gfx_targets("2.3", "5.7")
    assert "gfx942" in tw.gfx_targets("2.3", "6.0")
    assert "gfx1101" in tw.gfx_targets("2.6.0+rocm6.2.4", "6.2.4")
    assert {"gfx1150", "gfx1151", "gfx950"} <= set(tw.gfx_targets("2.10"))
    assert tw.gfx_targets("9.9") is None


def test_gfx_in_wheel_is_three_valued() -> None:
    assert tw.gfx_in_wheel("2.5.1+rocm6.2", "gfx1100") is True
    assert tw.gfx_in_wheel("2.5.1+rocm6.2", "gfx1101") is False
    assert tw.gfx_in_wheel("2.5.1", "gfx1031") is False
    assert tw.gfx_in_wheel("2.12.0", "gfx1103") is False  # pytorch#179653 landed after the 2.12 cut
    assert tw.gfx_in_wheel("2.13.0", "gfx1103") is True
    assert tw.gfx_in_wheel("2.0.1", "gfx1030") is True  # appended for every ROCm >= 4.3 in 2.0
    assert tw.gfx_in_wheel("2.0.1+rocm5.4.2", "gfx90a", "5.4.2") is True
    assert tw.gfx_in_wheel("2.3.0", "gfx942") is None  # depends on the ROCm variant
    assert tw.gfx_in_wheel("1.12.0", "gfx1030") is None  # release not in the table


def test_feature_suffixes_of_gfx_names_are_ignored() -> None:
    assert tw.gfx_in_wheel("2.5.1", "gfx90a:sramecc+:xnack-") is True


def test_a_nightly_answers_only_where_it_and_the_previous_release_agree() -> None:
    assert tw.gfx_in_wheel("2.6.0.dev20241015+rocm6.2", "gfx1100") is True
    assert tw.gfx_in_wheel("2.6.0.dev20241015+rocm6.2", "gfx1101") is None
    assert tw.gfx_in_wheel("2.6.0.dev20241015+rocm6.2", "gfx1031") is False


def test_first_release_with_gfx() -> None:
    assert tw.first_release_with_gfx("gfx1100") == "2.1"
    assert tw.first_release_with_gfx("gfx942") == "2.3"
    assert tw.first_release_with_gfx("gfx1101") == "2.6"
    assert tw.first_release_with_gfx("gfx1201") == "2.7"
    assert tw.first_release_with_gfx("gfx1151") == "2.10"
    assert tw.first_release_with_gfx("gfx1103") == "2.13"
    assert tw.first_release_with_gfx("gfx1031") is None


def test_newest_release_for_respects_gfx_python_rocm_cap_and_skips_release_candidates() -> None:
    choice = tw.newest_release_for("gfx1100", "3.12.3")
    assert (choice.torch, choice.rocm) == ("2.13", "7.2")
    assert choice.index_url == "https://download.pytorch.org/whl/rocm7.2"
    capped = tw.newest_release_for("gfx1100", "3.12", rocm_max="6.4.1")
    assert (capped.torch, capped.rocm) == ("2.9", "6.4")
    assert tw.newest_release_for(None, "3.9").torch == "2.8"
    assert tw.newest_release_for("gfx1151", "3.9") is None
    assert tw.newest_release_for("gfx1031", "3.12") is None


def test_companions_numpy_and_index_urls() -> None:
    wheels = tw.wheels()
    assert wheels.companion("2.5.1", "torchvision") == "0.20"
    assert wheels.companion("2.13.0+rocm7.2", "torchvision") == "0.28"
    assert wheels.companion("2.11.0", "torchvision") is None
    assert wheels.companion("1.13.1+rocm5.2", "torchvision") == "0.14"  # the 1.x releases with ROCm wheels
    assert wheels.supports_numpy2("2.2.2") is False and wheels.supports_numpy2("2.3.0") is True
    assert tw.index_url("6.2.4", nightly=True) == "https://download.pytorch.org/whl/nightly/rocm6.2.4"
    assert wheels.is_variant("2.6.0", "6.2.4") is True and wheels.is_variant("2.6.0", "6.2") is False


def test_amd_wheels_windows_python_and_therock_command() -> None:
    assert tw.amd_windows_pythons() == ["3.12"]
    assert tw.amd_windows_releases()[0]["torch"] == "2.9.1+rocmsdk20260116"
    command = tw.therock_install_command("gfx1031:xnack-")
    assert '"torch[device-gfx1031]"' in command and "whl-multi-arch" in command


def test_every_row_of_the_table_names_its_source() -> None:
    table = load_table("torch_wheels")
    for section in ("releases", "gfx_targets", "companions"):
        assert all(source_urls(row.get("source")) for row in table[section]), section


def test_a_row_without_source_or_with_a_bad_specifier_is_an_input_error() -> None:
    table = copy.deepcopy(load_table("torch_wheels"))
    del table["releases"][0]["source"]
    with pytest.raises(InputError, match=r"releases\[0\]\.source must be a public URL"):
        tw.wheels(table)
    table = copy.deepcopy(load_table("torch_wheels"))
    table["gfx_targets"][0]["torch"] = ">>2.0"
    with pytest.raises(InputError, match="not a version specifier"):
        tw.wheels(table)


def test_gfx900_and_gfx906_lack_rocblas_kernels_from_rocm_6_4() -> None:
    # torch still compiles its own kernels for them (get_arch_list lists them) ...
    assert tw.gfx_in_wheel("2.8.0+rocm6.4", "gfx906", "6.4") is True
    # ... but the bundled rocBLAS has no TensileLibrary for them from ROCm 6.4 (pytorch#179865).
    assert tw.library_gap("gfx906", "6.4") == "rocBLAS"
    assert tw.library_gap("gfx900", "7.2") == "rocBLAS"
    assert tw.library_gap("gfx906", "6.3") is None
    assert tw.library_gap("gfx908", "7.2") is None
    # so the newest working pytorch.org wheel is a rocm6.3 one
    choice = tw.newest_release_for("gfx906", "3.12")
    assert (choice.torch, choice.rocm) == ("2.9", "6.3")


def test_rdna4_lacks_rocblas_kernels_in_rocm_6_2_and_older_not_from_6_3() -> None:
    # rocBLAS's target list gains gfx1200/gfx1201 with ROCm 6.3 (release/rocm-rel-6.3.0.1 CMakeLists).
    assert tw.library_gap("gfx1201", "6.2.4") == "rocBLAS"
    assert tw.library_gap("gfx1200", "6.1") == "rocBLAS"
    assert tw.library_gap("gfx1201", "6.3") is None
    assert tw.library_gap("gfx1201", "7.2") is None
    assert tw.library_gap("gfx1100", "6.2.4") is None
    # torch 2.7's rocm6.2.4 wheel compiles its own gfx1201 kernels, but its rocBLAS cannot run them:
    # no wheel built with ROCm 6.2.x is chosen for RDNA4, a rocm6.3 one is (and RDNA3 keeps rocm6.2.4)
    assert tw.gfx_in_wheel("2.7.1+rocm6.2.4", "gfx1201", "6.2.4") is True
    assert tw.newest_release_for("gfx1201", "3.12", rocm_max="6.2.4") is None
    choice = tw.newest_release_for("gfx1201", "3.12", rocm_max="6.3")
    assert choice is not None and choice.rocm == "6.3"
    choice = tw.newest_release_for("gfx1100", "3.12", rocm_max="6.2.4")
    assert choice is not None and choice.rocm == "6.2.4"


def test_the_rocm_7_14_variant_has_no_gfx900_gfx906_and_takes_rocm_from_pip() -> None:
    assert tw.gfx_in_wheel("2.14.0+rocm7.14", "gfx906", "7.14") is False
    assert tw.gfx_in_wheel("2.14.0+rocm7.14", "gfx908", "7.14") is True
    assert tw.rocm_from_pip("7.14") is True
    assert tw.rocm_from_pip("7.2") is False


def test_torch_2_14_release_candidates_also_build_python_3_15() -> None:
    assert "3.15" in tw.python_versions("2.14")
    assert "3.15" not in tw.python_versions("2.13")


def test_torch_1_13_wheels_have_the_gfx9_and_gfx1030_targets_of_builders_release_branch() -> None:
    # pytorch/builder release/1.13 manywheel/build_docker.sh: gfx900;gfx906;gfx908 plus gfx90a;gfx1030
    # for ROCm >= 4.3; no RDNA3 target (gfx1100 arrives in 2.1)
    assert set(tw.gfx_targets("1.13", "5.2") or []) == {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx1030"}
    assert tw.gfx_in_wheel("1.13.1+rocm5.2", "gfx1030", "5.2") is True
    assert tw.gfx_in_wheel("1.13.1+rocm5.2", "gfx1100", "5.2") is False
