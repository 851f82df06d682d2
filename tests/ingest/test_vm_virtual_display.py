"""A virtual machine's emulated display adapter (context vm_virtual_display_shown, rev55e) and RD751.

ROCm/legacy-rocm-build#1505 and #1626 (VMware guests: rocminfo's "ROCk module is NOT loaded" because the guest has no
AMD GPU, not because a driver is too old), Comfy-Org/ComfyUI#1870 (Ubuntu in VirtualBox: No HIP GPUs are available).
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown

ROCK_NOT_LOADED = "$ rocminfo\nROCk module is NOT loaded, possibly no GPU devices\n"


@pytest.mark.parametrize(
    "display",
    [
        "00:0f.0 VGA compatible controller: VMware SVGA II Adapter\n",
        "00:02.0 VGA compatible controller [0300]: InnoTek Systemberatung GmbH VirtualBox Graphics Adapter [80ee:beef]\n",
        "> 00:08.0 VGA compatible controller: Microsoft Corporation Hyper-V virtual VGA\r\n",
        "Processor: AMD Ryzen 7 4800u with radeon graphics * 2\nGraphics: SVGA3D;build;RELEASE;LLVM;\n",
    ],
)
def test_a_vm_guest_with_only_a_virtual_display_adapter_is_not_told_its_driver_is_missing(display: str) -> None:
    assert "RD751" not in problems_shown(ROCK_NOT_LOADED + "$ lspci | grep -i vga\n" + display)


@pytest.mark.parametrize(
    "extra",
    [
        # a discrete AMD GPU passed through beside the virtual adapter: the guest's amdgpu should drive it
        "00:01.0 VGA compatible controller: Red Hat, Inc. Virtio 1.0 GPU (rev 01)\n"
        "01:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 21 [Radeon RX 6800/6800 XT / 6900 XT] (rev c1)\n",
        # a host that merely runs VirtualBox and VMware
        "03:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 21 [Radeon RX 6800/6800 XT / 6900 XT] (rev c1)\n"
        "I also use VirtualBox and VMware Workstation on this host.\n",
        # the adapter's name only inside an address
        "see https://example.com/notes/vmware-svga-ii-adapter for what I tried; this is bare metal\n",
    ],
)
def test_rock_not_loaded_on_bare_metal_or_with_a_passed_through_gpu_is_still_the_driver(extra: str) -> None:
    assert "RD751" in problems_shown(ROCK_NOT_LOADED + extra)
