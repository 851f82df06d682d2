"""Each format parser turns its kind of output into partial facts with line sources."""

from __future__ import annotations

import json

from ingest_helpers import block, gpu, ingest, values

from rocm_doctor.ingest.formats import (
    collect_env,
    hip_devices,
    pip,
    python_session,
    rocminfo,
    smi,
    system,
)
from rocm_doctor.ingest.formats import fields

COLLECT_ENV = """\
Collecting environment information...
PyTorch version: 2.6.0+rocm6.2.4
Is debug build: False
CUDA used to build PyTorch: N/A
ROCM used to build PyTorch: 6.2.41134-65d174c3e

OS: Ubuntu 24.04.1 LTS (x86_64)
Python version: 3.13.1 | packaged by Anaconda, Inc. | (main, Dec 11 2024, 16:29:23) [GCC 11.2.0] (64-bit runtime)
Python platform: Linux-6.8.0-55-generic-x86_64-with-glibc2.39
Is CUDA available: True
CUDA runtime version: Could not collect
GPU models and configuration: AMD Instinct MI300X (gfx942:sramecc+:xnack-)
HIP runtime version: 6.2.41134
MIOpen runtime version: 3.2.0

Versions of relevant libraries:
[pip3] numpy==2.2.1
[pip3] pytorch-triton-rocm==3.2.0
[pip3] torchvision==0.21.0+rocm6.2.4
"""


def test_collect_env_gives_torch_os_python_and_gpu() -> None:
    pieces = collect_env.parse(block(COLLECT_ENV))
    assert [p.kind for p in pieces] == ["collect_env"]
    got = values(pieces)
    assert got["torch.version"] == "2.6.0+rocm6.2.4"
    assert got["torch.flavour"] == "rocm"
    assert got["torch.rocm_version"] == "6.2.4"
    assert got["torch.hip_version"] == "6.2.41134-65d174c3e"
    assert got["torch.live.cuda_available"] is True
    assert got["torch.live.hip_runtime_version"] == "6.2.41134"
    assert got["python.version"] == "3.13.1"
    assert got["host.kernel_release"] == "6.8.0-55-generic"
    assert got["host.distro_id"] == "ubuntu" and got["host.distro_version"] == "24.04"
    assert got["torch.triton_package"] == "pytorch-triton-rocm" and got["torch.triton_flavour"] == "rocm"
    assert got["torch.torchvision_flavour"] == "rocm"
    assert "torch.cuda_version" not in got
    sighting = pieces[0].gpus[0]
    assert sighting.fields["gfx"] == "gfx942" and sighting.fields["name"] == "AMD Instinct MI300X"
    assert sighting.line.number == 12


def test_collect_env_of_a_cpu_build_says_cpu() -> None:
    text = "PyTorch version: 2.3.0\nCUDA used to build PyTorch: N/A\nROCM used to build PyTorch: N/A\nIs CUDA available: False\n"
    assert values(collect_env.parse(block(text)))["torch.flavour"] == "cpu"


def test_collect_env_run_without_torch_says_no_build() -> None:
    # torch not importable: collect_env prints N/A for the version and both build lines alike (the host
    # of a container, ROCm/pytorch#786; an environment beside the one that holds a +rocm nightly,
    # pytorch/pytorch#138067): that is no CPU build
    text = ("Collecting environment information...\nPyTorch version: N/A\nIs debug build: N/A\n"
            "CUDA used to build PyTorch: N/A\nROCM used to build PyTorch: N/A\n\nOS: Ubuntu 18.04.5 LTS (x86_64)\n")
    found = values(collect_env.parse(block(text)))
    assert "torch.flavour" not in found
    # a CPU build names itself: its version and 'CUDA used to build PyTorch: None'
    cpu = ("PyTorch version: 2.6.0+cpu\nIs debug build: False\nCUDA used to build PyTorch: None\n"
           "ROCM used to build PyTorch: N/A\n")
    assert values(collect_env.parse(block(cpu)))["torch.flavour"] == "cpu"


