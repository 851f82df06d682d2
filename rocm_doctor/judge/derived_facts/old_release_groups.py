"""Derived fact: a user in the video group only, under a rocminfo of the releases whose guide asked for video alone.

rocminfo printed a failed HSA call as a decimal status ("Call returned 4104") up to release 2.5; from ROCm/rocminfo
commit 84039ef (May 2019, first shipped in roc-2.6.0) it prints the status's name or 0x1008. ROCm's README at roc-1.9.0,
roc-2.1.0, roc-2.2.0, roc-2.5.0 and rocm-2.10 adds users to video only ("usermod -a -G video"); render came with later
distributions. So a user in video but not render under such a rocminfo is set up as that release asked, and the group
findings (RD300, RD507, RD961) step aside. Reports where they were wrong: legacy-rocm-build#595, #739, #524.
"""

from __future__ import annotations

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known
from rocm_doctor.judge.derived import Tables, machine_fact

OLD_NUMERIC_STATUS = "hsa_status_4104"
"""The signature of rocminfo's decimal failure status (rules/data/signatures.yaml)."""


@machine_fact(
    "video_group_as_old_release_asked",
    "True when the user is in the video group and the report's rocminfo prints its failure as the decimal 4104 "
    "(rocminfo 2.5 or older, whose release asked for video only); absent otherwise (not in video, or in video "
    "with no such rocminfo, or either not shown).",
)
def video_group_as_old_release_asked(facts: Facts, tables: Tables) -> Fact:
    video = facts.permissions.in_video_group
    if not (video.is_known and video.value is True):
        return absent("paste", "the report does not show a user in the video group")
    signatures = facts.symptoms.signatures
    if not (signatures.is_known and OLD_NUMERIC_STATUS in (signatures.value or [])):
        return absent("paste", "no rocminfo of release 2.5 or older ('Call returned 4104') in the report")
    return known(True, f"{video.source or 'paste'}; {signatures.source or 'paste'}")
