"""Containers and access to the GPU device files, read from pastes (issue 23, rules RD860-RD862).

Each wording here is a form seen in several public reports (the signature rows in
rules/data/signatures.yaml, block h23p, name them); none is one report's text.
"""

from __future__ import annotations


import pytest
from ingest_helpers import ingest, problems_shown, serious_findings, signature_contexts, signature_errors


# ----------------------------------------------------------------- reading the container command


@pytest.mark.parametrize(
    "line",
    [
        "me@box:~$ docker run -it --device=/dev/kfd --device=/dev/dri rocm/pytorch:latest",
        "ubuntu@ubuntu:~$ toolbox create vllm \\",
        "user@host:~/src$ podman run --rm --device /dev/kfd --device /dev/dri ollama/ollama:rocm",
        "[me@fedora ~]$ distrobox create --name rocm --image rocm/dev-ubuntu-24.04",
    ],
)
def test_a_container_command_after_a_shell_prompt_says_the_program_runs_in_a_container(line: str) -> None:
    facts = ingest(line + "\nRuntimeError: No HIP GPUs are available\n").facts
    assert facts.host.container.value == "docker"


# ----------------------------------------------------------------- signatures


@pytest.mark.parametrize(
    "line",
    [
        "2024-04-29 21:45:04.020735: E external/local_xla/xla/stream_executor/rocm/rocm_driver.cc:261] failed call to hipInit: HIP_ERROR_InvalidDevice",
        ":1:rocdevice.cpp            :450 : 0365257328 us: [pid:19635 tid:0x7f1dcaebe580] hsa_init failed.",
        ":3:hip_context.cpp          :153 : 0365257343 us: [pid:19635 tid:0x7f1dcaebe580] hipInit: Returned hipErrorInvalidDevice : ",
        ":1:rocdevice.cpp            :478 : 0079107773 us: [pid:37    tid:0x79adf78bf340] hsa_init failed with 1008",
    ],
)
def test_a_failed_hip_runtime_initialisation_is_read_in_its_log_forms(line: str) -> None:
    assert "hip_init_failed" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "error: 'hipErrorInvalidDevice'(101) at square.cpp:61",
        "hipSetDevice(3): Returned hipErrorInvalidDevice",
        "HIP initialised fine, hipInit returned hipSuccess",
    ],
)
def test_an_invalid_device_index_is_not_a_failed_initialisation(line: str) -> None:
    assert "hip_init_failed" not in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "The rocminfo cannot find any available gpu inside the container.",
        "ollama does not detect the GPU in the docker container",
        "GPU is not detected inside the container",
        "vLLM can't see my GPUs from within a podman container",
        "AMD GPU not being detected in docker ROCm windows 11 RX 7800 XT",
        "ollama is not detecting the AMD GPU in the container",
    ],
)
def test_the_gpu_unseen_inside_a_container_is_read_in_its_wordings(line: str) -> None:
    assert "no_gpu_in_container" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "The GPU is detected inside the container.",
        "I cannot find the docs for running in a container",
        "No GPU on this laptop; I use a container for the CPU build",
    ],
)
def test_a_container_sentence_without_a_missing_gpu_is_not_read_as_one(line: str) -> None:
    assert "no_gpu_in_container" not in signature_errors(line)


@pytest.mark.parametrize(
    ("line", "context"),
    [
        ("Docker Desktop 4.37.1 on Ubuntu 24.04", "docker_desktop_named"),
        ('Current context is now "desktop-linux"', "docker_desktop_named"),
        ("Server: Docker Desktop 4.26.1 (131620)", "docker_desktop_named"),
        ("docker run -it --device=/dev/kfd --device=/dev/dri rocm/pytorch", "gpu_devices_passed_to_container"),
        ("   --device /dev/kfd \\", "gpu_devices_passed_to_container"),
        ('podman run --device "/dev/kfd" --device "/dev/dri" ollama/ollama:rocm', "gpu_devices_passed_to_container"),
        ("The host can see the GPUs, but processes inside Docker cannot.", "host_sees_gpu"),
        ("ollama runs on the GPU on my host machine", "host_sees_gpu"),
    ],
)
def test_container_context_is_read_in_its_forms(line: str, context: str) -> None:
    assert context in signature_contexts(line)


@pytest.mark.parametrize(
    ("line", "context"),
    [
        ("docker run -it --device=/dev/dri rocm/pytorch", "gpu_devices_passed_to_container"),
        ("ls -l /dev/kfd", "gpu_devices_passed_to_container"),
        ("I installed Docker Engine from docs.docker.com", "docker_desktop_named"),
        ("the host name is gpu-01", "host_sees_gpu"),
    ],
)
def test_near_misses_are_not_container_context(line: str, context: str) -> None:
    assert context not in signature_contexts(line)


# ----------------------------------------------------------------- findings


