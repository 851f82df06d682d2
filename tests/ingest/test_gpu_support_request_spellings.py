"""Further spellings of a request that a program support the reporter's GPU (gfx57, second wave).

Row gpu_support_requested_told of rules/data/signatures.yaml (and its GPU words, gpu_named); rule RD766. Each
spelling comes from three independent public reports: "please support <GPU>" (AUTOMATIC1111/stable-diffusion-webui#15434,
lmstudio-ai/lmstudio-bug-tracker#1004, ollama/ollama#4099); a request with no marker, a line that opens with "Add gfxNNNN"
or "suggest to add" a target (bitsandbytes-foundation/bitsandbytes#1821, ROCm/TheRock#844, ROCm/TransferBench#194);
a model with its suffix joined to the number ("rx 7600xt", 71 development cases).
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
        "Add gfx1150 and gfx1151 to `.github/scripts/build-rocm.sh` so that the wheel can be installed\n",
        "Add gfx1150 builds?\n",
        "So I suggest to add the gfx950 into the default device list.\n",
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
    report = "GPU: AMD Radeon RX 7900 XTX (gfx1100)\nEverything runs on the GPU.\nAdd gfx1201 to the default targets too, for others.\n"
    assert not [f for f in serious_findings(report) if f[0] == "RD766"]
