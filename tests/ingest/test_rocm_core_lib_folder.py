"""rocm_core_lib_folder_shown and its guard rocm_pre7_soname_not_found (rev51b, reviewing learn51b's RD988)."""

from __future__ import annotations

import pytest
from ingest_helpers import signature_contexts


@pytest.mark.parametrize(
    "text",
    [
        "The libraries are located at /opt/rocm/core-7.14/lib/.\n",
        "export LD_LIBRARY_PATH=/opt/rocm-6.4.0/core-7.14/lib:$LD_LIBRARY_PATH\n",
        "/opt/rocm/lib -> /etc/alternatives/rocm-lib -> /opt/rocm/core-7.14/lib\n",
    ],
)
def test_rocm_7s_core_folder_is_read(text: str) -> None:
    assert "rocm_core_lib_folder_shown" in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # another major renames its sonames (libamdhip64.so.8 in ROCm 10): RD988's reading holds for ROCm 7's only
        "The libraries are located at /opt/rocm/core-10.0/lib/.\n",
        "/opt/rocm-7.2.0/lib\n",
    ],
)
def test_another_folder_is_not_rocm_7s_core_folder(text: str) -> None:
    assert "rocm_core_lib_folder_shown" not in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "./llama-server: error while loading shared libraries: libhipblas.so.2: cannot open shared object file: No such file or directory\n",
        "ImportError: libamdhip64.so.6: cannot open shared object file: No such file or directory\n",
        "\tlibrocblas.so.4 => not found\n",
    ],
)
def test_a_rocm_6_soname_not_found_is_read(text: str) -> None:
    assert "rocm_pre7_soname_not_found" in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "./llama-server: error while loading shared libraries: libhipblas.so.3: cannot open shared object file: No such file or directory\n",
        "error while loading shared libraries: libamdhip64.so.7: cannot open shared object file\n",
        "libhipblaslt.so.1: cannot open shared object file: No such file or directory\n",
        "ls /opt/rocm/core-7.14/lib shows libhipblas.so.3 and libamdhip64.so.7\n",
    ],
)
def test_a_rocm_7_soname_is_no_older_soname(text: str) -> None:
    assert "rocm_pre7_soname_not_found" not in signature_contexts(text)


def test_rd988_names_every_older_soname_its_guard_knows_and_no_more() -> None:
    # rev51f: the guard knows some libraries' older sonames, not every ROCm library's (libamd_comgr.so.2 is ROCm 6's
    # and RD988 still fires on it), so the message must name the ones it knows instead of "no soname of an older ROCm"
    import re

    from rocm_doctor.ingest.signatures import signatures
    from rocm_doctor.judge.loader import load_rules

    guard = next(s for s in signatures() if s.id == "rocm_pre7_soname_not_found")
    stems = set(re.findall(r"(\w+)\\\.so", guard.said))
    assert {"amdhip64", "hipblas", "rocblas", "hipblaslt", "hip_hcc", "mcwamp"} <= stems
    message = next(r for r in load_rules() if r.id == "RD988").message
    for stem in stems:
        assert "lib" + stem in message
    assert "no soname of an older ROCm" not in message
    assert "libamd_comgr.so.2" not in message
