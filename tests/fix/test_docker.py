"""Dockerfile (parsed by dockerfile-parse) and docker run / compose, both rendered from the plan."""

from __future__ import annotations

import json
import shlex

import pytest
import yaml
from dockerfile_parse import DockerfileParser

from rocm_doctor.fix.dockerfile import base_rocm, render_dockerfile
from rocm_doctor.fix.dockerrun import compose_problems, docker_run
from rocm_doctor.model.fixes import make_fix
from rocm_doctor.wheels.choice import NoChoice
from rocm_doctor.remedy.decide import Context, decide

from .helpers import finding, machine_facts

CONTAINER = machine_facts(python="3.10.12", gfx=["gfx1100", "gfx1100"], rocm="6.2.0", container=True, distro="22.04", render_gid=110)
FINDINGS = [
    finding("RD101", make_fix(kind="pip", intent="install-rocm-torch"), severity="error"),
    finding("RD210", make_fix(kind="env", set={"TORCH_BLAS_PREFER_HIPBLASLT": "0"})),
    finding("RD406", make_fix(kind="env", unset=["HSA_XNACK"])),
    finding("RD346", make_fix(kind="docker", text="more shared memory", run_flags=["--shm-size=8g"])),
    finding("RD330", make_fix(kind="manual", text="add iommu=pt and reboot", runs_on="host")),
]


def _plan(facts, findings=FINDINGS):
    return decide(findings, facts, Context(is_read=lambda n: True)).plan


def _parse(text: str, tmp_path) -> DockerfileParser:
    parser = DockerfileParser(path=str(tmp_path / "Dockerfile"))
    parser.content = text
    return parser


def test_auto_base_is_an_amd_image_with_the_rocm_of_the_plans_torch(tmp_path) -> None:
    plan = _plan(CONTAINER)
    result = render_dockerfile(CONTAINER, plan)
    parsed = _parse(result.text, tmp_path)
    assert parsed.baseimage == f"rocm/dev-ubuntu-22.04:{plan.torch.rocm}"
    runs = [json.loads(i["value"]) for i in parsed.structure if i["instruction"] == "RUN" and i["value"].startswith("[")]
    pip = runs[-1]
    assert pip[:3] == ["python", "-m", "pip"] and f"torch=={plan.torch.torch}.*" in pip
    assert parsed.envs["TORCH_BLAS_PREFER_HIPBLASLT"] == "0"
    assert "HSA_XNACK" not in parsed.envs
    assert "# RD406" in result.text and "# RD101" in result.text
    assert "The current container runs ROCm 6.2.0." in result.text


def test_the_dockerfile_claims_only_what_a_dockerfile_can_fix(tmp_path) -> None:
    text = render_dockerfile(CONTAINER, _plan(CONTAINER)).text
    header = text.splitlines()[0]
    assert "RD330" not in header and "RD101" in header
    assert "# Not fixable in a Dockerfile (on the host, outside this container): RD330" in text


def test_a_given_dev_base_pins_torch_to_its_rocm_line(tmp_path) -> None:
    result = render_dockerfile(CONTAINER, _plan(CONTAINER), base="rocm/dev-ubuntu-22.04:6.4")
    assert _parse(result.text, tmp_path).baseimage == "rocm/dev-ubuntu-22.04:6.4"
    assert result.choice is not None and result.choice.rocm.startswith("6.")


def test_rocm_pytorch_base_gets_no_pip_lines(tmp_path) -> None:
    result = render_dockerfile(CONTAINER, _plan(CONTAINER), base="rocm/pytorch:rocm6.4_ubuntu22.04_py3.10_pytorch_release_2.6.0")
    assert "pip" not in [i["instruction"] for i in _parse(result.text, tmp_path).structure]
    assert "ships a matching torch" in result.text


def test_env_values_with_spaces_are_quoted_for_docker(tmp_path) -> None:
    plan = _plan(CONTAINER, [finding("RD1", make_fix(kind="env", set={"MIOPEN_USER_DB_PATH": "/my dir/db"}))])
    assert _parse(render_dockerfile(CONTAINER, plan).text, tmp_path).envs["MIOPEN_USER_DB_PATH"] == "/my dir/db"


def test_image_tags_name_their_rocm() -> None:
    assert base_rocm("rocm/dev-ubuntu-22.04:6.2") == "6.2"
    assert base_rocm("rocm/pytorch:rocm6.2.1_ubuntu20.04_py3.9_pytorch_release_2.3.0") == "6.2.1"
    assert base_rocm("ubuntu") is None


def test_requested_torch_that_cannot_fit_is_refused() -> None:
    with pytest.raises(NoChoice):
        render_dockerfile(CONTAINER, _plan(CONTAINER, []), requested_torch="1.13")


def test_docker_run_uses_the_plans_visibility_and_adds_none_of_its_own() -> None:
    facts = machine_facts(gfx=["gfx1036", "gfx1100"], integrated=[True, False], render_gid=992, env={})
    plan = _plan(facts, FINDINGS + [finding("RD320", make_fix(kind="env", set={"ROCR_VISIBLE_DEVICES": "1"}))])
    run = docker_run(facts, plan)
    argv = shlex.split(run.command())
    for flag in ("--device=/dev/kfd", "--device=/dev/dri", "--ipc=host", "seccomp=unconfined", "--shm-size=8g"):
        assert flag in argv
    assert argv[argv.index("--group-add") + 1] == "video" and "992" in argv
    assert "ROCR_VISIBLE_DEVICES=1" in argv and not any(a.startswith("HIP_VISIBLE_DEVICES") for a in argv)
    document = yaml.safe_load(run.compose())
    assert compose_problems(document) == ()
    service = document["services"]["pytorch"]
    assert service["devices"] == ["/dev/kfd:/dev/kfd", "/dev/dri:/dev/dri"]
    assert service["group_add"] == ["video", "992"]
    assert any("do not pass -e HSA_XNACK" in n for n in run.notes)


def test_unknown_render_gid_is_said_not_guessed() -> None:
    facts = machine_facts()
    run = docker_run(facts, _plan(facts, []))
    assert run.groups == ["video", "render"]
    assert any("render group id is unknown" in n for n in run.notes)


def test_compose_check_catches_a_wrong_key() -> None:
    assert compose_problems({"services": {"x": {"image": "a", "device": ["/dev/kfd"]}}}) == (
        "services.x.device is not a compose service key",
    )
