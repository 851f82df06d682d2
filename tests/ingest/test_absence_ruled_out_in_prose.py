"""prec57b: an absence or failure the reporter feared, believed or checked and found not so ("I was worried about missing
/dev/kfd but it is there"), that went away, or that they fixed, is no error of this machine now; the same words with the
thing really absent still are. Aggregate checks over hand-written spellings of both."""

from __future__ import annotations

from typing import List, Tuple

from tests.ingest.ingest_helpers import serious_findings, signature_errors

# (text, the signature its words would otherwise read)
RULED_OUT: List[Tuple[str, str]] = [
    ("I was worried about missing /dev/kfd but it is there.", "kfd_missing"),
    ("I thought /dev/kfd did not exist, but it does.", "kfd_missing"),
    ("I was afraid /dev/kfd is missing, but ls shows it.", "kfd_missing"),
    ("I wondered whether no /dev/kfd was the cause, but it exists.", "kfd_missing"),
    ("At first I suspected missing /dev/kfd, but that's not it: the device is there.", "kfd_missing"),
    ("Not a missing /dev/kfd issue, the node exists.", "kfd_missing"),
    ("It's not that /dev/kfd does not exist; it does.", "kfd_missing"),
    ("I was concerned /dev/kfd does not exist, but ls -l /dev/kfd shows crw-rw---- 1 root render 235, 0.", "kfd_missing"),
    ("Missing /dev/kfd? No, it exists.", "kfd_missing"),
    ("I made sure there is no missing /dev/kfd: it exists and I am in the render group.", "kfd_missing"),
    ("I double-checked for a missing /dev/kfd, but the device file is there.", "kfd_missing"),
    ("I feared /dev/kfd is gone after the update, but it is still there.", "kfd_missing"),
    ("Unable to open /dev/kfd read-write: No such file or directory went away after reboot", "kfd_missing"),
    ("The error 'Unable to open /dev/kfd read-write: No such file or directory' went away after a reboot.", "kfd_missing"),
    ("Unable to open /dev/kfd read-write: No such file or directory no longer appears after reboot.", "kfd_missing"),
    ("I was worried about 'Unable to open /dev/kfd read-write: No such file or directory', but the device is there.", "kfd_missing"),
    ("I was worried TensileLibrary_gfx1030.dat is missing, but it is there.", "tensile_library_said_missing"),
    ("I thought amdhip64.dll is missing, but it exists.", "hip_runtime_dll_not_found"),
    ("The error 'amdhip64.dll not found' went away after reinstalling the driver.", "hip_runtime_dll_not_found"),
    ("I thought the container cannot see the GPU, but it does.", "container_finds_no_gpu_told"),
    ("I suspected that I cannot open /dev/dri/renderD128, but I can see it.", "gpu_node_refused_told"),
]
"""Also read as healthy without these (no signature to begin with): "I thought /dev/kfd was missing but it exists.", "I
checked that /dev/kfd exists.", "/dev/kfd is present.", "/dev/kfd is no longer missing after the reboot.". rev57j: "I fixed the
no /dev/kfd problem by ..." is read as before (prec57b's "fixed the ... problem" hid unfixed and returned errors)."""

STILL_ABSENT: List[Tuple[str, str]] = [
    ("Unable to open /dev/kfd read-write: No such file or directory", "kfd_missing"),
    ("rocminfo says Unable to open /dev/kfd read-write: No such file or directory, but /dev/kfd exists on the host.", "kfd_missing"),
    ("/dev/kfd does not exist in the container, but it exists on the host.", "kfd_missing"),
    ("I checked and /dev/kfd does not exist.", "kfd_missing"),
    ("I thought the driver was fine, but /dev/kfd is missing.", "kfd_missing"),
    ("I'm afraid /dev/kfd is missing on this machine.", "kfd_missing"),
    ("I was worried about missing /dev/kfd and indeed there is no /dev/kfd at all.", "kfd_missing"),
    ("I checked: no /dev/kfd, but /dev/dri exists.", "kfd_missing"),
    ("/dev/kfd is missing, though lspci shows the GPU.", "kfd_missing"),
    ("I thought it was permissions, but /dev/kfd does not exist.", "kfd_missing"),
    ("I fixed the driver install, but now there is no /dev/kfd.", "kfd_missing"),
    ("I verified that /dev/kfd does not exist; it is not there.", "kfd_missing"),
    ("Missing /dev/kfd? Yes, it is gone after the update.", "kfd_missing"),
    ("/dev/kfd device node does not exist, it does not show up in /dev.", "kfd_missing"),
    ("I fixed the no /dev/kfd problem by loading amdgpu, but it came back after reboot.", "kfd_missing"),
    ("ls: cannot access '/dev/kfd': No such file or directory", "kfd_missing"),
    ("Unable to open /dev/kfd read-write: No such file or directory went away after reboot, but came back the next day", "kfd_missing"),
    ("TensileLibrary_gfx1030.dat is missing in /opt/rocm/lib/rocblas/library.", "tensile_library_said_missing"),
    ("amdhip64.dll is missing, but it exists in System32 on my other machine.", "hip_runtime_dll_not_found"),
    # rev57j: "it" is the message itself after a printed message; a contrast or a report of output ends the fear's reach; a
    # message that went away only with sudo, or came back in the next sentence; "fixed the ... problem" is not read as gone
    ("I checked the logs for hipErrorNoBinaryForGpu: it's there.", "hip_no_binary_for_gpu"),
    ("I expected \"HIP error: invalid device function\" on gfx1031, and yes it shows up.", "hip_invalid_device_function"),
    ("I checked dmesg: Unable to open /dev/kfd read-write: No such file or directory, it shows up.", "kfd_missing"),
    ("I thought the override would fix hipErrorNoBinaryForGpu, but it is still there.", "hip_no_binary_for_gpu"),
    ("I thought it was the driver, but /dev/kfd is missing; the device is not listed.", "kfd_missing"),
    ("I checked and rocminfo says Unable to open /dev/kfd read-write: No such file or directory, but I can see it.", "kfd_missing"),
    ("The error 'Unable to open /dev/kfd read-write: No such file or directory' went away after reboot. It came back the next day.", "kfd_missing"),
    ("The error 'Unable to open /dev/kfd read-write: Permission denied' went away when I ran it with sudo.", "kfd_permission_denied"),
    ("The error 'Unable to open /dev/kfd read-write: Permission denied' goes away if I run as root.", "kfd_permission_denied"),
    ("I have not fixed the \"Unable to open /dev/kfd read-write: No such file or directory\" error.", "kfd_missing"),
    ("I thought I fixed the \"Unable to open /dev/kfd read-write: No such file or directory\" problem. After reboot it is back.", "kfd_missing"),
]


def test_an_absence_feared_checked_or_gone_reads_no_error():
    read = [(text, row) for text, row in RULED_OUT if row in signature_errors(text)]
    errors = [(text, found) for text, _ in RULED_OUT for found in serious_findings(text) if found[1] == "error"]
    assert len(RULED_OUT) >= 20
    assert read == [] and errors == []


def test_the_same_words_with_the_thing_really_absent_still_read_it():
    missed = [(text, row) for text, row in STILL_ABSENT if row not in signature_errors(text)]
    assert missed == [], f"{len(missed)}/{len(STILL_ABSENT)} absences no longer read"


def test_kfd_really_absent_still_gives_its_error():
    kfd = [text for text, row in STILL_ABSENT if row == "kfd_missing"]
    erred = [text for text in kfd if any(found[0] == "RD518" for found in serious_findings(text))]
    assert len(erred) == len(kfd)
