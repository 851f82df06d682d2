"""ROCm user-space and kernel-driver facts on recorded machines, including the failure paths."""

from __future__ import annotations

from core_machine import build_machine, context

from rocm_doctor.facts.driver import gather_driver
from rocm_doctor.facts.rocm import gather_rocm

ROCM = {"/opt/rocm/.info/version": "6.2.0-66\n", "/opt/rocm/bin/hipconfig": "", "/opt/rocm/bin/rocminfo": "",
        "/opt/rocm-6.2.0/.info/version": "6.2.0-66\n", "/opt/rocm-5.7.1/.info/version": "5.7.1-98\n"}
HIPCONFIG = {"argv": ["hipconfig", "--version"], "returncode": 0, "stdout": "6.2.41133-dd7f95766"}


def rocm(tmp_path, **kwargs):
    kwargs.setdefault("env", {"PATH": "/usr/bin"})
    return gather_rocm(context(build_machine(tmp_path, **kwargs)))


def test_rocm_version_installs_hip_and_tools_from_opt_rocm(tmp_path):
    facts = rocm(tmp_path, files=ROCM, commands=[HIPCONFIG])
    assert (facts.version.value, facts.version.source) == ("6.2.0", "/opt/rocm/.info/version")
    assert facts.path.value == "/opt/rocm"
    assert facts.installs.value == ["/opt/rocm-5.7.1", "/opt/rocm-6.2.0"]
    assert facts.hip_version.value == "6.2.41133"
    assert facts.tools.rocminfo.value == "/opt/rocm/bin/rocminfo" and facts.tools.rocminfo.source == "/opt/rocm/bin"
    assert facts.tools.amd_smi.status == "absent"


def test_rocm_path_variable_wins_and_tools_on_path_are_found(tmp_path):
    files = {**ROCM, "/opt/rocm-7.0.2/.info/version": "7.0.2\n", "/opt/rocm-7.0.2/bin/amd-smi": ""}
    facts = rocm(tmp_path, files=files, env={"ROCM_PATH": "/opt/rocm-7.0.2", "PATH": "/opt/rocm-7.0.2/bin:/usr/bin"})
    assert (facts.version.value, facts.path.source) == ("7.0.2", "env ROCM_PATH")
    assert facts.tools.amd_smi.value == "/opt/rocm-7.0.2/bin/amd-smi" and facts.tools.amd_smi.source == "PATH"
    assert facts.hip_version.status == "absent"


def test_rocm_not_installed_is_absent_everywhere(tmp_path):
    facts = rocm(tmp_path)
    assert facts.version.status == "absent" and facts.path.status == "absent" and facts.installs.status == "absent"
    assert facts.tools.rocminfo.status == "absent" and facts.hip_version.status == "absent"


def test_rocm_failures_are_failed_facts(tmp_path):
    facts = rocm(tmp_path, files=ROCM, unreadable=["/opt/rocm/.info/version"],
                 commands=[{**HIPCONFIG, "timeout": True, "stdout": ""}])
    assert facts.version.status == "failed" and "permission denied" in facts.version.reason
    assert facts.hip_version.status == "failed" and "did not finish" in facts.hip_version.reason
    garbage = rocm(tmp_path, name="b", files={**ROCM, "/opt/rocm/.info/version": "not a version\n"},
                   commands=[{**HIPCONFIG, "stdout": "Perl not found"}])
    assert garbage.version.status == "failed" and garbage.hip_version.status == "failed"


def test_rocm_path_pointing_nowhere_is_failed(tmp_path):
    facts = rocm(tmp_path, env={"ROCM_PATH": "/opt/rocm-9.9"})
    assert facts.path.status == "failed" and "/opt/rocm-9.9" in facts.path.reason


DKMS = {"argv": ["dkms", "status"], "returncode": 0, "stdout":
        "amdgpu/6.8.5-2009582.22.04, 6.5.0-45-generic, x86_64: installed\n"
        "amdgpu/6.8.5-2009582.22.04, 6.8.0-52-generic, x86_64: installed\n"}
DRIVER_FILES = {"/sys/module/amdgpu/version": "6.8.5\n", "/proc/cmdline": "BOOT_IMAGE=/boot/vmlinuz ro quiet\n",
                "/proc/sys/kernel/osrelease": "6.8.0-52-generic\n"}


def driver(tmp_path, **kwargs):
    return gather_driver(context(build_machine(tmp_path, **kwargs)))


def test_dkms_driver_and_the_line_for_the_running_kernel(tmp_path):
    facts = driver(tmp_path, files=DRIVER_FILES, commands=[DKMS, {"argv": ["dmesg", "--kernel"], "returncode": 0, "stdout": "[ 1.0] ok\n"}])
    assert facts.amdgpu_loaded.value is True and facts.amdgpu_version.value == "6.8.5"
    assert facts.dkms_amdgpu.value == "amdgpu/6.8.5-2009582.22.04, 6.8.0-52-generic, x86_64: installed"
    assert facts.kernel_cmdline.value == "BOOT_IMAGE=/boot/vmlinuz ro quiet"
    assert facts.pcie_atomics_rejected.value is False


def test_in_tree_driver_without_dkms(tmp_path):
    facts = driver(tmp_path, files={"/sys/module/amdgpu/initstate": "live\n"})
    assert facts.amdgpu_loaded.value is True
    assert facts.amdgpu_version.status == "absent" and "in-tree" in facts.amdgpu_version.reason
    assert facts.dkms_amdgpu.status == "absent" and facts.dkms_amdgpu.reason == "dkms is not installed"
    assert facts.pcie_atomics_rejected.status == "failed", "no dmesg means the log was not read, not 'no rejection'"


def test_pcie_atomics_rejection_in_the_kernel_log(tmp_path):
    log = "[    3.359595] kfd kfd: skipped device 1002:67c4, PCI rejects atomics 730<0\n"
    facts = driver(tmp_path, commands=[{"argv": ["dmesg", "--kernel"], "returncode": 0, "stdout": log}])
    assert facts.amdgpu_loaded.value is False and facts.amdgpu_version.status == "absent"
    assert facts.pcie_atomics_rejected.value is True


def test_driver_failure_paths(tmp_path):
    facts = driver(tmp_path, files=DRIVER_FILES, unreadable=["/sys/module/amdgpu/version"], commands=[
        {"argv": ["dkms", "status"], "timeout": True},
        {"argv": ["dmesg", "--kernel"], "returncode": 1, "stderr": "dmesg: read kernel buffer failed: Operation not permitted\n"}])
    assert facts.amdgpu_version.status == "failed"
    assert facts.dkms_amdgpu.status == "failed" and "did not finish" in facts.dkms_amdgpu.reason
    assert facts.pcie_atomics_rejected.status == "failed" and "Operation not permitted" in facts.pcie_atomics_rejected.reason


def test_dkms_without_amdgpu_is_absent(tmp_path):
    facts = driver(tmp_path, commands=[{"argv": ["dkms", "status"], "returncode": 0, "stdout": "virtualbox, 7.0.10, 6.5.0-14-generic, x86_64: installed\n"}])
    assert facts.dkms_amdgpu.status == "absent" and "no amdgpu" in facts.dkms_amdgpu.reason


def test_driver_facts_do_not_apply_on_windows(tmp_path):
    facts = driver(tmp_path, system="Windows")
    assert facts.amdgpu_loaded.status == "unknown" and "not applicable" in facts.amdgpu_loaded.reason
