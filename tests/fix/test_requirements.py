"""--requirements: the launcher trap that swaps the ROCm torch for a CUDA/CPU build."""

from __future__ import annotations

from pathlib import Path

from rocm_doctor.fix.requirements import check_requirements

INSTALLED = {"torch": "2.5.1+rocm6.2", "torchvision": "0.20.1+rocm6.2", "numpy": "1.26.4"}


def _write(tmp_path: Path, text: str, name: str = "requirements.txt") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_unpinned_torch_from_pypi_warns_and_gives_the_constraint(tmp_path: Path) -> None:
    report = check_requirements(_write(tmp_path, "numpy\ntorch>=2.0  # any\ntorchvision\n"), INSTALLED, "rocm")
    assert report.at_risk
    assert any("requirements.txt:2" in w and "not pinned to a ROCm build" in w for w in report.warnings)
    assert report.constraints == ["torch==2.5.1+rocm6.2", "torchvision==0.20.1+rocm6.2"]


def test_extra_index_url_lets_pypi_win_comfy_cli_289(tmp_path: Path) -> None:
    text = "--extra-index-url https://download.pytorch.org/whl/rocm6.0\ntorch\ntorchvision\ntorchaudio\n"
    report = check_requirements(_write(tmp_path, text), INSTALLED, "rocm")
    assert any("pip takes the highest version" in w for w in report.warnings)


def test_cuda_pin_in_a_nested_file_is_found(tmp_path: Path) -> None:
    _write(tmp_path, "torch==2.3.1+cu121\n", "gpu.txt")
    report = check_requirements(_write(tmp_path, "-r gpu.txt\npillow\n"), INSTALLED, "rocm")
    assert any(w.startswith("gpu.txt:1") and "CUDA/CPU build" in w for w in report.warnings)


def test_rocm_index_url_with_pins_is_safe_stabilitymatrix_885(tmp_path: Path) -> None:
    text = (
        "--index-url https://download.pytorch.org/whl/rocm6.0\n"
        "torch==2.3.1+rocm6.0 torchvision==0.18.1+rocm6.0\n".replace(" torchvision", "\ntorchvision")
    )
    report = check_requirements(_write(tmp_path, text), INSTALLED, "rocm")
    assert report.warnings == []


def test_cuda_index_url_is_flagged(tmp_path: Path) -> None:
    report = check_requirements(_write(tmp_path, "--index-url https://download.pytorch.org/whl/cu124\ntorch\n"), INSTALLED, "rocm")
    assert any("serves CUDA/CPU builds" in w for w in report.warnings)


def test_no_constraint_is_offered_when_the_installed_torch_is_not_rocm(tmp_path: Path) -> None:
    report = check_requirements(_write(tmp_path, "torch\n"), {"torch": "2.5.1+cu124"}, "cuda")
    assert report.constraints == []