def test_collect_env_no_cuda_placeholder_names_no_gpu() -> None:
    # collect_env writes 'No CUDA' into the GPU field when torch.cuda is unavailable
    # (pytorch/pytorch#119081 and #53738 paste it); it is not a GPU called "No CUDA".
    text = (
        "PyTorch version: 2.1.0a0\nCUDA used to build PyTorch: None\nROCM used to build PyTorch: N/A\n"
        "Is CUDA available: False\nCUDA runtime version: No CUDA\nGPU models and configuration: No CUDA\n"
        "Nvidia driver version: No CUDA\n"
    )
    assert collect_env.parse(block(text))[0].gpus == []


def test_collect_env_on_wsl2_and_windows() -> None:
    wsl = values(collect_env.parse(block("PyTorch version: 2.4.0+rocm6.1\nPython platform: Linux-5.15.153.1-microsoft-standard-WSL2-x86_64-with-glibc2.35\n")))
    assert wsl["host.wsl_version"] == 2
    win = values(collect_env.parse(block("PyTorch version: 2.8.0a0+gitfc14c65\nOS: Microsoft Windows 11 Pro\nPython platform: Windows-10-10.0.26100-SP0\n")))
    assert win["host.os"] == "windows" and win["host.windows_build"] == 26100 and win["host.windows_release"] == "11"


ROCMINFO = """\
ROCk module version 6.8.5 is loaded
=====================
HSA System Attributes
=====================
==========
HSA Agents
==========
*******
Agent 1
*******
  Name:                    AMD Ryzen 9 7950X 16-Core Processor
  Device Type:             CPU
*******
Agent 2
*******
  Name:                    gfx1100
  Marketing Name:          Radeon RX 7900 XTX
  Vendor Name:             AMD
  Node:                    1
  Device Type:             GPU
  Chip ID:                 29772(0x744c)
  Compute Unit:            96
*******
Agent 3
*******
  Name:                    gfx1036
  Marketing Name:          AMD Radeon Graphics
  Node:                    2
  Device Type:             GPU
  Chip ID:                 5710(0x164e)
  Memory Properties:       APU
*** Done ***
"""


def test_rocminfo_gives_gpu_agents_and_driver_state() -> None:
    pieces = rocminfo.parse(block(ROCMINFO))
    assert values(pieces)["driver.amdgpu_loaded"] is True
    gpus = pieces[0].gpus
    assert [g.fields["gfx"] for g in gpus] == ["gfx1100", "gfx1036"]
    assert gpus[0].fields["device_id"] == "0x744c" and gpus[0].fields["kfd_node"] == 1
    assert gpus[1].fields["integrated"] is True
    assert gpus[0].line.number == 14


def test_a_rocminfo_fragment_still_names_its_gpu() -> None:
    text = "    ISA Info:\n      ISA 1\n        Name:                    amdgcn-amd-amdhsa--gfx90c:xnack-\n"
    assert rocminfo.parse(block(text))[0].gpus[0].fields["gfx"] == "gfx90c"


def test_rocminfo_on_wsl_and_without_the_driver() -> None:
    assert values(rocminfo.parse(block("WSL environment detected.\nHSA Agents\n")))["host.wsl_version"] == 2
    assert values(rocminfo.parse(block("ROCk module is NOT loaded, possibly no GPU devices\n")))["driver.amdgpu_loaded"] is False


def test_amd_smi_text_and_version_line() -> None:
    text = """\
AMDSMI Tool: 24.6.3+9578815 | AMDSMI Library version: 24.6.3.0 | ROCm version: 6.2.1 | amdgpu version: 6.8.5
GPU: 0
    ASIC:
        MARKET_NAME: AMD Radeon RX 7900 XTX
        VENDOR_ID: 0x1002
        DEVICE_ID: 0x744c
        TARGET_GRAPHICS_VERSION: gfx1100
    BUS:
        BDF: 0000:03:00.0
"""
    pieces = smi.parse(block(text))
    got = values(pieces)
    assert got["rocm.version"] == "6.2.1" and got["driver.amdgpu_version"] == "6.8.5"
    fields = pieces[0].gpus[0].fields
    assert (fields["gfx"], fields["device_id"], fields["pci_bus"]) == ("gfx1100", "0x744c", "0000:03:00.0")


