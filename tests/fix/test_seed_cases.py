"""Issue 4's seed cases, through the real CLI on the recorded machines and the shipped rules."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import List

import pytest
from dockerfile_parse import DockerfileParser
from packaging.version import Version

MACHINES = Path(__file__).resolve().parent.parent / "machines"


def machine(name: str) -> str:
    folder = MACHINES / name
    if not folder.is_dir():
        pytest.skip(f"recorded machine {name} is not in tests/machines")
    return str(folder)


def test_docker_7900xt_on_rocm62_moves_to_a_newer_rocm_and_drops_no_op_variables(doctor, tmp_path: Path) -> None:
    box = machine("docker-2x7900xt-rocm62")
    plan = doctor("fix", "--machine", box, cwd=tmp_path)
    assert plan.returncode == 0, plan.stderr
    index = re.search(r"--index-url https://download\.pytorch\.org/whl/rocm(\d+\.\d+)", plan.stdout)
    assert index and Version(index.group(1)) >= Version("6.3")
    assert "pip uninstall -y torch" in plan.stdout
    assert "unset HSA_OVERRIDE_GFX_VERSION" in plan.stdout
    assert "unset HSA_XNACK" in plan.stdout
    built = doctor("dockerfile", "--machine", box, "--output", "Dockerfile", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    parser = DockerfileParser(path=str(tmp_path / "Dockerfile"))
    image, tag = parser.baseimage.split(":")
    assert image == "rocm/dev-ubuntu-22.04" and Version(tag) >= Version("6.3")
    assert "HSA_OVERRIDE_GFX_VERSION" not in parser.envs and "HSA_XNACK" not in parser.envs
    assert "# do not set HSA_OVERRIDE_GFX_VERSION" in parser.content
    assert any("download.pytorch.org/whl/rocm" in i["value"] for i in parser.structure if i["instruction"] == "RUN")
    # Upgrading is the plan, so the hipBLAS workaround is only offered as the keep-torch alternative.
    assert "export TORCH_BLAS_PREFER_HIPBLASLT='0'" in plan.stdout.split("Alternatives (not applied):")[1]
    assert "TORCH_BLAS_PREFER_HIPBLASLT" not in parser.envs


def test_docker_7900xt_staying_on_rocm62_sets_the_hipblas_workarounds_instead_of_upgrading(doctor, tmp_path: Path) -> None:
    box = machine("docker-2x7900xt-rocm62")
    written = doctor(
        "fix", "--machine", box, "--keep-torch", "--write-env", "--shell", "bash", "--env-file", "env.sh", cwd=tmp_path
    )
    assert written.returncode == 0, written.stderr
    assert "pip install" not in written.stdout
    exported = subprocess.run(
        ["bash", "-c", "source ./env.sh && echo $TORCH_BLAS_PREFER_HIPBLASLT,$DISABLE_ADDMM_CUDA_LT"],
        capture_output=True, text=True, cwd=tmp_path, timeout=30,
    )
    assert exported.stdout.strip() == "0,1"


def test_windows_strix_halo_preview_gets_amd_wheels_and_a_powershell_file_without_myths(doctor, tmp_path: Path) -> None:
    box = machine("win11-strixhalo-preview")
    result = doctor("fix", "--machine", box, "--write-env", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "https://repo.radeon.com/rocm/windows/rocm-rel-7.2/torch-2.9.1+rocmsdk20260116-cp312-cp312-win_amd64.whl" in out
    assert "WSL2" in out
    assert "num_workers=0" in out
    written = (tmp_path / "rocm-doctor.ps1").read_text()  # PowerShell is the Windows default
    assert "Remove-Item Env:HIP_DISABLE_IPC" in written
    assert "Remove-Item Env:HSA_OVERRIDE_GFX_VERSION" in written
    assert "$env:HIP_DISABLE_IPC" not in written and "11.5.1" not in written


def test_ubuntu_6700xt_env_file_sets_the_rdna2_override(doctor, tmp_path: Path) -> None:
    box = machine("ubuntu2204-6700xt")
    result = doctor("fix", "--machine", box, "--write-env", "--shell", "bash", "--env-file", "env.sh", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    sourced = subprocess.run(
        ["bash", "-c", '. ./env.sh && printf %s "$HSA_OVERRIDE_GFX_VERSION"'], cwd=tmp_path, capture_output=True, text=True, timeout=30
    )
    assert sourced.stdout == "10.3.0"


def test_cuda_wheel_on_amd_is_uninstalled_then_the_rocm_build_installed(doctor, tmp_path: Path) -> None:
    box = machine("linux-amd-cuda-wheel")
    result = doctor("fix", "--machine", box, "--pip", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines: List[str] = result.stdout.splitlines()
    assert re.match(r"^\S+python\S* -m pip uninstall -y torch\b", lines[0])
    assert re.match(r"^\S+python\S* -m pip install --index-url https://download\.pytorch\.org/whl/rocm\d+\.\d+ 'torch==", lines[1])
    assert len(lines) == 2
