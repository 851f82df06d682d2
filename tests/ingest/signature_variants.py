"""How many lines of the development reports hold a message's key words but are not read (issue 23, item 1).

For each of the messages behind the root-cause classes, a key (the words every printing and quoting of the message
holds, loose on purpose) finds the lines of ``tests/corpus/*.yaml`` and ``../shared/corpus/*.yaml`` (never
``tests/corpus/holdout``) that carry the message; a line is *read* when the signature row itself matches it
(``row``) or when any row of the table does (``any``: another row may own a variant, e.g. the context row hipblaslt_fallback_to_hipblas
reads torch's UserWarning). Lines a key finds in prose ("GPU memory access fault (page fault)") are counted too:
the table is where to look, not a score.

Run as a script: ``python tests/ingest/signature_variants.py [-v]`` (``-v`` lists the unread lines).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Iterator, List, Tuple

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_scoring import _shared_corpus  # noqa: E402

from rocm_doctor.ingest import signatures as table  # noqa: E402

KEYS: List[Tuple[str, str]] = [
    ("hip_no_binary_for_gpu", r"NoBinaryForGpu|code object for all current devices|Couldn't find binary for"),
    ("hip_invalid_device_function", r"invalid device function|InvalidDeviceFunction"),
    ("hip_no_kernel_image", r"(?:HIP|ROCm) error\W{1,3}no kernel image"),
    ("hip_error_no_device", r"hipErrorNoDevice|no ROCm-capable device|Tensile host: No devices"),
    ("no_hip_gpus", r"No HIP GPUs"),
    ("torch_not_compiled_with_cuda", r"not compiled with CUDA"),
    ("found_no_nvidia_driver", r"found no nvidia driver"),
    ("hipblas_not_supported", r"HIPBLAS_STATUS_NOT_SUPPORTED"),
    ("hipblas_alloc_failed", r"HIPBLAS_STATUS_ALLOC_FAILED"),
    ("hipblaslt_unsupported_arch", r"hipBLASLt on an? unsupported"),
    ("kfd_permission_denied", r"/dev/kfd.{0,60}permission denied|permission denied.{0,60}/dev/kfd"),
    ("dri_permission_denied", r"renderD\d*.{0,60}permission denied|permission denied.{0,60}/dev/dri"),
    ("tensile_library_missing_arch", r"(?:Cannot read|Could not load)[^\n]{0,300}TensileLibrary"),
    ("gpu_memory_access_fault", r"Memory access fault"),
    ("hsa_out_of_resources", r"HSA_STATUS_ERROR_OUT_OF_RESOURCES"),
    ("hsa_invalid_isa", r"HSA_STATUS_ERROR_INVALID_ISA"),
    ("kernel_userspace_incompatible", r"Incompatible kernel and userspace"),
    ("amdgpu_init_failed", r"amdgpu.{0,80}(?:Fatal error during GPU init|probe .{0,40}failed|ip_init failed)"),
    ("windows_dll_load_failed", r"\[WinError \d+\][^\n]{0,200}Error loading"),
]


def development_lines() -> Iterator[Tuple[str, str]]:
    """(case id, line) of every report of the two development sets."""
    paths = sorted((ROOT / "tests" / "corpus").glob("*.yaml")) + sorted(_shared_corpus().glob("*.yaml"))
    for path in paths:
        try:
            case = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(case, dict) and case.get("report"):
            for line in str(case["report"]).splitlines():
                yield path.stem, line


def _reads(row: "table.Signature", line: str) -> bool:
    match = table._search(row, line[: table.MAX_LINE])
    return match is not None and not (row.unless is not None and row.unless.search(line))


def main(verbose: bool) -> None:
    rows = {s.id: s for s in table.signatures()}
    every = list(rows.values())
    lines = list(development_lines())
    print(f"{'signature':32} {'lines':>6} {'unread by row':>14} {'unread by any':>14} {'reports':>8}")
    for sid, key in KEYS:
        wanted = re.compile(key, re.IGNORECASE)
        found = by_row = by_any = 0
        cases = set()
        for case, line in lines:
            if not wanted.search(line):
                continue
            found += 1
            if sid in rows and _reads(rows[sid], line):
                continue
            by_row += 1
            if any(_reads(r, line) for r in every):
                continue
            by_any += 1
            cases.add(case)
            if verbose:
                print(f"    {sid} | {case} | {line.strip()[:200]}")
        print(f"{sid:32} {found:6} {by_row:14} {by_any:14} {len(cases):8}")


if __name__ == "__main__":
    main("-v" in sys.argv)
