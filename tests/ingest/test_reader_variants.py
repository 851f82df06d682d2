"""The field's variants of one construct read as the construct (issue 23, item 1).

Each form here is the shape several independent real reports use (the sources are on the
signature rows in rules/data/signatures.yaml and in the comments); the texts are written for
the test, not copied from one report. Assertions are about facts, not about which rule fires.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest


def signatures(text: str) -> list:
    found = ingest(text).facts.symptoms.signatures
    return list(found.value or []) if found.is_known else []


@pytest.mark.parametrize(
    "text",
    [
        "  × No solution found when resolving dependencies:\n  ╰─▶ Because torch was not found in the package registry and you require torch, we can conclude that your requirements are unsatisfiable.\n",
        "  ╰─▶ Because only torch{sys_platform == 'linux'}<=2.5.1+rocm6.2 is available and your project depends on torch>=2.6.0, we can conclude that your requirements are unsatisfiable.\n",
        "  ╰─▶ Because only the following versions of torch are available:\n          torch==2.13.0.dev20260515+rocm7.2\n",
        "      And because torch>=2.13.0a0+rocm7.13.0a20260514 has no wheels with a matching platform tag (e.g., `manylinux_2_39_x86_64`) and you require torch, we can conclude that your requirements are unsatisfiable.\n",
        "  - Installing torch (2.4.0): Failed\n\n  RuntimeError\n\n  Unable to find installation candidates for torch (2.4.0)\n",
    ],
)
def test_uv_and_poetry_saying_no_torch_fits_read_like_pips_message(text: str) -> None:
    assert "no_torch_for_this_python_resolver" in signatures(text)


@pytest.mark.parametrize(
    "text",
    [
        "ERROR: Could not find a version that satisfies the requirement torch-directml (from versions: none)\nERROR: No matching distribution found for torch-directml\n",
        "ERROR: No matching distribution found for torch-directml==0.1.13.1.dev230301\n",
        "ERROR: Could not find a version that satisfies the requirement pytorch-directml (from versions: none)\n",
    ],
)
def test_pip_finding_no_torch_directml_reads_as_no_torch_for_this_python(text: str) -> None:
    # learn51d: torch-directml (the DirectML backend package beside torch; rev51d) has wheels for a few CPython versions only
    assert "no_torch_for_this_python" in signatures(text)


def test_uv_finding_no_torch_directml_reads_like_pip() -> None:
    text = "  × No solution found when resolving dependencies:\n  ╰─▶ Because torch-directml was not found in the package registry and you require torch-directml, we can conclude that your requirements are unsatisfiable.\n"
    assert "no_torch_for_this_python_resolver" in signatures(text)


@pytest.mark.parametrize(
    "text",
    [
        "ERROR: No matching distribution found for torch-scatter\n",
        "ERROR: Could not find a version that satisfies the requirement torch_tensorrt (from versions: none)\n",
        "ERROR: No matching distribution found for torch-directml-extras\n",
    ],
)
def test_other_torch_packages_pip_cannot_find_are_not_torch(text: str) -> None:
    assert "no_torch_for_this_python" not in signatures(text)


def test_a_missing_dependency_of_torch_is_not_a_missing_torch() -> None:
    text = "  ╰─▶ Because filelock was not found in the package registry and torch==2.9.0+rocm7.10.0a20251117 depends on filelock, we can conclude that torch==2.9.0+rocm7.10.0a20251117 cannot be used.\n"
    assert "no_torch_for_this_python_resolver" not in signatures(text)


@pytest.mark.parametrize(
    "text",
    [
        "My /dev/kfd device has the wrong permissions, which means that ROCm only runs for root.\n",
        "Torch is not able to use the GPU unless superuser.\n",
        "is_available() returns False, while it runs just fine if run as root.\n",
        "A non-root user has to run commands as sudo for GPU access.\n",
    ],
)
def test_the_gpu_working_for_root_only_reads_in_its_several_wordings(text: str) -> None:
    found = signatures(text)
    assert "gpu_only_for_root" in found or "works_only_as_root" in found


def test_a_root_shell_that_is_not_a_complaint_is_no_root_only_statement() -> None:
    assert "gpu_only_for_root" not in signatures("I run it as root inside the container.\n")


@pytest.mark.parametrize(
    "path",
    [
        r"C:\Users\me\ComfyUI\venv\Scripts\python.exe",
        "C:/Users/me/ComfyUI/venv/Scripts/python.exe",
        "c:/users/Jane Doe/ComfyUI/venv/Scripts/python.exe",
        r'"D:\AI\Stable Diffusion\venv\Scripts\python.exe"',
        "D:/AI/ComfyUI/main.py",
    ],
)
def test_a_windows_path_in_any_spelling_says_windows(path: str) -> None:
    text = f"Traceback (most recent call last):\n  File \"{path.strip(chr(34))}\", line 12, in <module>\nRuntimeError: boom\n"
    assert ingest(text).facts.host.os.value == "windows"


REPORT = "```\n$ rocminfo\nROCk module is loaded\n```\n\nRuntimeError: No HIP GPUs are available\n"


@pytest.mark.parametrize(
    "rewrite",
    [
        lambda text: "\n".join("> " + line for line in text.split("\n")),
        lambda text: "\n".join("    " + line if line else line for line in text.split("\n")),
        lambda text: "\n".join("  > " + line for line in text.split("\n")),
    ],
    ids=["quoted", "indented", "indented quote"],
)
def test_a_report_quoted_or_indented_as_a_whole_reads_as_the_report(rewrite) -> None:
    plain, changed = ingest(REPORT).facts, ingest(rewrite(REPORT)).facts
    assert changed.symptoms.signatures.value == plain.symptoms.signatures.value
    assert changed.driver.amdgpu_loaded.value == plain.driver.amdgpu_loaded.value is True


def test_no_hip_gpus_are_available_shows_a_rocm_build() -> None:
    facts = ingest("RuntimeError: No HIP GPUs are available\n").facts
    assert facts.torch.flavour.value == "rocm"


@pytest.mark.parametrize(
    "text",
    [
        "Error! Bad return status for module build on kernel: 6.8.0-44-generic (x86_64)\nConsult /var/lib/dkms/amdgpu/6.8.5-2009582.24.04/build/make.log for more information.\n",
        "dkms autoinstall on 6.8.0-44-generic/x86_64 failed for amdgpu(10)\n",
        "$ sudo modprobe amdkfd\nmodprobe: ERROR: could not insert 'amdkfd': Exec format error\n",
        "rock-dkms install says kernel 4.19 not supported.\n",
    ],
)
def test_the_amdgpu_dkms_driver_failing_for_the_kernel_reads_in_its_forms(text: str) -> None:
    assert "amdgpu_dkms_build_failed" in signatures(text)


def test_another_vendors_dkms_failure_is_not_amdgpus() -> None:
    text = "Error! Bad return status for module build on kernel: 6.8.0-44-generic (x86_64)\nConsult /var/lib/dkms/nvidia/550.54/build/make.log\n"
    assert "amdgpu_dkms_build_failed" not in signatures(text)


def test_rocr_disabling_a_gpu_for_an_old_kernel_driver_is_read() -> None:
    text = "ROCk module is loaded\nHSA Error:  Incompatible kernel and userspace, Vega 20 [Radeon VII] disabled. Upgrade amdgpu.\n"
    assert "kernel_userspace_incompatible" in signatures(text)


@pytest.mark.parametrize(
    "line",
    [
        "rocBLAS error: Could not load /opt/rocm-6.0.0/lib/rocblas/library/TensileLibrary_lazy_gfx1030.dat",
        "rocBLAS error: Cannot read /opt/rocm-5.4.0/lib/rocblas/library/TensileLibrary.dat: Illegal seek",
        "OSError: /opt/rocm/lib/libhipblas.so.2: undefined symbol: rocblas_gemm_ex_get_solutions",
    ],
)
def test_an_error_naming_a_file_of_the_system_rocm_is_read(line: str) -> None:
    assert "system_rocm_file_in_error" in signatures(line + "\n")


def test_an_error_naming_the_wheels_own_rocm_files_is_not_the_systems() -> None:
    line = "rocBLAS error: Cannot read /venv/lib/python3.12/site-packages/torch/lib/rocblas/library/TensileLibrary.dat: Illegal seek\n"
    assert "system_rocm_file_in_error" not in signatures(line)


def test_a_release_the_report_moved_away_from_is_an_earlier_state() -> None:
    facts = ingest("This happens after updating from ROCm 5.7.1 to ROCm 6.0 on Ubuntu.\n").facts
    assert facts.rocm.version.value == "6.0"
    assert "rocm.version=5.7.1" in (facts.symptoms.earlier.value or [])


@pytest.mark.parametrize(
    "text, installed",
    [
        (
            "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
            "    PyTorch 2.0.1+cu118 with CUDA 1108 (you have 2.0.1+rocm5.4.2)\n    Python  3.8.17 (you have 3.8.5)\n",
            "2.0.1+rocm5.4.2",
        ),
        (
            "03:16:35.755 WARNING cuda:0 WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:"
            "                          _cpp_lib.py:137\n    PyTorch 2.0.1+cu118 with CUDA 1108 (you have 2.0.1+rocm5.4.2)\n",
            "2.0.1+rocm5.4.2",
        ),
        (
            "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for: PyTorch 2.1.2+cu121 "
            "with CUDA 1201 (you have 2.1.2+cu118) Python 3.9.18 (you have 3.9.18)\n",
            "2.1.2+cu118",
        ),
    ],
)
def test_the_torch_xformers_was_built_for_is_not_the_installed_torch(text: str, installed: str) -> None:
    # xformers/_cpp_lib.py (v0.0.28) prints the build's torch first and the installed one as "(you have ...)"
    assert ingest(text).facts.torch.version.value == installed


def _assert_in_use_and_earlier(facts, component: str, now: str, earlier: str) -> None:
    """The release read as the one in use, and the one that worked read as the earlier state (what changed)."""
    assert getattr(facts, component).version.value == now
    assert f"{component}.version={earlier}" in (facts.symptoms.earlier.value or [])


@pytest.mark.parametrize(
    "text, earlier, now",
    [
        ("It worked with torch 2.7.1+rocm6.3, fails with 2.8.0+rocm6.4 on my 7900 XTX.\n", "2.7.1+rocm6.3", "2.8.0+rocm6.4"),
        ("Works for me with PyTorch 2.4.1 but not with PyTorch 2.2.2.\n", "2.4.1", "2.2.2"),
        ("torch 2.5.1+rocm6.2 works fine, torch 2.6.0+rocm6.2.4 segfaults.\n", "2.5.1+rocm6.2", "2.6.0+rocm6.2.4"),
        ("Looks like a regression between torch 2.5.1 and 2.6.0.\n", "2.5.1", "2.6.0"),
    ],
)
def test_a_torch_release_that_worked_beside_one_that_fails_is_the_earlier_state(text: str, earlier: str, now: str) -> None:
    _assert_in_use_and_earlier(ingest(text).facts, "torch", now, earlier)


@pytest.mark.parametrize(
    "text",
    [
        "Does it work with torch 2.4.1 but not with torch 2.5.0?\n",
        "Before, it worked with torch 2.3 but not with torch 2.4; now both fail.\n",
    ],
)
def test_a_worked_and_failed_pair_asked_about_or_in_the_past_is_no_earlier_state(text: str) -> None:
    assert not ingest(text).facts.symptoms.earlier.is_known


@pytest.mark.parametrize(
    "text, earlier, now",
    [
        # ROCm/legacy-rocm-build#5405's title; Comfy-Org/ComfyUI#14658's "Working on ROCm7.1, broke on 7.2"
        ("ComfyUI workflows work on ROCm 6.4.3, crash on ROCm 7.0.0\n", "6.4.3", "7.0.0"),
        ("Working on ROCm7.1, broke on 7.2\n", "7.1", "7.2"),
        ("It worked fine with ROCm 5.7, fails with 6.0 on my RX 6700 XT.\n", "5.7", "6.0"),
        ("works with rocm 6.2 but not with rocm 6.3\n", "6.2", "6.3"),
        ("ROCm 6.1 works fine, ROCm 6.2 crashes.\n", "6.1", "6.2"),
    ],
)
def test_a_rocm_release_that_worked_beside_one_that_fails_fires_as_the_earlier_state(text: str, earlier: str, now: str) -> None:
    _assert_in_use_and_earlier(ingest(text).facts, "rocm", now, earlier)


@pytest.mark.parametrize(
    "text, now",
    [
        ("pytorch 2.1.2 rocm 6.0 segfaults.\n\nbut it is fine with pytorch 2.2.0 with rocm 5.7\n", None),  # a1111#15434
        ("It works fine when I use ROCm 5.7 (pytorch 2.3.1+rocm5.7), but I can't get a newer one to work. "
         "I get this error when running ROCm 6.2 (pytorch 2.5.1+rocm6.2):\n", "6.2"),  # ROCm/legacy-rocm-build#4329
        ("It was working with ROCm 6.1. After upgrading to ROCm 6.2 it crashes.\n", "6.2"),
        ("OpenCL crashes on ROCm 4.3.0. ROCm 4.2 worked fine.\n", "4.3.0"),  # ROCm/legacy-rocm-build#1557
    ],
)
def test_a_rocm_setup_said_to_work_beside_a_failing_one_fires_as_the_earlier_state(text: str, now) -> None:
    facts = ingest(text).facts
    assert facts.rocm.version.value == now
    assert [e for e in facts.symptoms.earlier.value or [] if e.startswith("rocm.version=")]


@pytest.mark.parametrize(
    "text, now",
    [
        ("It works fine with ROCm 6.2.\n", "6.2"),  # a release said to work, none failing beside it
        ("It works fine with ROCm 6.2 except for flash attention.\n", "6.2"),
        ("I have ROCm 6.2 installed. Should I install ROCm 6.3? It works fine with ROCm 6.2 otherwise.\n", "6.2"),
        ("Everything was working fine with ROCm 6.2.4 until I updated ComfyUI.\n", "6.2.4"),
        ("Does it work with ROCm 6.1 but not with 6.2?\n", "6.1"),  # asked: today's reading
        ("I have ROCm 6.2. Downgrading to 6.1 fixes it.\n", "6.2"),  # a fix
        ("It works with my GPU but fails with ROCm 6.2.\n", "6.2"),
        ("ROCm 4.2 worked fine.\n", "4.2"),
    ],
)
def test_a_rocm_release_said_to_work_alone_asked_about_or_as_a_fix_refuses_the_earlier_state(text: str, now: str) -> None:
    facts = ingest(text).facts
    assert facts.rocm.version.value == now
    assert not facts.symptoms.earlier.is_known


@pytest.mark.parametrize(
    "text",
    [
        "My friend says it works with ROCm 6.1 but fails with ROCm 6.2.\n",  # another person's machine
        "Downgrading to ROCm 6.1 works, ROCm 6.2 crashes.\n",  # the release moved to is a fix, maybe the one in use
        "Downgrading to torch 2.4.1 works, torch 2.5.0 crashes.\n",
        "Before, it worked with ROCm 6.1 but not with ROCm 6.2; now both fail.\n",
    ],
)
def test_a_worked_and_failed_pair_elsewhere_past_or_moved_to_refuses_the_release_in_use(text: str) -> None:
    facts = ingest(text).facts
    assert facts.rocm.version.value is None and facts.torch.version.value is None


def test_a_worked_and_failed_pair_of_torch_builds_refuses_the_systems_rocm() -> None:
    facts = ingest("works with ROCm 6.1 wheels but not with ROCm 6.2 wheels\n").facts
    assert facts.rocm.version.value is None
    assert not facts.symptoms.earlier.is_known


@pytest.mark.parametrize(
    "text",
    [
        # rev51g: a "works" denied is no state that worked; one release both worked and failed is no change
        "It doesn't work with ROCm 6.1, and it also fails with ROCm 6.2.\n",
        "It never worked with ROCm 6.1 and fails with ROCm 6.2 too.\n",
        "It is not working with ROCm 6.1, but fails with ROCm 6.2 too.\n",
        "It no longer works with ROCm 6.1, and it also fails with ROCm 6.2.\n",
        "It doesn't work with torch 2.4.1, and it also fails with torch 2.5.0.\n",
        "It works with ROCm 6.2 for inference, but training fails with ROCm 6.2.\n",
    ],
)
def test_a_pair_whose_works_is_denied_or_names_one_release_is_no_earlier_state(text: str) -> None:
    assert not ingest(text).facts.symptoms.earlier.is_known


@pytest.mark.parametrize(
    "text",
    [
        "distrobox create -n llama-rocm --image docker.io/kyuz0/amd-strix-halo-toolboxes:rocm-7.2\n",
        "After doing \"toolbox enter llama-rocm-6.4.4\", llama-cli finds no device.\n",
        "It fails when run in a rootless Distrobox container on Ubuntu.\n",
        "Inside the docker container rocminfo lists the GPU.\n",
    ],
)
def test_distrobox_toolbox_and_prose_containers_read_as_a_container(text: str) -> None:
    assert ingest(text).facts.host.container.is_known


@pytest.mark.parametrize(
    "text",
    [
        # the container the reporter has or runs (ROCm/legacy-rocm-build#415), or the container as the subject that is
        # run, starts or crashes (ROCm/ROCm-docker#30, truenas/apps#1908, kyuz0/ai-toolbox-cockpit#7)
        "Please note I have docker container on ubuntu 16.04 environment.\n",
        "The docker-instance is run as root, and 1.6.4 worked fine.\n",
        "I've got Immich running, but the container keeps crashing:\n",
        "The cockpit-launched vLLM container starts, but PyTorch reports no GPU.\n",
        "I am running a podman container for ollama.\n",
    ],
)
def test_a_container_the_reporter_runs_or_that_runs_reads_as_a_container(text: str) -> None:
    assert ingest(text).facts.host.container.value == "docker"


@pytest.mark.parametrize(
    "text",
    [
        "I have no docker container here, it runs on the host.\n",
        "The container image is 10 GB.\n",
        "Should I use a container for this?\n",
    ],
)
def test_a_container_named_without_running_it_is_no_container(text: str) -> None:
    assert not ingest(text).facts.host.container.is_known


def test_a_docker_version_line_alone_is_no_container() -> None:
    assert not ingest("Docker Version: 29.1.3\n").facts.host.container.is_known


@pytest.mark.parametrize(
    "text",
    [
        "ERROR: torch-2.0.1+gite19229c-cp310-cp310-linux_x86_64.whl is not a supported\nwheel on this platform.\n",
        "Hi, my `/dev/kfd` device has the wrong permissions, which means that ROCm only\nruns for root.\n",
    ],
)
def test_a_message_wrapped_onto_the_next_line_is_read(text: str) -> None:
    assert signatures(text)


def test_two_short_lines_are_not_joined_into_a_message() -> None:
    assert "gpu_only_for_root" not in signatures("ROCm only\nruns for root.\n")


@pytest.mark.parametrize(
    "path",
    [
        r"C:\Program Files\AMD\ROCm\6.2\bin/rocblas/library/TensileLibrary.dat",
        "/home/me/venv/lib/python3.12/site-packages/torch/lib/rocblas/library/TensileLibrary.dat",
        r"D:\AI Tools\ComfyUI\venv\Lib\site-packages\torch\lib\rocblas\library\TensileLibrary.dat",
    ],
)
def test_rocblas_missing_kernels_read_whatever_the_path_holds(path: str) -> None:
    text = f"rocBLAS error: Cannot read {path}: No such file or directory for GPU arch : gfx1201\n"
    assert "tensile_library_missing_arch" in signatures(text)


def test_an_error_naming_one_gpu_and_prose_naming_another_give_two_gpus() -> None:
    facts = ingest("I have a 7900 XTX.\nrocBLAS error: Cannot read /x/TensileLibrary.dat: Illegal seek for GPU arch : gfx1036\n").facts
    assert sorted(str(a.gfx.value) for a in facts.gpus.agents) == ["gfx1036", "gfx1100"]
    assert facts.symptoms.error_gfx.value == ["gfx1036"]


@pytest.mark.parametrize(
    "line",
    [
        "rocblaslt error: Cannot read /usr/local/lib/ollama/rocm/hipblaslt/library/TensileLibrary_lazy_gfx1201.dat: No such file or directory",
        'rocblaslt error: Cannot read "TensileLibrary_lazy_gfx1201.dat": No such file or directory',
        "rocblaslt error: Cannot read torch/lib/hipblaslt/library/TensileLibrary_lazy_gfx900.dat: No such file",
    ],
)
def test_hipblaslt_missing_its_library_is_read_as_hipblaslts_not_rocblass(line: str) -> None:
    found = signatures(line + "\n")
    assert "hipblaslt_library_missing" in found and "tensile_library_missing_arch" not in found


@pytest.mark.parametrize(
    "line",
    [
        'ocblaslt error: Cannot read "C:\\Program Files\\AMD\\ROCm\\6.2\\bin\\hipblaslt\\library\\TensileLibrary_lazy_gfx1030.dat": No error',
        r"Cannot read C:\Program Files\AMD\ROCm\6.2\bin\hipblaslt\library\TensileLibrary_lazy_gfx1030.dat: No such file or directory",
    ],
)
def test_a_hipblaslt_library_path_is_never_read_as_rocblass_missing_kernels(line: str) -> None:
    assert "tensile_library_missing_arch" not in signatures(line + "\n")


def test_rocblas_missing_kernels_with_a_quoted_path_is_read() -> None:
    line = 'rocBLAS error: Cannot read "/opt/rocm/lib/rocblas/library/TensileLibrary.dat": No such file or directory for GPU arch : gfx1036\n'
    assert "tensile_library_missing_arch" in signatures(line)


# ---- a device line names a GPU; a file name or a CPU model does not (issue 23, item 3)

WINDOWS_ADAPTERS = [
    "PS C:\\Users\\me> (Get-WmiObject win32_VideoController).Name\nMicrosoft Remote Display Adapter\nAMD Radeon(TM) Graphics\nAMD Radeon RX 7900 XTX\n",
    "PS C:\\Users\\me> Get-CimInstance Win32_VideoController | Select-Object Name, DriverVersion\n\nName                      DriverVersion\n----                      -------------\nAMD Radeon(TM) Graphics   32.0.12033.1030\nAMD Radeon RX 7900 XTX    32.0.12033.1030\n",
    "C:\\Users\\me>wmic path win32_VideoController get name\nName\nAMD Radeon(TM) Graphics\nAMD Radeon RX 7900 XTX\n",
]


@pytest.mark.parametrize("text", WINDOWS_ADAPTERS)
def test_windows_display_adapters_are_device_lines(text: str) -> None:
    agents = ingest(text + "\nCPU: AMD Ryzen 5 9600X\n").facts.gpus.agents
    assert [(a.integrated.value, str(a.gfx.value)) for a in agents] == [(True, "gfx1036"), (False, "gfx1100")]
    assert all(str(a.source).startswith("paste:windows") for a in agents)


def test_the_order_of_windows_display_adapters_is_not_the_hip_order() -> None:
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    findings = evaluate(load_rules([], use_env=False), ingest(WINDOWS_ADAPTERS[0] + "\nCPU: AMD Ryzen 5 9600X\n").facts).findings
    names = {f.name for f in findings}
    assert "igpu-next-to-dgpu" in names and "hip-lists-igpu-first" not in names


@pytest.mark.parametrize(
    "text",
    [
        "/opt/rocm/lib/rocblas/library/Kernels.so-000-gfx1030.hsaco\n",
        "ls /lib/firmware/amdgpu/ shows gc_11_0_1_mes.bin and C:\\x\\TensileLibrary_gfx1030.co\n",
        "copied hipblaslt/library/TensileLibrary_lazy_gfx1100.dat next to it\n",
    ],
)
def test_a_gfx_inside_a_file_name_names_no_gpu(text: str) -> None:
    assert not ingest(text).facts.gpus.agents


@pytest.mark.parametrize("text", ["My GPU is gfx1030.", "it reports (gfx1100), fine", "Name: amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"])
def test_a_gfx_standing_alone_still_names_a_gpu(text: str) -> None:
    assert ingest(text + "\n").facts.gpus.agents


# ---- platform spellings, Windows DLL loads, users, installers (issue 23, item 1 of "What to build")


@pytest.mark.parametrize(("text", "release"), [("OS: window 11", "11"), ("I use win11", "11"), ("Win 10 Pro", "10"), ("Windows11 23H2", "11")])
def test_windows_spellings_name_windows_and_its_release(text: str, release: str) -> None:
    facts = ingest(text + "\n").facts
    assert facts.host.os.value == "windows"
    assert facts.host.windows_release.value == release


@pytest.mark.parametrize(
    "line",
    [
        'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\AI Tools\\venv\\lib\\site-packages\\torch\\lib\\caffe2_nvrtc.dll" or one of its dependencies.',
        "ImportError: DLL load failed while importing _C: The specified module could not be found.",
        "Could not load library C:/Program Files/AMD/ROCm/6.2/bin/amdhip64_6.dll",
        # Python's ctypes on Windows, as ZLUDA loaders print it (learn51a: Nerogar/OneTrainer#911, CS1o/Stable-Diffusion-Info#10)
        "Failed to load ZLUDA: Could not find module 'C:\\Program Files\\AMD\\ROCm\\6.2\\bin\\hiprtc0507.dll' (or one of its dependencies). Try using the full path with constructor syntax.",
        # the same line wrapped by a log formatter (vladmandic/sdnext#3910)
        "WARNING  Failed to load ZLUDA: Could not find module 'C:\\SD\\sdnext\\.zluda\\nvcuda.dll' (or one\n                         of its dependencies). Try using the full path with constructor syntax.",
    ],
)
def test_a_windows_dll_that_does_not_load_is_read_in_each_wording(line: str) -> None:
    facts = ingest(line + "\n").facts
    assert "windows_dll_load_failed" in (facts.symptoms.signatures.value or [])
    assert facts.host.os.value == "windows"


@pytest.mark.parametrize(
    "text",
    [
        # ctypes' wording for a module that is not a DLL, or advice quoting no path, is not a DLL the loader refused
        "Could not find module 'libbitsandbytes_rocm62.so'",
        "If you see 'Could not find module', add the HIP SDK bin folder to PATH.",
    ],
)
def test_ctypes_could_not_find_module_needs_a_dll_and_the_dependencies_clause(text: str) -> None:
    assert "windows_dll_load_failed" not in signatures(text + "\n")


@pytest.mark.parametrize(
    "text",
    [
        "It works for user A but not for user B.",
        "I have 2 user accounts (A and B). A runs this successfully and returns True, but B doesn't.",
        "rocminfo works fine as root, but not as my normal user",
    ],
)
def test_works_for_one_user_not_another_is_permissions_evidence(text: str) -> None:
    found = signatures(text + "\n")
    assert {"works_for_another_user", "works_only_as_root"} & set(found)


def test_a_sentence_about_users_without_one_working_is_no_evidence() -> None:
    assert "works_for_another_user" not in signatures("I created two user accounts for testing.\n")


def test_uv_refusing_a_torch_pinned_for_other_platforms_is_read() -> None:
    line = "error: Distribution `torch==2.5.1+rocm6.2 @ registry+https://download.pytorch.org/whl/rocm6.2` can't be installed because it doesn't have a source distribution or wheel for the current platform"
    assert "no_torch_wheel_for_this_platform_uv" in signatures(line + "\n")


def test_incompatible_kernel_and_userspace_is_read() -> None:
    line = "HSA Error:  Incompatible kernel and userspace, Vega 20 WKS GL-XE [Radeon Pro VII] disabled. Upgrade amdgpu."
    assert signatures(line + "\n")


@pytest.mark.parametrize(("text", "release"), [("Windows 10.0.26200", "11"), ("OS: Windows 10.0.19045", "10")])
def test_the_windows_version_string_names_windows_and_its_release_by_build(text: str, release: str) -> None:
    facts = ingest(text + "\n").facts
    assert facts.host.os.value == "windows"
    assert facts.host.windows_release.value == release


@pytest.mark.parametrize(
    ("text", "spoken_of"),
    [
        ("hipBLASLt supports only gfx90a GPUs.", True),
        ("Is hipBLASLt used on my card?", True),
        ("apt install hipblaslt-dev6.1.2", False),  # a package name
        ("export TORCH_BLAS_PREFER_HIPBLASLT=0", False),
        ("ls /opt/rocm/lib/hipblaslt/library", False),
    ],
)
def test_a_report_speaks_of_hipblaslt_in_the_librarys_spelling_not_in_package_names(text: str, spoken_of: bool) -> None:
    context = ingest(text + "\n").facts.symptoms.context
    assert ("hipblaslt_spoken_of" in (context.value or [])) is spoken_of


@pytest.mark.parametrize(
    "text",
    [
        "hipblastlt is only supported on gfx90a and gfx94x cards\n",
        "PyTorch now requires hipBLASLt, but hipBLASLt supports only `gfx90a` GPUs.\n",
        "The library is supported only on gfx942.\n",
    ],
)
def test_a_support_list_in_prose_names_no_gpu_of_the_reporter(text: str) -> None:
    # pytorch/pytorch#119081, ROCm/hipBLASLt#516, Comfy-Org/ComfyUI#3698: what a library supports
    assert ingest(text).facts.gpus.agents == []


@pytest.mark.parametrize("text", ["_AMD Radeon RX 5600 XT_\n", "*AMD Radeon RX 5600 XT*\n", "**AMD Radeon RX 5600 XT**\n", "__RX 5600 XT__\n"])
def test_a_gpu_name_in_markdown_emphasis_is_read(text: str) -> None:
    # CommonMark emphasis with '_' or '*' around the name (ROCm/legacy-rocm-build#1623 uses '_')
    assert [a.gfx.value for a in ingest(text).facts.gpus.agents] == ["gfx1010"]


@pytest.mark.parametrize(
    "text",
    [
        "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check\n",
        "it will always end in `AssertionError: Torch is not able to use GPU`\n",
        "ROCm is not yet supported, resulting in \"Torch is not able to use the GPU\"\n",
    ],
)
def test_the_webui_gpu_check_reads_with_or_without_its_hint(text: str) -> None:
    # AUTOMATIC1111/stable-diffusion-webui#7459, #7638, #10358 retell it without the hint
    context = ingest(text).facts.symptoms.context
    assert "webui_torch_gpu_check_failed" in (context.value or [])


def test_an_ollama_device_record_hard_wrapped_by_a_narrow_terminal_is_read_whole() -> None:
    import textwrap

    from rocm_doctor.ingest import ingest_text

    record = ('time=2024-09-25T10:00:00.000+02:00 level=INFO source=types.go:107 msg="inference compute" id=0 '
              'library=rocm variant="" compute=gfx1102 driver=6.2 name="AMD Radeon RX 7600" total="8.0 GiB"')
    wrapped = "\n".join(textwrap.wrap(record, 60, break_long_words=False, break_on_hyphens=False)) + "\n"  # at spaces, as a terminal or a mailer wraps
    for text in (record + "\n", wrapped):
        result = ingest_text(text)
        assert [a.gfx.value for a in result.facts.gpus.agents] == ["gfx1102"], text
        assert result.facts.driver.amdgpu_version.value == "6.2", text  # read from the record, not from prose
        assert "ollama-devices" in [p.kind for p in result.pieces]


@pytest.mark.parametrize(
    "text",
    [
        # a release not tried, not offered or not built for: no failure is said of it (r30a)
        "torch 2.4.1 works fine, torch 2.5.0 not tested yet.\n",
        "torch 2.4.1 works, torch 2.5.0 not available for my ROCm.\n",
        "torch 2.4.1 works, torch 2.5.0 doesn't have wheels for my Python.\n",
    ],
)
def test_a_release_beside_a_working_one_that_is_not_said_to_fail_is_not_the_torch_in_use(text: str) -> None:
    facts = ingest(text).facts
    assert not (facts.torch.version.is_known and facts.torch.version.value == "2.5.0")
    assert not facts.symptoms.earlier.is_known


@pytest.mark.parametrize(
    "text, now",
    [
        ("torch 2.4.1 works, torch 2.5.0 doesn't.\n", "2.5.0"),
        ("torch 2.4.1 works, torch 2.5.0 not working.\n", "2.5.0"),
    ],
)
def test_a_release_said_not_to_work_beside_a_working_one_is_the_torch_in_use(text: str, now: str) -> None:
    assert ingest(text).facts.torch.version.value == now


@pytest.mark.parametrize(
    "text, rocm, torch",
    [
        # rev51g: a bare failing release after a word naming another program is that program's release
        ("It works with ROCm 6.1 but Blender crashes with 4.2.\n", "6.1", None),
        ("Works with ROCm 6.2 under Python 3.11 but the build fails with 3.12.\n", "6.2", None),
        ("works with torch 2.4.1 but Blender crashes with 4.2\n", None, "2.4.1"),
    ],
)
def test_a_bare_failing_release_of_another_program_is_no_pair(text: str, rocm, torch) -> None:
    facts = ingest(text).facts
    assert facts.rocm.version.value == rocm and facts.torch.version.value == torch
    assert not facts.symptoms.earlier.is_known


@pytest.mark.parametrize(
    "text, earlier, now",
    [
        ("It worked fine with ROCm 5.7, but it doesn't work with 6.0.\n", "5.7", "6.0"),
        ("It worked fine with ROCm 5.7, but it doesn\u2019t work with 6.0.\n", "5.7", "6.0"),
        ("Works fine for me with rocm6.1, but now crashes with 6.2\n", "6.1", "6.2"),
        ("It worked fine with ROCm 5.7 on my RX 6700 XT, but fails with 6.0.\n", "5.7", "6.0"),
    ],
)
def test_a_bare_failing_release_after_only_connecting_words_is_still_read(text: str, earlier: str, now: str) -> None:
    _assert_in_use_and_earlier(ingest(text).facts, "rocm", now, earlier)


@pytest.mark.parametrize(
    "text",
    [
        # rev51g: a release said to work now is a fix that may be the one in use, not what changed
        "ROCm 6.2 crashes. I reinstalled and now it works fine with ROCm 6.1.\n",
        "I was on ROCm 6.2 which crashed. Now it works fine with ROCm 6.1.\n",
        "ROCm 6.2 kept crashing; finally it runs with ROCm 6.1.\n",
    ],
)
def test_a_rocm_release_said_to_work_now_beside_a_failing_one_is_no_earlier_state(text: str) -> None:
    facts = ingest(text).facts
    assert facts.rocm.version.value != "6.2"
    assert "rocm.version=6.1" not in (facts.symptoms.earlier.value or [])


@pytest.mark.parametrize(
    "text, now",
    [
        # rev51g: a working release named at another precision than the one in use is the same release
        ("I have ROCm 6.2.4 installed. It works fine with ROCm 6.2 for inference, but training crashes.\n", "6.2.4"),
        ("I have ROCm 6.2 installed. It works fine with ROCm 6.2.4 for inference, but training crashes.\n", "6.2.4"),
    ],
)
def test_a_working_rocm_release_at_another_precision_is_no_earlier_state(text: str, now) -> None:
    facts = ingest(text).facts
    assert facts.rocm.version.value == now
    assert not facts.symptoms.earlier.is_known
