"""A build's link step that takes a ROCm library from one install and its HSA runtime from another.

GNU ld checks the undefined symbols of the shared libraries a program links against, and looks for their
own dependencies (DT_NEEDED) in the folders given with ``-rpath-link`` before anything else (binutils
ld.texi, "-rpath-link"). PyTorch's build passes ``-Wl,-rpath-link,/usr/lib/x86_64-linux-gnu``; on a machine
where a distribution's HSA runtime lives there (Ubuntu 24.04's libhsa-runtime64-1, which libopenmpi-dev pulls
in), the linker resolves libamdhip64's libhsa-runtime64.so.1 to that older copy instead of the one beside
libamdhip64, and stops with ``/usr/bin/ld: /opt/rocm/lib/libamdhip64.so.6.2.60201: undefined reference to
`hsa_amd_vmem_...@ROCR_1'``. AMD's answer: two HSA runtimes are installed, remove the distribution's
(pytorch/pytorch#137858).

This reader keeps what such a paste shows as ``symptoms.loader_libraries`` entries (the list the loader
reader fills; rocm_doctor/ingest/formats/loader_libraries.py):

- ``ld-undefined:<library path>|<symbol>``: GNU ld's "<ROCm library>: undefined reference to `hsa_...'", an HSA
  runtime function a ROCm library of one install needs and the HSA runtime the linker found lacks;
- ``ld-searched:<folder>``: a folder the link searches first for such dependencies (``-rpath-link``);
- ``ld-hsa:<path>``: an HSA runtime file the report names by its path (the other install's copy).

The derived fact ``derived.rocm_link_two_installs`` (rocm_doctor/judge/derived_facts/link_installs.py) pairs
them: the failing library's install against a folder or file of another. Reports: pytorch/pytorch#137858
(/opt/rocm's libamdhip64, ``-rpath-link,/usr/lib/x86_64-linux-gnu``), ROCm/legacy-rocm-build#2527 (the same
link line on Ubuntu 24.04, another reporter), ROCm/pytorch#1633 (AMD's Ubuntu 24.04 CI build, the same link
step). Not read: ld's "undefined reference" from an object file (the program's own code), a ROCm library's
missing hsaKmt* (the thunk not found at all: rocm-arch/rocm-arch#25), lld's "undefined symbol".
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import List

from rocm_doctor.data import load_table
from rocm_doctor.ingest.blocks import Block
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import TRUST_SIGNATURE, Observation

FACT = "symptoms.loader_libraries"
KIND = "link-libraries"
MAX_LINE = 8000
"""Characters of a line searched: a link command line is long (PyTorch's run to 2,000-4,000 characters)."""


@lru_cache(maxsize=1)
def _undefined() -> "re.Pattern[str]":
    stem = str(load_table("signatures")["fragments"]["rocm_library_stem"])
    # the library whose reference is undefined: a ROCm library other than the HSA runtime itself, by path
    library = r"(?P<lib>(?:[\w.~+-]{0,80})?(?:/[\w.+@~-]{1,120}){0,24}/lib(?!hsa-runtime64)(?:" + stem + r")[\w+-]{0,30}\.so(?:\.[\w-]{1,40}){0,5})"
    return re.compile(
        # GNU ld's (ld.bfd, ld.gold) "<ld>: <library>: undefined reference to `<symbol>'", the symbol an HSA runtime
        # function (hsa_amd_vmem_address_reserve@ROCR_1); the quote may be a backtick, an apostrophe or a typographic one
        r"(?:^|[\s:])(?:/[\w./-]{0,80}/)?(?:x86_64-[\w-]{1,40}-)?ld(?:\.bfd|\.gold)?:\s{1,4}" + library
        + r":\s{1,4}undefined\s{1,3}reference\s{1,3}to\s{1,3}[`'‘\"]?(?P<sym>hsa_\w{1,80}(?:@{1,2}\w{1,20})?)",
    )


_RPATH_LINK = re.compile(
    # -Wl,-rpath-link,/usr/lib/x86_64-linux-gnu  -Wl,-rpath-link=/a:/b  -rpath-link /a
    r"-rpath-link(?:,|=|\s{1,4})(?P<dirs>/[^\s,'\"]{1,400})"
)
_HSA_FILE = re.compile(r"(?<![\w.-])(?P<path>(?:/[\w.+@~-]{1,120}){1,24}/libhsa-runtime64\.so(?:\.\d{1,8}){0,4})(?![\w-])")


def _entries(text: str) -> List[str]:
    found: List[str] = []
    for m in _undefined().finditer(text):
        found.append(f"ld-undefined:{m.group('lib')}|{m.group('sym')}")
    for m in _RPATH_LINK.finditer(text):
        found += [f"ld-searched:{d}" for d in m.group("dirs").split(":") if d.startswith("/")]
    for m in _HSA_FILE.finditer(text):
        found.append(f"ld-hsa:{m.group('path')}")
    return found


def parse(block: Block):
    pieces = []
    for line in block.lines:
        entries = _entries(line.text[:MAX_LINE])
        if entries:
            pieces.append(make_piece(KIND, [line], [Observation(FACT, list(dict.fromkeys(entries)), line, TRUST_SIGNATURE)]))
    return pieces