def test_amd_smi_json_goes_through_the_json_recogniser() -> None:
    doc = [{"gpu": 0, "asic": {"market_name": "AMD Instinct MI300X", "device_id": "0x74a1", "target_graphics_version": "gfx942"}, "bus": {"bdf": "0000:0c:00.0"}}]
    result = ingest("```json\n" + json.dumps(doc, indent=2) + "\n```\n")
    assert gpu(result)["gfx"] == "gfx942"
    assert result.facts.gpus.discovery.value == "paste:amdsmi"


def test_rocm_smi_product_name() -> None:
    text = """\
GPU[0]\t\t: Card series: \t\tNavi 31 [Radeon RX 7900 XT/7900 XTX]
GPU[0]\t\t: Card vendor: \t\tAdvanced Micro Devices, Inc. [AMD/ATI]
GPU[0]\t\t: GFX Version: \t\tgfx1100
Driver version: 6.8.5
"""
    pieces = smi.parse(block(text))
    assert pieces[0].gpus[0].fields["gfx"] == "gfx1100"
    assert values(pieces)["driver.amdgpu_version"] == "6.8.5"


def test_hipinfo_and_ggml_list_devices_in_hip_order() -> None:
    hipinfo = "device#                           0\nName:                             AMD Radeon RX 7900 XTX\ngcnArchName:                      gfx1100\n"
    assert hip_devices.parse(block(hipinfo))[0].gpus[0].fields["gfx"] == "gfx1100"
    ggml = (
        "ggml_cuda_init: found 2 ROCm devices:\n"
        "  Device 0: AMD Radeon(TM) Graphics, gfx1036 (0x1036), VMM: no, Wave Size: 32\n"
        "  Device 1: AMD Radeon RX 9070 XT, gfx1201 (0x1201), VMM: no, Wave Size: 32\n"
    )
    gpus = hip_devices.parse(block(ggml))[0].gpus
    assert [(g.position, g.fields["gfx"], g.fields["integrated"]) for g in gpus] == [(0, "gfx1036", True), (1, "gfx1201", False)]


def test_pip_list_and_pip_freeze() -> None:
    listing = "Package    Version\n---------- -------------\nnumpy      1.26.4\ntorch      2.5.1+rocm6.2\nTorch_Vision 0.20.1+rocm6.2\n"
    got = values(pip.parse(block(listing)))
    assert got["packages.installed"] == {"numpy": "1.26.4", "torch": "2.5.1+rocm6.2", "torch-vision": "0.20.1+rocm6.2"}
    assert got["torch.rocm_version"] == "6.2"
    freeze = values(pip.parse(block("numpy==2.1.0\ntorch==2.4.0+cu121\ntriton==3.0.0\n")))
    assert freeze["torch.flavour"] == "cuda" and freeze["torch.cuda_version"] == "12.1"


def test_install_commands_and_lists_of_tried_versions_are_not_a_freeze() -> None:
    assert pip.parse(block("torch==2.6.0.dev20241015+rocm6.2\ntorch==2.6.0.dev20241014+rocm6.2\n")) == []
    assert pip.parse(block("$ pip install torch==2.3.1+rocm6.0\n")) == []


def test_uname_os_release_dkms_lspci_modinfo() -> None:
    text = """\
Linux box 6.8.0-45-generic #45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024 x86_64 x86_64 x86_64 GNU/Linux
ID=ubuntu
VERSION_ID="24.04"
PRETTY_NAME="Ubuntu 24.04.1 LTS"
amdgpu/6.8.5-2009582.24.04, 6.8.0-45-generic, x86_64: installed
03:00.0 VGA compatible controller [0300]: Advanced Micro Devices, Inc. [AMD/ATI] Navi 31 [Radeon RX 7900 XT/7900 XTX] [1002:744c] (rev c8)
01:00.0 VGA compatible controller: NVIDIA Corporation AD102 [GeForce RTX 4090] (rev a1)
/lib/modules/6.14.0-1013-oem/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko.zst
"""
    pieces = system.parse(block(text))
    assert {p.kind for p in pieces} == {"uname", "os-release", "dkms-status", "lspci", "modinfo"}
    got = {o.path: o.value for p in pieces if p.kind != "modinfo" for o in p.observations}
    assert got["host.kernel_release"] == "6.8.0-45-generic" and got["host.distro_version"] == "24.04"
    assert got["driver.dkms_amdgpu"].startswith("amdgpu/6.8.5")
    lspci = next(p for p in pieces if p.kind == "lspci")
    assert [g.fields["vendor"] for g in lspci.gpus] == ["AMD", "NVIDIA"]
    assert lspci.gpus[0].fields["gfx"] == "gfx1100"
    assert "gfx" not in lspci.gpus[1].fields
    modinfo = next(p for p in pieces if p.kind == "modinfo")
    assert values([modinfo])["host.kernel_release"] == "6.14.0-1013-oem"


