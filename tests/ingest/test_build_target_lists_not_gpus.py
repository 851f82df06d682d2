"""Review rev52d of learn52d: the GPU targets a build lists (a CMake list, its "Supported targets are:" paragraph, a
target named as an entry of a build's CMake files) are not the GPUs this machine has.

rocm-libraries#2297's report (a TheRock gfx103X-all build on a machine it does not show) was read as a gfx1036 iGPU
beside a gfx1032 card (RD515, RD511); ROCm/TheRock#1443's quoted Tensile CMake list gave warnings about a gfx803, a
gfx900 and a gfx1012 it does not have (RD205, RD527, RD840). The shapes are theirs and ROCm/TheRock#1062's; the prose
around them is written for the test.
"""

from __future__ import annotations

from ingest_helpers import ingest, serious_findings


def _gfx(text: str) -> list:
    return sorted(a.gfx.value for a in ingest(text).facts.gpus.agents if a.gfx.is_known)



def test_a_family_build_log_names_no_gpu_of_this_machine() -> None:
    # rocm-libraries#2297: the targets of the build and of its CMake files are no GPUs of this machine (it gave
    # "an integrated GPU sits next to the discrete one" and "gfx1032 needs HSA_OVERRIDE_GFX_VERSION")
    text = (
        "Fix TheRock build when `gfx103X-all` is specified.\n\n"
        "rocBLAS build fails with error due to missing `gfx1036` in Tensile CMake.\n\n"
        "```\n$ cmake -B build -GNinja . -DTHEROCK_AMDGPU_FAMILIES=gfx103X-all\n"
        "[rocBLAS configure] CMake Error at .../Tensile/Source/cmake/TensileSupportedArchitectures.cmake:92 (message):\n"
        "[rocBLAS configure]   Unsupported GPU target: gfx1036\n[rocBLAS configure]\n"
        "[rocBLAS configure]   Supported targets are:\n"
        "[rocBLAS configure]   gfx803;gfx900;gfx906;gfx1030;gfx1031;gfx1032;gfx1100\n```\n\n"
        "Similar to PR #1477 (where it was for `gfx1032`), it appears that `gfx1036` is defined in\n"
        "TheRock CMake as a valid target but it isn't in Tensile.\n"
    )
    assert _gfx(text) == []
    ids = [f[0] for f in serious_findings(text)]
    assert "RD930" in ids and "RD511" not in ids and "RD515" not in ids


def test_a_short_supported_list_on_its_own_line_is_no_gpu() -> None:
    text = (
        "CMake Error at cmake/TensileliteSupportedArchitectures.cmake:79 (message):\n"
        "  Unsupported GPU target: gfx1030\n\n  Supported targets are:\n  gfx1100;gfx1101\n"
    )
    assert _gfx(text) == []


def test_a_quoted_cmake_target_list_is_no_gpu_but_the_reporters_card_is() -> None:
    text = (
        "The list in TensileSupportedArchitectures.cmake:\n\n```cmake\nlist(APPEND BASE_ARCHITECTURES\n"
        '        "gfx803"\n        "gfx900"\n        "gfx1030"\n        "gfx1100")\n```\n\nMy GPU is an RX 6700 XT.\n'
    )
    assert _gfx(text) == ["gfx1031"]


def test_a_tools_bare_target_listing_is_still_read() -> None:
    # rocm_agent_enumerator prints one bare target a line: the machine's agents, not a list a build names
    assert _gfx("$ rocm_agent_enumerator\ngfx000\ngfx1100\ngfx1030\n") == ["gfx000", "gfx1030", "gfx1100"]


def test_the_reporters_own_target_named_beside_cmake_is_kept() -> None:
    assert _gfx("My GPU is gfx1031 and I put it in the CMake list, still it fails.") == ["gfx1031"]
