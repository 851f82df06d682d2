"""Applications that ship their own GPU runtime: the ollama release a report shows, and the GPU judged
against the ROCm build that release bundles (RD561, RD562). Assertions are about rule ids, facts and
categories, never about wording; the lines are written in the shapes ollama prints and the real reports
cited in rules/app_runtime.yaml use.
"""

from __future__ import annotations

from typing import List, Tuple

import pytest
from ingest_helpers import ingest

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate


def serious(text: str) -> List[Tuple[str, str]]:
    findings = evaluate(load_rules([], use_env=False), ingest(text).facts).findings
    return [(f.id, f.category) for f in findings if f.severity in ("error", "warning")]


def ollama_versions(text: str) -> list:
    shown = ingest(text).facts.symptoms.ollama_versions
    return list(shown.value or []) if shown.is_known else []


@pytest.mark.parametrize(
    "text, release",
    [
        ("$ ollama -v\nollama version is 0.12.5\n", "0.12.5"),
        ("$ docker run -d --device /dev/kfd --device /dev/dri -p 11434:11434 ollama/ollama:0.12.9-rocm\n", "0.12.9"),
        ('time=2024-12-28T15:03:19.515-05:00 level=INFO source=routes.go:1310 msg="Listening on [::]:11434 (version 0.5.4)"\n', "0.5.4"),
        ("### OS\n\nLinux\n\n### Ollama version\n\n0.11.8\n", "0.11.8"),
        ("**Ollama version:** 0.12.10\n", "0.12.10"),
        ("Instinct MI60 on Ollama v0.12.6, GPU not used.\n", "0.12.6"),
        # the issue form's value with the suffix the binary prints (ollama-for-amd#26, #36, ollama#8262, #7480)
        ("### Ollama version\n\n0.3.14-0-gc692dfd\n", "0.3.14"),
        ("### Ollama version\n\n0.3.13-1\n", "0.3.13"),
        ("### Ollama version\n\n0.4.0-pre\n", "0.4.0"),
        ("### Ollama version\n\n0.5.4-1 tested both on arch linux installed version and github\n", "0.5.4"),
    ],
)
def test_the_ollama_release_is_read_where_ollama_or_its_issue_form_prints_it(text: str, release: str) -> None:
    assert ollama_versions(text) == [release]


@pytest.mark.parametrize(
    "text",
    [
        "It works without issues if I roll back to ollama/ollama:0.12.3-rocm.\n",
        "It worked on ollama version is 0.12.3 before the upgrade.\n",
        "docker pull ollama/ollama:rocm\n",
        "I use torch 2.5.1 and ROCm 6.2.4 with ollama.\n",
        "### Ollama version\n\n0.5.4 previously, the latest now\n",
        "### Ollama version\n\n0.5.4.1\n",
    ],
)
def test_a_release_the_report_says_it_left_or_no_release_is_not_read_as_the_one_running(text: str) -> None:
    assert ollama_versions(text) == []


VEGA_UNUSED = (
    "I have a Radeon Vega Frontier Edition. ollama does not use the GPU, every model runs on the CPU.\n"
)


def test_a_gfx900_unused_by_an_ollama_release_without_it_is_a_build_without_the_target() -> None:
    found = serious(VEGA_UNUSED + "\n$ ollama -v\nollama version is 0.12.5\n")
    assert found and found[0] == ("RD561", "gfx-unsupported")


def test_a_gfx906_whose_ollama_discovery_failed_on_a_later_image_is_a_build_without_the_target() -> None:
    text = (
        "Running ollama/ollama:0.12.9-rocm on an AMD Instinct MI50.\n\n"
        "```\n"
        'time=2025-11-02T22:55:51.120Z level=INFO source=runner.go:507 msg="failure during GPU discovery" '
        'OLLAMA_LIBRARY_PATH="[/usr/lib/ollama /usr/lib/ollama/rocm]" extra_envs=map[] error="runner crashed"\n'
        "```\n"
    )
    assert ("RD561", "gfx-unsupported") in serious(text)


