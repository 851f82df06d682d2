"""Windows' code integrity (Smart App Control, App Control / WDAC) refusing an unsigned file is read in the words
Python, PowerShell, .NET and the loader's "Bad Image" dialog give it, and on an AMD machine RD590 names it first: the
ROCm DLLs of the rocm_sdk wheels and pip's generated .exe launchers are not signed. A DLL that is merely missing is
not this, and a machine without an AMD GPU or ROCm build is not RD590's. The texts are written for the test in the
shapes of unslothai/unsloth#6648 and #8490 and LykosAI/StabilityMatrix#1712."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

SIGNATURE = "windows_application_control_blocked"


@pytest.mark.parametrize(
    "text",
    [
        "OSError: [WinError 4551] An Application Control policy has blocked this file\n",
        "The underlying error is `OSError(winerror=4551)`, \"An Application Control policy has blocked this file\".\n",
        "Program 'unsloth.exe' failed to run: An Application Control policy has blocked this file\n",
        "run on Windows or it contains an error. ... Error status 0xc0e90002.\n",
        "Could not load file or assembly 'C:\\Tools\\x.dll'. An Application Control policy has blocked this file. (0x800711C7)\n",
    ],
)
def test_a_code_integrity_refusal_is_read_in_its_shapes(text: str) -> None:
    assert SIGNATURE in signature_errors(text)


def test_a_missing_dll_is_not_a_policys_refusal() -> None:
    text = 'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.\n'
    assert SIGNATURE not in signature_errors(text)


def test_on_an_amd_machine_the_refusal_is_told_first() -> None:
    text = (
        "GPU: AMD Radeon RX 6800 (gfx1030)\n"
        "`E:\\Data\\Packages\\ComfyUI\\venv\\Lib\\site-packages\\_rocm_sdk_libraries\\bin\\rocsolver.dll`\n"
        "A standalone `import torch` test fails with:\n"
        "`OSError: [WinError 4551] An Application Control policy has blocked this file`\n"
    )
    assert problems_shown(text)[:1] == ["RD590"]


def test_a_machine_without_the_amd_stack_is_not_rd590s() -> None:
    text = "GPU 0: NVIDIA GeForce RTX 4080\ntorch 2.4.0+cu124\nOSError: [WinError 4551] An Application Control policy has blocked this file\n"
    assert "RD590" not in problems_shown(text)


def test_the_title_names_an_unsigned_file_not_a_file_of_the_amd_stack() -> None:
    # review66: unslothai/unsloth#8490's refused file was pip's generated unsloth.exe, not a file of the AMD stack
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate
    from ingest_helpers import ingest

    text = (
        "GPU: AMD Radeon RX 6800 (gfx1030), torch 2.9.0+rocmsdk20251116\n"
        "Program 'unsloth.exe' failed to run: An Application Control policy has blocked this file\n"
    )
    findings = evaluate(load_rules([], use_env=False), ingest(text).facts).findings
    title = next(f.title for f in findings if f.id == "RD590")
    assert "AMD stack" not in title and "unsigned file" in title


def test_a_refusal_someone_elsewhere_got_is_not_this_machines() -> None:
    # review66: another person's message, named by where they wrote it, on a machine whose torch imports
    text = (
        "GPU: AMD Radeon RX 6800 (gfx1030), Windows 11, torch 2.9.0+rocmsdk20251116\nimport torch works fine.\n"
        "Someone on discord got \"An Application Control policy has blocked this file\". Is that related to my problem?\n"
        "My problem: generation is slow.\n"
    )
    assert SIGNATURE not in signature_errors(text)
    assert "RD590" not in problems_shown(text)
