"""Findings that say the same thing about several GPUs, shown once with the list of their GPUs."""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Tuple

from rocm_doctor.judge.model import Finding

SAME = {"id", "title", "message", "remedy"}
"""What must be equal for two GPUs' findings to be one entry (the console's rule as well)."""


def merged_by_gpu(findings: Iterable[Finding]) -> List[Tuple[Finding, List[Optional[int]]]]:
    """Each distinct finding once, in first-seen order, with the GPUs it was found for (``[None]`` when for none)."""
    shown: List[Tuple[Finding, List[Optional[int]]]] = []
    where: Dict[str, int] = {}
    for finding in findings:
        if finding.gpu is None:
            shown.append((finding, [None]))
            continue
        key = finding.model_dump_json(include=SAME)
        if key in where:
            first, gpus = shown[where[key]]
            if finding.gpu not in gpus:
                gpus.append(finding.gpu)
            continue
        where[key] = len(shown)
        shown.append((finding, [finding.gpu]))
    return shown
