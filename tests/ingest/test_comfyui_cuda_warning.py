"""ComfyUI's start-up warning that asks for a cu130 torch (signature comfyui_cuda_build_below_cu130): comfy/quant_ops.py
prints it only where torch.version.cuda is set and below 13, so it shows a CUDA build; a ROCm or CPU-only build never
prints it. Assertions are about signatures, facts and finding ids, never about wording.
"""

from __future__ import annotations

from ingest_helpers import ingest, problems_shown, signature_errors

SIGNATURE = "comfyui_cuda_build_below_cu130"
WARNING = "WARNING: You need pytorch with cu130 or higher to use optimized CUDA operations."

# patientx-cfz/comfyui-rocm#87: the AMD installer's portable environment, and the warning at start-up
AMD_WINDOWS_LOG = (
    "Followed the install steps for my Radeon, then comfy-user.bat printed:\n"
    "** Platform: Windows\n"
    "** Python executable: E:\\comfyui-rocm\\python_env\\python.exe\n"
    f"[2026-07-14 12:44:48.364] {WARNING}\n"
    "[2026-07-14 12:44:48.365] Found comfy_kitchen backend triton: {'available': False,\n"
)


def test_the_cu130_warning_is_read_in_its_log_forms() -> None:
    # Comfy-Org/ComfyUI#12718 (bare), #2500 (a desktop log's timestamp and level), MooshieUI#525 (bare)
    assert SIGNATURE in signature_errors(WARNING)
    assert SIGNATURE in signature_errors(f"2026-08-04T07:42:32.498964 - [WARNING] {WARNING}")
    assert SIGNATURE in signature_errors(f"{WARNING} Found comfy_kitchen backend eager: {{'available': True}}")
    # wrapped at 80 columns after a ComfyUI log's timestamp
    assert SIGNATURE in signature_errors(
        "[2026-07-14 12:44:48.364] WARNING: You need pytorch with cu130 or higher to use\noptimized CUDA operations.\n"
    )


def test_the_cu130_warning_shows_a_cuda_build_and_an_amd_report_gets_the_cuda_torch_finding_first() -> None:
    assert ingest(AMD_WINDOWS_LOG).facts.torch.flavour.value == "cuda"
    assert problems_shown(AMD_WINDOWS_LOG)[:1] == ["RD528"]


def test_the_cu130_warning_on_an_nvidia_machine_is_no_amd_finding() -> None:
    # Comfy-Org/ComfyUI#12718: the warning beside an RTX 3090 and a cu128 torch
    text = (
        f"{WARNING}\n"
        "Total VRAM 24576 MB, total RAM 65277 MB\n"
        "pytorch version: 2.9.1+cu128\n"
        "Device: cuda:0 NVIDIA GeForce RTX 3090 : cudaMallocAsync\n"
    )
    assert not [rule for rule in problems_shown(text) if rule in ("RD500", "RD528", "RD570")]


def test_the_cu130_warning_under_zluda_is_no_cuda_torch_finding() -> None:
    # ZLUDA runs a CUDA build of torch on the AMD GPU on purpose (patientx/ComfyUI-Zluda)
    text = "ComfyUI-Zluda on my RX 6800\n" + f"{WARNING}\n"
    assert "RD528" not in problems_shown(text)


def test_the_cu130_warning_told_as_gone_is_not_read() -> None:
    assert SIGNATURE not in signature_errors(f"I used to get '{WARNING}' before the update")


def test_a_rocm_comfyui_start_without_the_warning_shows_no_cuda_build() -> None:
    text = (
        "** Platform: Linux\n"
        "Found comfy_kitchen backend eager: {'available': True, 'disabled': False}\n"
        "pytorch version: 2.9.1+rocm6.4\n"
        "AMD arch: gfx1100\n"
        "Device: cuda:0 AMD Radeon RX 7900 XTX : native\n"
    )
    assert ingest(text).facts.torch.flavour.value == "rocm"
    assert "RD528" not in problems_shown(text)
