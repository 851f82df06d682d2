"""Dockerfile (parsed by dockerfile-parse) and docker run / compose (parsed by a YAML loader)."""

from __future__ import annotations

import json
import shlex

import pytest
import yaml
from dockerfile_parse import DockerfileParser

from rocm_doctor.remedy.choice import NoChoice
from rocm_doctor.fix.dockerfile import base_rocm, render_dockerfile
from rocm_doctor.fix.dockerrun import compose_problems, docker_run
from rocm_doctor.fix.plan import build_plan
from rocm_doctor.judge.model import Fix

from .helpers import finding, machine_facts

CONTAINER = machine_facts(python="3.10.12", gfx=["gfx1100", "gfx1100"], rocm="6.2.0", container=True, distro="22.04", render_gid=110)
FINDINGS = [
    finding("RD101", Fix(kind="pip", intent="install-rocm-torch"), severity="error"),
    finding("RD210", Fix(kind="env", set={"TORCH_BLAS_PREFER_HIPBLASLT": "0"})),
    finding("RD406", Fix(kind="env", unset=["HSA_XNACK"])),
    finding("RD346", Fix(kind="docker", text="more shared memory", run_flags=["--shm-size=8g"])),
]


def _parse(text: str, tmp_path) -> DockerfileParser:
    parser = DockerfileParser(path=str(tmp_path / "Dockerfile"))
    parser.content = text
    return parser


def test_auto_base_is_an_amd_image_with_the_rocm_of_the_chosen_torch(tmp_path) -> None:
    plan = build_plan(FINDINGS, CONTAINER, is_read=lambda n: True)
    result = render_dockerfile(CONTAINER, plan)
    parsed = _parse(result.text, tmp_path)
    assert parsed.baseimage == "rocm/dev-ubuntu-22.04:7.2"
    runs = [json.loads(i["value"]) for i in parsed.structure if i["instruction"] == "RUN" and i["value"].startswith("[")]
    pip = runs[-1]
    assert pip[:3] == ["python", "-m", "pip"] and "torch==2.13.*" in pip
    assert "https://download.pytorch.org/whl/rocm7.2" in pip
    assert parsed.envs["TORCH_BLAS_PREFER_HIPBLASLT"] == "0"
    assert "HSA_XNACK" not in parsed.envs
    assert "# RD406" in result.text and "# RD101" in result.text
    assert "The current container runs ROCm 6.2.0." in result.text


def test_a_given_dev_base_pins_torch_to_its_rocm_line(tmp_path) -> None:
    plan = build_plan(FINDINGS, CONTAINER, is_read=lambda n: True)
    result = render_dockerfile(CONTAINER, plan, base="rocm/dev-ubuntu-22.04:6.4")
    assert _parse(result.text, tmp_path).baseimage == "rocm/dev-ubuntu-22.04:6.4"
    assert result.choice is not None and result.choice.rocm.startswith("6.")


def test_rocm_pytorch_base_gets_no_pip_lines(tmp_path) -> None:
    plan = build_plan(FINDINGS, CONTAINER, is_read=lambda n: True)
    result = render_dockerfile(CONTAINER, plan, base="rocm/pytorch:latest")
    assert "pip" not in [i["instruction"] for i in _parse(result.text, tmp_path).structure]
    assert "ships a matching torch" in result.text


def test_env_values_with_spaces_are_quoted_for_docker(tmp_path) -> None:
    plan = build_plan([finding("RD1", Fix(kind="env", set={"MIOPEN_USER_DB_PATH": "/my dir/db"}))], CONTAINER, is_read=lambda n: True)
    parsed = _parse(render_dockerfile(CONTAINER, plan).text, tmp_path)
    assert parsed.envs["MIOPEN_USER_DB_PATH"] == "/my dir/db"


def test_image_tags_name_their_rocm() -> None:
    assert base_rocm("rocm/dev-ubuntu-22.04:6.2") == "6.2"
    assert base_rocm("rocm/pytorch:rocm6.2.1_ubuntu20.04_py3.9_pytorch_release_2.3.0") == "6.2.1"
    assert base_rocm("ubuntu") is None


def test_requested_torch_that_cannot_fit_is_refused() -> None:
    with pytest.raises(NoChoice):
        render_dockerfile(CONTAINER, build_plan([], CONTAINER), requested_torch="1.13")


def test_docker_run_flags_and_compose_service() -> None:
    facts = machine_facts(gfx=["gfx1100", "gfx1036"], integrated=[False, True], render_gid=992)
    plan = build_plan(FINDINGS, facts, is_read=lambda n: True)
    run = docker_run(facts, plan)
    argv = shlex.split(run.command())
    for flag in ("--device=/dev/kfd", "--device=/dev/dri", "--ipc=host", "seccomp=unconfined", "--shm-size=8g"):
        assert flag in argv
    assert argv[argv.index("--group-add") + 1] == "video"
    assert "992" in argv
    assert "HIP_VISIBLE_DEVICES=0" in argv
    document = yaml.safe_load(run.compose())
    assert compose_problems(document) == ()
    service = document["services"]["pytorch"]
    assert service["devices"] == ["/dev/kfd", "/dev/dri"]
    assert service["group_add"] == ["video", "992"]
    assert service["environment"]["HIP_VISIBLE_DEVICES"] == "0"
    assert any("do not pass -e HSA_XNACK" in n for n in run.notes)


def test_unknown_render_gid_is_said_not_guessed() -> None:
    facts = machine_facts()
    run = docker_run(facts, build_plan([], facts))
    assert run.groups == ["video", "render"]
    assert "HIP_VISIBLE_DEVICES" not in run.environment
    assert any("render group id is unknown" in n for n in run.notes)


def test_compose_check_catches_a_wrong_key() -> None:
    assert compose_problems({"services": {"x": {"image": "a", "device": ["/dev/kfd"]}}}) == (
        "services.x.device is not a compose service key",
    )
