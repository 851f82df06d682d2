"""The processor table (rules/data/cpus.yaml): which AMD CPUs carry which integrated GPU."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rocm_doctor.data import load_table
from rocm_doctor.errors import InputError
from rocm_doctor.knowledge import gpu_table
from rocm_doctor.knowledge import cpus


@pytest.mark.parametrize(
    "name, gfx",
    [
        ("AMD Ryzen 7 7800X3D 8-Core Processor", "gfx1036"),
        ("AMD Ryzen 9 7950X 16-Core Processor", "gfx1036"),
        ("Ryzen 5 7600X", "gfx1036"),
        ("R7 7700", "gfx1036"),
        ("Ryzen 5825U", "gfx90c"),
        ("AMD Ryzen 7 5825U with Radeon Graphics", "gfx90c"),
        ("Ryzen 5 5600G", "gfx90c"),
        ("AMD Ryzen 7 5700U with Radeon Graphics", "gfx90c"),
        ("AMD Ryzen 7 PRO 4750GE with Radeon Graphics", "gfx90c"),
        ("AMD Ryzen 7 4800H with Radeon Graphics", "gfx90c"),
        ("AMD Ryzen 5 2400G with Radeon Vega Graphics", "gfx902"),
        ("AMD Ryzen 5 3500U with Radeon Vega Mobile Gfx", "gfx902"),
        ("AMD Athlon 200GE with Radeon Vega Graphics", "gfx902"),
        ("AMD Ryzen 7 6800H with Radeon Graphics", "gfx1035"),
        ("AMD Ryzen 7 7735HS with Radeon Graphics", "gfx1035"),
        ("AMD Ryzen 5 7520U with Radeon Graphics", "gfx1036"),
        ("AMD Ryzen 9 7945HX with Radeon Graphics", "gfx1036"),
        ("AMD Ryzen 7 7840U w/ Radeon 780M Graphics", "gfx1103"),
        ("AMD Ryzen 9 PRO 7940HS w/ Radeon 780M Graphics", "gfx1103"),
        ("AMD Ryzen 7 8845HS w/ Radeon 780M Graphics", "gfx1103"),
        ("AMD Ryzen 7 8700G w/ Radeon 780M Graphics", "gfx1103"),
        ("AMD Ryzen 9 270 w/ Radeon 780M Graphics", "gfx1103"),
        ("AMD Ryzen AI 9 HX 370 w/ Radeon 890M", "gfx1150"),
        ("AMD Ryzen AI 7 350 w/ Radeon 860M", "gfx1152"),
        ("AMD Ryzen AI Max+ 395 w/ Radeon 8060S", "gfx1151"),
        ("AMD RYZEN AI MAX+ PRO 395 w/ Radeon 8060S", "gfx1151"),
        ("AMD Ryzen AI Max 390", "gfx1151"),
    ],
)
def test_real_cpu_names_give_their_igpu(name, gfx):
    igpu = cpus.igpu_for_cpu(name)
    assert igpu is not None and igpu.gfx == gfx


@pytest.mark.parametrize(
    "name",
    ["Ryzen 7 5700X", "AMD Ryzen 7 5800X3D 8-Core Processor", "AMD Ryzen 5 7500F 6-Core Processor",
     "AMD Ryzen 7 8700F 8-Core Processor", "AMD Ryzen 5 3600 6-Core Processor", "AMD Ryzen 7 2700X Eight-Core Processor",
     "AMD Ryzen Threadripper 3970X 32-Core Processor", "AMD Ryzen 5 4500 6-Core Processor", "AMD EPYC 7763 64-Core Processor"],
)
def test_parts_without_graphics_are_known_to_have_none(name):
    family = cpus.cpu_family(name)
    assert family is not None and family.igpu is None
    assert cpus.igpu_for_cpu(name) is None


@pytest.mark.parametrize("name", ["Intel(R) Core(TM) i9-13900K CPU @ 3.00GHz", "AMD Ryzen Z1 Extreme", "", "Ryzen"])
def test_unknown_parts_give_no_family(name):
    assert cpus.cpu_family(name) is None and cpus.igpu_for_cpu(name) is None


def test_names_are_reduced_to_line_number_and_suffix():
    assert cpus.parse_cpu_name("AMD Ryzen 7 7800X3D 8-Core Processor") == cpus.CpuName("ryzen", "7800", "x3d")
    assert cpus.parse_cpu_name("AMD Ryzen(TM) AI 9 HX 370 w/ Radeon(TM) 890M") == cpus.CpuName("ryzen-ai", "370", "")
    assert cpus.parse_cpu_name("AMD Ryzen AI Max+ 395") == cpus.CpuName("ryzen-ai-max", "395", "")


def test_every_row_cites_urls_and_names_a_gfx_the_gpu_table_knows():
    data = load_table("cpus")
    assert data["checked"] and data["against"]
    targets = {row["gfx"] for row in load_table("gpus")["targets"]}
    for family in cpus.table().families:
        assert family.sources and all(s.startswith("https://") for s in family.sources)
        if family.igpu is not None:
            assert family.igpu.gfx in targets, family.name
            assert gpu_table.split_gfx(family.igpu.gfx) is not None


def test_a_malformed_row_is_an_input_error_naming_it():
    bad = {"families": [{"name": "x", "codename": "y", "line": "ryzen", "model": "(", "suffix": "", "source": ["https://a"]}]}
    with pytest.raises(InputError, match=r"families\[0\]\.model"):
        cpus.CpuTable.from_data(bad)
    with pytest.raises(InputError, match="URL"):
        cpus.CpuTable.from_data({"families": [{"name": "x", "codename": "y", "line": "ryzen", "model": "1", "suffix": "", "source": "facts.md"}]})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_cpu_lookup_never_raises(name):
    igpu = cpus.igpu_for_cpu(name)
    assert igpu is None or igpu.gfx.startswith("gfx")
