"""GPU, ROCm and driver facts of the shipped recorded machines (tests/machines)."""

from __future__ import annotations
from pathlib import Path

import pytest
from core_machine import context

from rocm_doctor.facts.driver import gather_driver
from rocm_doctor.facts.gpu import gather_gpus
from rocm_doctor.facts.rocm import gather_rocm
from rocm_doctor.system.recorded import RecordedSystem

MACHINES = Path(__file__).resolve().parents[1] / "machines"


def gather(name):
    ctx = context(RecordedSystem(MACHINES / name))
    ctx.sections["rocm"] = gather_rocm(ctx)
    return ctx.sections["rocm"], gather_driver(ctx), gather_gpus(ctx)


def summary(gpus):
    return [(a.vendor.value, a.gfx.value, a.integrated.value) for a in gpus.agents]


@pytest.mark.parametrize(
    "machine, discovery, agents",
    [
        ("docker-2x7900xt-rocm62", "kfd", [("AMD", "gfx1100", False)] * 2),
        ("win11-strixhalo-preview", "wmi", [("AMD", "gfx1151", True)]),
        ("win11-9070xt-rocm72", "wmi", [("AMD", "gfx1201", False), ("Intel", None, None)]),
        ("ubuntu2204-6700xt", "kfd", [("AMD", "gfx1031", False)]),
        ("ubuntu-7900xtx-igpu-norender", "kfd", [("AMD", "gfx1036", True), ("AMD", "gfx1100", False)]),
        ("wsl2-7900xtx-pytorchorg", "rocminfo", [("AMD", "gfx1100", False)]),
        ("linux-amd-cuda-wheel", "kfd", [("AMD", "gfx1100", False)]),
        ("cpu-only", None, []),
    ],
)
def test_shipped_machine_gpus(machine, discovery, agents):
    _, _, gpus = gather(machine)
    assert gpus.discovery.value == discovery
    assert summary(gpus) == agents


def test_igpu_is_kfd_node_1_and_render_nodes_follow_kfd():
    _, _, gpus = gather("ubuntu-7900xtx-igpu-norender")
    assert [(a.kfd_node.value, a.render_node.value, a.pci_bus.value) for a in gpus.agents] == [
        (1, "/dev/dri/renderD128", "0000:6e:00.0"), (2, "/dev/dri/renderD129", "0000:03:00.0")]
    assert gpus.agents[1].name.value == "Radeon RX 7900 XTX"


def test_machine_without_rocm_still_reports_its_gpu():
    rocm, driver, gpus = gather("linux-amd-cuda-wheel")
    assert rocm.version.status == "absent" and rocm.tools.rocminfo.status == "absent"
    assert driver.amdgpu_loaded.value is True and driver.amdgpu_version.status == "absent"
    assert gpus.agents[0].product.value.startswith("Radeon RX 7900")


def test_container_rocm_62_versions():
    rocm, driver, _ = gather("docker-2x7900xt-rocm62")
    assert (rocm.version.value, rocm.hip_version.value) == ("6.2.0", "6.2.41133")
    assert rocm.tools.hipconfig.value == "/opt/rocm/bin/hipconfig"
    assert driver.amdgpu_version.value == "6.8.5" and driver.dkms_amdgpu.status == "absent"


def test_windows_driver_version_is_on_the_agent():
    _, driver, gpus = gather("win11-strixhalo-preview")
    assert gpus.agents[0].driver_version.value == "32.0.21030.2001"
    assert driver.amdgpu_loaded.status == "unknown"
