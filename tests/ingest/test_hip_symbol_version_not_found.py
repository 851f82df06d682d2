"""glibc's "version `hip_X.Y' not found" for libamdhip64: a binary built for a newer HIP than the loaded one."""

from __future__ import annotations

import pytest
from ingest_helpers import block

from rocm_doctor.ingest.signatures import match_block

SIGNATURE = "hip_symbol_version_not_found"


def _ids(text: str) -> list:
    return [p.kind.split(":", 1)[1] for p in match_block(block(text)) if p.kind.startswith("error:")]


@pytest.mark.parametrize(
    "line",
    [
        "ImportError: /opt/rocm-6.0.2/lib/libamdhip64.so.6: version `hip_6.2' not found (required by /venv/lib/python3.10/site-packages/torch/lib/libtorch_hip.so)",
        "./app: /usr/lib/libamdhip64.so.7: version 'hip_7.1' not found (required by ./app)",
        "OSError: libamdhip64.so.6: version ‘hip_6.0’ not found (required by flash_attn_2_cuda.so)",
    ],
)
def test_missing_hip_symbol_version_is_read_in_its_quotings(line: str) -> None:
    assert SIGNATURE in _ids(line)


@pytest.mark.parametrize(
    "line",
    [
        "libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by libamdhip64.so.6)",
        "HIP version: 6.2.41133 found",
    ],
)
def test_other_version_lines_are_not_read_as_a_hip_symbol_version(line: str) -> None:
    assert SIGNATURE not in _ids(line)


def test_a_binary_refused_by_an_older_system_libamdhip64_is_one_finding() -> None:
    from ingest_helpers import problems_shown

    report = (
        "Traceback (most recent call last):\n"
        '  File "t.py", line 1, in <module>\n'
        "    import torch\n"
        "ImportError: /opt/rocm-6.0.2/lib/libamdhip64.so.6: version `hip_6.2' not found "
        "(required by /home/u/venv/lib/python3.10/site-packages/torch/lib/libtorch_hip.so)\n"
    )
    assert problems_shown(report) == ["RD885"]
