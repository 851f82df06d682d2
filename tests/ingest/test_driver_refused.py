"""What the kernel says when it refuses AMD's driver or cannot bring the GPU up.

Issue 23, class driver_too_old. Each form is the shape several independent real reports use (named
per case); the texts are written for the test, not copied from one report, and the assertions are
about the signature read and the finding shown first.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown, signature_errors

REFUSED = "amdgpu_module_signature_rejected"
FIRMWARE = "amdgpu_firmware_missing_at_init"


@pytest.mark.parametrize(
    "text",
    [
        # modprobe's errno for a rejected signature (legacy-rocm-build#4328; other DKMS modules:
        # tuxedo-keyboard#186, v4l2loopback#394)
        "$ sudo modprobe amdgpu\nmodprobe: ERROR: could not insert 'amdgpu': Key was rejected by service\n",
        # the older errno some kernels return for the same refusal
        "modprobe: ERROR: could not insert 'amdgpu': Required key not available\n",
        # systemd loading the module at boot (google/gasket-driver#11 shows the form)
        "Jan 10 13:57:42 box systemd-modules-load[248]: Failed to insert module 'amdgpu': Key was rejected by service\n",
        # the kernel's own line, in a block about AMD's driver (acer-predator-...-module#113 shows it)
        "[ 1748.999277] Loading of module with unavailable key is rejected\n"
        "rocminfo\nROCk module is NOT loaded, possibly no GPU devices\n",
        "[    2.1] Loading of unsigned module is rejected\n$ sudo modprobe amdgpu\nmodprobe: ERROR: could not insert 'amdgpu': Operation not permitted\n",
        # lockdown's wording (security/lockdown/lockdown.c)
        "[    3.1] Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7\n"
        "modprobe: ERROR: could not insert 'amdgpu': Operation not permitted\n",
    ],
)
def test_the_kernel_refusing_the_amdgpu_module_signature_is_read(text: str) -> None:
    assert REFUSED in signature_errors(text)
    assert problems_shown(text)[:1] == ["RD638"]


@pytest.mark.parametrize(
    "text",
    [
        # the check NOT enforced: the kernel only marks itself tainted and loads the module
        # (legacy-rocm-build#818 shows it beside a working load)
        "[    3.022964] amdkcl: module verification failed: signature and/or required key missing - tainting kernel\n"
        "[    3.163722] [drm] amdgpu kernel modesetting enabled.\n",
        # another module's refusal is not AMD's driver
        "modprobe: ERROR: could not insert 'v4l2loopback': Key was rejected by service\n",
        "insmod: ERROR: could not insert module ch34x.ko: Key was rejected by service\n",
        # the kernel's line names no module: alone, it is not about amdgpu
        "[ 1748.999277] Loading of module with unavailable key is rejected\n",
        # beside lines the loaded amdgpu prints: the refused module was another one (r30a)
        "[    2.1] Loading of unsigned module is rejected\n[    2.2] [drm] amdgpu kernel modesetting enabled.\n",
        "[    2.1] Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7\n"
        "[    3.5] [drm] amdgpu kernel modesetting enabled.\n[    4.2] [drm] Initialized amdgpu 3.57.0 20150101 for 0000:03:00.0 on minor 0\n",
    ],
)
def test_other_module_refusals_and_the_taint_notice_are_not_read(text: str) -> None:
    assert REFUSED not in signature_errors(text)
    assert "RD638" not in problems_shown(text)


def test_a_refusal_of_an_earlier_load_is_quiet_when_rocminfo_lists_the_gpu() -> None:
    text = (
        "modprobe: ERROR: could not insert 'amdgpu': Key was rejected by service\n"
        "After enrolling the key and a reboot rocminfo shows:\n"
        "*******\nAgent 2\n*******\n  Name:                    gfx1100\n"
        "  Marketing Name:          AMD Radeon RX 7900 XTX\n  Device Type:             GPU\n"
    )
    assert "RD638" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # a gpu_info file (legacy-rocm-build#1357, kernelci/kernelci-core#1489)
        "[    9.605986] amdgpu 0000:23:00.0: Direct firmware load for amdgpu/arcturus_gpu_info.bin failed with error -2\n"
        '[    9.605988] amdgpu 0000:23:00.0: Failed to load gpu_info firmware "amdgpu/arcturus_gpu_info.bin"\n'
        "[    9.605988] amdgpu 0000:23:00.0: Fatal error during GPU init\n",
        # an IP block's init failing after its file was not found (NixOS/nixpkgs#284403), journalctl's prefix
        "Jan 28 04:01:12 localhost kernel: amdgpu 0000:03:00.0: Direct firmware load for amdgpu/psp_13_0_7_ta.bin failed with error -2\n"
        "Jan 28 04:01:12 localhost kernel: [drm:amdgpu_device_init [amdgpu]] *ERROR* early_init of IP block <psp> failed -19\n",
        # sw_init (geerlingguy/raspberry-pi-pcie-devices#331 and #680)
        "[    5.864254] amdgpu 0000:03:00.0: Direct firmware load for amdgpu/sdma_6_0_3.bin failed with error -2\n"
        "[    5.864786] [drm:amdgpu_device_init [amdgpu]] *ERROR* sw_init of IP block <sdma_v6_0> failed -19\n"
        "[    5.865178] amdgpu 0000:03:00.0: amdgpu: amdgpu_device_ip_init failed\n",
    ],
)
def test_a_missing_firmware_file_that_stops_the_gpu_is_read_and_shown_first(text: str) -> None:
    assert FIRMWARE in signature_errors(text)
    assert problems_shown(text)[:1] == ["RD637"]


@pytest.mark.parametrize(
    "text",
    [
        # an optional file alone: the GPU still came up (AMD in legacy-rocm-build#912)
        "[    3.353884] amdgpu 0000:19:00.0: Direct firmware load for amdgpu/vega20_ta.bin failed with error -2\n"
        '[    3.353886] amdgpu 0000:19:00.0: psp v11.0: Failed to load firmware "amdgpu/vega20_ta.bin"\n'
        "[    3.9] [drm] Initialized amdgpu 3.35.0 20150101 for 0000:19:00.0 on minor 0\n",
        # update-initramfs lists every file the module may ask for (liquorix-package#69, pop-os/pop#3112)
        "update-initramfs: Generating /boot/initrd.img-6.8.0-45-generic\n"
        "W: Possible missing firmware /lib/firmware/amdgpu/gc_12_0_1_mes.bin for module amdgpu\n"
        "W: Possible missing firmware /lib/firmware/amdgpu/psp_14_0_3_sos.bin for module amdgpu\n",
        # dracut's list, the same kind of list on Fedora and RHEL (legacy-rocm-build#557, #774)
        'dracut: Possible missing firmware "amdgpu/gc_12_0_1_mes.bin" for kernel module "amdgpu.ko"\n',
        # the same loader line for another driver's file
        "[    1.69] radeon 0000:01:05.0: Direct firmware load for radeon/R600_rlc.bin failed with error -2\n"
        "[    1.69] radeon 0000:01:05.0: Fatal error during GPU init\n",
    ],
)
def test_a_missing_firmware_file_without_a_failed_init_is_not_read(text: str) -> None:
    assert FIRMWARE not in signature_errors(text)
    assert not {"RD636", "RD637"} & set(problems_shown(text))


@pytest.mark.parametrize(
    "text",
    [
        # legacy-rocm-build#4992 (Strix Halo, Ubuntu 24.04): no firmware line in the paste
        "[    3.708915] amdgpu 0000:c5:00.0: amdgpu: Fatal error during GPU init\n"
        "[    3.708948] amdgpu: probe of 0000:c5:00.0 failed with error -22\n"
        "torch.cuda.is_available() returns False\n",
        # rocm-install-on-linux#615 (MI210)
        "[    9.292134] amdgpu 0000:83:00.0: amdgpu: Fatal error during GPU init\n"
        "[    9.292551] amdgpu: probe of 0000:83:00.0 failed with error -12\n",
    ],
)
def test_a_gpu_amdgpu_could_not_bring_up_is_the_first_finding(text: str) -> None:
    assert "amdgpu_init_failed" in signature_errors(text)
    assert problems_shown(text)[:1] == ["RD636"]


def test_a_probe_failure_is_read_with_a_bus_id_and_not_across_a_long_run_of_text() -> None:
    # "probe of DEVICE failed" names a bus id; the run between "probe of" and "failed" has its own bound
    # (not only the 4000-character line cap), like the pattern's other runs.
    assert "amdgpu_init_failed" in signature_errors("amdgpu: probe of 0000:c5:00.0 failed with error -22\n")
    assert "amdgpu_init_failed" not in signature_errors("amdgpu: probe of " + "x " * 1500 + "failed with error -22\n")


ROCMINFO_CPU_ONLY = (
    "$ rocminfo\n"
    "ROCk module is loaded\n"
    "=====================\nHSA System Attributes\n=====================\n"
    "Runtime Version:         1.15\n"
    "==========\nHSA Agents\n==========\n"
    "*******\nAgent 1\n*******\n"
    "  Name:                    AMD Ryzen 7 9800X3D 8-Core Processor\n"
    "  Uuid:                    CPU-XX\n"
    "  Marketing Name:          AMD Ryzen 7 9800X3D 8-Core Processor\n"
    "  Vendor Name:             CPU\n"
    "  Device Type:             CPU\n"
)


def _context(text: str) -> list:
    from ingest_helpers import ingest

    context = ingest(text).facts.symptoms.context
    return list(context.value) if context.is_known else []


def test_a_whole_rocminfo_run_without_a_gpu_agent_is_read_as_no_gpu_seen() -> None:
    # the shape of legacy-rocm-build#3897, ROCm/rocminfo#20 and ROCT-Thunk-Interface#44: agents listed, none a GPU
    report = "OS: Fedora Linux 40, kernel 6.8.5-301.fc40.x86_64\nGPU: AMD Radeon RX 9070 XT\n\n" + ROCMINFO_CPU_ONLY + "*** Done ***\n"
    assert "rocminfo_lists_no_gpu" in _context(report)
    # Fedora's own 6.8 amdgpu predates the RX 9070 XT (gfx1201, first in 6.11): the reason the run saw no GPU
    assert problems_shown(report)[:1] == ["RD560"]


def test_a_rocminfo_paste_cut_before_its_end_says_nothing_of_the_gpus() -> None:
    # the GPU agents may follow the cut: no "*** Done ***" trailer, no claim
    assert "rocminfo_lists_no_gpu" not in _context(ROCMINFO_CPU_ONLY)


def test_a_rocminfo_run_that_lists_a_gpu_agent_is_not_read_as_no_gpu_seen() -> None:
    gpu = (
        "*******\nAgent 2\n*******\n"
        "  Name:                    gfx1201\n"
        "  Marketing Name:          AMD Radeon RX 9070 XT\n"
        "  Vendor Name:             AMD\n"
        "  Device Type:             GPU\n"
    )
    assert "rocminfo_lists_no_gpu" not in _context(ROCMINFO_CPU_ONLY + gpu + "*** Done ***\n")


@pytest.mark.parametrize(
    "text",
    [
        # rocm-smi (legacy-rocm-build#2767, #4098, PawseySC/rocm-from-source#2)
        "ROCm 6.0.0 on Ubuntu 22.04.3\n$ rocm-smi\ncat: /sys/module/amdgpu/initstate: No such file or directory\n"
        "ERROR:root:Driver not initialized (amdgpu not found in modules)\n",
        # amd-smi's wording of the same check (ROCm/amdsmi#172 shows it)
        "OS: Ubuntu 24.04, GPU: Radeon RX 7900 XTX\n$ amd-smi list\n"
        "ERROR:root:Unable to get devices, driver not initialized (amdgpu not found in modules)\n",
    ],
)
def test_smi_tools_finding_no_amdgpu_module_are_read_on_a_host(text: str) -> None:
    assert "smi_amdgpu_module_not_found" in signature_errors(text)
    assert problems_shown(text)[:1] == ["RD639"]


@pytest.mark.parametrize(
    "text",
    [
        # WSL2 has no amdgpu module: expected there (ROCm/amdsmi#75)
        "WSL environment detected.\n$ rocm-smi\nERROR:root:Driver not initialized (amdgpu not found in modules)\n",
        # inside a container without /sys/module/amdgpu (ROCm/ROCm-docker#107)
        "docker run -it --device=/dev/kfd --device=/dev/dri --group-add video rocm/rocm-terminal:5.4.2\n"
        "rocm-user@edfc4c0977ff:~$ rocm-smi\n"
        "cat: /sys/module/amdgpu/initstate: No such file or directory\n"
        "ERROR:root:Driver not initialized (amdgpu not found in modules)\n",
        # a monitoring library probing every vendor on an NVIDIA machine
        "GPU guard saw 4 x NVIDIA GeForce RTX 4090\n"
        "ERROR:root:Driver not initialized (amdgpu not found in modules)\n"
        "training continues normally\n",
    ],
)
def test_smi_tools_finding_no_module_where_none_is_expected_is_not_a_driver_fault(text: str) -> None:
    assert "RD639" not in problems_shown(text)


def test_rocm_smi_beside_rocminfo_leaves_the_module_finding_to_rocminfos_words() -> None:
    # legacy-rocm-build#2767 shows both tools; one finding says it, and nothing is left unexplained
    report = (
        "GPU: AMD Radeon RX 7900 XTX, ROCm 6.0.0, Ubuntu 22.04.3\n"
        "$ rocm-smi\ncat: /sys/module/amdgpu/initstate: No such file or directory\n"
        "ERROR:root:Driver not initialized (amdgpu not found in modules)\n"
        "$ rocminfo\nROCk module is NOT loaded, possibly no GPU devices\n"
    )
    shown = problems_shown(report)
    assert shown[:1] == ["RD751"]
    assert "RD639" not in shown and "RD599" not in shown


def test_the_secure_boot_refusal_names_both_causes_and_claims_no_enrolment_it_cannot_see() -> None:
    # "Key was rejected by service" says the module was unsigned or signed with an untrusted key
    # (kernel/module/signing.c); nothing in it says whether a key was ever enrolled.
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    text = "modprobe: ERROR: could not insert 'amdgpu': Key was rejected by service\nrocminfo: ROCk module is NOT loaded, possibly no GPU devices\n"
    finding = next(f for f in evaluate(load_rules([], use_env=False), ingest(text).facts).findings if f.id == "RD638")
    message = finding.message.lower()
    assert "never enrolled" not in message
    assert "not signed" in message and "does not trust" in message
