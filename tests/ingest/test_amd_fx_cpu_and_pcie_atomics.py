"""An AMD FX processor named in prose is read as the machine's CPU, and that pre-Zen generation provides no PCIe
atomics, so a GFX8 card behind it is the atomics case (RD620).

Spellings from three independent reports: "a 990FX+AMD FX 8320 platform" (ROCm/legacy-rocm-build#501), "AMD FX
processors such as FX 8300 ... PCI rejects atomics" (ROCm/legacy-rocm-build#1086), "I'm on FX-8350" and uname's
"AMD FX(tm)-8350 Eight-Core Processor" (justxi/rocm#72). The negatives are what the same letters mean elsewhere:
the 990FX chipset, NVIDIA's GeForce FX and Quadro FX cards, and an FX named beside the Ryzen that replaced it.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate


def cpu_model(text: str):
    model = ingest(text + "\n").facts.cpu.model
    return str(model.value) if model.is_known else None


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I'm testing ROCM on a 990FX+AMD FX 8320 platform. The computer has two MSI Vega 56 in the x16 slots.", "AMD FX 8320"),
        ("Polaris GPUs such as the RX 580 do not work when paired with AMD FX processors such as FX 8300.", "AMD FX 8300"),
        ("Linux rogue 5.1.15-gentoo x86_64 AMD FX(tm)-8350 Eight-Core Processor AuthenticAMD GNU/Linux", "AMD FX(tm)-8350"),
        ("My system is driven by AMD FX 8120 CPU and an RX 480.", "AMD FX 8120"),
    ],
)
def test_an_amd_fx_named_in_prose_is_the_cpu(text, expected):
    assert cpu_model(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The board is an ASUS 990FX with an RX 580.",
        "My old GeForce FX 5200 and a Quadro FX 4800 sit in a drawer; the RX 580 is in the PC.",
        "I moved from an FX-8350 to a Ryzen 5 3600 with my RX 580.",
        # rev53e: a guide's URL, another person's machine beside the reporter's Intel CPU, a friend's, "my old" one
        # and a question name no processor of this machine
        "Following https://example.com/guides/fx-8350-rx580-rocm.html on my Intel i7-6700K with RX 580.",
        "He has an FX-8350 too, mine is an i5-8400 with an RX 580.",
        "My friend has an FX-8350 and an RX 580 and it works for him. I have an RX 570.",
        "My old FX-8350 died, so the RX 580 now sits in a new PC.",
        "Does ROCm work with an FX-8350 and an RX 580?",
    ],
)
def test_a_chipset_an_nvidia_fx_card_or_a_replaced_fx_is_not_read_as_an_fx_cpu(text):
    assert not str(cpu_model(text) or "").startswith("AMD FX")


def serious(text: str):
    rules = load_rules([], use_env=False)
    findings = evaluate(rules, ingest(text + "\n").facts).findings
    return {f.id for f in findings if f.severity in ("error", "warning")}


def test_a_polaris_card_behind_an_amd_fx_that_rocm_does_not_see_is_the_atomics_case():
    text = "I have an RX 580 and an AMD FX-8350 on Ubuntu 20.04 with ROCm 3.5. rocminfo shows only the CPU, no GPU."
    assert "RD620" in serious(text)


def test_a_vega_behind_an_amd_fx_is_not_the_gfx8_atomics_case():
    text = "I have an RX Vega 56 and an AMD FX-8350 on Ubuntu 18.04 with ROCm 1.9. rocminfo shows only the CPU, no GPU."
    assert "RD620" not in serious(text)


@pytest.mark.parametrize(
    "text",
    [
        # PyTorch listing the GPU, or saying it is available, shows HIP enumerated it, so KFD took it (rev53e)
        "CPU: AMD FX-8320, GPU: RX 570, torch 2.0.1+rocm5.4.2\n>>> torch.cuda.get_device_name(0)\n'Radeon RX 570 Series'\n"
        "but rocminfo shows only the CPU.",
        "AMD FX-8350, RX 580. torch 2.3.0+rocm5.7\n>>> torch.cuda.is_available()\nTrue\n"
        "but stable diffusion says RuntimeError: No HIP GPUs are available",
    ],
)
def test_a_gfx8_card_pytorch_already_lists_is_not_the_atomics_case(text):
    assert "RD620" not in serious(text)
