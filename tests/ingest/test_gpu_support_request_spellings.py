"""Further spellings of a request that a program support the reporter's GPU (gfx57, second wave).

Row gpu_support_requested_told of rules/data/signatures.yaml (and its GPU words, gpu_named); rule RD766. Each
spelling comes from three independent public reports: "please support <GPU>" (AUTOMATIC1111/stable-diffusion-webui#15434,
lmstudio-ai/lmstudio-bug-tracker#1004, ollama/ollama#4099); a model with its suffix joined to the number ("rx 7600xt",
71 development cases). A request with no marker ("Add gfxNNNN to ...", "suggest to add ...") is not read (rev57e):
the same words are a commit subject, a release note, a how-to step or advice.
"""

from __future__ import annotations

import pytest
from ingest_helpers import serious_findings, signature_contexts

REQUESTED = "gpu_support_requested_told"


@pytest.mark.parametrize(
    "text",
    [
        "please support rx 7600xt pytorch rocm 6 version\n",
        "please support gfx1151 APU on linux.\n",
        "Please support gfx1103 in rocm docker image\n",
        "Could you also support the RX 6700xt?\n",
    ],
)
def test_a_request_in_these_spellings_is_read(text: str) -> None:
    assert REQUESTED in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # a question whether it is supported, not a request
        "Please help, does ROCm support the RX 6600XT?\n",
        # support for a person or a project
        "Please support me, my RX 6800 fails\n",
        "please support this project, I use an RX 6800\n",
        # a changelog bullet, advice to a reader, a step that is not about a build
        "- Add gfx1201 to the default targets\n",
        "I suggest you add gfx1030 to PYTORCH_ROCM_ARCH\n",
        "Add RX 6800 to the VM\n",
        "Add gfx1030\n",
        # rev57e: no request marker: a commit subject or release note, a how-to step, advice, a past suggestion
        "Add gfx1151 to default targets\n",
        "Add gfx1100 support (#2231)\n",
        "add gfx1030 to AMDGPU_TARGETS and rebuild\n",
        "Add gfx1100 to the list in CMakeLists.txt and it compiles fine.\n",
        "Add gfx1150 and gfx1151 to `.github/scripts/build-rocm.sh` so that the wheel can be installed\n",
        "I suggest adding gfx1030 to your PYTORCH_ROCM_ARCH\n",
        "The docs suggest adding gfx1100 to the build\n",
        # a wish about the state, a maintainer's plan
        "I wish support for gfx1100 was better documented\n",
        "We are hoping to support gfx1151 in the next release\n",
        # a question with the suffix joined
        "does it support rx7900xtx?\n",
        # met on the same line
        "Please support gfx1100, it works fine now thanks\n",
    ],
)
def test_a_question_a_person_a_changelog_or_advice_is_not_read(text: str) -> None:
    assert REQUESTED not in signature_contexts(text)


def test_a_request_for_the_machines_gpu_in_these_spellings_is_a_gfx_unsupported_warning() -> None:
    report = "GPU: AMD Radeon RX 7600 XT\n\nThe webui fails with the ROCm 6.0 torch.\nplease support rx 7600xt pytorch rocm 6 version\n"
    assert ("RD766", "warning", "gfx-unsupported") in serious_findings(report)


def test_a_request_for_another_gpu_than_the_machines_is_no_finding() -> None:
    report = "GPU: AMD Radeon RX 7900 XTX (gfx1100)\nEverything runs on the GPU.\nPlease support gfx1201 too, for others.\n"
    assert not [f for f in serious_findings(report) if f[0] == "RD766"]


@pytest.mark.parametrize(
    ("name", "gfx"),
    [("rx 7600xt", "gfx1102"), ("rx7900xtx", "gfx1100"), ("rx7900gre", "gfx1100"), ("RX 6700xt", "gfx1031"), ("rx 6650xt", "gfx1032")],
)
def test_a_joined_suffix_reads_as_its_models_target(name: str, gfx: str) -> None:
    from rocm_doctor.ingest import ingest_text

    named = ingest_text(f"please support {name}\n").facts.symptoms.support_gpus
    assert named.value == [gfx]


def test_a_stray_letter_after_a_model_number_is_not_a_gpu() -> None:
    assert REQUESTED not in signature_contexts("please support rx580x\n")
