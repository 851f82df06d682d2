"""The DirectML back end never set up: "module 'torch' has no attribute 'dml'" (learn55e).

directml_backend_not_set_up: lshqqytiger/stable-diffusion-webui-amdgpu#544 (maintainer's diagnosis), #618, #626,
#404, #364; AUTOMATIC1111/stable-diffusion-webui#14658.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors


@pytest.mark.parametrize(
    "line",
    [
        "AttributeError: module 'torch' has no attribute 'dml'",
        '    raise AttributeError(f"module \'{__name__}\' has no attribute \'{name}\'")\n'
        "AttributeError: module 'torch' has no attribute 'dml'\r\n",
        "> AttributeError: module \"torch\" has no attribute \"dml\"",
        "    self.name = torch.dml.get_device_name(device)\nAttributeError: module 'torch' has no attribute 'dml'",
    ],
)
def test_torch_without_dml_attribute_is_read(line: str) -> None:
    assert "directml_backend_not_set_up" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        # other attributes missing from torch: another cause each
        "AttributeError: module 'torch' has no attribute 'ops'",
        "AttributeError: module 'torch' has no attribute 'xpu'",
        # torch_directml itself, or torch's own dml-free modules
        "AttributeError: module 'torch_directml' has no attribute 'device'",
        "ModuleNotFoundError: No module named 'torch_directml'",
        # the error told as past or fixed
        "I used to get AttributeError: module 'torch' has no attribute 'dml', now it works",
    ],
)
def test_other_attribute_errors_are_not_read_as_directml_not_set_up(line: str) -> None:
    assert "directml_backend_not_set_up" not in signature_errors(line)


def test_a_directml_launch_without_torch_dml_is_shown_first_as_the_directml_set_up() -> None:
    report = (
        'venv "C:\\Users\\me\\stable-diffusion-webui-directml\\venv\\Scripts\\Python.exe"\n'
        "Python 3.10.6 (tags/v3.10.6:9c7b4bd, Aug  1 2022, 21:53:49) [MSC v.1932 64 bit (AMD64)]\n"
        "Launching Web UI with arguments: --use-directml\n"
        '    raise AttributeError(f"module \'{__name__}\' has no attribute \'{name}\'")\n'
        "AttributeError: module 'torch' has no attribute 'dml'\n"
    )
    assert problems_shown(report)[:1] == ["RD339"]


LINUX_EXTENSION_PROBE = (
    "On Linux, after updating the extension, ComfyUI prints:\n"
    "  File \"/home/me/ComfyUI/custom_nodes/some-face-node/detection/retinaface.py\", line 19, in <module>\n"
    "    elif torch.dml.is_available():\n"
    "AttributeError: module 'torch' has no attribute 'dml'\n"
    "\n"
    "OS: Arch Linux x86_64\n"
    "GPU: AMD ATI Radeon RX 7600\n"
)


def test_an_extension_probing_torch_dml_on_linux_without_directml_is_not_called_a_wrong_venv_torch() -> None:
    # Gourieff/comfyui-reactor-node#91: torch-directml is Windows/WSL only; the extension lacked a guard.
    assert "RD339" not in problems_shown(LINUX_EXTENSION_PROBE)


def test_torch_dml_missing_on_linux_launched_with_use_directml_is_still_the_directml_set_up() -> None:
    # lshqqytiger/stable-diffusion-webui-amdgpu#364: Nobara Linux, webui.sh --use-directml.
    report = "Launching Web UI with arguments: --use-directml\n" + LINUX_EXTENSION_PROBE
    assert "RD339" in problems_shown(report)
