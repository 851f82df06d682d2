"""A ROCm library the loader could not find, shown installed beside the error (symptoms.loader_libraries and
derived.rocm_library_found_off_loader_path; learn54k). Wordings from ROCm/rocm-systems#7701, justxi/rocm#13,
ROCm/TheRock#6716, ggml-org/llama.cpp#25807 and ROCm/rocprofiler#62."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

from rocm_doctor.judge.derived_facts.loader_path import rocm_library_found_off_loader_path


def _found(text: str):
    return rocm_library_found_off_loader_path(ingest(text).facts, None)


@pytest.mark.parametrize(
    "text",
    [
        # the loader's line, then an ls -l row of the same soname
        "./app: error while loading shared libraries: libamdhip64.so.6: cannot open shared object file: No such file or directory\n"
        "$ ls -l /opt/rocm-6.2.0/lib/libamdhip64.so.6\n"
        "lrwxrwxrwx 1 root root 25 Aug 15 10:01 /opt/rocm-6.2.0/lib/libamdhip64.so.6 -> libamdhip64.so.6.2.60200\n",
        # "but file exists" on the error's own line (ROCm/rocm-systems#7701)
        "error while loading shared libraries: libamd_smi.so.26: cannot open shared object file: No such file or directory - but file exists\n",
        # ldd's unresolved soname, then find's output naming the versioned file
        "\tlibhsa-runtime64.so.1 => not found\n\n"
        "$ find /opt -name 'libhsa-runtime64*'\n/opt/rocm/hsa/lib/libhsa-runtime64.so.1\n/opt/rocm/hsa/lib/libhsa-runtime64.so.1.5.0\n",
        # the loader-path fix said to work (ROCm/TheRock#6716, ggml-org/llama.cpp#25807)
        "error while loading shared libraries: libamdhip64.so.7: cannot open shared object file\n\n"
        "Adding `/opt/rocm/lib` to `/etc/ld.so.conf.d` and running `ldconfig` changes the same binary to exit 0.\n",
        "./llama-server: error while loading shared libraries: libhipblas.so.3: cannot open shared object file: No such file or directory\n\n"
        "Setting LD_LIBRARY_PATH=/opt/rocm/lib works around the issue.\n",
        # a sentence that says where the file is
        "OSError: libhsa-runtime64.so.1: cannot open shared object file: No such file or directory\n\n"
        "I found libhsa-runtime64.so.1 under /opt/rocm/hsa/lib.\n",
        # installed to a folder the loader does not search (justxi/rocm#13)
        "The first problem is that dev-libs/rocr-runtime-2.0.0 installs libhsa-runtime64.so to /usr/lib/hsa, but that is not in the LD_LIBRARY_PATH.\n",
    ],
)
def test_a_rocm_library_not_found_and_shown_installed_is_read(text: str) -> None:
    assert _found(text).is_known


@pytest.mark.parametrize(
    "text",
    [
        # another release's soname listed: the program was built for ROCm 5 (RD521's)
        "ImportError: libamdhip64.so.5: cannot open shared object file: No such file or directory\n"
        "$ ls /opt/rocm/lib | grep amdhip\nlibamdhip64.so\nlibamdhip64.so.6\nlibamdhip64.so.6.2.60200\n",
        # a listing of another library
        "error while loading shared libraries: libhipblas.so.3: cannot open shared object file\n"
        "$ ls /opt/rocm/lib/librocblas*\n/opt/rocm/lib/librocblas.so.5\n",
        # the fix tried did not help, or is advice, or a question, or another person's
        "error while loading shared libraries: libamdhip64.so.7: cannot open shared object file\n\n"
        "Setting LD_LIBRARY_PATH=/opt/rocm/lib did not fix it.\n",
        "error while loading shared libraries: libamdhip64.so.7: cannot open shared object file\n\n"
        "You could try adding /opt/rocm/lib to ld.so.conf.d and running ldconfig, that usually fixes it.\n",
        "error while loading shared libraries: libamdhip64.so.7: cannot open shared object file\n\n"
        "Does adding /opt/rocm/lib to LD_LIBRARY_PATH fix it?\n",
        "error while loading shared libraries: libamdhip64.so.7: cannot open shared object file\n\n"
        "Someone said setting LD_LIBRARY_PATH fixed it for them.\n",
        # the ls command alone shows nothing; an ldd line that resolves is no listing
        "error while loading shared libraries: libamdhip64.so.6: cannot open shared object file\n$ ls -l /opt/rocm/lib/libamdhip64.so.6\n",
        # a listing with no library the loader missed
        "$ ls /opt/rocm/lib\nlibamdhip64.so.6\nlibhsa-runtime64.so.1\n",
        # the error as advice
        "If you get libamdhip64.so.6: cannot open shared object file, the file is missing.\nlibamdhip64.so.6\n",
    ],
)
def test_no_pair_of_the_same_library_is_not_read(text: str) -> None:
    assert not _found(text).is_known


def test_a_loader_path_fix_wrapped_at_80_columns_is_read() -> None:
    text = (
        "error while loading shared libraries: libamdhip64.so.7: cannot open shared\nobject file\n\n"
        "Adding `/opt/rocm/lib` to `/etc/ld.so.conf.d` and running `ldconfig` changes\nthe same binary to exit 0.\n"
    )
    assert _found(text).is_known


@pytest.mark.parametrize(
    "entry",
    [
        "Changelog 6.2: fixed libamdhip64.so.6: cannot open shared object file when /opt/rocm/lib is not in ld.so.conf\n",
        "- Fixed libamdhip64.so.6: cannot open shared object file when /opt/rocm/lib is not in ld.so.conf\n",
    ],
)
def test_a_changelog_entry_naming_the_loader_error_is_no_missing_library(entry: str) -> None:
    # rev54k: a release note's fixed bug beside a listing of the same file is no error on this machine
    assert not _found(entry + "$ ls /opt/rocm/lib\nlibamdhip64.so.6\n").is_known


def test_a_folder_off_the_loader_path_already_cured_in_the_same_sentence_is_not_read() -> None:
    # rev54k: the off-path sentence with the reporter's own cure after it is no fault on this machine
    text = (
        "rocr-runtime installed libhsa-runtime64.so to /usr/lib/hsa but that is not in the LD_LIBRARY_PATH, "
        "so I added an env.d file; rocminfo works now.\n"
    )
    assert not _found(text).is_known
