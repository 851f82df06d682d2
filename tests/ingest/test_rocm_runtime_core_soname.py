"""rocm_runtime_core_soname_not_found (learn54i, RD890): the ROCm runtime's core libraries, whose soname is the same
in every release, cannot be found: the wordings of ROCm/legacy-rocm-build#1129 and #1284, ROCm/ROCm-OpenCL-Runtime#42,
ROCm/rocprofiler#62."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, signature_contexts, signature_errors


@pytest.mark.parametrize(
    "text",
    [
        "rocminfo: error while loading shared libraries: libhsakmt.so.1: cannot open shared object file: No such file or directory\n",
        "OSError: libhsa-runtime64.so.1: cannot open shared object file: No such file or directory\n",
        "\tlibhsa-runtime64.so.1 => not found\n",
        "dlerror: cannot open shared object file for libhsa-runtime64.so.1\n",
        "`rocm-smi` seems to work fine but `rocminfo` cannot find `libhsakmt.so.1`.\n",
        "rocminfo can't find libhsa-runtime64.so.1\n",
    ],
)
def test_a_core_runtime_soname_not_found_is_read(text: str) -> None:
    assert "rocm_runtime_core_soname_not_found" in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # versioned sonames are RD521's (another release)
        "ImportError: libamdhip64.so.6: cannot open shared object file: No such file or directory\n",
        "\tlibrocblas.so.4 => not found\n",
        # a resolved line and a plain listing are no error
        "\tlibhsa-runtime64.so.1 => /opt/rocm/lib/libhsa-runtime64.so.1 (0x00007f2a1c000000)\n",
        "ls /opt/rocm/lib shows libhsakmt.so.1 and libhsa-runtime64.so.1\n",
        "I found libhsa-runtime64.so.1 under /opt/rocm/hsa/lib\n",
        # rev54i: another person's error, a changelog's fixed issue, an error said to be past
        'Someone on the forum had "ImportError: libhsa-runtime64.so.1: cannot open shared object file" but mine imports fine.\n',
        "Changelog 5.1: Fixed an issue where tensorflow could not load libhsa-runtime64.so.1: cannot open shared object file.\n",
        'I used to get "libhsakmt.so.1: cannot open shared object file" but after reinstalling hsakmt-roct it works now.\n',
        "See https://github.com/ROCm/ROCm/issues/1284 (libhsakmt.so.1: cannot open shared object file)\n",
    ],
)
def test_other_loader_lines_are_no_core_runtime_soname_missing(text: str) -> None:
    assert "rocm_runtime_core_soname_not_found" not in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "ImportError: libamdhip64.so.5: cannot open shared object file: No such file or directory\n",
        "OSError: librocblas.so.4: cannot open shared object file: No such file or directory\n",
        "> ImportError: libamdhip64.so.6: cannot open shared object file: No such file or directory\n",
    ],
)
def test_the_reporters_own_versioned_soname_load_error_is_still_read(text: str) -> None:
    assert "rocm_library_not_found" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # prec55: another person's, a linked issue's, a changelog's or a past error is no load error of this machine (RD521)
        'A user on reddit had "librocblas.so.4: cannot open shared object file" with the same card; mine works.\n',
        "Related: https://github.com/foo/bar/issues/12 ImportError: libamdhip64.so.5: cannot open shared object file\n",
        "Changelog 2.3: fixed an issue where libamdhip64.so.5: cannot open shared object file was printed on import.\n",
        'I used to get "libamdhip64.so.5: cannot open shared object file" but after reinstalling torch it works now.\n',
    ],
)
def test_another_persons_or_past_versioned_soname_load_error_is_not_read(text: str) -> None:
    assert "rocm_library_not_found" not in signature_errors(text)


def _report_signatures(text: str) -> list:
    found = ingest(text).facts.symptoms.signatures
    return list(found.value or []) if found.is_known else []


LOADER_FENCE = "```\nImportError: libamdhip64.so.5: cannot open shared object file: No such file or directory\n```\n"


@pytest.mark.parametrize(
    "intro",
    [
        "Someone else got this in the linked issue:\n",
        "@bob wrote:\n",
        "In the linked issue the reporter posted:\n",
    ],
)
def test_a_loader_error_fenced_under_another_persons_words_is_not_read(intro: str) -> None:
    # prec55: the fence holds another person's output (RD521 fired on it)
    assert "rocm_library_not_found" not in _report_signatures("RX 7900 XTX, ROCm 6.2. Works here.\n" + intro + LOADER_FENCE)


@pytest.mark.parametrize("intro", ["I get the same as @bob:\n", "Here is the error:\n", "Someone asked for my log:\n", ""])
def test_a_loader_error_fenced_under_the_reporters_words_is_still_read(intro: str) -> None:
    assert "rocm_library_not_found" in _report_signatures("RX 7900 XTX, ROCm 6.2.\n" + intro + LOADER_FENCE)


def test_a_loader_error_fenced_under_from_the_traceback_is_the_reporters() -> None:
    # amdsmi-186's "From the traceback:" over its own log: "from" hands a '> ' quote to a document, not a fence
    assert "rocm_library_not_found" in _report_signatures("RX 7900 XTX, ROCm 6.2.\nFrom the traceback:\n" + LOADER_FENCE)


@pytest.mark.parametrize(
    "intro",
    [
        # rev55p: the reporter's own block beside a linked issue: "same as", "here is mine"
        "Same error as in https://github.com/x/y/issues/1:\n",
        "The error (same as reported in the linked issue):\n",
        "Error also reported in the linked issue, here is mine:\n",
        "My friend's machine works, mine gives:\n",
    ],
)
def test_a_loader_error_fenced_under_the_reporters_words_beside_a_linked_issue_is_still_read(intro: str) -> None:
    assert "rocm_library_not_found" in _report_signatures("RX 7900 XTX, ROCm 6.2.\n" + intro + LOADER_FENCE)


def test_the_reporters_loader_error_beside_a_docs_link_is_still_read() -> None:
    # rev55p: only an issue's, thread's or forum's URL hands the line to someone else
    text = "Following https://rocm.docs.amd.com/en/latest/install.html I get OSError: librocblas.so.4: cannot open shared object file\n"
    assert "rocm_library_not_found" in signature_errors(text)
