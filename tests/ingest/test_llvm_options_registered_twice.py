"""LLVM's "Option ... registered more than once" / "already exists": two LLVM copies loaded in one process.

Reports: justxi/rocm#109, ROCm/ROCm-OpenCL-Runtime#153, inode64/inode64-overlay#56 (learn53k).
"""

from __future__ import annotations

import pytest
from ingest_helpers import block

from rocm_doctor.ingest.signatures import match_block

SIGNATURE = "llvm_options_registered_twice"


def _ids(text: str) -> list:
    return [p.kind.split(":", 1)[1] for p in match_block(block(text)) if p.kind.startswith("error:")]


@pytest.mark.parametrize(
    "line",
    [
        "mesa: CommandLine Error: Option 'help-list' registered more than once!",
        "LLVM ERROR: inconsistency in registered CommandLine options",
        "      LLVM ERROR: Option 'basic' already exists!",
        "clinfo: CommandLine Error: Option 'h' registered more than once!",
    ],
)
def test_llvm_duplicate_option_messages_are_read(line: str) -> None:
    assert SIGNATURE in _ids(line)


@pytest.mark.parametrize(
    "line",
    [
        "error: option 'h' already exists in the config file",
        "ComfyUI: this node is registered more than once",
        "LLVM ERROR: out of memory",
    ],
)
def test_other_duplicate_or_llvm_lines_are_not_read(line: str) -> None:
    assert SIGNATURE not in _ids(line)


def test_a_duplicate_llvm_option_abort_is_reported_as_two_llvm_copies() -> None:
    from ingest_helpers import problems_shown

    report = (
        "> clinfo\n"
        "mesa: CommandLine Error: Option 'h' registered more than once!\n"
        "LLVM ERROR: inconsistency in registered CommandLine options\n"
    )
    assert "RD706" in problems_shown(report)