def test_a_gfx900_on_the_last_ollama_release_with_it_is_not_blamed_on_the_build() -> None:
    rules = [rule for rule, _ in serious(VEGA_UNUSED + "\n$ ollama -v\nollama version is 0.12.3\n")]
    assert "RD561" not in rules and "RD562" not in rules


def test_without_the_release_the_drop_is_said_as_a_warning_about_releases_from_it() -> None:
    found = serious(VEGA_UNUSED)
    assert ("RD562", "gfx-unsupported") in found
    assert "RD561" not in [rule for rule, _ in found]


@pytest.mark.parametrize(
    "text",
    [
        # a GPU that no ollama release dropped
        "My RX 7900 XTX is not used by ollama, it runs on the CPU.\n",
        # not about ollama
        "I have a Radeon Vega Frontier Edition. torch does not use the GPU, everything runs on the CPU.\n",
        # about ollama and a Vega, but nothing says the GPU goes unused
        "I have a Radeon Vega Frontier Edition and ollama answers slowly with a 70b model.\n",
    ],
)
def test_the_ollama_build_findings_stay_silent_without_a_dropped_target_ollama_or_an_unused_gpu(text: str) -> None:
    rules = [rule for rule, _ in serious(text)]
    assert "RD561" not in rules and "RD562" not in rules


def gfx_read(text: str) -> List[str]:
    return sorted(str(a.gfx.value) for a in ingest(text).facts.gpus.agents if a.gfx.is_known)


@pytest.mark.parametrize(
    "text, own",
    [
        ("My Radeon 780M sits idle. HSA_OVERRIDE_GFX_VERSION=11.0.0 tells ROCm to treat the Phoenix APU as a supported gfx1100 target.\n", ["gfx1103"]),
        ("I have an RX 6700 XT. The variable tricks ROCm into thinking the card is gfx1030.\n", ["gfx1031"]),
        ("On my RX 6600 I make rocm treat it as gfx1030 with the override.\n", ["gfx1032"]),
    ],
)
def test_the_target_an_override_makes_the_runtime_take_the_gpu_for_is_no_device(text: str, own: List[str]) -> None:
    assert gfx_read(text) == own


def test_a_target_named_as_the_reporters_own_in_an_override_sentence_is_still_read() -> None:
    assert gfx_read("I am on gfx1031 and have to treat it as gfx1030 with the override.\n") == ["gfx1031"]


@pytest.mark.parametrize(
    "text",
    [
        "Radeon VII (gfx906), ollama. Will ollama 0.12.6 still support my card?\n",
        "I will try ollama 0.12.6 tomorrow on my MI50.\n",
        "If ollama 0.12.5 dropped gfx906, I'll stay on the old one.\n",
    ],
)
def test_an_ollama_release_asked_about_or_to_come_is_not_the_release_running(text: str) -> None:
    # r33a: a question or a release to try is not what runs; RD561 spoke on the question
    assert ollama_versions(text) == []


def test_a_question_about_a_later_release_is_not_an_ollama_build_error() -> None:
    text = ("Radeon VII (gfx906), ollama. Will ollama 0.12.6 still support my card? "
            "Right now the model runs on the CPU because I haven't installed ROCm yet.\n")
    assert "RD561" not in [rule for rule, _ in serious(text)]


@pytest.mark.parametrize(
    "text",
    [
        "MI50 (gfx906) on Ubuntu 22.04, ROCm 6.3. I gave up on ollama and now use llama.cpp built with "
        "-DAMDGPU_TARGETS=gfx906. llama.cpp does not use my GPU, everything runs on the CPU.\n",
        "Radeon VII (gfx906). I switched from ollama to vLLM; vLLM does not use the GPU, it runs on the CPU.\n",
    ],
)
def test_a_report_that_left_ollama_for_another_program_gets_no_ollama_build_finding(text: str) -> None:
    # r33a: RD562 said the report was about ollama not using the GPU
    assert not {"RD561", "RD562"} & {rule for rule, _ in serious(text)}
