"""A report that says a launcher or program narrows the GPUs a process sees with a visibility variable
(signature ``visibility_narrowed_told``, rule RD558, issue 23 class env_var_misuse): read where the verb takes
the variable (or the GPUs it selects) as its object, not from advice, a how-to, a negation, a narrowing said
to work, or a verb elsewhere in the sentence. Assertions are about signature and rule ids, never wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import serious_findings, signature_errors

SIG = "visibility_narrowed_told"


@pytest.mark.parametrize(
    "sentence",
    [
        "The trainer restricts `CUDA_VISIBLE_DEVICES` to the rollout's GPUs and RCCL aborts with invalid device ordinal.",
        "The RCCL group cannot reach the peer GPU when Ray masks GPUs via ROCR_VISIBLE_DEVICES.",
        "torch crashes when we limit the devices with ROCR_VISIBLE_DEVICES in each worker.",
        "Ray force-clears accelerator visibility for actors that ask for no GPU.",
    ],
)
def test_a_launcher_narrowing_the_gpus_with_a_visibility_variable_is_read(sentence: str) -> None:
    assert SIG in signature_errors(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        # advice and how-to
        "You can restrict the GPUs with HIP_VISIBLE_DEVICES=0 if you only want one.",
        "To hide the iGPU, set HIP_VISIBLE_DEVICES=0 before starting.",
        "How do I limit the GPUs with HIP_VISIBLE_DEVICES in docker",
        # a negation
        "I do not restrict HIP_VISIBLE_DEVICES at all, all GPUs are visible.",
        # the reporter's own choice, said to work
        "I limited the visible devices with HIP_VISIBLE_DEVICES=0 and now training runs.",
        "I restrict HIP_VISIBLE_DEVICES to 0 so only the 7900 XTX is used.",
        "Workaround: restrict HIP_VISIBLE_DEVICES to 0, this works around the crash.",
        # a request, a condition or a code comment (the bare verb)
        "Could you limit the GPUs with HIP_VISIBLE_DEVICES=0 and retry",
        "If you restrict HIP_VISIBLE_DEVICES to one GPU the bug goes away.",
        "# restrict CUDA_VISIBLE_DEVICES to the local rank",
        # a launcher's narrowing said to be fine or chosen to leave the iGPU out
        "Slurm restricts CUDA_VISIBLE_DEVICES to the allocated GPUs, which is fine.",
        "My launch script masks GPUs via HIP_VISIBLE_DEVICES=0 so the iGPU is ignored.",
        # the verb is about something else in the sentence
        "VRAM is limited, I set CUDA_VISIBLE_DEVICES=1 to use the bigger card.",
        "I cleared the cache and set HIP_VISIBLE_DEVICES=0, still segfault.",
    ],
)
def test_advice_a_negation_a_working_choice_or_another_verb_is_not_a_narrowing_told(sentence: str) -> None:
    assert SIG not in signature_errors(sentence)


def test_the_narrowing_is_said_only_where_the_report_is_about_rocm() -> None:
    told = "The launcher restricts CUDA_VISIBLE_DEVICES to one GPU per worker and the collective init hangs."
    assert "RD558" not in [f[0] for f in serious_findings("RTX 4090 x2, CUDA 12.1.\n" + told)]
    assert "RD558" in [f[0] for f in serious_findings("2x MI250X, ROCm 6.2.\n" + told)]
