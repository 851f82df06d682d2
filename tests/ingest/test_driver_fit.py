"""The kernel driver against the running kernel, and libraries against the HIP runtime beside them.

Issue 23, classes driver_too_old and torch_rocm_mismatch. Each form is the shape several
independent real reports use (named per case); the texts are written for the test, not copied
from one report, and the assertions are about the signature read and the finding shown first.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors


@pytest.mark.parametrize(
    "text",
    [
        # dmesg, as ROCm/amdgpu#68 (ROCm 2.0 on mainline 4.15) and #155 (ROCm 6.0 on RHEL 9.3) show it
        "[   10.460067] amdgpu: Unknown symbol __devcgroup_check_permission (err 0)\n",
        "amdgpu: Unknown symbol acpi_video_register_backlight (err -2)\n",
        # the kernel's own amdgpu without Ubuntu's extra modules (awsdocs/amazon-ec2-user-guide#152)
        "[    7.668049] amdgpu: Unknown symbol amd_iommu_bind_pasid (err -2)\n",
        # modprobe's side of the same refusal (ROCm/amdgpu#155)
        "modprobe: ERROR: could not insert 'amdgpu': Unknown symbol in module, or unknown parameter (see dmesg)\n",
    ],
)
def test_the_kernel_refusing_amdgpu_for_an_unknown_symbol_is_read(text: str) -> None:
    assert "amdgpu_module_unknown_symbol" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # amdkcl's own fallback when a symbol is missing: the GPU still works (legacy-rocm-build#1304)
        "[    1.776909] Warning: fail to get symbol reservation_ww_class, replace it with kcl stub\n",
        # another module's unknown symbol is not AMD's driver
        "nvidia: Unknown symbol drm_gem_object_free (err -2)\n",
        "modprobe: ERROR: could not insert 'vboxdrv': Unknown symbol in module\n",
    ],
)
def test_other_unknown_symbols_are_not_the_amdgpu_module(text: str) -> None:
    assert "amdgpu_module_unknown_symbol" not in signature_errors(text)


def test_an_amdgpu_module_that_does_not_load_is_the_first_finding() -> None:
    report = (
        "OS: RHEL 9.3, kernel 5.14.0-362.13.1.el9_3.x86_64\n"
        "GPU: AMD Radeon Pro W7900\n\n"
        "$ sudo modprobe amdgpu\n"
        "modprobe: ERROR: could not insert 'amdgpu': Unknown symbol in module, or unknown parameter (see dmesg)\n"
        "$ sudo dmesg | grep amdgpu\n"
        "amdgpu: Unknown symbol acpi_video_register_backlight (err -2)\n"
    )
    assert problems_shown(report)[:1] == ["RD940"]


@pytest.mark.parametrize(
    "text",
    [
        # dpkg on Debian/Ubuntu (legacy-rocm-build#1315, #1658, rocm-install-on-linux#293, ROCm/amdgpu#192)
        "dpkg: error processing package amdgpu-dkms (--configure):\n",
        # the rock-dkms name before ROCm 4.x (ROCm/amdgpu#63, legacy-rocm-build#1367)
        " installed rock-dkms package post-installation script subprocess returned error exit status 10\n",
        # amdgpu-install's summary (legacy-rocm-build#2155, #3883, #2933)
        "WARNING: amdgpu dkms failed for running kernel\n",
    ],
)
def test_the_package_managers_words_for_a_failed_amdgpu_dkms_are_read(text: str) -> None:
    assert "amdgpu_dkms_package_failed" in signature_errors(text)


def test_a_failed_amdgpu_dkms_package_is_a_driver_error_on_native_linux() -> None:
    report = (
        "Ubuntu 24.04, ROCm 6.4.1\n"
        "Setting up amdgpu-dkms (1:6.12.12.60401-2164967.24.04) ...\n"
        "dpkg: error processing package amdgpu-dkms (--configure):\n"
        " installed amdgpu-dkms package post-installation script subprocess returned error exit status 10\n"
    )
    assert problems_shown(report)[:1] == ["RD941"]


def test_the_dkms_build_failure_itself_is_said_once() -> None:
    report = (
        "Building initial module for 6.14.0-24-generic\n"
        "Error! Bad return status for module build on kernel: 6.14.0-24-generic (x86_64)\n"
        "Consult /var/lib/dkms/amdgpu/6.12.12-2164967.24.04/build/make.log for more information.\n"
        "dpkg: error processing package amdgpu-dkms (--configure):\n"
    )
    shown = problems_shown(report)
    assert "RD385" in shown and "RD941" not in shown


def test_a_dkms_warning_under_wsl2_is_not_a_kernel_driver_error() -> None:
    report = (
        "WSL2 on Windows 11, Ubuntu 22.04\n"
        "uname -r: 5.15.153.1-microsoft-standard-WSL2\n"
        "$ sudo amdgpu-install --usecase=rocm -y\n"
        "WARNING: amdgpu dkms failed for running kernel\n"
    )
    assert "RD941" not in problems_shown(report)


@pytest.mark.parametrize(
    "text",
    [
        # an extension built against ROCm 6 headers beside an older runtime (ROCm/flash-attention#31)
        "ImportError: /home/u/.local/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: hipGetDevicePropertiesR0600\n",
        # triton's helper in a ROCm 5 wheel environment (pytorch/pytorch#118179)
        "ImportError: /tmp/torchinductor_root/triton/0/ebfa57c0/hip_utils.so: undefined symbol: hipGetDevicePropertiesR0600\n",
        # a system libamdhip64 beside another release's HSA runtime (Looong01/pyg-rocm-build#18)
        "OSError: /opt/rocm-7.1.1/lib/libamdhip64.so.7: undefined symbol: hsa_amd_memory_get_preferred_copy_engine, version ROCR_1\n",
        # a path with a space in a folder name
        "ImportError: /home/u/My Envs/venv/lib/python3.12/site-packages/ext/_C.so: undefined symbol: hipMallocAsync\n",
    ],
)
def test_a_missing_hip_runtime_function_is_read_as_another_rocm_release(text: str) -> None:
    assert "hip_api_symbol_undefined" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # a mangled kernel stub that merely contains "hip" is the extension's own bug (bitsandbytes#1550)
        "libbitsandbytes_rocm62.so: undefined symbol: _Z36__device_stub__kOptimizer32bit1StateI12hip_bfloat16Li2EEvPT_\n",
        # torch's own C++ symbols are the extension against torch (extension_torch_abi_mismatch)
        "flash_attn_2_cuda.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n",
        "the function hipGetDevicePropertiesR0600 is defined in ROCm 6.0\n",
        # a math library's function, lower case after "hip", is not the HIP runtime's (the table is
        # read case-insensitively, so hip[A-Z] matched it)
        "ImportError: /usr/lib/python3/dist-packages/foo.so: undefined symbol: hipsparseLtCreate\n",
    ],
)
def test_other_undefined_symbols_are_not_a_hip_runtime_mismatch(text: str) -> None:
    assert "hip_api_symbol_undefined" not in signature_errors(text)


def test_a_missing_hip_runtime_function_is_reported_as_two_rocm_releases() -> None:
    report = (
        "rocm 6.0 and PyTorch installed and tested.\n"
        "Traceback (most recent call last):\n"
        '  File "/home/u/.local/lib/python3.10/site-packages/flash_attn/__init__.py", line 3, in <module>\n'
        "ImportError: /home/u/.local/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: hipGetDevicePropertiesR0600\n"
    )
    assert problems_shown(report)[:1] == ["RD942"]


@pytest.mark.parametrize(
    "text",
    [
        # apt naming the kernel packages it installs (ROCm/amdgpu#107, legacy-rocm-build#3883)
        "sudo apt install linux-headers-5.8.0-38-generic linux-image-5.8.0-38-generic linux-modules-extra-5.8.0-38-generic\n",
        "Unpacking linux-headers-6.8.0-45-generic (6.8.0-45.45) ...\n",
        # DKMS installing into another kernel's module folder (legacy-rocm-build#1367)
        "   - Installing to /lib/modules/5.4.0-42-generic/updates/dkms/\n",
        # a dkms status entry, both formats (legacy-rocm-build#1504, #3701)
        "amdgpu, 4.2-21.el7, 4.18.0-240.22.1.el8_3.x86_64, x86_64: installed (original_module exists)\n",
        "amdgpu/6.8.5-2009582.24.04, 6.8.0-41-generic, x86_64: installed\n",
    ],
)
def test_a_kernel_installed_or_built_for_is_not_taken_as_the_running_kernel(text: str) -> None:
    from ingest_helpers import ingest

    assert not ingest(text).facts.host.kernel_release.is_known


def test_dkms_built_for_another_kernel_than_uname_says_is_found() -> None:
    report = (
        "uname -r: 5.4.0-58-generic\n"
        "dkms status\n"
        "amdgpu, 3.10-27, 5.4.0-54-generic, x86_64: installed\n"
    )
    assert "RD802" in problems_shown(report)


@pytest.mark.parametrize(
    ("text", "release"),
    [
        ("$ uname -r\n6.8.0-45-generic\n", "6.8.0-45-generic"),
        ("Kernel: 6.14.0-24-generic\n", "6.14.0-24-generic"),
        # modinfo -n looks the module up for the running kernel (legacy-rocm-build#5499)
        ("$ sudo modinfo amdgpu -n\n/lib/modules/6.14.0-1013-oem/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko.zst\n", "6.14.0-1013-oem"),
    ],
)
def test_the_running_kernel_is_still_read_where_it_is_named(text: str, release: str) -> None:
    from ingest_helpers import ingest

    assert ingest(text).facts.host.kernel_release.value == release


@pytest.mark.parametrize(
    "text",
    [
        # newer kernels (kfd_device.c)
        "[    4.1] kfd kfd: amdgpu: GC IP 0b0500 not supported in kfd\n",
        # the kernel's own spacing: "%06x %s not" with an empty %s on bare metal, "VF" in a guest (h31e)
        "[    4.1] kfd kfd: amdgpu: GC IP 0b0004  not supported in kfd\n",
        "kfd kfd: amdgpu: GC IP 0c0001 VF not supported in kfd\n",
        # older kernels (legacy-rocm-build#259, #539, #558)
        "[    3.044705] amdgpu 0000:04:00.0: kfd not supported on this ASIC\n",
        "[    1.172206] kfd2kgd: kfd not supported on this ASIC\n",
        # a PCI id the kernel's KFD table lacks (legacy-rocm-build#1318)
        "[    2.244241] kfd kfd: DID 7340 is missing in supported_devices\n",
    ],
)
def test_kfd_refusing_a_gpu_is_read_in_each_kernels_words(text: str) -> None:
    assert "kfd_gc_ip_unsupported" in signature_errors(text)
    assert problems_shown(text)[:1] == ["RD943"]


@pytest.mark.parametrize(
    "text",
    [
        # a missing Trusted Application firmware is harmless (AMD in legacy-rocm-build#912)
        '[    3.353884] amdgpu 0000:19:00.0: Direct firmware load for amdgpu/vega20_ta.bin failed with error -2\n'
        '[    3.353886] amdgpu 0000:19:00.0: psp v11.0: Failed to load firmware "amdgpu/vega20_ta.bin"\n',
    ],
)
def test_a_missing_firmware_file_alone_is_not_a_failed_gpu(text: str) -> None:
    assert "amdgpu_init_failed" not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # the steps of the failed init, pasted without the fatal line (launchpad qemu#1809684,
        # NixOS/nixpkgs#284403, freebsd/drm-kmod#211 show each in the chain that ends in it)
        "[    6.682592] amdgpu 0000:00:03.0: amdgpu_device_ip_init failed\n",
        "[drm:amdgpu_device_init [amdgpu]] *ERROR* amdgpu_device_ip_init failed\n",
        "[   13.1] [drm:amdgpu_device_ip_init [amdgpu]] *ERROR* hw_init of IP block <gfx_v12_0> failed -110\n",
        "[    4.1] [drm:amdgpu_device_init.cold [amdgpu]] *ERROR* sw_init of IP block <psp> failed -2\n",
        "[    2.9] [drm:amdgpu_device_init [amdgpu]] *ERROR* early_init of IP block <psp> failed -19\n",
    ],
)
def test_each_step_of_a_failed_gpu_init_is_read_as_the_driver_not_bringing_it_up(text: str) -> None:
    assert "amdgpu_init_failed" in signature_errors(text)
    assert problems_shown(text)[:1] == ["RD636"]


def test_an_ip_block_failing_to_resume_after_suspend_is_not_a_failed_init() -> None:
    # amdgpu_device_ip_resume words a failure after suspend otherwise; the GPU was driven before it
    text = "[ 9001.2] [drm:amdgpu_device_ip_resume_phase2 [amdgpu]] *ERROR* resume of IP block <gfx_v11_0> failed -110\n"
    assert "amdgpu_init_failed" not in signature_errors(text)


def test_a_gpu_the_driver_could_not_bring_up_is_still_read() -> None:
    # legacy-rocm-build#1357: the missing firmware file ends in a failed GPU init
    text = (
        "[    9.605986] amdgpu 0000:23:00.0: Direct firmware load for amdgpu/arcturus_gpu_info.bin failed with error -2\n"
        "[    9.605988] amdgpu 0000:23:00.0: Fatal error during GPU init\n"
        "[    9.606063] amdgpu: probe of 0000:23:00.0 failed with error -2\n"
    )
    assert "amdgpu_init_failed" in signature_errors(text)


@pytest.mark.parametrize(
    ("text", "name", "value"),
    [
        # ROCm/librocdxg#46 prints the loader path the same way
        ("(.venv) user@host:~$ echo $LD_LIBRARY_PATH\n/opt/rocm-5.7.1/lib:/usr/local/lib\n", "LD_LIBRARY_PATH", "/opt/rocm-5.7.1/lib:/usr/local/lib"),
        ('$ echo "${LD_LIBRARY_PATH}"\n/opt/rocm/lib\n', "LD_LIBRARY_PATH", "/opt/rocm/lib"),
        ("$ echo $HSA_OVERRIDE_GFX_VERSION\n10.3.0\n", "HSA_OVERRIDE_GFX_VERSION", "10.3.0"),
        ("$ printenv ROCM_PATH\n/opt/rocm-6.2.0\n", "ROCM_PATH", "/opt/rocm-6.2.0"),
    ],
)
def test_a_variable_printed_by_echo_or_printenv_is_its_live_value(text: str, name: str, value: str) -> None:
    from ingest_helpers import ingest

    assert ingest(text).facts.env.vars.value[name] == value


@pytest.mark.parametrize(
    "text",
    [
        "$ echo $LD_LIBRARY_PATH\n$ ls\n",  # nothing printed before the next prompt: not a value
        "$ echo $PATH $HOME\n/usr/bin /root\n",  # two variables on one line: which is which is not said
        "$ echo hello\nhello\n",
        "$ echo $HSA_OVERRIDE_GFX_VERSION\n# Expected: 10.3.0\n",  # a guide's note, not output
        # the reporter's sentence after the command is not its output (it made RD210 call the
        # override malformed with the sentence as its value)
        "$ echo $HSA_OVERRIDE_GFX_VERSION\nI set it in .bashrc but nothing prints. My GPU is an RX 6700 XT.\n",
    ],
)
def test_an_echo_without_one_printed_variable_sets_nothing(text: str) -> None:
    from ingest_helpers import ingest

    assert not ingest(text).facts.env.vars.is_known


def test_a_wheel_beside_an_older_rocm_on_the_printed_loader_path_is_a_mismatch() -> None:
    report = (
        "PyTorch version: 2.3.0+rocm6.0\n"
        "$ echo $LD_LIBRARY_PATH\n"
        "/opt/rocm-5.7.1/lib:/usr/local/lib\n"
        "Segmentation fault (core dumped)\n"
    )
    assert "RD533" in problems_shown(report)


@pytest.mark.parametrize(
    ("text", "version"),
    [
        # rocminfo prints /sys/module/amdgpu/version when AMD's DKMS driver is loaded
        # (legacy-rocm-build#4043, #4382; rocminfo --support in issue templates)
        ("ROCk module version 6.7.0 is loaded\n", "6.7.0"),
        ("ROCk module version 6.16.6 is loaded\n=====================\nHSA System Attributes\n", "6.16.6"),
        # the DKMS driver's boot line (ollama/ollama#2453, legacy-rocm-build#1357)
        ("[    5.156647] [drm] amdgpu version: 6.2.4\n[    5.185611] [drm] OS DRM version: 5.15.0\n", "6.2.4"),
        ("[    9.602665] [drm] amdgpu version: 5.6.19\n", "5.6.19"),
    ],
)
def test_the_loaded_amdgpu_dkms_version_is_read_from_rocminfo_and_dmesg(text: str, version: str) -> None:
    from ingest_helpers import ingest

    assert ingest(text).facts.driver.amdgpu_version.value == version


@pytest.mark.parametrize("text", ["ROCk module is loaded\n", "ROCk module is NOT loaded, possibly no GPU devices\n"])
def test_rocminfo_without_a_version_names_none(text: str) -> None:
    from ingest_helpers import ingest

    assert not ingest(text).facts.driver.amdgpu_version.is_known


def test_a_dkms_driver_too_old_for_the_user_space_is_found_from_rocminfo() -> None:
    # amdgpu 6.8.5 is the driver of ROCm 6.2; the support matrix pairs it with user space up to 7.0
    report = "ROCm version: 7.2.0\n$ rocminfo\nROCk module version 6.8.5 is loaded\n"
    assert problems_shown(report)[:1] == ["RD384"]


@pytest.mark.parametrize(
    "text",
    [
        "Ubuntu just pushed kernel 6.8.0-44, however, `amdgpu-dkms` fails with that kernel.\n",  # legacy-rocm-build#3701
        "After upgrading to Ubuntu 25.10, the amdgpu-dkms no longer compiles via DKMS.\n",  # #5624
        "Following the kernel update, the build process of dkms failed with error code 10 (amdgpu-install).\n",  # ROCm/amdgpu#192
        "The amdgpu DKMS module build fails on kernels 6.13 and 6.14.\n",  # #4619
        # a question after the statement does not make the failure a question
        "The amdgpu DKMS module build fails on kernels 6.13 and 6.14. Any ideas?\n",
        "amdgpu-dkms fails with 6.14, why?\n",
        # driver48: the package named with its version or file name (ROCm/amdgpu#209, the apt spelling)
        "The currently released `amdgpu-dkms_6.16.13.30300000-2278356.24.04_all.deb` fails to rebuild against 6.18.x or 6.19.x.\n",
        "amdgpu-dkms 1:6.10.5.60300-2084815.22.04 fails to build on 6.8.0-49.\n",
    ],
)
def test_a_reporter_saying_the_amdgpu_dkms_build_fails_is_read(text: str) -> None:
    assert "amdgpu_dkms_build_failure_told" in signature_errors(text)
    assert problems_shown(text)[:1] == ["RD944"]


@pytest.mark.parametrize(
    "text",
    [
        "amdgpu-dkms did not fail, it builds fine.\n",
        "I installed amdgpu-dkms and rocm, but pytorch fails with a segfault.\n",
        "amdgpu-dkms is installed; ollama fails to find the GPU.\n",
        "The dkms build of the nvidia driver failed.\n",
    ],
)
def test_other_failures_near_the_word_dkms_are_not_a_failed_amdgpu_build(text: str) -> None:
    assert "amdgpu_dkms_build_failure_told" not in signature_errors(text)


@pytest.mark.parametrize(
    ("text", "release"),
    [
        ("$ modinfo amdgpu | grep filename\nfilename:       /lib/modules/4.15.0-46-generic/updates/dkms/amdgpu.ko\n", "4.15.0-46-generic"),
        ("$ sudo modinfo amdgpu | head -n 3\nfilename:       /lib/modules/6.17.0-7-generic/updates/dkms/amdgpu.ko.zst\nversion:        6.16.6\n", "6.17.0-7-generic"),
    ],
)
def test_modinfos_filename_line_names_the_running_kernel(text: str, release: str) -> None:
    from ingest_helpers import ingest

    assert ingest(text).facts.host.kernel_release.value == release


@pytest.mark.parametrize(
    "text",
    [
        "Does amdgpu-dkms fail with kernel 6.14? I'm about to upgrade.\n",
        "Will the amdgpu dkms build fail on 6.14 too?\n",
        "Does amdgpu-dkms fail with kernel 6.14, or only with 6.13?\n",
        "If amdgpu-dkms fails to build, use amdgpu-install --no-dkms instead.\n",
        "When the DKMS build fails, read /var/lib/dkms/amdgpu/6.8.5/build/make.log.\n",
        "amdgpu-dkms used to fail on 6.11, but 6.2.4 builds fine now.\n",
        "amdgpu-dkms may fail on unsupported kernels.\n",
        "amdgpu-dkms is fine here, the build of dkms for nvidia failed though.\n",
    ],
)
def test_a_dkms_failure_asked_about_advised_on_or_past_is_no_failure_told(text: str) -> None:
    assert "amdgpu_dkms_build_failure_told" not in signature_errors(text)
    assert "RD944" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # find/ls list the modules installed for every kernel, not the running one's
        "$ find /lib/modules -name 'amdgpu.ko*'\n/lib/modules/6.5.0-14-generic/updates/dkms/amdgpu.ko\n",
        "/lib/modules/6.5.0-14-generic/updates/dkms/amdgpu.ko\n/lib/modules/6.8.0-45-generic/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko.zst\n",
        # modinfo -k looks the module up for the kernel it is given (modinfo(8))
        "$ modinfo -k 6.5.0-14-generic amdgpu | grep filename\nfilename:       /lib/modules/6.5.0-14-generic/updates/dkms/amdgpu.ko\n",
        # dkms builds for the kernel it is given (dkms(8))
        "$ sudo dkms install amdgpu/6.8.5-2009582.24.04 -k 6.5.0-14-generic\n",
    ],
)
def test_a_module_path_that_is_not_modinfos_answer_for_the_running_kernel_names_no_running_kernel(text: str) -> None:
    from ingest_helpers import ingest

    assert not ingest(text).facts.host.kernel_release.is_known


def test_an_unknown_symbol_in_dmesg_is_no_finding_when_rocminfo_shows_the_module_loaded() -> None:
    # the refused load was an earlier one: RD940 said "ROCm sees no GPU" beside a GPU agent
    text = (
        "[    4.1] amdgpu: Unknown symbol drm_sched_job_init (err -2)\n"
        "$ rocminfo\nROCk module version 6.8.5 is loaded\n"
        "*******\nAgent 2\n*******\n  Name:                    gfx1100\n  Marketing Name:          Radeon RX 7900 XTX\n"
    )
    assert "RD940" not in problems_shown(text)


@pytest.mark.parametrize(
    "failure",
    [
        "dpkg: error processing package amdgpu-dkms (--configure):\n",
        "The amdgpu DKMS module build fails on kernels 6.13 and 6.14.\n",
    ],
)
def test_a_dkms_failure_is_no_finding_when_dkms_status_shows_the_module_installed_for_the_running_kernel(failure: str) -> None:
    text = failure + (
        "$ dkms status\namdgpu/6.8.5-2009582.24.04, 6.8.0-45-generic, x86_64: installed\n"
        "$ uname -r\n6.8.0-45-generic\n"
    )
    shown = problems_shown(text)
    assert "RD941" not in shown and "RD944" not in shown


# --- h34c: modinfo's version field is AMD's DKMS driver (the kernel's own amdgpu declares none) ---
@pytest.mark.parametrize(
    ("text", "version"),
    [
        # legacy-rocm-build#667 / #670 (amdgpu-pro 19.10 on 4.15), #796 (5.0.19.20.14), #1584 (5.11.14)
        ("$ modinfo amdgpu\nfilename:       /lib/modules/4.15.0-43-generic/updates/dkms/amdgpu.ko\nversion:        19.10.0.418\nlicense:        GPL and additional rights\n", "19.10.0.418"),
        ("➜  ~ modinfo amdgpu\nfilename:       /lib/modules/5.0.0-15-generic/updates/dkms/amdgpu.ko\nversion:        5.0.19.20.14\nlicense:        GPL and additional rights\n", "5.0.19.20.14"),
        ("filename:       /lib/modules/5.11.0-37-generic/updates/dkms/amdgpu.ko\nversion:        5.11.14\nlicense:        GPL and additional rights\ndescription:    AMD GPU\n", "5.11.14"),
        ("$ sudo modinfo amdgpu | head -n 3\nfilename:       /lib/modules/6.17.0-7-generic/updates/dkms/amdgpu.ko.zst\nversion:        6.16.6\nlicense:        GPL and additional rights\n", "6.16.6"),
    ],
)
def test_modinfos_version_field_of_amdgpu_is_the_dkms_drivers_version(text: str, version: str) -> None:
    from ingest_helpers import ingest

    assert ingest(text).facts.driver.amdgpu_version.value == version


@pytest.mark.parametrize(
    "text",
    [
        # the kernel's own amdgpu: no version field; the next field belongs to it, the version to amdkfd
        "$ modinfo amdgpu\nfilename:       /lib/modules/6.8.0-45-generic/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko.zst\nlicense:        GPL and additional rights\n",
        "$ modinfo amdkfd\nfilename:       /lib/modules/4.16.1-041601-lowlatency/kernel/drivers/gpu/drm/amd/amdkfd/amdkfd.ko\nversion:        0.7.2\n",
        # a version line after another module's filename, or after prose, is not amdgpu's
        "filename:       /lib/modules/6.8.0-45-generic/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko.zst\nfilename:       /lib/modules/6.8.0-45-generic/kernel/drivers/other.ko\nversion:        1.2.3\n",
        "filename:       /lib/modules/6.8.0-45-generic/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko.zst\nThe installer then said\nversion:        6.16.6\n",
    ],
)
def test_a_version_field_that_is_not_amdgpus_own_sets_no_driver_version(text: str) -> None:
    from ingest_helpers import ingest

    assert not ingest(text).facts.driver.amdgpu_version.is_known


def test_a_dkms_amdgpu_shown_by_modinfo_keeps_the_kernel_table_from_judging_the_gpu() -> None:
    # a Radeon 860M (gfx1152): its row is judged on every distribution, so only the driver's version keeps it quiet
    tail = "Radeon 860M on Ubuntu 24.04, rocminfo lists only the CPU agent.\n"
    shown = (
        "$ modinfo amdgpu | head -3\nfilename:       /lib/modules/6.8.0-45-generic/updates/dkms/amdgpu.ko.zst\n"
        "version:        6.12.12\nlicense:        GPL and additional rights\n"
    )
    assert "RD560" not in problems_shown(shown + tail)
    # the kernel's own module (no version field, under kernel/drivers): the table judges the GPU
    own = shown.replace("version:        6.12.12\n", "").replace("updates/dkms/amdgpu.ko.zst", "kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko.zst")
    assert "RD560" in problems_shown(own + tail)


@pytest.mark.parametrize(
    ("text", "fires"),
    [
        # RDNA 3 on Ubuntu 22.04's 5.15: AMD's amdgpu-dkms serves it there, so the old kernel alone says nothing
        ("RX 7900 XTX on Ubuntu 22.04, kernel 5.15.0-91-generic, rocminfo lists only the CPU agent.\n", False),
        # ... unless the report runs a distribution AMD packages no amdgpu-dkms for
        ('ID=fedora\nVERSION_ID=36\nKernel 5.17.5-300.fc36.x86_64, RX 7600, rocminfo shows only the CPU\n', True),
    ],
)
def test_an_old_kernel_is_judged_against_a_gpu_amds_dkms_served_only_where_that_driver_cannot_be_in_use(text: str, fires: bool) -> None:
    assert ("RD560" in problems_shown(text)) is fires


# --- h34c: "kernel X" in prose is the running kernel only when the sentence says so ---
@pytest.mark.parametrize(
    "text",
    [
        "Before the update I was on kernel 6.8.0-45 and everything worked.\n",
        "It used to work on kernel 6.8.\n",
        "My other machine runs kernel 5.15 and works fine.\n",
        "Ubuntu 24.04 ships kernel 6.8 by default.\n",
        "You need kernel 6.11 or newer for this GPU.\n",
        "AMD requires kernel 6.14 for Strix Halo.\n",
        "Try kernel 6.11 instead.\n",
        "Should I install kernel 6.11?\n",
    ],
)
def test_a_kernel_named_as_past_another_machines_required_or_asked_is_not_the_running_one(text: str) -> None:
    from ingest_helpers import ingest

    assert not ingest(text).facts.host.kernel_release.is_known


@pytest.mark.parametrize(
    ("text", "release"),
    [
        ("I upgraded from kernel 5.15 to 6.2 and now it fails.\n", "6.2"),
        ("I moved from kernel 6.8 to 6.11 and the GPU now shows up.\n", "6.11"),
        ("RX 9070 XT not working on kernel 6.8.0-45-generic.\n", "6.8.0-45-generic"),
        ("I'm on kernel 6.8 and rocminfo shows nothing.\n", "6.8"),
        ("After upgrading to kernel 6.12 the GPU hangs.\n", "6.12"),
        # "default" describes the kernel in use; "by default" is what a release ships
        ("Ubuntu 24.04 on the default kernel 6.8.0-45-generic, rocminfo shows no GPU.\n", "6.8.0-45-generic"),
    ],
)
def test_the_kernel_moved_to_or_failing_now_is_the_running_one(text: str, release: str) -> None:
    from ingest_helpers import ingest

    assert ingest(text).facts.host.kernel_release.value == release


def test_a_kernel_move_keeps_the_kernel_moved_from_as_the_earlier_state() -> None:
    from ingest_helpers import ingest

    earlier = ingest("I upgraded from kernel 5.15 to 6.2 and now it fails.\n").facts.symptoms.earlier
    assert "host.kernel_release=5.15" in earlier.value


@pytest.mark.parametrize(
    "text",
    [
        # a requirement, a release's support list, where support landed, a plan, a doubt, a document (r34b)
        "Kernel 6.11 is required for the RX 9070.\n",
        "The ROCm docs list kernel 6.8 as supported.\n",
        "ROCm 6.4 supports kernel 6.8 and 6.11.\n",
        "According to the docs, kernel 6.14 is needed.\n",
        "RDNA4 support was added in kernel 6.11.\n",
        "Kernel 6.11 added support for gfx12.\n",
        "I'll upgrade to kernel 6.14 tomorrow.\n",
        "I don't think kernel 6.8 supports it.\n",
    ],
)
def test_a_kernel_named_in_a_requirement_support_or_plan_sentence_is_not_the_running_one(text: str) -> None:
    from ingest_helpers import ingest

    assert not ingest(text).facts.host.kernel_release.is_known


def test_a_kernel_named_in_a_support_sentence_does_not_make_the_kernel_table_judge_the_gpu() -> None:
    text = "Fedora 40, RX 9070 XT, rocminfo lists only the CPU agent. ROCm 6.4 supports kernel 6.8 and 6.11.\n"
    assert "RD560" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # "from kernel X to Y" without a verb of moving is a range, not a move to Y (r34b)
        "I tested every release from kernel 6.8 to 6.14 and none of them detects the GPU.\n",
        "Tried kernels from kernel 6.5 to 6.8, same result.\n",
        "Support ranges from kernel 5.15 to 6.8 according to the docs.\n",
    ],
)
def test_a_range_of_kernels_names_no_running_kernel(text: str) -> None:
    from ingest_helpers import ingest

    facts = ingest(text).facts
    assert not facts.host.kernel_release.is_known
    assert not any("kernel_release" in str(v) for v in (facts.symptoms.earlier.value or []))


@pytest.mark.parametrize(
    "text",
    [
        # being on the kernel denied (r34b); "not working on kernel 6.8" stays the running one (above)
        "I am no longer on kernel 6.8.\n",
        "I'm not using kernel 6.8 anymore, I moved on.\n",
        "I don't use kernel 6.8.\n",
    ],
)
def test_a_kernel_the_reporter_says_they_are_not_on_is_not_the_running_one(text: str) -> None:
    from ingest_helpers import ingest

    assert not ingest(text).facts.host.kernel_release.is_known


@pytest.mark.parametrize(
    "text",
    [
        # amdkcl's fatal lookup and the BUG it raises, as rocm-arch/rocm-arch#269 (rock-dkms 3.5 on 5.7),
        # ROCm/legacy-rocm-build#1304 (3.8 on a self-built 5.4) and Ashark/archlinux-amdgpu-pro#54 show it
        "[    1.581978] Error: fail to get symbol dma_fence_default_wait_cb\n[    1.582353] kernel BUG at /var/lib/dkms/amdgpu-3.5/30/build/amd/amdkcl/kcl_common.h:41!\n",
        "[    1.752307] amdkcl: loading out-of-tree module taints kernel.\n[    1.760839] Error: fail to get symbol reservation_ww_class\n",
        "kernel BUG at /var/lib/dkms/amdgpu-17.40/492261/build/amd/amdkcl/kcl_common.h:34!\n",
        # the line alone, the driver named elsewhere in the block
        "amdgpu-dkms is installed but amdgpu does not load:\nError: fail to get symbol drm_gem_prime_dmabuf_ops\n",
    ],
)
def test_amdkcl_failing_to_find_a_kernel_symbol_is_read(text: str) -> None:
    assert "amdkcl_symbol_missing" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # the layer's own fallback: a stand-in is used and the driver loads (legacy-rocm-build#1304 on 3.7)
        "[    1.776909] Warning: fail to get symbol reservation_ww_class, replace it with kcl stub\n",
        # another program's words, nothing of AMD's driver in the block
        "plugin loader: Error: fail to get symbol init_plugin\n",
        # rev47a: a fix said to work, the past, advice (error_not_current)
        'With rock-dkms 3.8 I had "Error: fail to get symbol reservation_ww_class" but after going back to 3.7 everything works, amdgpu loads fine.\n',
        'Before the update dmesg showed "Error: fail to get symbol dma_fence_default_wait_cb" (amdkcl), now on 5.6 it works.\n',
        'If you see "Error: fail to get symbol X" in dmesg, your amdgpu-dkms does not support your kernel.\n',
    ],
)
def test_a_symbol_amdkcl_can_stand_in_for_or_another_program_is_not_read(text: str) -> None:
    assert "amdkcl_symbol_missing" not in signature_errors(text)


def test_amdkcl_failing_to_find_a_symbol_is_reported_as_the_driver_not_fitting_the_kernel() -> None:
    report = (
        "RX 570, rock-dkms 3.8 builds but after reboot no GPU is recognized:\n"
        "[    1.752307] amdkcl: loading out-of-tree module taints kernel.\n"
        "[    1.760839] Error: fail to get symbol reservation_ww_class\n"
        "[    1.760921] kernel BUG at /var/lib/dkms/amdgpu/3.8.0-19/build/amd/amdkcl/kcl_common.h:24!\n"
    )
    assert problems_shown(report)[0] == "RD946"


@pytest.mark.parametrize(
    "text",
    [
        # an extension against a torch whose hipBLAS lacks the function (turboderp-org/exllamav2#144)
        "ImportError: /root/miniconda3/envs/x/lib/python3.8/site-packages/exllamav2_ext.cpython-38-x86_64-linux-gnu.so: undefined symbol: hipblasHgemm\n",
        # rocBLAS's ILP64 API of 4.2 asked of an older rocBLAS (ollama/ollama#8108), a Windows-style
        # path with a space in a folder name
        "error: /home/u/My Apps/lib/ggml-hip.so: undefined symbol: rocblas_sgbmv_64\n",
        # a rocBLAS build without the function (ROCm/rocBLAS#202)
        "/usr/lib64/libhipblas.so: error: symbol lookup error: undefined symbol: rocblas_dgemm (fatal)\n",
        "OSError: /opt/app/_ext.so: undefined symbol: miopenCreateTensorDescriptor\n",
    ],
)
def test_a_missing_rocm_math_library_function_is_read_as_another_release_of_it(text: str) -> None:
    assert "rocm_library_api_undefined" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # a mangled C++ kernel stub naming hip types is the extension's own bug (bitsandbytes#1550)
        "libbitsandbytes_rocm62.so: undefined symbol: _Z36__device_stub__kOptimizer32bit1StateI12hip_bfloat16Li2EEvPT_\n",
        # the HIP runtime's own API (hip_api_symbol_undefined reads it)
        "_C.so: undefined symbol: hipGetDevicePropertiesR0600\n",
        # NCCL's names are NVIDIA's as well as RCCL's
        "libtorch_cuda.so: undefined symbol: ncclCommRegister\n",
        # prose that names the function, no loader error
        "hipblasHgemm is declared in hipblas.h\n",
        # the linker at build time, not a loaded process (spack/spack#49298: libhipblas missing from the
        # link line); lld-link on Windows words it the same way
        "ld.lld: error: undefined symbol: hipblasCreate\n>>> referenced by gpu_blas.cpp\n",
        "/opt/rocm/llvm/bin/ld.lld: error: undefined symbol: rocblas_sgemm_64\n",
        "lld-link: error: undefined symbol: hipblasSgemm\r\n>>> referenced by C:\\Users\\Jane Doe\\src\\ggml-cuda.obj\r\n",
        # rev47a: a changelog line, advice, the past with the fix said to work (error_not_current)
        '- Fixed "undefined symbol: rocblas_sgbmv_64" when hipBLAS is newer than rocBLAS\n',
        "If you get undefined symbol: hipblasHgemm, upgrade torch to a ROCm 5.6 build.\n",
        "Previously I got undefined symbol: rocblas_sgbmv_64, after pacman -Syu it works now.\n",
    ],
)
def test_other_symbols_and_prose_are_not_a_rocm_math_library_mismatch(text: str) -> None:
    assert "rocm_library_api_undefined" not in signature_errors(text)


@pytest.mark.parametrize(
    ("text", "signature"),
    [
        ("It works on the CPU, but on the GPU exllamav2 fails: ImportError: exllamav2_ext.so: undefined symbol: hipblasHgemm\n", "rocm_library_api_undefined"),
        ("I had to build it myself and now: ImportError: exllamav2_ext.so: undefined symbol: hipblasHgemm\n", "rocm_library_api_undefined"),
        ("Everything works until I load the model: ImportError: /venv/lib/libfoo.so: undefined symbol: hipMalloc\n", "hip_api_symbol_undefined"),
    ],
)
def test_a_current_error_after_it_works_but_or_i_had_to_is_still_read(text: str, signature: str) -> None:
    """error_not_current hid these (rev47a's guard): 'it works' that a contrast turns to the failure, and 'I had to',
    an act before the error, are no fix said to work nor a past error."""
    assert signature in signature_errors(text)


def test_a_missing_rocm_math_library_function_is_reported_as_two_rocm_releases() -> None:
    report = (
        "rocm5.2.0 torch, running test_inference.py:\n"
        "Traceback (most recent call last):\n"
        '  File "/data/exllamav2/ext.py", line 14, in <module>\n'
        "    import exllamav2_ext\n"
        "ImportError: /root/site-packages/exllamav2_ext.cpython-38-x86_64-linux-gnu.so: undefined symbol: hipblasHgemm\n"
    )
    assert problems_shown(report)[0] == "RD942"


def test_a_missing_rocm_math_library_function_is_not_said_to_be_two_releases_for_certain() -> None:
    # rev47a: one release can lack a function too (ROCm/rocBLAS#202: a rocBLAS built without Tensile has no
    # rocblas_dgemm), so RD942 says "most often" and names that cause instead of asserting two releases
    from ingest_helpers import ingest
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    report = "/usr/lib64/libhipblas.so: error: symbol lookup error: undefined symbol: rocblas_dgemm (fatal)\n"
    found = [f for f in evaluate(load_rules([], use_env=False), ingest(report).facts).findings if f.id == "RD942"]
    assert found, "RD942 should still fire"
    message = found[0].message
    assert "most often" in message and "without the function" in message


@pytest.mark.parametrize(
    "text",
    [
        "ld.lld: error: undefined symbol: hipMalloc\n>>> referenced by kernel.cpp\n",
        "lld-link: error: undefined symbol: hipGetDevicePropertiesR0600\r\n",
        "If you get undefined symbol: hipGetDevicePropertiesR0600, rebuild flash-attn against your torch.\n",
    ],
)
def test_the_linker_and_advice_are_not_a_hip_runtime_missing_an_api(text: str) -> None:
    assert "hip_api_symbol_undefined" not in signature_errors(text)


def test_a_loaded_extension_missing_a_hip_runtime_api_is_still_read() -> None:
    assert "hip_api_symbol_undefined" in signature_errors("ImportError: /x/flash_attn_2_cuda.so: undefined symbol: hipGetDevicePropertiesR0600\n")


@pytest.mark.parametrize(
    ("text", "release"),
    [
        # driver48: a move to a kernel named without the kernel it left (legacy-rocm-build#344,
        # M-Bab/linux-kernel-amdgpu-binaries#100, and the "after the kernel update to X" of Ubuntu's updates)
        ('Today I did an "apt upgrade" and updated, among others, the kernel to 4.13.0-36. OpenCL finds no platform.\n', "4.13.0-36"),
        ("Yesterday I updated my POP OS system's Linux kernel to version 5.13.0-7614-generic via APT.\n", "5.13.0-7614-generic"),
        ("ROCm stopped working after the kernel update to 6.8.0-45.\n", "6.8.0-45"),
        ("Since updating to kernel 6.18.4 my Strix Halo throws page faults under ROCm 7.1.\n", "6.18.4"),
        ("After upgrading the kernel to 6.14, rocminfo no longer shows my GPU.\n", "6.14"),
    ],
)
def test_a_kernel_updated_to_is_the_running_one(text: str, release: str) -> None:
    from ingest_helpers import ingest

    assert ingest(text).facts.host.kernel_release.value == release


@pytest.mark.parametrize(
    "text",
    [
        "Almost the same problem for me when trying to upgrade to the kernel 4.15.0-128...\n",
        "Should I upgrade the kernel to 6.14 for my RX 9070?\n",
        "Try updating the kernel to 6.11 and check rocminfo again.\n",
        "If you are updating the kernel to 6.12, rebuild the dkms module.\n",
        "My friend upgraded his kernel to 6.15 and ROCm broke for him.\n",
        # several releases tried in turn: none need be the one running (legacy-rocm-build#671)
        "I have upgraded kernel to 4.18: it is not supported.\nI have upgraded kernel to 4.19: it is not supported.\n",
        # rev48c: a move denied, undone or never booted is not the kernel running
        "I haven't upgraded the kernel to 6.8 yet.\n",
        "I updated the kernel to 6.8 but went back to 6.5 because ROCm broke.\n",
        "I updated the kernel to 6.8, then rolled back to 6.5.0-35.\n",
        "After kernel upgrade to 6.8 nothing worked, so I reverted to 6.5.\n",
        "I updated the kernel to 6.8 and it broke ROCm. I downgraded the kernel again.\n",
        "I updated the kernel to 6.8 but it would not boot.\n",
    ],
)
def test_a_kernel_update_tried_asked_advised_or_anothers_does_not_name_the_running_kernel(text: str) -> None:
    from ingest_helpers import ingest

    assert not ingest(text).facts.host.kernel_release.is_known


@pytest.mark.parametrize(
    "text",
    [
        "Does amdgpu-dkms 6.16.13 fail with kernel 6.18?\n",
        "If amdgpu-dkms_6.8.5 fails, use --no-dkms.\n",
        "amdgpu-dkms 6.12.12 does not fail anymore.\n",
        # rev48c: the version let the sentence reach another failure, a fix, others' failure, "no longer fails"
        "amdgpu-dkms 6.10.5 installed fine but the rccl test failed\n",
        "amdgpu-dkms 1:6.10.5.60300-2084815.22.04 installed fine but the rccl test failed\n",
        "amdgpu-dkms 6.10.5 fixes the build that failed on 6.8.\n",
        "Changelog: amdgpu-dkms 6.10.5 - fixed: module fails to build on kernel 6.11\n",
        "amdgpu-dkms 6.10.5 is the version that fails for others; mine builds fine.\n",
        "amdgpu-dkms 6.12.12 no longer fails after the update.\n",
    ],
)
def test_a_versioned_amdgpu_dkms_asked_about_conditional_or_not_failing_is_not_a_build_failure(text: str) -> None:
    assert "amdgpu_dkms_build_failure_told" not in signature_errors(text)


@pytest.mark.parametrize(
    ("text", "release"),
    [
        # rev48c: uname's kernel stands when the prose says a move to another one did not boot
        ("uname -r\n6.5.0-35-generic\nI updated the kernel to 6.8 but it did not boot, so I am still on the old one.\n", "6.5.0-35-generic"),
        ("uname -r\n6.8.0-45-generic\nI updated the kernel to 6.11 yesterday but it would not boot, so I'm back on 6.8.\n", "6.8.0-45-generic"),
        # a rollback of something else than the kernel leaves the move in place
        ("After the kernel update to 6.8.0-45, rocminfo fails. I rolled back the driver but no change.\n", "6.8.0-45"),
        ("Since updating to kernel 6.18.4 my Strix Halo throws page faults. Downgrading ROCm to 6.4 didn't help.\n", "6.18.4"),
    ],
)
def test_a_kernel_move_undone_leaves_the_running_kernel(text: str, release: str) -> None:
    from ingest_helpers import ingest

    assert ingest(text).facts.host.kernel_release.value == release


@pytest.mark.parametrize(
    "text",
    [
        # modprobe's side, as ROCm/legacy-rocm-build#671 shows it for rock-dkms's amdkfd
        "modprobe: ERROR: could not insert 'amdkfd': Exec format error\n",
        "modprobe: ERROR: could not insert 'amdgpu': Exec format error\n",
        # the loader's symbol-CRC check, as ROCm/amdgpu#137 shows it for a hand-built driver, in journal form
        "Aug 08 10:00:01 host kernel: amdgpu: disagrees about version of symbol module_layout\n",
        "[   12.345678] amdttm: disagrees about version of symbol dma_resv_add_fence\n",
        # the vermagic check, the shape negativo17/nvidia-driver#97 and groeck/it87#69 show after a kernel update
        "[    6.210000] amdgpu: version magic '5.4.0-42-generic SMP mod_unload modversions ' "
        "should be '5.4.0-54-generic SMP mod_unload modversions '\n",
        "amdkcl: no symbol version for module_layout\n",
    ],
)
def test_the_kernel_refusing_amdgpu_built_for_another_kernel_is_read(text: str) -> None:
    assert "amdgpu_module_built_for_another_kernel" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # the same loader words for another vendor's module say nothing about amdgpu
        "modprobe: ERROR: could not insert 'nvidia': Exec format error\n",
        "nvidia: version magic '5.4.18-100.fc30.x86_64 SMP mod_unload ' should be '5.4.18-200.fc31.x86_64 SMP mod_unload '\n",
        "it87: version magic '4.13.0-21-generic SMP mod_unload ' should be '4.13.0-25-generic SMP mod_unload '\n",
        # a program, not the module loader, failing with ENOEXEC
        "bash: ./rocminfo: cannot execute binary file: Exec format error\n",
    ],
)
def test_other_modules_built_for_another_kernel_are_not_amdgpu(text: str) -> None:
    assert "amdgpu_module_built_for_another_kernel" not in signature_errors(text)


def test_an_amdgpu_module_built_for_another_kernel_is_the_first_finding() -> None:
    report = (
        "Ubuntu 20.04, RX 6800 XT, amdgpu-dkms installed\n\n"
        "$ sudo modprobe amdgpu\n"
        "modprobe: ERROR: could not insert 'amdgpu': Exec format error\n"
        "$ sudo dmesg | grep amdgpu\n"
        "[   12.000001] amdgpu: disagrees about version of symbol module_layout\n"
    )
    assert problems_shown(report)[:1] == ["RD948"]
