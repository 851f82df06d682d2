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