def test_docker_desktop_running_a_rocm_container_without_a_gpu_is_named() -> None:
    shown = problems_shown(
        "Docker Desktop 4.37 on Ubuntu 24.04\n"
        "docker run -it --device=/dev/kfd --device=/dev/dri --group-add video rocm/pytorch:latest\n"
        "RuntimeError: No HIP GPUs are available\n"
    )
    assert "RD861" in shown


def test_docker_desktop_named_only_in_passing_is_a_conditional_warning_not_an_error() -> None:
    # "I removed Docker Desktop" names it without showing it runs the container: the finding
    # may only say "if Docker Desktop runs this container".
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    text = (
        "I removed Docker Desktop last week and use docker-ce now.\n"
        "$ docker run -it --device=/dev/kfd --device=/dev/dri rocm/pytorch\n"
        "The GPU is not detected in the container.\n"
    )
    findings = [f for f in evaluate(load_rules([], use_env=False), ingest(text).facts).findings if f.id == "RD861"]
    assert findings and all(f.severity == "warning" for f in findings)
    assert all(f.message.startswith("The report names Docker Desktop; if it runs this container") for f in findings)


def test_docker_desktop_named_in_a_report_without_a_gpu_error_gives_no_finding_about_it() -> None:
    shown = problems_shown(
        "Docker Desktop 4.37 on Ubuntu 24.04\n"
        "docker run -it --device=/dev/kfd --device=/dev/dri --group-add video rocm/pytorch:latest\n"
        ">>> torch.cuda.is_available()\nTrue\n"
    )
    assert "RD861" not in shown and "RD862" not in shown


def test_devices_passed_and_the_host_working_but_no_gpu_inside_names_the_engine_and_the_groups() -> None:
    shown = problems_shown(
        "The host can see the GPUs, but processes inside Docker cannot.\n"
        "docker run -it --device /dev/kfd --device /dev/dri --group-add=video vllm-rocm bash\n"
        "rocminfo cannot find any available gpu inside the container.\n"
    )
    assert "RD862" in shown


def test_a_failed_hipinit_as_a_user_points_at_the_device_groups_and_not_as_root() -> None:
    line = "E rocm_driver.cc:261] failed call to hipInit: HIP_ERROR_InvalidDevice\n"
    assert "RD860" in problems_shown("me@box:~$ python -c 'import tensorflow'\n" + line)
    assert "RD860" not in problems_shown("root@box:~# python -c 'import tensorflow'\n" + line)


@pytest.mark.parametrize(
    "line",
    [
        "docker: Error response from daemon: Unable to find group render: no matching entries in group file.",
        "Error response from daemon: Unable to find group render: no matching entries in group file",
        "docker: Error response from daemon: Unable to find group keep-groups: no matching entries in group file.",
    ],
)
def test_docker_refusing_a_group_name_the_image_lacks_is_read(line: str) -> None:
    assert "container_group_not_in_image" in signature_errors(line)


def test_a_group_name_missing_from_the_image_is_an_error_that_names_the_numeric_id() -> None:
    shown = problems_shown(
        "docker run -it --device=/dev/kfd --device=/dev/dri --group-add render rocm/pytorch:latest\n"
        "docker: Error response from daemon: Unable to find group render: no matching entries in group file.\n"
    )
    assert shown and shown[0] == "RD863"


# ----------------------------------------------------------------- runtimes an application ships


@pytest.mark.parametrize(
    "line",
    [
        "~/.unsloth/llama.cpp/llama-server --version",
        "#3  0x00007f1c2a3b4c5d in ?? () from /home/me/.unsloth/llama.cpp/build/bin/libhsa-runtime64.so.1",
        "./lib/ollama/libhsa-runtime64.so.1",
        "sudo rm -rf /usr/lib/ollama/",
        "LD_LIBRARY_PATH=/usr/local/lib/ollama/rocm/libamdhip64.so.6 missing",
    ],
)
def test_a_runtime_an_application_ships_is_read_from_its_folders(line: str) -> None:
    assert "app_bundled_rocm_runtime" in signature_contexts(line)


@pytest.mark.parametrize(
    "line",
    [
        "/opt/rocm/lib/libhsa-runtime64.so.1",
        "ollama serve",
        "/usr/share/ollama/.ollama/models/blobs/sha256-6a07",
    ],
)
def test_the_system_runtime_and_ollama_data_are_not_a_bundled_runtime(line: str) -> None:
    assert "app_bundled_rocm_runtime" not in signature_contexts(line)


def test_a_segfault_of_a_bundled_prebuilt_points_at_the_bundled_runtime() -> None:
    shown = problems_shown("$ ~/.unsloth/llama.cpp/llama-server --version\nSegmentation fault (core dumped)\n")
    assert "RD864" in shown


def test_a_segfault_without_an_application_bundle_does_not_blame_one() -> None:
    shown = problems_shown("$ python train.py\nSegmentation fault (core dumped)\n")
    assert "RD864" not in shown