def test_lspci_names_a_device_missing_from_its_pci_ids_by_hex_id() -> None:
    """An OS older than the GPU: lspci without -nn prints ``[AMD/ATI] Device 150e``; the id still names the GPU."""
    text = """\
c4:00.0 Display controller: Advanced Micro Devices, Inc. [AMD/ATI] Device 150e (rev c1)
01:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Device 67df (rev c7)
02:00.0 VGA compatible controller: NVIDIA Corporation Device 2db9 (rev a1)
"""
    lspci = next(p for p in system.parse(block(text)) if p.kind == "lspci")
    assert [g.fields.get("gfx") for g in lspci.gpus] == ["gfx1150", "gfx803", None]
    assert lspci.gpus[0].fields["device_id"] == "0x150e"


def test_lspci_nn_gives_a_device_missing_from_its_pci_ids_no_name_but_its_id() -> None:
    """``[AMD/ATI] Device [1002:7550]``: "Device" is what lspci prints for a missing name, not the GPU's name."""
    text = "05:00.0 VGA compatible controller [0300]: Advanced Micro Devices, Inc. [AMD/ATI] Device [1002:7550] (rev c0)\n"
    lspci = next(p for p in system.parse(block(text)) if p.kind == "lspci")
    assert lspci.gpus[0].fields.get("name") is None
    assert lspci.gpus[0].fields["gfx"] == "gfx1201"


def test_python_and_ipython_sessions() -> None:
    text = """\
In [2]: torch.__version__
Out[2]: '2.2.0.dev20231010+rocm5.7'

In [3]: torch.cuda.is_available()
Out[3]: True

>>> torch.cuda.get_device_name(0)
'AMD Radeon RX 6700 XT'
>>> torch.cuda.get_arch_list()
['gfx900', 'gfx1030', 'gfx1100']
"""
    pieces = python_session.parse(block(text))
    got = values(pieces)
    assert got["torch.version"] == "2.2.0.dev20231010+rocm5.7" and got["torch.rocm_version"] == "5.7"
    assert got["torch.live.cuda_available"] is True
    assert got["torch.live.arch_list"] == ["gfx900", "gfx1030", "gfx1100"]
    assert pieces[0].gpus[0].fields["gfx"] == "gfx1031"


def test_template_fields_tables_and_lone_os_lines() -> None:
    text = """\
### Operating System

WSL2 Ubuntu 22.04

### GPU

AMD Radeon RX 7900 XT

### ROCm Version

ROCm 6.2.3

| Python | 3.12.10 (embedded) |
OS：Centos Stream 9， kernel：5.14.0-373.el9.x86_64
"""
    pieces = fields.parse(block(text))
    got: dict = {}
    every: dict = {}
    for o in pieces[0].observations:
        got.setdefault(o.path, o.value)
        every.setdefault(o.path, []).append(o.value)
    assert 2 in every["host.wsl_version"] and "22.04" in every["host.distro_version"]
    assert got["rocm.version"] == "6.2.3"
    assert got["python.version"] == "3.12.10"
    assert got["host.kernel_release"] == "5.14.0-373.el9.x86_64"
    assert pieces[0].gpus[0].fields["gfx"] == "gfx1100"


def test_prose_makes_facts_only_at_the_trust_of_a_mention() -> None:
    text = "I tried ROCm 6.2 on Ubuntu 22.04 with my RX 6800, and the labelled field says\nROCm version: 6.1\n"
    facts = ingest(text).facts
    assert facts.rocm.version.value == "6.1"  # the labelled field beats the prose mention
    assert facts.gpus.agents[0].gfx.value == "gfx1030"
    assert facts.host.distro_id.value == "ubuntu"


