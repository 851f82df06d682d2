"""Pure parsers: KFD properties, dkms status lines, ROCm/HIP version strings."""

from __future__ import annotations

import pytest

from rocm_doctor.facts.parsers.dkms import parse_dkms_status
from rocm_doctor.facts.parsers.kfd import compute_units, is_gpu_node, parse_properties, pci_address, vram_bytes
from rocm_doctor.facts.parsers.rocm_version import install_version, parse_hipconfig_version, parse_version_file

# Keys and values of a captured RX 7900 XTX node (tinygrad's mock AMD driver copies a real properties file).
GPU_NODE = """cpu_cores_count 0
simd_count 192
mem_banks_count 1
simd_per_cu 2
gfx_target_version 110000
vendor_id 4098
device_id 29772
location_id 34304
domain 0
drm_render_minor 128
local_mem_size 0
unique_id 11673270660693242239
"""


def test_kfd_properties_become_integers_and_cpu_nodes_are_not_gpus():
    props = parse_properties(GPU_NODE)
    assert props["gfx_target_version"] == 110000 and props["unique_id"] == 11673270660693242239
    assert is_gpu_node(props)
    assert not is_gpu_node(parse_properties("cpu_cores_count 32\nsimd_count 0\n"), gpu_id=0)
    assert is_gpu_node({"simd_count": 0}, gpu_id=4660)


def test_kfd_properties_skip_garbage_lines():
    assert parse_properties("simd_count 4\nnot a pair at all\nname ip discovery\nbroken x\n\n") == {"simd_count": 4}


def test_kfd_location_id_decodes_to_pci_address_and_simds_to_compute_units():
    props = parse_properties(GPU_NODE)
    assert pci_address(props) == "0000:86:00.0"
    assert pci_address({"location_id": 0x6E00 | (1 << 3) | 2, "domain": 1}) == "0001:6e:01.2"
    assert pci_address({}) is None
    assert compute_units(props) == 96
    assert compute_units({"simd_count": 0, "simd_per_cu": 2}) is None


def test_kfd_vram_counts_frame_buffer_heaps_only():
    banks = [{"heap_type": 1, "size_in_bytes": 1 << 30}, {"heap_type": 2, "size_in_bytes": 1 << 20}, {"heap_type": 0, "size_in_bytes": 99}]
    assert vram_bytes(banks) == (1 << 30) + (1 << 20)
    assert vram_bytes([{"heap_type": 0, "size_in_bytes": 99}]) is None


def test_dkms_status_reads_old_and_new_formats():
    text = (
        "amdgpu, 2.4-25.el7, 3.10.0-957.el7.x86_64, x86_64: installed (original_module exists)\n"
        "amdgpu/6.8.5-2009582.22.04, 5.15.0-117-generic, x86_64: installed\n"
        "amdgpu/6.2.4-1652687.el9, 5.14.0-373.el9.x86_64, x86_64: installed (original_module exists)\n"
        "amdgpu/6.8.5-2009582.24.04: added\n"
        "Error! Could not locate dkms.conf file.\n"
        "virtualbox, 7.0.10, 6.5.0-14-generic, x86_64: built\n"
    )
    entries = parse_dkms_status(text)
    assert [(e.module, e.version, e.kernel, e.status) for e in entries] == [
        ("amdgpu", "2.4-25.el7", "3.10.0-957.el7.x86_64", "installed"),
        ("amdgpu", "6.8.5-2009582.22.04", "5.15.0-117-generic", "installed"),
        ("amdgpu", "6.2.4-1652687.el9", "5.14.0-373.el9.x86_64", "installed"),
        ("amdgpu", "6.8.5-2009582.24.04", None, "added"),
        ("virtualbox", "7.0.10", "6.5.0-14-generic", "built"),
    ]
    assert entries[0].arch == "x86_64"


def test_dkms_status_of_garbage_is_empty():
    assert parse_dkms_status("") == []
    assert parse_dkms_status("Usage: dkms [action] [options]\n") == []


@pytest.mark.parametrize(
    "text, expected",
    [("6.2.0-66\n", "6.2.0"), ("7.0.2\n", "7.0.2"), ("\n6.4.1-120\n", "6.4.1"), ("garbage\n", None), ("", None)],
)
def test_rocm_version_file(text, expected):
    assert parse_version_file(text) == expected


def test_hipconfig_version_without_trailing_newline():
    assert parse_hipconfig_version("6.2.41133-dd7f95766") == "6.2.41133"
    assert parse_hipconfig_version("7.2.53211\n") == "7.2.53211"
    assert parse_hipconfig_version("hipconfig: command failed") is None


def test_install_directory_names():
    assert install_version("rocm-6.2.0") == "6.2.0"
    assert install_version("rocm") is None and install_version("rocm-dev") is None
