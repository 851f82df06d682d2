"""RD830's remedy reinstalls the companions of another GPU build that it names, through `check --from --json`.

fix53: the fix named no packages, so a torchaudio at fault was answered with a torchvision reinstall, and a
CUDA torchaudio beside a ROCm torch fired RD830 as well as RD142.
"""

from __future__ import annotations

import json

import pytest

PIP_LIST = "$ pip list\nPackage      Version\n------------ -------------\ntorch        {}\ntorchvision  {}\ntorchaudio   {}\n"


def _findings(tmp_path, run_cli, torch: str, vision: str, audio: str) -> dict:
    paste = tmp_path / "report.md"
    paste.write_text(PIP_LIST.format(torch, vision, audio), encoding="utf-8")
    document = json.loads(run_cli("check", "--from", str(paste), "--json").stdout)
    return {f["id"]: f for f in document["findings"]}


def _commands(finding: dict) -> list:
    return [c for g in finding["remedy"]["groups"] for o in g["options"] for s in o["steps"] for c in s["commands"]]


@pytest.mark.parametrize(
    ("torch", "vision", "audio", "at_fault", "index"),
    [
        ("2.5.1+cu121", "0.20.1+rocm6.2", "2.5.1+cu121", ["torchvision"], "cu121"),
        ("2.5.1+cu121", "0.20.1+cu121", "2.5.1+rocm6.2", ["torchaudio"], "cu121"),
        ("2.5.1+cpu", "0.20.1+rocm6.2", "2.5.1+rocm6.2", ["torchvision", "torchaudio"], "cpu"),
    ],
    ids=["torchvision-only", "torchaudio-only", "both"],
)
def test_companion_of_another_gpu_build_reinstalls_exactly_the_companions_at_fault(
    tmp_path, run_cli, torch: str, vision: str, audio: str, at_fault: list, index: str
) -> None:
    finding = _findings(tmp_path, run_cli, torch, vision, audio)["RD830"]
    assert finding["fixes"][0]["packages"] == at_fault
    uninstall, install = _commands(finding)
    assert uninstall == "python -m pip uninstall -y " + " ".join(at_fault)
    assert f"https://download.pytorch.org/whl/{index}" in install
    pins = {"torchvision": "'torchvision==0.20.*'", "torchaudio": "'torchaudio==2.5.*'"}
    for name, pin in pins.items():
        assert (pin in install) == (name in at_fault)
    assert finding["fixes"][0]["text"].startswith(f"Reinstall {', '.join(at_fault)} from the index of torch {torch}")


@pytest.mark.parametrize(
    ("vision", "audio", "owner", "package"),
    [("0.20.1+rocm6.2", "2.5.1+cu121", "RD142", "torchaudio"), ("0.20.1+cu121", "2.5.1+rocm6.2", "RD141", "torchvision")],
    ids=["torchaudio", "torchvision"],
)
def test_a_cuda_companion_beside_a_rocm_torch_is_one_finding_of_its_flavour_rule(
    tmp_path, run_cli, vision: str, audio: str, owner: str, package: str
) -> None:
    findings = _findings(tmp_path, run_cli, "2.5.1+rocm6.2", vision, audio)
    assert owner in findings and "RD830" not in findings
    uninstall, install = _commands(findings[owner])
    assert uninstall.endswith(f"-y {package}") and "https://download.pytorch.org/whl/rocm6.2" in install
