"""ldd's "<soname> => not found" for a ROCm library, in the forms reports paste it."""

from __future__ import annotations

import pytest
from ingest_helpers import block

from rocm_doctor.ingest.signatures import match_block

SIGNATURE = "rocm_library_unresolved_by_ldd"


def _ids(text: str) -> list:
    return [p.kind.split(":", 1)[1] for p in match_block(block(text)) if p.kind.startswith("error:")]


@pytest.mark.parametrize(
    "line",
    [
        "\tlibamdhip64.so.5 => not found",
        "        librocblas.so.4 => not found",
        "libOpenImageDenoise_device_hip.so.2.3.0 -> libamdhip64.so.5 => not found",
        "\tlibMIOpen.so.1 => not found",
        "\tlibhsa-runtime64.so.1 => not found",
        "\tlibroctx64.so.4 => not found",
    ],
)
def test_ldd_not_found_line_for_a_rocm_soname_is_read(line: str) -> None:
    assert SIGNATURE in _ids(line)


@pytest.mark.parametrize(
    "line",
    [
        # resolved: two ROCm releases on a machine is normal
        "\tlibamdhip64.so.6 => /opt/rocm-6.2.0/lib/libamdhip64.so.6 (0x00007f1c2c000000)",
        # not a ROCm library
        "\tlibcuda.so.1 => not found",
        # an unversioned development name is no soname a binary was linked for
        "\tlibamdhip64.so => not found",
    ],
)
def test_ldd_lines_that_are_no_missing_rocm_soname_are_not_read(line: str) -> None:
    assert SIGNATURE not in _ids(line)


@pytest.mark.parametrize(
    "line",
    [
        # prec55: ldd's line given as another person's, a linked issue's or a past one (RD884 had no scope)
        "someone on the forum posted \tlibamdhip64.so.5 => not found for their build",
        "See https://github.com/foo/bar/issues/3 where ldd says libamdhip64.so.5 => not found",
        "I used to get librocblas.so.4 => not found from ldd before the update",
    ],
)
def test_ldd_lines_given_as_anothers_or_past_are_not_read(line: str) -> None:
    assert SIGNATURE not in _ids(line)
