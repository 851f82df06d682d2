"""A report that says a GPU visibility variable did not take effect (signature ``visibility_variable_ignored_told``,
rule RD559, issue 23 class env_var_misuse): read where the variable (or "device selection"/"visibility" variables)
is what the failing verb is about, in the wordings of real reports; not from a negation of
that clause, a condition, advice, a question, the past, or a verb about something else. Assertions are about
signature and rule ids, never wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import serious_findings, signature_errors

SIG = "visibility_variable_ignored_told"


@pytest.mark.parametrize(
    "sentence",
    [
        # warpfront/hipfire#623 (Windows)
        "Windows: daemon always uses iGPU as device 0; visibility env vars ignored, arch selector not applied.",
        "- `HIP_VISIBLE_DEVICES=1` → still reports `GPU dev 0: gfx1036 (13.0 GB VRAM, HIP 7.2)`",
        # warpfront/hipfire#669 (Windows): a dotted config key inside the object
        "hipfire diag and hipfire serve query device index 0, completely ignoring configuration properties "
        "(hardware.devices) and runtime device selection variables.",
        # Comfy-Org/ComfyUI#5585 and its PR #5586
        "the switch is not working due to the environment variable being ignored by pytorch+rocm it will use cuda0.",
        "CUDA_VISIBLE_DEVICES is ignored for HIP devices/backend.",
        # pytorch/pytorch#131901
        "Setting `HIP_VISIBLE_DEVICES=<x>` does not actually use `GPU<x>` (when seen using `rocm-smi`)",
        # AUTOMATIC1111/stable-diffusion-webui#14182: the clause after "wasn't that ... but that" is read
        "My main issue wasn't that `HIP_VISIBLE_DEVICES` doesn't work but that the command used for detecting "
        "the GPU doesn't adhere to the value of `HIP_VISIBLE_DEVICES`.",
        # ROCm/rocm-aic#83: a second service the variable did not reach stayed on GPU 0
        "When GPU=N is set, only the vllm container had ROCR_VISIBLE_DEVICES applied; lmcache defaulted to GPU 0.",
        # ollama/ollama#7480: another variable is what made it work
        "To make it work correctly, I have to give it access to all GPUs and then limit access via ROCR_VISIBLE_DEVICES.",
    ],
)
def test_a_visibility_variable_said_not_to_take_effect_is_read(sentence: str) -> None:
    assert SIG in signature_errors(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "My main issue wasn't that `HIP_VISIBLE_DEVICES` doesn't work but that the script sets the override.",
        "If HIP_VISIBLE_DEVICES is ignored, try ROCR_VISIBLE_DEVICES.",
        "Make sure CUDA_VISIBLE_DEVICES is not ignored by your launcher.",
        "I set HIP_VISIBLE_DEVICES=0 and now it works.",
        "Does HIP_VISIBLE_DEVICES work on Windows?",
        "HIP_VISIBLE_DEVICES=0 works fine and the iGPU is ignored.",
        "I ignored the warning and set HIP_VISIBLE_DEVICES=0.",
        "Before the update HIP_VISIBLE_DEVICES was ignored, now it works.",
        # GPU 0 defaulted to where no visibility variable is in the sentence
        "With no option given the server defaulted to GPU 0, which is what I want.",
        # advice, not the reporter's own need
        "To make it work, set HIP_VISIBLE_DEVICES=0 before starting ollama.",
    ],
)
def test_a_negation_condition_advice_question_or_another_object_is_not_read(sentence: str) -> None:
    assert SIG not in signature_errors(sentence)


def test_the_statement_is_judged_only_where_the_report_is_about_rocm() -> None:
    told = "CUDA_VISIBLE_DEVICES=1 has no effect, the job still uses GPU 0.\n"
    assert "RD559" not in [f[0] for f in serious_findings("RTX 4090 x2, CUDA 12.1.\n" + told)]
    assert "RD559" in [f[0] for f in serious_findings("2x RX 7900 XTX, ROCm 6.2.\n" + told)]


def test_rocrs_own_variable_makes_the_report_rocms_where_nothing_else_of_rocm_is_named() -> None:
    # ROCm/rocm-aic#83: a compose file's ROCR_VISIBLE_DEVICES, no other word of ROCm
    told = "Only the vllm container had ROCR_VISIBLE_DEVICES applied; lmcache defaulted to GPU 0.\n"
    assert "RD559" in [f[0] for f in serious_findings(told)]
    cuda_only = "Only the vllm container had CUDA_VISIBLE_DEVICES applied; lmcache defaulted to GPU 0.\n"
    assert "RD559" not in [f[0] for f in serious_findings(cuda_only)]


@pytest.mark.parametrize(
    "text",
    [
        # the two masks agree (HIP indexes into what ROCr left) and the selection is said to work
        "ROCm 6.2, 2x RX 7900 XTX.\n$ export ROCR_VISIBLE_DEVICES=1\n$ export HIP_VISIBLE_DEVICES=0\n"
        "$ python -c 'import torch; print(torch.cuda.device_count(), torch.cuda.get_device_name(0))'\n"
        "1 AMD Radeon RX 7900 XTX\nTraining runs on the second card as expected.\n",
        # one variable, chosen by the reporter, said to work
        "ROCm 6.3 on a desktop with an RX 7900 XT and the Raphael iGPU.\nI set HIP_VISIBLE_DEVICES=0 so only the dGPU "
        "is used, and llama-server lists ROCm0: AMD Radeon RX 7900 XT.\n",
    ],
)
def test_masks_that_agree_or_a_selection_said_to_work_get_no_visibility_finding(text: str) -> None:
    shown = serious_findings(text)
    assert not any(rule in ("RD559", "RD542", "RD525", "RD681") for rule, _, _ in shown)
    assert not any(severity == "error" for _, severity, _ in shown)


@pytest.mark.parametrize(
    "sentence",
    [
        # rev59: the failure negated by the word before it
        "HIP_VISIBLE_DEVICES is not ignored, it correctly selects GPU 1.",
        "ROCR_VISIBLE_DEVICES is not ignored anymore since ROCm 6.1.",
        # another vendor's machine
        "On my NVIDIA box with CUDA 12, CUDA_VISIBLE_DEVICES is ignored by the trainer.",
        "With CUDA_VISIBLE_DEVICES=1 it still uses GPU 0 on the NVIDIA server.",
        # a belief taken back, hearsay, a working design, a note
        "I thought HIP_VISIBLE_DEVICES was ignored but it was my mistake, it works fine.",
        "Someone on reddit said ROCR_VISIBLE_DEVICES is ignored on Windows.",
        "Our launcher ignores CUDA_VISIBLE_DEVICES and sets HIP_VISIBLE_DEVICES itself, which works well.",
        "Note that HIP_VISIBLE_DEVICES does not work on Windows; use it on Linux.",
    ],
)
def test_a_negated_another_vendor_s_hearsay_or_working_selection_is_not_read(sentence: str) -> None:
    assert SIG not in signature_errors(sentence)
    assert "RD559" not in [f[0] for f in serious_findings("ROCm 6.2, two MI100.\n" + sentence + "\n")]


@pytest.mark.parametrize(
    "sentence",
    [
        # rev59: the default with the variable unset, the time before it was set, a bug said fixed
        "If HIP_VISIBLE_DEVICES is unset, the server defaulted to GPU 0, which is expected.",
        "I set HIP_VISIBLE_DEVICES=1 in the compose file; before that it defaulted to GPU 0.",
        "HIP_VISIBLE_DEVICES was ignored in ROCm 5.7, fixed since 6.0.",
    ],
)
def test_a_default_without_the_variable_or_a_fixed_bug_is_not_read(sentence: str) -> None:
    assert "RD559" not in [f[0] for f in serious_findings("ROCm 6.2, two MI100.\n" + sentence + "\n")]


def test_an_nvidia_report_naming_rocr_visible_devices_in_an_env_dump_is_not_rd559() -> None:
    # rev59: rocr_visible_devices_named made it ROCm's; the GPUs shown are another vendor's (derived.amd_context false)
    text = ("2x RTX 3090, CUDA 12.4, driver 550.\nCUDA_VISIBLE_DEVICES=1 is ignored, it still uses GPU 0.\n"
            "The Ray env dump shows ROCR_VISIBLE_DEVICES= (empty).\n")
    assert "RD559" not in [f[0] for f in serious_findings(text)]


@pytest.mark.parametrize(
    "sentence",
    [
        # mend59: a pull request's or changelog's line telling the bug it fixes, not this machine's failure
        "The fix in PR #5586: CUDA_VISIBLE_DEVICES is ignored for HIP devices, so we now also set HIP_VISIBLE_DEVICES.",
        "Changelog: CUDA_VISIBLE_DEVICES is ignored for HIP devices, so --cuda-device now also sets HIP_VISIBLE_DEVICES.",
        "This PR fixes --cuda-device for AMD: CUDA_VISIBLE_DEVICES is ignored for HIP devices/backend.",
    ],
)
def test_a_pull_request_or_changelog_line_telling_the_fixed_bug_is_not_read(sentence: str) -> None:
    assert SIG not in signature_errors(sentence)
    assert "RD559" not in [f[0] for f in serious_findings("ROCm 6.2, two RX 7900 XT.\n" + sentence + "\n")]