@pytest.mark.parametrize(
    "line",
    [
        "Error: unable to initialize llm library Radeon card detected, but permissions not set up properly.  Either run ollama as root, or add you user account to the render group.",
        'level=ERROR source=amd_linux.go:404 msg="amdgpu devices detected but permission problems block access: permissions not set up properly.  Either run ollama as root, or add you user account to the render group. open /dev/kfd: permission denied"',
    ],
)
def test_ollamas_refused_dev_kfd_is_read_in_its_old_and_new_forms(line: str) -> None:
    assert "ollama_kfd_permission_denied" in signature_errors(line)


def test_ollama_without_dev_kfd_in_a_container_is_not_a_permission_refusal() -> None:
    line = 'level=ERROR source=amd_linux.go:364 msg="amdgpu devices detected but permission problems block access" error="kfd driver not loaded.  If running in a container, remember to include \'--device /dev/kfd --device /dev/dri\'"'
    assert "ollama_kfd_permission_denied" not in signature_errors(line)
    assert "kfd_permission_denied" not in signature_errors(line)


def test_ollamas_old_permission_message_is_the_first_error() -> None:
    shown = problems_shown(
        "$ ollama serve\n"
        "Error: unable to initialize llm library Radeon card detected, but permissions not set up properly.  Either run ollama as root, or add you user account to the render group.\n"
    )
    assert shown and shown[0] == "RD516"


def test_the_bundled_runtime_fix_scopes_ollama_commands_to_ollama_and_stops_its_service_first() -> None:
    # RD864 fires for Unsloth reports too; ollama.service holds the port a hand-started
    # `ollama serve` needs, and ollama lives in /usr/lib/ollama or /usr/local/lib/ollama
    from rocm_doctor.judge.loader import load_rules

    (rule,) = [r for r in load_rules([], use_env=False) if r.id == "RD864"]
    for fix in rule.fixes:
        commands = getattr(fix, "commands", [])
        if any("ollama" in c for c in commands):
            assert (fix.text or "").startswith("For ollama")
            assert commands[0] == "sudo systemctl stop ollama"
    ollama_fix = next(f for f in rule.fixes if (f.text or "").startswith("For ollama"))
    said = " ".join(ollama_fix.commands) + " " + (ollama_fix.text or "")
    assert "/usr/lib/ollama" in said and "/usr/local/lib/ollama" in said
    assert any(not (f.text or "").startswith("For ollama") and "ollama" not in " ".join(getattr(f, "commands", [])) for f in rule.fixes)


# ----------------------------------------------------------------- no GPU in a container said in prose (RD865)


@pytest.mark.parametrize(
    "report",
    [
        # the wordings of ROCm/legacy-rocm-build#415, truenas/apps#1908 and ROCm/ROCm-docker#30, each with its error
        "I have docker container on ubuntu 16.04.\nhsa api call failure at line 900, file: rocminfo.cc. Call returned 4104\n",
        "I've got the ROCm ML image running, but the container keeps crashing:\nHIP failure 100: no ROCm-capable device is detected\n",
        "The docker-instance is run as root.\nhipErrorNoDevice: no ROCm-capable device is detected\n",
    ],
)
def test_no_gpu_inside_a_container_said_in_prose_is_a_permissions_finding(report: str) -> None:
    assert "permissions" in [category for _, _, category in serious_findings(report)]


def test_a_container_whose_command_passes_the_devices_gets_no_devices_not_shown_finding() -> None:
    report = (
        "docker run -it --device=/dev/kfd --device=/dev/dri --group-add video rocm/dev-ubuntu-22.04\n"
        "HIP failure 100: no ROCm-capable device is detected\n"
    )
    assert "RD865" not in [rule for rule, _, _ in serious_findings(report)]


def test_the_same_error_on_the_host_gets_no_container_finding() -> None:
    report = "HIP failure 100: no ROCm-capable device is detected\n"
    assert "RD865" not in [rule for rule, _, _ in serious_findings(report)]


def test_a_container_said_to_have_crashed_or_exited_in_the_past_does_not_put_the_report_in_a_container() -> None:
    # review65: a past event, here another program's container, while the error is the host's
    report = (
        "Ubuntu 22.04, RX 6800 XT, ROCm 6.2.\n"
        "Separately my Home Assistant container crashed yesterday, unrelated.\n"
        "RuntimeError: No HIP GPUs are available\n"
    )
    assert ingest(report).facts.host.container.status != "known"
    assert not {"RD348", "RD865"} & {rule for rule, _, _ in serious_findings(report)}


@pytest.mark.parametrize("sentence", ["Should I use a docker container for this?", "Do I run a docker container or the host?", "If I run a docker container, will it see the GPU?"])
def test_a_container_asked_about_or_supposed_does_not_put_the_report_in_a_container(sentence: str) -> None:
    # review65: the reporter's "I run a docker container" inside a question or a condition
    report = f"Ubuntu 22.04, RX 7900 XTX.\n{sentence}\nRuntimeError: No HIP GPUs are available\n"
    assert ingest(report).facts.host.container.status != "known"
