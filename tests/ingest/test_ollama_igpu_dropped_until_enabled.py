"""ollama 0.30+'s "dropping integrated GPU; to enable, set OLLAMA_IGPU_ENABLE=1" (discover/runner.go) read as the
context ollama_igpu_dropped_until_enabled, and RD965 judged from it (rules/data/signatures.yaml, rules/app_runtime.yaml).

Forms from real reports: slog's msg= (Crosstalk-Solutions/project-nomad#1056, ollama/ollama#16667), the message alone
on its line (SirUli/homeassistant-ollama-addon#319), the message in a Markdown code span inside a sentence
(Crosstalk-Solutions/project-nomad#1092). The texts below are written for the tests, not copied."""

from __future__ import annotations

from ingest_helpers import ingest

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

SIGNATURE = "ollama_igpu_dropped_until_enabled"
LINE = "dropping integrated GPU; to enable, set OLLAMA_IGPU_ENABLE=1"


def _context(text: str) -> list:
    return ingest(text).facts.symptoms.context.value or []


def _finding_ids(text: str) -> set:
    rules = load_rules([], use_env=False)
    return {f.id for f in evaluate(rules, ingest(text).facts).findings}


def test_the_dropping_line_is_read_in_each_form_reports_paste_it() -> None:
    for text in (
        f'time=2026-07-01T10:00:00Z level=INFO source=runner.go:396 msg="{LINE}" id=0 library=ROCm compute=gfx1103\n',
        f'    msg="{LINE}"\n    id=0 library=ROCm name=ROCm0 description="AMD Radeon 890M Graphics"\n',
        f"```text\ndiscovering available GPUs...\n{LINE}\nid=0 library=Vulkan\n```\n",
        f"{LINE} id=0 library=Vulkan description=\"AMD Radeon 780M\"\n",
        f'On my Ryzen 7 8845HS box ollama logs `{LINE}` with `total_vram="0 B"`.\n',
    ):
        assert SIGNATURE in _context(text), text


def test_advice_conditions_and_prose_about_the_line_are_not_read() -> None:
    for text in (
        f"If ollama logs `{LINE}` you need to set the variable.\n",
        f"Without it ollama logs `{LINE}` and runs CPU-only.\n",
        f"You should see `{LINE}` when the iGPU is filtered.\n",
        f"{LINE} is now logged at INFO level.\n",
        f"{LINE} in the service file and restart.\n",
        "Dropping integrated GPU support would be a mistake.\n",
        "`dropping integrated GPU` is what ollama prints for the Intel controller.\n",
    ):
        assert SIGNATURE not in _context(text), text


def test_rd965_names_the_variable_when_the_apus_igpu_is_the_only_gpu() -> None:
    text = (
        "Ryzen 7 7840HS with Radeon 780M, ollama 0.30.4 in docker, every model runs on the CPU.\n"
        f'level=INFO source=runner.go:396 msg="{LINE}" id=0 library=ROCm compute=gfx1103 description="AMD Radeon 780M Graphics"\n'
    )
    assert "RD965" in _finding_ids(text)


def test_rd965_stays_silent_when_an_nvidia_card_is_what_ollama_dropped() -> None:
    # ollama/ollama#16667: on Windows hybrid laptops Vulkan called the NVIDIA card integrated and dropped it
    text = (
        "Windows 11, ollama 0.30.7, RTX 5070 Laptop GPU and an Intel iGPU.\n"
        f'runner.go:396 msg="{LINE}" id=1 library=Vulkan name=Vulkan1 description="NVIDIA GeForce RTX 5070 Laptop GPU"\n'
        'types.go:32 msg="inference compute" library=CUDA name=CUDA0 description="NVIDIA GeForce RTX 5070 Laptop GPU" type=discrete\n'
    )
    assert "RD965" not in _finding_ids(text)


def test_rd965_stays_silent_for_a_dropped_igpu_beside_a_discrete_amd_card_that_runs_the_model() -> None:
    text = (
        "Ryzen 7 7800X3D with an RX 7900 XTX, ollama 0.31.0.\n"
        f'msg="{LINE}" id=1 library=ROCm compute=gfx1036 description="AMD Radeon Graphics"\n'
        'msg="inference compute" id=0 library=ROCm compute=gfx1100 name=ROCm0 description="AMD Radeon RX 7900 XTX" type=discrete\n'
    )
    assert "RD965" not in _finding_ids(text)


def test_a_release_note_about_the_line_is_not_read() -> None:
    # rev53g: a changelog's or release note's line naming the message is not the reporter's server log
    for text in (
        f"Release notes 0.30.1: `{LINE}` is no longer logged for the Radeon 8060S (gfx1151).\n",
        f"Changelog: `{LINE}` now names the PCI id.\n",
        f"With 0.30.1 `{LINE}` is no longer printed for the 8060S.\n",
    ):
        assert SIGNATURE not in _context(text), text


def test_rd965_fix_names_the_server_environment_for_systemd_docker_and_windows() -> None:
    rule = next(r for r in load_rules([], use_env=False) if r.id == "RD965")
    text = " ".join(f.text for f in rule.fixes)
    for needed in ("[Service]", "systemctl restart ollama", "-e OLLAMA_IGPU_ENABLE=1", "setx OLLAMA_IGPU_ENABLE 1"):
        assert needed in text, needed