def test_a_grepped_rocminfo_gives_names_and_marketing_names() -> None:
    text = "  Name:                    gfx1100\n  Marketing Name:          AMD Radeon RX 7900 XTX\n      Name:                    amdgcn-amd-amdhsa--gfx1100\n"
    gpus = rocminfo.parse(block(text))[0].gpus
    assert [(g.fields["gfx"], g.fields["name"]) for g in gpus] == [("gfx1100", "AMD Radeon RX 7900 XTX")]


def test_short_outputs_after_their_command() -> None:
    from rocm_doctor.ingest.formats import commands

    text = """\
$ cat /opt/rocm/.info/version
6.2.0-66
$ hipconfig --version
6.2.41133-dd7f95766
$ python3 --version
Python 3.12.3
$ groups
alice adm video
uid=1000(alice) gid=1000(alice) groups=1000(alice),44(video),109(render)
"""
    pieces = commands.parse(block(text))
    assert [p.kind for p in pieces] == ["cat", "hipconfig", "python3", "groups", "id"]
    prompts = commands.parse(block("root@box:~# rocminfo\n(venv) alice@box:~/sd$ python x.py\n"))
    assert [[o.value for o in p.observations] for p in prompts] == [["root", True], ["alice", False]]
    by_kind = {p.kind: {o.path: o.value for o in p.observations} for p in pieces}
    assert by_kind["cat"]["rocm.version"] == "6.2.0"
    assert by_kind["hipconfig"]["rocm.hip_version"] == "6.2.41133"
    assert by_kind["python3"]["python.version"] == "3.12.3"
    assert by_kind["groups"]["permissions.in_render_group"] is False
    assert by_kind["id"]["permissions.user"] == "alice" and by_kind["id"]["permissions.is_root"] is False
    assert by_kind["id"]["permissions.in_render_group"] is True


def test_a_bare_version_line_without_its_command_says_nothing() -> None:
    from rocm_doctor.ingest.formats import commands

    assert commands.parse(block("6.2.0-66\nPython 3.12.3\nalice adm video\n")) == []


def test_the_same_rocminfo_pasted_twice_lists_each_gpu_once() -> None:
    assert len(rocminfo.parse(block(ROCMINFO + ROCMINFO))[0].gpus) == 2


def test_name_and_arch_of_the_same_torch_device_make_one_gpu() -> None:
    text = ">>> torch.cuda.get_device_name(0)\n'AMD Radeon RX 7900 XTX'\n>>> torch.cuda.get_device_properties(0).gcnArchName\n'gfx1100'\n"
    result = ingest(text)
    assert len(result.facts.gpus.agents) == 1
    assert gpu(result)["gfx"] == "gfx1100" and gpu(result)["name"] == "AMD Radeon RX 7900 XTX"
    assert [d.gcn_arch_name for d in result.facts.torch.live.devices.value] == ["gfx1100"]


def test_rocm_smi_card_series_cut_off_before_its_closing_bracket_still_names_the_gpu() -> None:
    from rocm_doctor.ingest.blocks import split_blocks
    from rocm_doctor.ingest.formats import smi

    text = "GPU[0]\t\t: Card series: \t\tNavi 31 [Radeon RX 7900 XTX\nGPU[0]\t\t: Card model: \t\t0x744c\n"
    pieces = [piece for block in split_blocks(text) for piece in smi.parse(block)]
    assert [s.fields["name"] for p in pieces for s in p.gpus] == ["Radeon RX 7900 XTX"]


def test_a_session_that_shows_is_available_false_is_the_printed_no_gpu_context() -> None:
    # the REPL form without print() is the same evidence as print(torch.cuda.is_available()) then False
    facts = ingest(">>> import torch\n>>> torch.cuda.is_available()\nFalse\nGPU: RX 7900 XTX\n").facts
    assert facts.torch.live.cuda_available.value is False
    assert "cuda_unavailable_printed" in facts.symptoms.context.value


def test_a_session_that_shows_is_available_true_sets_no_no_gpu_context() -> None:
    facts = ingest(">>> import torch\n>>> torch.cuda.is_available()\nTrue\n").facts
    assert "cuda_unavailable_printed" not in (facts.symptoms.context.value or [])
