"""A kernel that worked and the one the failure is on, across sentences and in labelled lines (issue 23 item 2).

The working kernel is an earlier state (``symptoms.earlier``, which RD801 compares), never the running one; the
failing one is ``host.kernel_release``. The forms are those of real reports named in
``rocm_doctor/ingest/formats/mentions.py`` (_KERNEL_STATE_LABEL, _KERNEL_BUT_WORKS); the texts are written for
the test. "With kernel X everything worked. After updating to Y ..." is not read as a change: no report was found
that words it so, and read from the words alone it took the running kernel from "X worked fine until I installed
ROCm" (a read-through of 2026-11-29).
"""

from __future__ import annotations

from typing import List, Optional

import pytest
from ingest_helpers import ingest, problems_shown


def _kernels(text: str) -> "tuple[Optional[str], List[str]]":
    facts = ingest(text).facts
    now = facts.host.kernel_release.value if facts.host.kernel_release.is_known else None
    earlier = [str(item).partition("=")[2] for item in (facts.symptoms.earlier.value or []) if str(item).startswith("host.kernel_release=")]
    return now, earlier


@pytest.mark.parametrize(
    ("text", "worked", "now"),
    [
        # labelled lines, as regression reports list them
        ("- Kernel (working): 6.9.7-100.fc40.x86_64\n- Kernel (broken): 6.10.3-100.fc40.x86_64 and 6.10.4-100.fc40.x86_64\n", "6.9.7-100.fc40.x86_64", "6.10.3-100.fc40.x86_64"),
        ("* Last known WORKING kernel (GOOD): 6.1.90-1-lts\n* First known NON-WORKING kernel (BAD): 6.1.91-1-lts\n", "6.1.90-1-lts", "6.1.91-1-lts"),
        ("Good kernel: 6.5.0-35\nBad kernel: 6.8.0-45\n", "6.5.0-35", "6.8.0-45"),
        ("Last working kernel: 6.5.0-35-generic\nCurrent kernel: 6.8.0-45-generic\n", "6.5.0-35-generic", "6.8.0-45-generic"),
        # the failing kernel first, the working one after "but"/"however"
        ("Kernel 6.12.9 breaks ROCm for me, but 6.12.7 works.\n", "6.12.7", "6.12.9"),
        ("ollama segfaults on kernel 6.13.2 but works on 6.13.1.\n", "6.13.1", "6.13.2"),
        ("rocminfo fails with kernel 6.14.6. However, using the LTS kernel 6.6.30, everything works as expected.\n", "6.6.30", "6.14.6"),
    ],
)
def test_the_kernel_that_worked_is_the_earlier_state_and_the_failing_one_runs(text: str, worked: str, now: str) -> None:
    assert _kernels(text) == (now, [worked])
    assert "RD801" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # a question, advice, another person's machine, a range: no state of this machine
        "Should I go back to kernel 6.5.0-35? It worked there.\n",
        "Try kernel 6.5.0-35, everything worked on it for me.\n",
        "My friend's PC with kernel 6.5.0-35 worked fine.\n",
        "I tested kernels from 6.8 to 6.14 and nothing worked.\n",
        # "worked" of something else, or working again on the kernel in use
        "With kernel 6.8.0-45 the install worked but rocminfo fails.\n",
        "On kernel 6.8.0-45 it worked again after reinstalling.\n",
        "I'm on kernel 6.8.0-45 but everything works except pytorch.\n",
        "ROCm 6.2 installed and works on kernel 6.8.0-45, torch is slow.\n",
        # versions of other things set against each other
        "It fails with torch 2.6.0, but 2.5.1 works.\n",
        "Kernel 6.17.9 breaks ROCm, but ROCm 6.4 works.\n",
        # no failing kernel before "but ... works", or the failing kernel is someone else's
        "ComfyUI crashes in Docker but works on kernel 6.8.0-45.\n",
        "Some users report that kernel 6.14.6 breaks ROCm, but 6.13.1 works.\n",
        "Kernel 6.14.6 breaks ROCm for my friend, but 6.13.1 works.\n",
    ],
)
def test_no_kernel_is_read_as_a_working_state_outside_this_machines_past(text: str) -> None:
    assert _kernels(text)[1] == []


def test_the_kernel_in_use_is_still_read_where_no_earlier_one_is_said() -> None:
    assert _kernels("I'm on kernel 6.8.0-45 but everything works except pytorch.\n")[0] == "6.8.0-45"
    assert _kernels("ROCm 6.2 installed and works on kernel 6.8.0-45, torch is slow.\n")[0] == "6.8.0-45"
    assert _kernels("Bad kernel: 6.8.0-45-generic\n")[0] == "6.8.0-45-generic"


def test_a_kernel_said_to_have_worked_alone_stays_the_running_kernel() -> None:
    # "worked" after the release sets no earlier state of its own: the release is the one in use
    assert _kernels("Kernel 6.8.0-45 worked fine until I installed ROCm 6.2.\n") == ("6.8.0-45", [])
    assert _kernels("Update: solved! I reinstalled ROCm and with kernel 6.8.0-45 everything worked fine.\n") == ("6.8.0-45", [])
    assert _kernels("ComfyUI crashes in Docker but works on kernel 6.8.0-45.\n")[0] == "6.8.0-45"


def test_a_working_kernel_alone_is_an_earlier_state_not_the_running_kernel() -> None:
    assert _kernels("- Kernel (working): 6.9.7-100.fc40.x86_64\n") == (None, ["6.9.7-100.fc40.x86_64"])


def test_a_move_between_kernels_called_linux_reads_the_second_as_running() -> None:
    # the kernel called by the system's name in a move (the spelling _LINUX_WORD reads alone)
    assert _kernels("After updating from Linux 6.9.7-100.fc40 to 6.10.3-100.fc40, ComfyUI is slow.\n") == ("6.10.3-100.fc40", ["6.9.7-100.fc40"])
    # a range is neither end, and a distribution's release is no kernel
    assert _kernels("I tested from Linux 6.8 to 6.14, none works.\n") == (None, [])
    assert _kernels("I upgraded from Linux 22.04 to 24.04 and now rocminfo fails.\n") == (None, [])
