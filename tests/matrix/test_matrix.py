"""``rocm-doctor matrix``: the support matrix as data, and the same torch decision as ``check``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, Optional

import pytest

from rocm_doctor.knowledge import gpu_table
from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.cases import overlay
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.remedy import matrix
from rocm_doctor.remedy.matrix_model import MatrixDocument

BASELINE = json.loads((Path(__file__).parent.parent / "rule_cases" / "baseline.json").read_text(encoding="utf-8"))
UNKNOWN = {"status": "unknown", "source": "test", "reason": "not read in this test"}


def _known(value: Any) -> Dict[str, Any]:
    return {"status": "known", "value": value, "source": "test"}


def machine_with(gfx: str) -> Facts:
    """The healthy baseline machine with one GPU of ``gfx``, a CUDA torch, and no system ROCm to constrain the choice."""
    model = (gpu_table.models_for_gfx(gfx) or [None])[0]
    agent = {"gfx": _known(gfx), "name": _known(model.product if model else gfx)}
    if model is not None:
        agent["device_id"] = _known(model.device_id)
        agent["integrated"] = _known(model.integrated)
    change = {
        "gpus": {"agents": {0: agent}},
        "torch": {"flavour": _known("cuda"), "version": _known("2.13.0+cu128"), "rocm_version": UNKNOWN, "hip_version": UNKNOWN},
        "rocm": {"version": UNKNOWN},
        "packages": {"installed": _known({"torch": "2.13.0+cu128", "torchvision": "0.28.0+cu128"})},
    }
    return Facts.model_validate(overlay(BASELINE, change))


def _as_pair(route: Optional[str], torch: Optional[str], rocm: Optional[str], index: Optional[str]) -> tuple:
    return (route, torch, rocm, index)


@pytest.fixture(scope="module")
def rules():  # type: ignore[no-untyped-def]
    return load_rules(use_env=False)


@pytest.mark.parametrize("gfx", matrix.all_targets())
def test_the_matrix_recommends_what_check_installs_for_every_gfx_in_the_gpu_table(gfx: str, rules) -> None:
    facts = machine_with(gfx)
    plan = evaluate(rules, facts).plan
    python = str(facts.python.version.value).rsplit(".", 1)[0]
    recommended = matrix.recommended(gfx, "linux", python)

    decided = plan.torch if plan is not None else None
    build = recommended["build"]
    if decided is None:
        assert build is None, f"{gfx}: the matrix recommends {build} but check's plan installs no torch"
        return
    assert build is not None, f"{gfx}: check installs torch {decided.torch} ({decided.route}) but the matrix says: {recommended['why_not']}"
    assert _as_pair(decided.route, decided.torch, decided.rocm, decided.index_url) == _as_pair(
        build["route"], build["torch"], build["rocm"], build["index_url"]
    )


def test_matrix_json_is_the_versioned_document_and_validates_against_its_schema(run_cli) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    done = run_cli("matrix", "--json")
    assert done.exit_code == 0, done.stderr
    document = json.loads(done.stdout)

    jsonschema.validate(document, MatrixDocument.model_json_schema(by_alias=True))
    MatrixDocument.model_validate(document)
    assert document["schema"] == "rocm-doctor/matrix/1"
    assert [t["gfx"] for t in document["targets"]] == matrix.all_targets()


def test_every_build_listed_for_a_target_carries_kernels_for_it() -> None:
    from rocm_doctor.wheels import wheeldata

    for entry in matrix.build_document()["targets"]:
        for release in entry["pytorch_org"]:
            for variant in release["rocm"]:
                assert wheeldata.gfx_in_wheel(release["torch"], variant, entry["gfx"]) is not False


def test_a_gpu_name_resolves_to_its_target_and_the_answer_names_the_install_command(run_cli) -> None:
    done = run_cli("matrix", "--gpu", "RX 7900 XTX")

    assert done.exit_code == 0, done.stderr
    assert done.stdout.startswith("gfx1100")
    assert "pip install" in done.stdout and "--index-url https://download.pytorch.org/whl/rocm" in done.stdout
    lines = [line for line in done.stdout.splitlines() if line.startswith("  torch ")]
    torches = [line.split()[1] for line in lines if "pytorch.org" in line]
    assert torches == sorted(torches, key=lambda v: tuple(int(p) for p in v.split(".")), reverse=True), "newest first"


def test_an_unknown_gpu_or_target_is_an_input_error(run_cli) -> None:
    assert run_cli("matrix", "--gpu", "GeForce RTX 4090").exit_code == 2
    assert run_cli("matrix", "--gfx", "gfx9999").exit_code == 2
    assert run_cli("matrix", "--gfx", "gfx1100", "--gpu", "RX 7900 XTX").exit_code == 2


def test_a_target_no_wheel_carries_says_so_and_recommends_nothing(run_cli) -> None:
    done = run_cli("matrix", "--gfx", "gfx803")
    assert done.exit_code == 0
    assert "no PyTorch build rocm-doctor knows (pytorch.org, AMD's Windows wheels, TheRock) carries kernels" in done.stdout
    assert "pip install" not in done.stdout


def test_a_target_whose_kernels_depend_on_the_rocm_variant_gets_the_variant_that_has_them() -> None:
    """gfx942 is in every ROCm>=6.0 variant's wheel: pytorch.org, not the development stream."""
    from rocm_doctor.wheels.choice import choose_torch

    choice = choose_torch(matrix.machine_for("gfx942", "linux", "3.12"))
    assert (choice.route, choice.torch) == ("pytorch.org", "2.13")


def test_a_variant_whose_bundled_libraries_lack_the_target_is_ruled_out() -> None:
    """gfx906 kernels are in torch 2.13's rocm7.x wheels, but their rocBLAS lacks gfx906."""
    from rocm_doctor.knowledge.torch_wheels import library_gap
    from rocm_doctor.wheels.choice import NoChoice, choose_torch

    try:
        choice = choose_torch(matrix.machine_for("gfx906", "linux", "3.12"))
    except NoChoice as refusal:
        assert any("lack gfx906" in reason for reason in refusal.ruled_out)
        return
    assert choice.rocm is not None and library_gap("gfx906", choice.rocm) is None
