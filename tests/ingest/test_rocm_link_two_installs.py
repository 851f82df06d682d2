"""A build's link step that takes a ROCm library from one install and its HSA runtime from another
(symptoms.loader_libraries' ld-* entries, rocm_doctor/ingest/formats/link_libraries.py, and
derived.rocm_link_two_installs; two60). Wordings from pytorch/pytorch#137858, ROCm/legacy-rocm-build#2527 and
ROCm/pytorch#1633; look-alikes from lamikr/rocm_sdk_builder#35 and rocm-arch/rocm-arch#25."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

from rocm_doctor.judge.derived_facts.link_installs import rocm_link_two_installs

LINK = (
    ": && /usr/bin/c++ -O3 -DNDEBUG -rdynamic -Wl,-rpath-link,/usr/lib/x86_64-linux-gnu     -Wl,--no-as-needed  "
    "-o bin/c10_hip_HIPAssertionsTest_1_var_test  -Wl,-rpath,/tmp/pytorch/build/lib:/opt/rocm/lib:  lib/libc10_hip.so  "
    "lib/libc10.so  lib/libgtest_main.a  /opt/rocm/lib/libamdhip64.so.6.2.60201  lib/libgtest.a && :\n"
)


def _pair(text: str):
    return rocm_link_two_installs(ingest(text).facts, None)


@pytest.mark.parametrize(
    "text",
    [
        # pytorch/pytorch#137858: the link line with -rpath-link and ld's line, a backtick and an apostrophe
        LINK + "/usr/bin/ld: /opt/rocm/lib/libamdhip64.so.6.2.60201: undefined reference to `hsa_amd_vmem_import_shareable_handle@ROCR_1'\n"
        "collect2: error: ld returned 1 exit status\n",
        # the symbol cut where the paste was cut
        LINK + "/usr/bin/ld: /opt/rocm/lib/libamdhip64.so.6.2.60201: undefined reference to `hsa_amd_vmem_im[...]\n",
        # the other install's runtime named by its path in a sentence; a relative tree path made absolute by the report
        "The build links against /usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1.11.0 instead of the one in my tree.\n\n"
        "/usr/bin/ld: /home/u/TheRock/build/dist/rocm/lib/libamdhip64.so.6.5.25171-31afa624a: undefined reference to `hsa_amd_vmem_map@ROCR_1'\n",
        # ld.gold, a typographic quote, -rpath-link= with a colon list naming another /opt/rocm-X.Y
        "g++ main.o -o app -Wl,-rpath-link=/opt/rocm-5.7.1/lib:/usr/local/lib /opt/rocm-6.3.1/lib/libamdhip64.so.6\n"
        "/usr/bin/ld.gold: /opt/rocm-6.3.1/lib/libamdhip64.so.6: undefined reference to ‘hsa_amd_portable_export_dmabuf’\n",
        # Fedora's folder and a cross-prefixed ld
        "c++ x.o -Wl,-rpath-link,/usr/lib64 /opt/rocm/lib/librocblas.so.4\n"
        "x86_64-linux-gnu-ld: /opt/rocm/lib/libamdhip64.so.6: undefined reference to `hsa_amd_memory_get_preferred_copy_engine@ROCR_1'\n",
    ],
)
def test_a_rocm_library_linked_against_another_installs_hsa_runtime_is_read(text: str) -> None:
    fact = _pair(text)
    assert fact.is_known, fact
    assert "libamdhip64" in fact.value


@pytest.mark.parametrize(
    "text",
    [
        # the undefined reference with no second install shown (lamikr/rocm_sdk_builder#35: one self-built tree)
        "/opt/rocm_sdk_611/bin/clang++ -O3 main.o -o ../bin/MIOpenDriver -Wl,-rpath,/home/s/builddir/lib:/opt/rocm/lib: "
        "/opt/rocm_sdk_611/lib64/libamdhip64.so.6.1.40092-6d684796d /opt/rocm/lib/libroctx64.so\n"
        "/usr/bin/ld: /opt/rocm_sdk_611/lib64/libamdhip64.so.6.1.40092-6d684796d: undefined reference to `hsa_amd_vmem_address_reserve@ROCR_1'\n",
        # the thunk not found at all (rocm-arch/rocm-arch#25): hsaKmt*, not an HSA runtime function
        "ld: warning: libhsakmt.so.1, needed by /opt/rocm/lib/libhsa-runtime64.so, not found (try using -rpath or -rpath-link)\n"
        "ld: /opt/rocm/lib/libhsa-runtime64.so: undefined reference to `hsaKmtUpdateQueue@HSAKMT_1'\n",
        # the program's own object file misses the HSA runtime (it was not linked), a system folder on -rpath-link
        "c++ main.o -o app -Wl,-rpath-link,/usr/lib/x86_64-linux-gnu\n"
        "/usr/bin/ld: main.o: in function `main':\nmain.cpp:(.text+0x1f): undefined reference to `hsa_init'\n",
        # lld's wording is not GNU ld's dependency check
        "c++ main.o -fuse-ld=lld -Wl,-rpath-link,/usr/lib/x86_64-linux-gnu /opt/rocm/lib/libamdhip64.so\n"
        "ld.lld: error: undefined symbol: hsa_amd_vmem_map\n",
        # a listing of both folders and a healthy link: two installs on disk are no fault
        "$ ls /usr/lib/x86_64-linux-gnu/libhsa-runtime64.so* /opt/rocm/lib/libhsa-runtime64.so*\n"
        "/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1\n/opt/rocm/lib/libhsa-runtime64.so.1\n\n" + LINK
        + "[100%] Built target c10_hip_HIPAssertionsTest_1_var_test\n",
        # -rpath-link names the failing library's own install
        "c++ x.o -Wl,-rpath-link,/opt/rocm/lib /opt/rocm/lib/libamdhip64.so.6\n"
        "/usr/bin/ld: /opt/rocm/lib/libamdhip64.so.6: undefined reference to `hsa_amd_vmem_map@ROCR_1'\n",
    ],
)
def test_look_alikes_of_two_installs_in_one_link_are_not_read(text: str) -> None:
    assert not _pair(text).is_known
