"""A tool of the ROCm install that cannot load a library of that install is an incomplete install, not a program
built for another ROCm release (RD917, not RD521).

The loader's words ("rocminfo: error while loading shared libraries: libhsakmt.so.1: cannot open shared object
file") and the reporter's ("`rocminfo` cannot find `libhsakmt.so.1`", "rocminfo can't find libhsa-runtime64.so.1",
"rocminfo not working since libhsa-runtime64.so not found"). Sources: ROCm/rocminfo#35, ROCm/legacy-rocm-build#1302,
justxi/rocm#13, ROCm/ROCm#1284; rocminfo's optional-library warning (ROCm/ROCR-Runtime#89) must not read.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors


@pytest.mark.parametrize(
    "text, signature",
    [
        ("/opt/rocm/bin/rocminfo: error while loading shared libraries: libhsakmt.so.1: cannot open shared object file: No such file or directory", "rocm_tool_library_not_found"),
        ("$ rocminfo\nrocminfo: error while loading shared libraries: libhsa-runtime64.so.1: cannot open shared object file: No such file or directory", "rocm_tool_library_not_found"),
        ("rocm-smi: error while loading shared libraries: librocm_smi64.so.7: cannot open shared object file: No such file or directory", "rocm_tool_library_not_found"),
        ("`rocm-smi` seems to work fine but `rocminfo` cannot find `libhsakmt.so.1`.", "rocm_tool_library_missing_told"),
        ("rocminfo can't find libhsa-runtime64.so.1", "rocm_tool_library_missing_told"),
        ("rocminfo not working since libhsa-runtime64.so not found", "rocm_tool_library_missing_told"),
    ],
)
def test_a_rocm_tool_missing_a_rocm_library_is_read(text: str, signature: str) -> None:
    assert signature in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # rocminfo's optional extension library, removed in ROCm 1.9: rocminfo runs without it (ROCm/ROCR-Runtime#89)
        "LoadLib(libhsa-ext-finalize64.so.1) failed: libhsa-ext-finalize64.so.1: cannot open shared object file: No such file or directory",
        "rocminfo cannot find my GPU",
        "If rocminfo cannot find libhsakmt.so.1, reinstall hsakmt-roct.",
        # another program's loader error: RD521's
        "./llama-server: error while loading shared libraries: libhipblas.so.3: cannot open shared object file: No such file or directory",
        "python: error while loading shared libraries: libamdhip64.so.6: cannot open shared object file",
        # rev54f: a question why, a changelog's fixed line, an issue's title quoted with its URL, another person's error
        "Does anyone know why rocminfo can't find libhsakmt.so.1 on some systems? Mine works.",
        "Changelog ROCm 3.10: fixed an issue where rocminfo cannot find libhsakmt.so.1 after an upgrade.",
        'See https://github.com/ROCm/rocminfo/issues/35 "rocminfo: error while loading shared libraries: libhsakmt.so.1"',
        'Someone on the forum had "rocminfo: error while loading shared libraries: libhsakmt.so.1" but rocminfo works fine here.',
    ],
)
def test_other_programs_and_advice_are_not_read_as_a_rocm_tool_missing_its_library(text: str) -> None:
    found = signature_errors(text)
    assert "rocm_tool_library_not_found" not in found and "rocm_tool_library_missing_told" not in found


def test_the_tool_finding_replaces_the_another_release_finding() -> None:
    shown = problems_shown("rocminfo: error while loading shared libraries: libhsakmt.so.1: cannot open shared object file: No such file or directory\n")
    assert "RD917" in shown and "RD521" not in shown


def test_another_programs_loader_error_keeps_the_another_release_finding() -> None:
    shown = problems_shown("ImportError: libamdhip64.so.4: cannot open shared object file: No such file or directory\n")
    assert "RD521" in shown and "RD917" not in shown


def test_a_rocm_tool_loader_error_beside_the_core_7_folder_is_explained_by_the_folder_finding() -> None:
    # rev54f: RD917 steps aside for RD988 there, and RD988 explains the tool's line too, so no catch-all RD599 is added
    shown = problems_shown(
        "$ rocminfo\nrocminfo: error while loading shared libraries: libhsa-runtime64.so.1: cannot open shared object file:"
        " No such file or directory\n$ ls /opt/rocm/core-7.0/lib\nlibhsa-runtime64.so.1\n"
    )
    assert "RD988" in shown and "RD599" not in shown and "RD917" not in shown
