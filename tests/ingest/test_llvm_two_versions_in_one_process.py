"""A crash's backtrace running through two libLLVM major versions in one process, in a report about ROCm (RD785).

The same two-LLVM construct as RD706's "Option ... registered more than once", seen in the frames instead of LLVM's
abort. Reports: rocm-arch/rocm-arch#995 (NixOS, Blender: ROCm's libLLVM 22 beside 21), NixOS/nixpkgs#530702 (NixOS,
Blender: ROCm's libLLVM 22 beside 19), inode64/inode64-overlay#56 (Gentoo: ROCm on LLVM 23, Mesa on LLVM 22).
The look-alike NixOS/nixpkgs#508671 (LLVM 19 through OpenShadingLanguage beside LLVM 21, nothing of ROCm) is not read.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

SIGNATURE = "llvm_two_versions_in_one_process"

NIX_BLENDER = (
    "# backtrace\n"
    "/run/current-system/sw/bin/blender(+0x1141923) [0x581f849af923]\n"
    "/nix/store/57iz-glibc-2.42-61/lib/libc.so.6(syscall+0x1d) [0x7bfb42f2320d]\n"
    "/nix/store/5qlw-llvm-22.0.0-rocm-lib/lib/libLLVM.so.22.0(+0x2d56da3) [0x7bfa58556da3]\n"
    "/nix/store/f87i-llvm-19.1.7-lib/lib/libLLVM.so.19.1(_ZN4llvm15AnalysisManagerINS_8FunctionEJEE13getResultImpl+0x4c5) [0x7bfb2f6223c5]\n"
)

GDB_GENTOO = (
    "#5  0x00007f1 in llvm::cl::Option::addArgument() () from /usr/lib/llvm/23/lib64/libLLVM.so.23.1\n"
    "#9  0x00007f2 in ?? () from /usr/lib/llvm/22/lib64/libLLVM.so.22.1\n"
    "#12 0x00007f3 in amd::Device::init() () from /usr/lib64/libamdhip64.so.7\n"
)

LDD_TWO = (
    "$ ldd ./render | grep -i -e llvm -e comgr\n"
    "\tlibamd_comgr.so.2 => /opt/rocm-6.2.0/lib/libamd_comgr.so.2 (0x00007f0a1c000000)\n"
    "\tlibLLVM.so.18.1 => /usr/lib/x86_64-linux-gnu/libLLVM.so.18.1 (0x00007f0a14000000)\n"
    "\tlibLLVM-15.so.1 => /usr/lib/x86_64-linux-gnu/libLLVM-15.so.1 (0x00007f0a0c000000)\n"
)


@pytest.mark.parametrize("text", [NIX_BLENDER, GDB_GENTOO], ids=["nix-frames", "gdb-from"])
def test_two_llvm_major_versions_in_one_rocm_process_are_read(text: str) -> None:
    assert SIGNATURE in signature_errors(text)


OSL_NO_ROCM = (
    "# backtrace\n"
    "/nix/store/3n22-blender-5.1.1/bin/blender(+0x113cce3) [0x63ce3b4bbce3]\n"
    "/nix/store/iij7-llvm-21.1.7-lib/lib/libLLVM.so.21.1(_ZN4llvm10BasicBlock4phisEv+0x4) [0x706e76db3b84]\n"
    "/nix/store/aaaa-llvm-19.1.7-lib/lib/libLLVM.so.19.1(_ZNK4llvm13AttributeList9hasFnAttrENS_9StringRefE+0x62) [0x7]\n"
)

ONE_VERSION_TWICE = (
    "/opt/rocm/lib/llvm/lib/libLLVM.so.19.0git(+0x1234) [0x1]\n"
    "/opt/rocm/lib/llvm/lib/libLLVM.so.19.1(_ZN4llvm3fooEv+0x12) [0x2]\n"
)

FILE_LISTING = (
    "$ ls -1 /usr/lib/libLLVM* /opt/rocm/lib/llvm/lib/libLLVM*\n"
    "/usr/lib/libLLVM-18.so\n"
    "/opt/rocm/lib/llvm/lib/libLLVM.so.19.0git\n"
)


@pytest.mark.parametrize(
    "text", [OSL_NO_ROCM, ONE_VERSION_TWICE, FILE_LISTING], ids=["no-rocm-nixpkgs-508671", "one-major", "ls-listing"]
)
def test_one_llvm_a_file_listing_or_no_rocm_is_not_read(text: str) -> None:
    assert SIGNATURE not in signature_errors(text)


def test_a_rocm_crash_through_two_llvms_is_reported_as_two_llvm_copies() -> None:
    shown = problems_shown("Blender crashes as soon as Cycles renders on HIP (RX 6600, NixOS).\n\n```\n" + NIX_BLENDER + "```\n")
    assert shown and shown[0] == "RD785"


def test_llvm_s_own_abort_is_left_to_rd706() -> None:
    shown = problems_shown(
        "```\nmesa: CommandLine Error: Option 'h' registered more than once!\n"
        "LLVM ERROR: inconsistency in registered CommandLine options\n" + GDB_GENTOO + "```\n"
    )
    assert "RD706" in shown and "RD785" not in shown


LDD_OF_TWO_PROGRAMS = (
    "$ ldd /opt/rocm/lib/libamd_comgr.so.2 | grep LLVM\n"
    "\tlibLLVM.so.17 => /opt/rocm/lib/llvm/lib/libLLVM.so.17 (0x00007f1234000000)\n"
    "$ ldd /usr/lib/x86_64-linux-gnu/dri/radeonsi_dri.so | grep LLVM\n"
    "\tlibLLVM-15.so.1 => /usr/lib/x86_64-linux-gnu/libLLVM-15.so.1 (0x00007f0000000000)\n"
)


@pytest.mark.parametrize("text", [LDD_TWO, LDD_OF_TWO_PROGRAMS], ids=["one-listing", "two-programs"])
def test_ldd_listings_are_not_read_as_one_process(text: str) -> None:
    # ldd lists what a file would load, and a report's listings are often of two different files; none of the three
    # reports shows the construct so, only in a crash's frames.
    assert SIGNATURE not in signature_errors(text)


@pytest.mark.parametrize("unit", ["libLLVM-1", "libLLVM.so.2", "from libLLVM-9"], ids=["dash", "so", "from"])
def test_the_frame_pattern_reads_a_long_run_of_its_own_words_in_well_under_a_second(unit: str) -> None:
    # rev60: a run of non-space characters once scanned 300 characters from every start position (4.8 s on 200 KB of
    # "libLLVM-1"); the path before the library is read only after gdb's "from", the frame's own form needs none.
    import time

    from rocm_doctor.ingest import signatures as table

    row = next(s for s in table.signatures() if s.id == SIGNATURE)
    text = (unit * (200_000 // len(unit) + 1))[:200_000]
    started = time.perf_counter()
    row.pattern.search(text)
    assert time.perf_counter() - started < 0.5


ROCM_FRAMES_AND_A_PACKAGE_LISTING = (
    "/opt/rocm/lib/llvm/lib/libLLVM.so.19.0git(+0x2d56da3) [0x7bfa58556da3]\n"
    "/opt/rocm/lib/libamd_comgr.so.2(+0x1234) [0x7bfa50000000]\n"
    "$ pacman -Ql llvm-libs | grep libLLVM\n"
    "llvm-libs /usr/lib/libLLVM-18.so\n"
)

PAST_AND_FIXED = (
    "My earlier crash showed libLLVM.so.22.0(+0x2d56da3) and libLLVM.so.21.1(+0x4c5) with rocm; preloading libamd_comgr "
    "fixed it and Blender renders now.\n"
)


@pytest.mark.parametrize("text", [ROCM_FRAMES_AND_A_PACKAGE_LISTING, PAST_AND_FIXED], ids=["frames-and-pacman-listing", "past-fixed"])
def test_one_llvm_in_frames_beside_a_listed_file_or_a_crash_told_as_fixed_is_not_read(text: str) -> None:
    # rev60: the second library was read at any line's end, and the line was read whatever it said of the crash
    assert SIGNATURE not in signature_errors(text)


UNVERSIONED_FIRST = (
    "/usr/lib/libLLVM.so(_ZN4llvm2cl6Option11addArgumentEv+0x3a) [0x7f0000001000]\n"
    "/nix/store/5qlw-llvm-22.0.0-rocm-lib/lib/libLLVM.so.22.0(+0x2d56da3) [0x7bfa58556da3]\n"
    "/nix/store/f87i-llvm-19.1.7-lib/lib/libLLVM.so.19.1(_ZN4llvm3fooEv+0x4c5) [0x7bfb2f6223c5]\n"
    "/opt/rocm/lib/libamd_comgr.so.2(+0x1234) [0x7bfa50000000]\n"
)

UNVERSIONED_BESIDE_ONE_MAJOR = (
    "/usr/lib/libLLVM.so(+0x1234) [0x7f0000001000]\n"
    "/opt/rocm/lib/llvm/lib/libLLVM.so.19.0git(+0x2d56da3) [0x7bfa58556da3]\n"
    "/opt/rocm/lib/llvm/lib/libLLVM.so.19.1(_ZN4llvm3fooEv+0x12) [0x2]\n"
)


def test_an_unversioned_libllvm_before_two_versioned_ones_does_not_hide_them() -> None:
    # other62: the first libLLVM without a version ended the context's search, so the two majors after it went unread
    assert SIGNATURE in signature_errors(UNVERSIONED_FIRST)


def test_an_unversioned_libllvm_is_not_counted_as_a_second_version() -> None:
    assert SIGNATURE not in signature_errors(UNVERSIONED_BESIDE_ONE_MAJOR)
