"""RD480 (HIP/HSA headers of a distribution's ROCm in /usr/include beside AMD's in /opt/rocm) fires where the report
shows both header folders present on this machine (ggml-org/llama.cpp#15196's ``find`` output; ROCm/hipBLASLt#1697's
diff; ROCm/legacy-rocm-build#3306's two hsa.h), not where one of them is absent, not found, removed, someone
else's, asked about or a document's (rev57b)."""

from __future__ import annotations

import pytest

from rocm_doctor.ingest import ingest_text
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

BOTH = [
    '❯ find / -name "hip_bf16.h" 2>/dev/null\n/usr/include/hip/hip_bf16.h\n/opt/rocm-6.4.3/include/hip/hip_bf16.h',
    "In file included from /usr/include/hip/hip_runtime.h:62:\n/usr/include/hip/amd_detail/amd_hip_bf16.h:10: error: redefinition of 'hip_bfloat16'\nhipcc -I/opt/rocm/include/hip -c foo.cpp",
    "/usr/include/hsa/hsa.h is from Ubuntu's libhsa-runtime-dev and /opt/rocm-6.1.2/include/hsa/hsa.h is from AMD's hsa-rocr-dev.",
]
NOT_BOTH = [
    "There is no /usr/include/hip/hip_runtime.h on this machine, only /opt/rocm/include/hip/hip_runtime.h.",
    "fatal error: '/opt/rocm/include/hip/hip_runtime.h' file not found\nIn file included from /usr/include/hip/hip_runtime.h:62:",
    "CMake Error: Could not find /opt/rocm/include/hip/hip_version.h\n-- HIP headers: /usr/include/hip/hip_version.h",
    "Fedora 40, rocm-hip-devel from dnf: /usr/include/hip/hip_runtime.h exists; /opt/rocm/include/hip does not exist.",
    "I removed libamdhip64-dev, so /usr/include/hip/hip_bf16.h is gone and the build uses /opt/rocm/include/hip now.",
    "In the linked llama.cpp issue the user had /usr/include/hip/hip_bf16.h beside /opt/rocm-6.4.3/include/hip.",
    "My friend's PC has /usr/include/hip/hip_runtime.h and /opt/rocm/include/hip.",
    "Should I delete /usr/include/hip/hip_runtime.h if I also have /opt/rocm/include/hip?",
    "The docs say: do not install headers into /usr/include/hsa/hsa.h when /opt/rocm/include/hsa is present.",
]


def _fires(text: str) -> bool:
    return any(f.id == "RD480" for f in evaluate(load_rules([], use_env=False), ingest_text(text).facts).findings)


def test_both_header_folders_shown_present_fire() -> None:
    assert [t for t in BOTH if not _fires(t)] == []


@pytest.mark.parametrize("text", NOT_BOTH)
def test_an_absent_removed_or_anothers_header_folder_does_not_fire(text: str) -> None:
    assert not _fires(text)
