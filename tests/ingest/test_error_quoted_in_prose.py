"""An error message the reporter quotes in a sentence ("Getting \"HIP error: invalid device function\" when running
my script") is read as the message, in straight quotes, curly quotes, backticks or none, with words before and after
(issue 23, item 6: the metamorphic kinds "error quoted in prose"); a sentence that only asks about a message, another
person's message, a past one and a document's example are not this machine's error now. Assertions are about
signature ids and facts, never about wording.

Real reports that quote the error in a sentence (tests/corpus): in backticks, textgen-5 ("I'm getting
`\"hipErrorNoBinaryForGpu: ...\"` even with ..."), ROCm/ROCm#2429 ("now I get a different error instead: `RuntimeError:
HIP error: invalid device function`"), microsoft/onnxruntime#16566 ("... fails with: `...`"), legacy-rocm-build#1794;
without quotes, legacy-rocm-build#2061 ("it just spits out hipErrorNoBinaryForGpu: ..."), microsoft/WSL#40988
("observe the PyTorch crash: RuntimeError: No HIP GPUs are available."), srinivamd/rocminstaller#6; in double
quotes, pytorch/pytorch#138067, legacy-rocm-build#1623, ROCm/tensorflow-upstream#225, Stability-AI/StableSwarmUI#269
(and in issue titles, ROCm/hip#2799 in double quotes, ROCm/hip#2166 without). Single quotes were read before this
change; the development reports hold one prose instance (LykosAI/StabilityMatrix#1669), so the metamorphic rewrite does
not use them. Curly quotes are straight ones once the paste is normalised.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from ingest_helpers import ingest

sys.path.insert(0, str(Path(__file__).parent))
from metamorphic import error_quote_for_line, error_quoted_in_prose  # noqa: E402


def signatures_of(text: str) -> list:
    fact = ingest(text).facts.symptoms.signatures
    return list(fact.value) if fact.is_known else []


@pytest.mark.parametrize(
    "sentence, signature",
    [
        ('Getting "HIP error: invalid device function" when running my script.', "hip_invalid_device_function"),
        ("I get RuntimeError: No HIP GPUs are available when I run it.", "no_hip_gpus"),
        ("It fails with `hipErrorNoBinaryForGpu` every time.", "hip_no_binary_for_gpu"),
        ("The error is \u201crocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or"
         " directory for GPU arch : gfx1036\u201d (full log below).", "tensile_library_missing_arch"),
        ("error: 'ROCk module is NOT loaded, possibly no GPU devices' when I run rocminfo", "rock_module_not_loaded"),
        ('Does anyone know why I get "HIP error: invalid device function"?', "hip_invalid_device_function"),
        ("Is there a fix for `hipErrorNoBinaryForGpu`?", "hip_no_binary_for_gpu"),
        ("Is it normal that I get `HIP error: invalid device function` on gfx1031?", "hip_invalid_device_function"),
        # a question about the message, then the sentence that says this machine printed it
        ('Is "HIP error: invalid device function" a known bug? I get it every time on my RX 6700 XT.', "hip_invalid_device_function"),
        # a program's own message that ends in a question is the message, not the reporter's question
        ("Error: could not connect to ollama app, is it running?", "ollama_client_cannot_connect"),
        # "no longer" about something else, a negated "get" without "any more": the message is still printed
        ('It no longer crashes, but now I get "HIP error: invalid device function".', "hip_invalid_device_function"),
        ('I don\'t get why I see "HIP error: invalid device function" with this GPU.', "hip_invalid_device_function"),
        ("I don't get `hipErrorNoBinaryForGpu` in the terminal, only in the web UI's log.", "hip_no_binary_for_gpu"),
        # "no longer" governing something else than the message, in another clause
        ("After the update torch no longer sees my GPU: RuntimeError: No HIP GPUs are available", "no_hip_gpus"),
        ("rocminfo no longer shows the GPU and torch fails with `RuntimeError: No HIP GPUs are available`.", "no_hip_gpus"),
        ('I no longer get "RuntimeError: No HIP GPUs are available", instead I get "HIP error: invalid device function".', "hip_invalid_device_function"),
        ("I don't see how to fix `hipErrorNoBinaryForGpu` anymore, I've tried everything.", "hip_no_binary_for_gpu"),
        # "before" as an order of events, and a past opener that the sentence leaves for the state now
        ("ComfyUI stops before the first step with `RuntimeError: Found no NVIDIA driver on your system`.", "found_no_nvidia_driver"),
        ('Before the update it worked, now I get "RuntimeError: No HIP GPUs are available".', "no_hip_gpus"),
        ("Previously it worked, but after the update it fails with `hipErrorNoBinaryForGpu`.", "hip_no_binary_for_gpu"),
        # "previously mentioned" points into the report, it is no past state
        ("As previously mentioned, ComfyUI fails with `RuntimeError: Found no NVIDIA driver on your system`.", "found_no_nvidia_driver"),
        # a past opener whose sentence tells the good state of then, or turns to a verb in the present, before the message
        ("Back when I used ROCm 5.7 it was fine, with 6.2 ComfyUI says \"RuntimeError: No HIP GPUs are available\".", "no_hip_gpus"),
        ("Last working was torch 2.3; with 2.4 I get `RuntimeError: No HIP GPUs are available`.", "no_hip_gpus"),
        ("I initially installed torch 2.4.1+rocm6.1 and ComfyUI says \"RuntimeError: No HIP GPUs are available\".", "no_hip_gpus"),
        ("I installed everything as described initially, and ComfyUI prints `hipErrorNoBinaryForGpu`.", "hip_no_binary_for_gpu"),
        ("Before I upgraded the system worked, unfortunately ComfyUI says \"RuntimeError: No HIP GPUs are available\".", "no_hip_gpus"),
        ("At first launch ComfyUI says `RuntimeError: Found no NVIDIA driver on your system`.", "found_no_nvidia_driver"),
        # "before" inside the sentence orders events of now; the past marker must open the sentence
        ("ComfyUI crashes before it reached the first step with `hipErrorNoBinaryForGpu`.", "hip_no_binary_for_gpu"),
    ],
)
def test_an_error_quoted_in_a_sentence_is_read_as_the_error(sentence: str, signature: str) -> None:
    assert signature in signatures_of(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Is `HIP error: invalid device function` the same as the error in #123?",
        "Should I expect `No HIP GPUs are available` on WSL?",
        'My friend gets "RuntimeError: No HIP GPUs are available" on his laptop.',
        "This used to fail with hipErrorNoBinaryForGpu on ROCm 5.6, now it works.",
        "The README says you may see `RuntimeError: No HIP GPUs are available` when the GPU is not visible.",
        # the message as gone
        'After setting HSA_OVERRIDE_GFX_VERSION I no longer get "HIP error: invalid device function", training is slow.',
        "It no longer fails with `hipErrorNoBinaryForGpu` on the nightly.",
        'I don\'t get "RuntimeError: No HIP GPUs are available" anymore after adding myself to the render group.',
        "The container does not show `hipErrorNoBinaryForGpu` any more.",
        'I don\'t see the "HIP error: invalid device function" message anymore.',
        # the message as the past, before a reinstall or an update the sentence names
        'Before I reinstalled torch, ComfyUI said "Found no NVIDIA driver on your system".',
        "Before the update I got `RuntimeError: No HIP GPUs are available` on every start.",
        "Initially it failed with `AssertionError: Torch not compiled with CUDA enabled`, which the ROCm wheel fixed.",
        "RX 6800 XT, Ubuntu 22.04 - before the update I got `RuntimeError: No HIP GPUs are available` every time.",
    ],
)
def test_a_question_another_persons_past_or_documented_error_is_not_this_machines(sentence: str) -> None:
    assert not signatures_of(sentence)


TRANSCRIPT = (
    "$ AMD_LOG_LEVEL=7 python3 -c 'import torch; print(torch.cuda.is_available())'\n"
    ":3:hip_device_runtime.cpp   :653 : 0518007026 us: [pid:858   tid:0x7f19cb128080] hipGetDeviceCount: Returned hipErrorNoDevice :\n"
    "False\n"
)


def test_the_printed_line_not_a_sentence_quoting_it_is_the_errors_line() -> None:
    # the command's own environment prefix is in force for its output; a sentence above that quotes the message
    # must not make the prefix look set for another command
    quoted = "It fails with `hipErrorNoDevice` every time.\n" + TRANSCRIPT
    for text in (TRANSCRIPT, quoted):
        env = ingest(text).facts.env.vars
        assert env.is_known and env.value.get("AMD_LOG_LEVEL") == "7"


LOG = "I run the script below.\n\n```\nTraceback (most recent call last):\nRuntimeError: HIP error: invalid device function\n```\n"


def test_the_added_sentence_quotes_the_recognised_error_whole_and_keeps_the_log() -> None:
    rewritten = error_quoted_in_prose(LOG)
    first, rest = rewritten.split("\n\n", 1)
    assert "RuntimeError: HIP error: invalid device function" in first and first != rest
    assert rewritten.endswith(LOG) and error_quoted_in_prose(LOG) == rewritten


def test_a_standalone_error_line_outside_a_fence_is_said_in_a_sentence() -> None:
    text = "My GPU does not work.\n\nRuntimeError: No HIP GPUs are available\n\nAny idea?\n"
    rewritten = error_quote_for_line(text)
    assert rewritten != text and "RuntimeError: No HIP GPUs are available" in rewritten.split("\n")[2]
    assert rewritten.split("\n")[2] != "RuntimeError: No HIP GPUs are available"
    assert error_quote_for_line(LOG) == LOG  # the fenced line stays as printed


def _rocm_read(text: str):
    facts = ingest(text).facts
    installs = facts.rocm.installs.value if facts.rocm.installs.is_known else None
    version = facts.rocm.version.value if facts.rocm.version.is_known else None
    return installs, version


TRACE_OF_TWO_RELEASES = (
    "```\n"
    '  File "/opt/rocm-7.1.1/libexec/amdsmi_cli/amdsmi_init.py", line 38, in <module>\n'
    "AttributeError: /opt/rocm-7.0.1/lib/libamd_smi.so: undefined symbol: amdsmi_get_gpu_partition_metrics_info\n"
    "```\n"
)


@pytest.mark.parametrize(
    "sentence",
    [
        "The error is \u201cAttributeError: /opt/rocm-6.1.0/lib/libamd_smi.so: undefined symbol: amdsmi_init\u201d (full log below).",
        'I get "OSError: /opt/rocm-6.1.0/lib/librocblas.so.4: cannot open shared object file" when importing.',
        "It fails with `ImportError: /opt/rocm-6.1.0/lib/libamdhip64.so: undefined symbol: hipGetDevice` on start.",
    ],
)
def test_a_rocm_path_inside_an_error_quoted_in_prose_is_no_install_of_the_machine(sentence: str) -> None:
    # prec55: amdsmi-186 under "error quoted in prose, added": the quoted error's /opt/rocm-7.0.1 became a second install
    installs, version = _rocm_read("ROCm 6.2.0 is installed in /opt/rocm-6.2.0 on this machine.\n" + sentence + "\n")
    assert installs is not None and "/opt/rocm-6.1.0" not in installs
    assert version == "6.2.0"


def test_the_quoted_error_added_over_a_trace_keeps_the_installs_the_trace_shows() -> None:
    text = "It looks like the ROCm 7.1.1 CLI loads the wrong library.\n\n" + TRACE_OF_TWO_RELEASES
    assert _rocm_read(error_quoted_in_prose(text)) == _rocm_read(text)
    assert set(_rocm_read(text)[0]) == {"/opt/rocm-7.0.1", "/opt/rocm-7.1.1"}


@pytest.mark.parametrize(
    "sentence",
    [
        "I installed ROCm 6.1.0 to /opt/rocm-6.1.0 with amdgpu-install.",
        "`ls /opt` shows `/opt/rocm-6.1.0` and nothing else.",
        "ROCm lives in \"/opt/rocm-6.1.0\" on this box.",
    ],
)
def test_a_rocm_path_the_reporter_names_as_installed_is_still_read(sentence: str) -> None:
    installs, _ = _rocm_read(sentence + "\n")
    assert installs is not None and "/opt/rocm-6.1.0" in installs
