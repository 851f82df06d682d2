"""A command's own environment (``NAME=value cmd``) is that command's, not the session's: a rule that judges two
variables together judges them only where one program had both.

The environments: :func:`rocm_doctor.judge.derived_facts.env.environments`; the command a prefix belongs to:
:attr:`rocm_doctor.facts.model.EnvSetting.command`. Real reports that set the variables per command:
Parsl/parsl#3858 (four ``> NAME=... python -c ...`` commands, one of which masks twice), ROCm/rocm-cli#395
(``HIP_VISIBLE_DEVICES=1 llama-server`` and ``HIP_VISIBLE_DEVICES=0 llama-server`` beside an ``export``),
mcmonkeyprojects/SwarmUI#565 (``export ROCR_VISIBLE_DEVICES=1`` / ``export HIP_VISIBLE_DEVICES=1``: the session's,
so they do meet) and pytorch/pytorch#140398 (``ROCR_VISIBLE_DEVICES=0 python test.py``, one command's).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import List

import pytest
import yaml
from ingest_helpers import ingest

from rocm_doctor.judge.derived_facts.env import environments
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpus"


@lru_cache(maxsize=None)
def _rules() -> tuple:
    return tuple(load_rules([], use_env=False))


def fired(text: str) -> List[str]:
    return [f.id for f in evaluate(list(_rules()), ingest(text).facts).findings]


# ------------------------------------------------------------------ RD710: two masks in one program's environment

TWO_COMMANDS = [
    # each command its own prefix: ROCr's mask for the server, HIP's for the script
    "```\n$ ROCR_VISIBLE_DEVICES=1 ollama serve\n$ HIP_VISIBLE_DEVICES=1 python train.py\n```\n",
    # the same in prose's inline code, the other variable told in words
    "I run `ROCR_VISIBLE_DEVICES=1 ollama serve` and then in another terminal I use HIP_VISIBLE_DEVICES=1 for my pytorch script.\n",
    # Parsl/parsl#3858's commands that worked: one variable each
    "```\n> CUDA_VISIBLE_DEVICES=1 python -c \"import torch; print(torch.cuda.device_count())\"\n1\n"
    "> ROCR_VISIBLE_DEVICES=1 python -c \"import torch; print(torch.cuda.device_count())\"\n1\n```\n",
    # two servers on two GPUs, one mask each (the MI300X tuning guide's pattern, ROCm/legacy-rocm-build#3417)
    "```\nROCR_VISIBLE_DEVICES=1 python -m vllm.entrypoints.api_server --port 8000 &\n"
    "HIP_VISIBLE_DEVICES=1 python -m vllm.entrypoints.api_server --port 8001 &\n```\n",
]


@pytest.mark.parametrize("text", TWO_COMMANDS)
def test_two_commands_prefixes_are_not_one_environment_for_rd710(text: str) -> None:
    assert "RD710" not in fired(text)


ONE_ENVIRONMENT = [
    # one command's prefix sets both (Parsl/parsl#3858's failing command)
    "```\n$ ROCR_VISIBLE_DEVICES=1 HIP_VISIBLE_DEVICES=1 python train.py\n```\n",
    # the session's export and a later command's prefix: the command inherits the export
    "```\n$ export ROCR_VISIBLE_DEVICES=1\n$ HIP_VISIBLE_DEVICES=1 python train.py\n```\n",
    # both exported (mcmonkeyprojects/SwarmUI#565)
    "```\n$ export ROCR_VISIBLE_DEVICES=1\n$ export HIP_VISIBLE_DEVICES=1\n$ python\n>>> import torch\n>>> torch.cuda.is_available()\nFalse\n```\n",
    # both in one command written in inline code
    "Running `ROCR_VISIBLE_DEVICES=1 HIP_VISIBLE_DEVICES=1 python train.py` finds no GPU.\n",
    # both told in one sentence, no command named
    "I set ROCR_VISIBLE_DEVICES=1 and HIP_VISIBLE_DEVICES=1 and torch finds no GPU.\n",
]


@pytest.mark.parametrize("text", ONE_ENVIRONMENT)
def test_two_masks_in_one_programs_environment_still_fire_rd710(text: str) -> None:
    assert "RD710" in fired(text)


def test_each_command_gets_the_session_and_its_own_prefix_only() -> None:
    facts = ingest("```\n$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ ROCR_VISIBLE_DEVICES=1 ollama serve\n$ HIP_VISIBLE_DEVICES=1 python x.py\n```\n").facts
    envs = environments(facts)
    assert {"HSA_OVERRIDE_GFX_VERSION": "10.3.0", "ROCR_VISIBLE_DEVICES": "1"} in envs
    assert {"HSA_OVERRIDE_GFX_VERSION": "10.3.0", "HIP_VISIBLE_DEVICES": "1"} in envs
    assert not any("ROCR_VISIBLE_DEVICES" in env and "HIP_VISIBLE_DEVICES" in env for env in envs)


def test_a_report_without_a_command_prefix_has_the_one_environment_it_shows() -> None:
    facts = ingest("```\n$ export ROCR_VISIBLE_DEVICES=1\n$ export HIP_VISIBLE_DEVICES=0\n```\n").facts
    assert environments(facts) == [{"ROCR_VISIBLE_DEVICES": "1", "HIP_VISIBLE_DEVICES": "0"}]


def test_the_prefixes_of_one_command_share_its_command_and_another_commands_do_not() -> None:
    facts = ingest("```\n$ ROCR_VISIBLE_DEVICES=1 HIP_VISIBLE_DEVICES=0 python a.py\n$ HIP_VISIBLE_DEVICES=1 python b.py\n```\n").facts
    commands = [(s.name, s.value, s.command) for s in facts.env.settings.value]
    assert commands[0][2] == commands[1][2] is not None
    assert commands[2][2] not in (None, commands[0][2])
    exported = ingest("```\n$ export ROCR_VISIBLE_DEVICES=1\n```\n").facts
    assert exported.env.settings.value[0].command is None


# ------------------------------------------------------------------ the other facts that judge two variables together


def _derived(text: str, name: str):
    from rocm_doctor.judge.derived import compute_machine

    return compute_machine(ingest(text).facts)[f"derived.{name}"]


@pytest.mark.parametrize(
    "text, conflict",
    [
        ("```\n$ HIP_VISIBLE_DEVICES=0 python a.py\n$ CUDA_VISIBLE_DEVICES=1 python b.py\n```\n", False),
        ("```\n$ HIP_VISIBLE_DEVICES=0 CUDA_VISIBLE_DEVICES=1 python a.py\n```\n", True),
        ("```\n$ export CUDA_VISIBLE_DEVICES=1\n$ HIP_VISIBLE_DEVICES=0 python a.py\n```\n", True),
    ],
)
def test_hip_and_cuda_lists_conflict_only_in_one_programs_environment(text: str, conflict: bool) -> None:
    fact = _derived(text, "visible_devices_conflict")
    assert fact.is_known and fact.value is conflict


@pytest.mark.parametrize(
    "text, shadowed",
    [
        ("```\n$ PYTORCH_HIP_ALLOC_CONF=expandable_segments:True python a.py\n$ PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:512 python b.py\n```\n", False),
        ("```\n$ export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:512\n$ PYTORCH_HIP_ALLOC_CONF=expandable_segments:True python a.py\n```\n", True),
    ],
)
def test_an_allocator_spelling_is_shadowed_only_by_one_in_the_same_environment(text: str, shadowed: bool) -> None:
    fact = _derived(text, "hip_alloc_conf_shadowed")
    assert fact.is_known and fact.value is shadowed


def test_a_hip_list_is_judged_against_the_gpus_not_another_commands_rocr_mask() -> None:
    # the script's HIP_VISIBLE_DEVICES=1 on a one-GPU machine names no GPU whatever the server's ROCr mask is
    text = "```\n$ ROCR_VISIBLE_DEVICES=0 ollama serve\n$ HIP_VISIBLE_DEVICES=1 python x.py\n```\nI have one GPU.\n"
    assert "RD710" not in fired(text)
    fact = _derived(text, "visible_devices_hide_every_gpu")
    assert fact.is_known and str(fact.value).startswith("HIP_VISIBLE_DEVICES=1 on a machine with one GPU")


# ------------------------------------------------------------------ real reports that set the variables per command


def _case(path: Path) -> dict:
    if not path.exists():
        pytest.skip(f"{path} is not here (../shared is absent)")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_parsl_3858_the_command_that_masks_twice_is_diagnosed_and_its_neighbours_are_not_joined() -> None:
    case = _case(SHARED / "parsl-3858-frontier-rocr-and-cuda-visible-devices-double-mask.yaml")
    facts = ingest(case["report"]).facts
    assert "RD710" in fired(case["report"])
    # the failing command's own pair, not the first command's CUDA_VISIBLE_DEVICES=1 with the last one's ROCR
    assert {"ROCR_VISIBLE_DEVICES": "1", "CUDA_VISIBLE_DEVICES": "1"} in environments(facts)
    by_line = {}
    for setting in facts.env.settings.value:
        by_line.setdefault(setting.command, []).append(setting.name)
    assert sorted(len(names) for names in by_line.values()) == [1, 1, 2, 2]


def test_rocm_cli_395_per_command_hip_lists_keep_their_diagnosis() -> None:
    case = _case(ROOT / "tests" / "corpus" / "rocmcli-395-hip-visible-devices-1-pins-igpu-desktop.yaml")
    shown = fired(case["report"])
    assert "RD515" in shown and "RD710" not in shown
    facts = ingest(case["report"]).facts
    commands = {s.command for s in facts.env.settings.value if s.origin == "command-prefix"}
    assert len(commands) == 2


def test_pytorch_140398_one_commands_rocr_mask_is_that_commands() -> None:
    text = (
        "Before:\n```\nROCR_VISIBLE_DEVICES=0 python test.py\n"
        "  File \"/root/test.py\", line 4, in <module>\n    device_properties = torch.cuda.get_device_properties(i)\n```\n"
        "With `HIP_VISIBLE_DEVICES=0,1 python test.py` torch counts 2.\n"
    )
    facts = ingest(text).facts
    assert not any("ROCR_VISIBLE_DEVICES" in env and "HIP_VISIBLE_DEVICES" in env for env in environments(facts))
    assert "RD710" not in fired(text)


def test_a_command_in_prose_inline_code_owns_its_prefix_and_a_sentence_in_it_does_not() -> None:
    facts = ingest("I run `ROCR_VISIBLE_DEVICES=1 HIP_VISIBLE_DEVICES=0 ollama serve` on the server.\n").facts
    commands = {s.command for s in facts.env.settings.value}
    assert len(commands) == 1 and None not in commands
    said = ingest("I tried `HSA_OVERRIDE_GFX_VERSION=11.0.0 on my 780M` but it still uses the CPU.\n").facts
    assert all(s.command is None for s in said.env.settings.value or [])


# ------------------------------------------------------------------ a container's and a Python script's own environment (env60)

OWN_PROCESS = [
    # docker run -e: the container's environment, not the host's (Docker run reference: -e/--env)
    "```\n$ docker run -it --device=/dev/kfd --device=/dev/dri -e ROCR_VISIBLE_DEVICES=1 rocm/pytorch python a.py\n"
    "$ HIP_VISIBLE_DEVICES=1 python b.py\n```\n",
    # os.environ in a script: that Python process's environment, from that line on
    "```python\nimport os\nos.environ[\"ROCR_VISIBLE_DEVICES\"] = \"1\"\nimport torch\nprint(torch.cuda.device_count())\n```\n"
    "```\n$ HIP_VISIBLE_DEVICES=1 python b.py\n```\n",
]


@pytest.mark.parametrize("text", OWN_PROCESS)
def test_a_container_or_script_setting_does_not_meet_another_commands_prefix_for_rd710(text: str) -> None:
    assert "RD710" not in fired(text)


def test_docker_run_e_and_os_environ_settings_are_their_own_processes() -> None:
    facts = ingest(
        "```\n$ docker run --device=/dev/kfd -e HIP_VISIBLE_DEVICES=1 \\\n    -e HSA_OVERRIDE_GFX_VERSION=11.0.0 rocm/pytorch\n```\n"
        "```python\nimport os\nos.environ['ROCR_VISIBLE_DEVICES'] = '0'\nos.environ['PYTORCH_HIP_ALLOC_CONF'] = 'expandable_segments:True'\n```\n"
    ).facts
    by_name = {s.name: s for s in facts.env.settings.value}
    container = by_name["HIP_VISIBLE_DEVICES"].command
    assert container is not None and by_name["HSA_OVERRIDE_GFX_VERSION"].command == container
    script = by_name["ROCR_VISIBLE_DEVICES"].command
    assert script is not None and script != container and by_name["PYTORCH_HIP_ALLOC_CONF"].command == script
    envs = environments(facts)
    assert not any("ROCR_VISIBLE_DEVICES" in env and "HIP_VISIBLE_DEVICES" in env for env in envs)


def test_both_masks_in_one_docker_run_still_fire_rd710() -> None:
    assert "RD710" in fired("```\n$ docker run --device=/dev/kfd -e ROCR_VISIBLE_DEVICES=1 -e HIP_VISIBLE_DEVICES=1 rocm/pytorch python a.py\n```\n")


COMPOSE_TWO_SERVICES = (
    "```yaml\nservices:\n  ollama:\n    image: ollama/ollama:rocm\n    environment:\n      - ROCR_VISIBLE_DEVICES=1\n"
    "  webui:\n    image: comfyui-rocm\n    environment:\n      - HIP_VISIBLE_DEVICES=1\n```\n"
)


def test_each_compose_service_has_its_own_environment() -> None:
    facts = ingest(COMPOSE_TWO_SERVICES).facts
    by_name = {s.name: s.command for s in facts.env.settings.value}
    assert None not in by_name.values() and by_name["ROCR_VISIBLE_DEVICES"] != by_name["HIP_VISIBLE_DEVICES"]
    assert "RD710" not in fired(COMPOSE_TWO_SERVICES)


def test_both_masks_in_one_compose_service_still_fire_rd710() -> None:
    text = "```yaml\nservices:\n  ollama:\n    image: ollama/ollama:rocm\n    environment:\n      - ROCR_VISIBLE_DEVICES=1\n      - HIP_VISIBLE_DEVICES=1\n```\n"
    assert "RD710" in fired(text)


def test_a_systemd_units_settings_are_the_services_own_not_another_commands() -> None:
    text = (
        "```ini\n[Service]\nEnvironment=\"ROCR_VISIBLE_DEVICES=1\"\n```\n"
        "```\n$ HIP_VISIBLE_DEVICES=1 python train.py\nRuntimeError: HIP error: invalid device ordinal\n```\n"
    )
    facts = ingest(text).facts
    by_name = {s.name: s.command for s in facts.env.settings.value}
    assert by_name["ROCR_VISIBLE_DEVICES"] is not None and by_name["ROCR_VISIBLE_DEVICES"] != by_name["HIP_VISIBLE_DEVICES"]
    assert "RD710" not in fired(text)
    both = "```ini\n[Service]\nEnvironment=\"ROCR_VISIBLE_DEVICES=1\"\nEnvironment=\"HIP_VISIBLE_DEVICES=1\"\n```\n"
    assert "RD710" in fired(both)


def test_program_environments_leave_out_the_bare_session_and_keep_what_sentences_tell() -> None:
    from rocm_doctor.judge.derived_facts.env import program_environments

    facts = ingest("I use HIP_VISIBLE_DEVICES=1 for everything.\n```\n$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ ROCR_VISIBLE_DEVICES=1 ollama serve\n```\n").facts
    assert program_environments(facts) == [{"HSA_OVERRIDE_GFX_VERSION": "10.3.0", "ROCR_VISIBLE_DEVICES": "1", "HIP_VISIBLE_DEVICES": "1"}]
    session_only = ingest("```\n$ export ROCR_VISIBLE_DEVICES=1\n```\n").facts
    assert program_environments(session_only) == environments(session_only) == [{"ROCR_VISIBLE_DEVICES": "1"}]


# ------------------------------------------------ a service's or a container's own environment takes no shell export
# A compose service, a docker run container and a systemd unit are started by the container runtime or by systemd,
# not by the report's shell: the shell's exports never reach them (Docker's run reference, systemd.exec(5)).

SHELL_EXPORT_AND_SERVICE = {
    "compose service (RD710)": (
        "```\n$ export HIP_VISIBLE_DEVICES=1\n```\n"
        "```yaml\nservices:\n  ollama:\n    image: ollama/ollama:rocm\n    environment:\n      - ROCR_VISIBLE_DEVICES=1\n```\n",
        "RD710",
    ),
    "systemd unit (RD710)": (
        "```\n$ export HIP_VISIBLE_DEVICES=1\n```\n```ini\n[Service]\nEnvironment=\"ROCR_VISIBLE_DEVICES=1\"\n```\n",
        "RD710",
    ),
    "docker run in another block (RD710)": (
        "```\n$ export HIP_VISIBLE_DEVICES=1\n$ python x.py\n```\n"
        "```\n$ docker run --device=/dev/kfd -e ROCR_VISIBLE_DEVICES=1 rocm/pytorch python a.py\n```\n",
        "RD710",
    ),
    "compose service (RD322)": (
        "```\n$ export CUDA_VISIBLE_DEVICES=0\n```\n"
        "```yaml\nservices:\n  vllm:\n    image: rocm/vllm\n    environment:\n      - HIP_VISIBLE_DEVICES=1\n```\n",
        "RD322",
    ),
    "systemd unit (RD405)": (
        "```\n$ export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128\n```\n"
        "```ini\n[Service]\nEnvironment=\"PYTORCH_HIP_ALLOC_CONF=expandable_segments:True\"\n```\n",
        "RD405",
    ),
}


@pytest.mark.parametrize("text,rule", list(SHELL_EXPORT_AND_SERVICE.values()), ids=list(SHELL_EXPORT_AND_SERVICE))
def test_a_shell_export_does_not_meet_a_service_or_containers_own_setting(text: str, rule: str) -> None:
    assert rule not in fired(text)


@pytest.mark.parametrize(
    "text,rule",
    [
        ("```\n$ export CUDA_VISIBLE_DEVICES=0\n$ HIP_VISIBLE_DEVICES=1 python x.py\n```\n", "RD322"),
        ("```\n$ export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128\n$ PYTORCH_HIP_ALLOC_CONF=expandable_segments:True python x.py\n```\n", "RD405"),
        ("```\n$ export ROCR_VISIBLE_DEVICES=1; HIP_VISIBLE_DEVICES=1 python x.py\n```\n", "RD710"),
        ("```yaml\nservices:\n  vllm:\n    image: rocm/vllm\n    environment:\n      - CUDA_VISIBLE_DEVICES=0\n      - HIP_VISIBLE_DEVICES=1\n```\n", "RD322"),
        ("```ini\n[Service]\nEnvironment=\"PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128\"\nEnvironment=\"PYTORCH_HIP_ALLOC_CONF=expandable_segments:True\"\n```\n", "RD405"),
    ],
)
def test_both_settings_in_one_programs_environment_still_fire(text: str, rule: str) -> None:
    assert rule in fired(text)


def test_a_container_keeps_its_images_env_and_a_unit_keeps_no_shell_setting() -> None:
    from rocm_doctor.judge.derived_facts.env import program_environments

    image = ingest(
        "```dockerfile\nFROM rocm/pytorch\nENV ROCR_VISIBLE_DEVICES=1\n```\n"
        "```\n$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ docker run --device=/dev/kfd -e HIP_VISIBLE_DEVICES=1 myimage python a.py\n```\n"
    ).facts
    assert {"ROCR_VISIBLE_DEVICES": "1", "HIP_VISIBLE_DEVICES": "1"} in environments(image)
    assert not any("HSA_OVERRIDE_GFX_VERSION" in env and "HIP_VISIBLE_DEVICES" in env for env in program_environments(image))
    unit = ingest("I use ROCR_VISIBLE_DEVICES=1.\n```\n$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n```\n```ini\n[Service]\nEnvironment=\"HIP_VISIBLE_DEVICES=0\"\n```\n").facts
    assert program_environments(unit) == [{"ROCR_VISIBLE_DEVICES": "1", "HIP_VISIBLE_DEVICES": "0"}]


# ------------------------------------------- docker run -e NAME (no value) forwards the shell's value (drv61)
# Docker's run reference (docker/cli docs/reference/commandline/container_run.md#env at eb986ae7): "the Docker CLI
# client checks the value the variable has in your local environment and passes it to the container. If no `=` is
# provided and that variable isn't exported in your local environment, the variable is unset in the container."

_RUN = "$ docker run -it --device=/dev/kfd --device=/dev/dri -e HSA_OVERRIDE_GFX_VERSION rocm/pytorch python a.py\n"


def _container_value(text: str):
    settings = ingest(text).facts.env.settings.value
    return [s.value for s in settings if s.origin == "docker-run" and s.name == "HSA_OVERRIDE_GFX_VERSION"]


@pytest.mark.parametrize(
    "text",
    [
        "```\n$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n" + _RUN + "```\n",
        "```\n$ export HSA_OVERRIDE_GFX_VERSION=9.0.0\n$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ cd work\n" + _RUN + "```\n",
        "```\n$ HSA_OVERRIDE_GFX_VERSION=10.3.0 " + _RUN[2:] + "```\n",
        "```\n$ env | grep HSA\nHSA_OVERRIDE_GFX_VERSION=10.3.0\n```\nThen:\n```\n" + _RUN + "```\n",
        "```\n$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n" + _RUN.replace("docker", "podman") + "```\n",
        "```\n$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ sudo -E " + _RUN[2:] + "```\n",
    ],
    ids=["export", "latest export", "prefix of the docker command", "listing", "podman", "sudo -E keeps the environment"],
)
def test_docker_run_e_without_a_value_takes_the_shells_value_into_the_container(text: str) -> None:
    # the docker command's own prefix is one sighting of the name on that line, the container's environment already
    assert _container_value(text) in (["10.3.0"], [])
    assert ingest(text).facts.env.vars.value.get("HSA_OVERRIDE_GFX_VERSION") == "10.3.0"


@pytest.mark.parametrize(
    "text",
    [
        # no shell value shown: as written (Docker: unset in the container when the shell has none)
        "```\n" + _RUN + "```\n",
        # unset in the shell before the run: unset in the container
        "```\n$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ unset HSA_OVERRIDE_GFX_VERSION\n" + _RUN + "```\n",
        # exported only after the container ran
        "```\n" + _RUN + "$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n```\n",
        # another command's own prefix is not the docker shell's
        "```\n$ HSA_OVERRIDE_GFX_VERSION=10.3.0 python b.py\n" + _RUN + "```\n",
        # a sentence's setting is no shell's value
        "I sometimes use HSA_OVERRIDE_GFX_VERSION=10.3.0 on the host.\n```\n" + _RUN + "```\n",
        # rev62: a setting in the middle of a sentence or a command line is no value the shell is shown to hold
        "I did export HSA_OVERRIDE_GFX_VERSION=10.3.0 in my shell once.\n```\n" + _RUN + "```\n",
        "```\n$ echo HSA_OVERRIDE_GFX_VERSION=10.3.0\n" + _RUN + "```\n",
        # rev62: plain sudo resets the environment docker starts with: the shell's value is not passed
        "```\n$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ sudo " + _RUN[2:] + "```\n",
    ],
    ids=["none shown", "unset before", "export after", "another command's prefix", "sentence", "export mid-sentence", "echo",
         "plain sudo"],
)
def test_docker_run_e_without_a_value_takes_no_value_the_shell_is_not_shown_to_pass(text: str) -> None:
    assert _container_value(text) == [None]


# ------------------------------------ a program started with no prefix runs under the session's settings (drv61)
# program_environments left the bare session out: a mask in one command's prefix (``ROCR_VISIBLE_DEVICES=1 python a.py``)
# then hid the iGPU for every program, also for ``python b.py`` run without it, and RD320 (the iGPU is device 0) was lost.

_RI = (
    "```\n$ rocminfo\n*******\nAgent 1\n*******\n  Name:                    AMD Ryzen 9 7950X 16-Core Processor\n"
    "  Device Type:             CPU\n*******\nAgent 2\n*******\n  Name:                    gfx1036\n"
    "  Marketing Name:          AMD Radeon Graphics\n  Device Type:             GPU\n*******\nAgent 3\n*******\n"
    "  Name:                    gfx1100\n  Marketing Name:          AMD Radeon RX 7900 XTX\n  Device Type:             GPU\n```\n"
    "```\n$ env | grep -E 'HIP|ROCR|CUDA|HSA'\nHIP_PATH=/opt/rocm\n```\n"
)
_MASKED = "```\n$ ROCR_VISIBLE_DEVICES=1 python a.py\nok\n"


@pytest.mark.parametrize(
    "text",
    [
        _RI + _MASKED + "$ python b.py\nit hangs forever\n```\n",
        _RI + _MASKED + "$ ./build/bin/llama-cli -m model.gguf\nit hangs\n```\n",
        _RI + "`ROCR_VISIBLE_DEVICES=1 python a.py` works, but plain `python b.py` crashes with a segfault.\n",
        # rev62: the server that runs the models; Python code that touches the GPU
        _RI + _MASKED + "$ ollama serve\nit hangs\n```\n",
        _RI + _MASKED + "$ python -c 'import torch; print(torch.cuda.is_available())'\nSegmentation fault\n```\n",
    ],
    ids=["transcript", "binary by its path", "inline code", "ollama serve", "python -c touching the GPU"],
)
def test_a_program_without_a_prefix_beside_a_masked_command_sees_the_igpu_first(text: str) -> None:
    assert "RD320" in fired(text)


@pytest.mark.parametrize(
    "text",
    [
        _RI + _MASKED + "```\n",
        _RI + _MASKED + "$ rocminfo | grep gfx\n```\n",
        _RI + _MASKED + "$ sudo python b.py\nok\n```\n",
        _RI + _MASKED + "$ python -m pip install torch\n```\n",
        _RI + "`ROCR_VISIBLE_DEVICES=1 python a.py` works. If you run `python b.py` without it, it would crash.\n",
        _RI + "`ROCR_VISIBLE_DEVICES=1 python a.py` works. I never run `python b.py` without the variable.\n",
        _RI + "`ROCR_VISIBLE_DEVICES=1 python a.py` works. Before, I used to run `python b.py` and it crashed.\n",
        _RI + "`ROCR_VISIBLE_DEVICES=1 python a.py` works. Should I also try `python b.py`?\n",
        # rev62: no GPU program run under the session: a version query, an installer or environment tool, a diagnostic,
        # ollama's client (the model runs in the masked server), a converter
        _RI + _MASKED + "$ python --version\nPython 3.10.12\n```\n",
        _RI + _MASKED + "$ python -c 'import torch; print(torch.__version__)'\n2.4.1+rocm6.1\n```\n",
        _RI + _MASKED + "$ python3 -m venv .venv\n```\n",
        _RI + _MASKED + "$ python -m torch.utils.collect_env\n```\n",
        _RI + _MASKED + "$ python setup.py install\n```\n",
        _RI + "```\n$ ROCR_VISIBLE_DEVICES=1 ollama serve\n$ ollama run llama3\nit hangs\n```\n",
        _RI + _MASKED + "$ ollama list\n```\n",
        _RI + _MASKED + "$ ./configure --prefix=/usr\n```\n",
        _RI + _MASKED + "$ ./amdgpu-install --usecase=rocm\n```\n",
        _RI + _MASKED + "$ bash install.sh\n```\n",
        _RI + _MASKED + "$ ./llama-quantize a.gguf b.gguf q4_0\n```\n",
        # rev62: an order, a question without its mark, the past later in the sentence
        _RI + "`ROCR_VISIBLE_DEVICES=1 python a.py` works. Run `python b.py` to compare.\n",
        _RI + "`ROCR_VISIBLE_DEVICES=1 python a.py` works. Is `python b.py` meant to work without it\n",
        _RI + "`ROCR_VISIBLE_DEVICES=1 python a.py` works. When I ran `python b.py` last week it crashed.\n",
    ],
    ids=["only the masked command", "a listing tool", "sudo", "pip", "advice", "negated", "past", "question",
         "python --version", "python -c without the GPU", "python -m venv", "collect_env", "setup.py", "ollama run (a client)",
         "ollama list", "configure", "amdgpu-install", "install script", "llama-quantize", "an order", "a question without its mark",
         "the past after the command"],
)
def test_no_program_without_a_prefix_keeps_the_masked_commands_environment(text: str) -> None:
    assert "RD320" not in fired(text)
