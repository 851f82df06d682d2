""""The problem does not happen with X" names X as a state compared with the failing one, never the release in use.

"The issue didn't reproduce on Pytorch 2.0 with ROCm 5.4" (ROCm/k8s-device-plugin#65) was read as torch 2.0 and ROCm
5.4 in use; "This does not happen with the same version of PyTorch built with ROCm 7.13" (ROCm/legacy-rocm-build#6601)
as a torch built with ROCm 7.13, the nightly that worked. The same form names the working release in
ollama/ollama#12045 ("does not occur in versions 0.11.4 and earlier") and ollama/ollama#7715 ("doesn't happen on
version 0.3 of ollama"). The release is kept as evidence of what changed (``symptoms.earlier``)."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest


@pytest.mark.parametrize(
    "text, earlier",
    [
        ("RX 7900 XTX. torch.cuda.is_available() fails in the pod.\nThe issue didn't reproduce on Pytorch 2.0 with ROCm 5.4.\n",
         ["torch.version=2.0", "rocm.version=5.4"]),
        ("RX 7900 XTX. The crash does not happen with ROCm 6.1.\n", ["rocm.version=6.1"]),
        ("RX 7900 XTX. The error doesn't occur at all on ROCm 6.1, only on the new install.\n", ["rocm.version=6.1"]),
        ("RX 7900 XTX. This bug does not appear with torch 2.4.1+rocm6.1.\n", ["torch.version=2.4.1+rocm6.1"]),
    ],
)
def test_a_release_the_problem_does_not_happen_with_is_an_earlier_state(text: str, earlier: list) -> None:
    facts = ingest(text).facts
    seen = facts.symptoms.earlier.value or []
    for entry in earlier:
        assert entry in seen
        path, value = entry.split("=", 1)
        assert (facts.rocm.version.value if path == "rocm.version" else facts.torch.version.value) != value


def test_a_torch_build_the_problem_does_not_happen_with_is_not_the_torch_in_use() -> None:
    text = "With PyTorch 2.11 SDPA gives artifacts. This does not happen with the same version of PyTorch built with ROCm 7.13.\n"
    assert ingest(text).facts.torch.rocm_version.value != "7.13"


@pytest.mark.parametrize(
    "text, rocm",
    [
        ("RX 7900 XTX. It fails with ROCm 6.2.\n", "6.2"),
        ("RX 7900 XTX. The crash happens with ROCm 6.2.\n", "6.2"),
        ("RX 7900 XTX. I get the error on ROCm 6.2 and it doesn't go away.\n", "6.2"),
        # review66: the sentence turns from the setup without the problem to the failing one, 
        ("RX 7900 XTX. The crash does not happen with small batches, but with batch size 64 on ROCm 6.2 it segfaults.\n", "6.2"),
        ("RX 7900 XTX. The hang doesn't happen on the CPU, but on the GPU with ROCm 6.2 it hangs after 5 minutes.\n", "6.2"),
    ],
)
def test_a_release_the_problem_happens_with_stays_the_release_in_use(text: str, rocm: str) -> None:
    facts = ingest(text).facts
    assert facts.rocm.version.value == rocm
    assert f"rocm.version={rocm}" not in (facts.symptoms.earlier.value or [])


@pytest.mark.parametrize(
    "text",
    [
        "RX 7900 XTX. It does not happen in ComfyUI, only in A1111 with torch 2.5.1+rocm6.2 installed.\n",
        "RX 7900 XTX. It doesn't occur on small images; with torch 2.5.1+rocm6.2 on large ones it crashes.\n",
        "RX 7900 XTX. The freeze does not happen with torch 2.5.1+rocm6.2 any more.\n",
    ],
)
def test_a_torch_named_after_the_sentence_turns_to_the_failing_setup_stays_the_torch_in_use(text: str) -> None:
    facts = ingest(text).facts
    assert facts.torch.version.value == "2.5.1+rocm6.2"
    assert "torch.version=2.5.1+rocm6.2" not in (facts.symptoms.earlier.value or [])
