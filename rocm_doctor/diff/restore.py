"""The way back to a baseline (``fix --to``): pip commands that return the Python stack to the
baseline's versions, and manual steps for what rocm-doctor never changes (kernel, driver, ROCm, HIP SDK).

The torch family (torch, torchvision, torchaudio, triton) goes back as one set: the versions that
were installed together in the baseline, from the index that carries that build (pytorch.org's
stable or nightly ROCm index for a ``+rocmX.Y`` build, PyPI for a build without a local tag).
A build whose index rocm-doctor does not know becomes a manual step with the exact versions.

Nothing known to be broken is planned: a torch version a published regression names for this
machine's GPU (``rules/data/regressions.yaml``), or a stack on which the rules find an error that
the machine does not have now (the baseline's packages judged with today's GPUs, driver and ROCm),
is refused with the reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from rocm_doctor.diff.compare import compare_facts
from rocm_doctor.diff.versions import machine_gfx, packages_of, platform_of
from rocm_doctor.diff.model import GROUPS
from rocm_doctor.facts.model import Facts, TorchLiveFacts
from rocm_doctor.model.rules import Rule
from rocm_doctor.knowledge import torch_wheels
from rocm_doctor.knowledge.regressions import regressions
from rocm_doctor.remedy.pip import TORCH_FAMILY, Command, Target

_PYTORCH_ORG_LOCAL = re.compile(r"^rocm(\d+\.\d+(?:\.\d+)?)$")
OUTSIDE_PYTHON = (GROUPS[0], GROUPS[1])
"""Kernel and driver, ROCm user space: changed by the user, never by rocm-doctor."""


@dataclass(frozen=True)
class RestorePlan:
    commands: List[Command] = field(default_factory=list)
    manual: List[str] = field(default_factory=list)
    refused: List[str] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        return not (self.commands or self.manual or self.refused)


def index_of(torch_version: str) -> Tuple[bool, Optional[str]]:
    """(known, index URL) of a torch build: PyPI (None) for a build without a local tag; pytorch.org's
    ROCm index when the table lists the variant for that release, its nightly index for a ``.dev``
    build; (False, None) when rocm-doctor does not know which index carries it (AMD's own builds)."""
    local = torch_version.split("+", 1)[1] if "+" in torch_version else None
    if local is None:
        return True, None
    match = _PYTORCH_ORG_LOCAL.match(local)
    if match is None:
        return False, None
    variant = match.group(1)
    if ".dev" in torch_version:
        return True, torch_wheels.index_url(variant, nightly=True)
    if torch_wheels.wheels().is_variant(torch_version, variant) is True:
        return True, torch_wheels.index_url(variant)
    return False, None


def _pins(versions: Dict[str, str]) -> List[str]:
    return [f"{name}=={version}" for name, version in versions.items()]


def _without_live(facts: Facts) -> Facts:
    return facts.model_copy(update={"torch": facts.torch.model_copy(update={"live": TorchLiveFacts()})})


def _errors(rules: Sequence[Rule], facts: Facts) -> Dict[str, str]:
    from rocm_doctor.pipeline import evaluate

    return {f.id: f.title for f in evaluate(list(rules), facts).findings if f.severity == "error"}


def known_broken(baseline: Facts, now: Facts, rules: Sequence[Rule]) -> List[str]:
    """Why the baseline's Python stack is known to be broken on the machine as it is now (empty: nothing known)."""
    reasons: List[str] = []
    old = packages_of(baseline) or {}
    torch = old.get("torch")
    if torch:
        for row in regressions().matching_version("torch", torch, machine_gfx(now), platform_of(now)):
            reasons.append(f"torch {torch} is in the known regression {row.id}: {row.effect} ({row.source})")
    restored = _without_live(now).model_copy(update={"torch": baseline.torch.model_copy(update={"live": TorchLiveFacts()}), "packages": baseline.packages})
    current = _errors(rules, _without_live(now))
    for rule_id, title in sorted(_errors(rules, restored).items()):
        if rule_id not in current:
            reasons.append(f"on this machine as it is now, the baseline's packages would give {rule_id}: {title}")
    return reasons


def restore_plan(baseline: Facts, now: Facts, target: Target, rules: Sequence[Rule]) -> RestorePlan:
    """Commands and manual steps that return ``now`` to ``baseline`` (see the module notes)."""
    old, new = packages_of(baseline), packages_of(now)
    changes, _ = compare_facts(baseline, now)
    manual = [
        f"{c.what}: go back from {c.after or 'none'} to {c.before or 'none'} (rocm-doctor never changes the kernel, drivers or ROCm)"
        for c in changes if c.group in OUTSIDE_PYTHON
    ]
    if old is None or new is None:
        return RestorePlan(manual=manual, refused=["the Python packages are not known on both sides, so no pip command can be planned"])
    family = [n for n in TORCH_FAMILY if old.get(n) != new.get(n)]
    others = {n: v for n, v in old.items() if n not in TORCH_FAMILY and new.get(n) != v}
    added = sorted(n for n in new if n not in old and n not in TORCH_FAMILY)
    commands: List[Command] = []
    refused: List[str] = []
    notes: List[str] = []
    if family:
        broken = known_broken(baseline, now, rules)
        torch = old.get("torch")
        if broken:
            refused += [f"not returning to the baseline's torch stack: {reason}" for reason in broken]
        elif torch is None:
            manual.append(f"the baseline had no torch; remove it yourself if that is what you want ({', '.join(family)} changed)")
        else:
            known, index = index_of(torch)
            wanted = {n: old[n] for n in TORCH_FAMILY if n in old}
            if not known:
                manual.append(
                    f"reinstall {' '.join(_pins(wanted))} from the index you installed torch {torch} from "
                    "(rocm-doctor does not know which index carries that build)"
                )
            else:
                # Only what the baseline did not have is removed first: pip replaces the rest in place,
                # so a failed install leaves the current torch working.
                extra = [n for n in TORCH_FAMILY if n in new and n not in old]
                if extra:
                    commands.append(Command(target.uninstall(extra), "remove what was installed beside torch since the baseline"))
                commands.append(Command(
                    target.install(_pins(wanted), index),
                    f"reinstall the baseline's torch {torch} with the companions it had",
                ))
                if ".dev" in torch:
                    notes.append(
                        f"torch {torch} is a nightly: pytorch.org removes old nightlies from its index, so pip may no "
                        "longer find it (then nothing was replaced)"
                    )
    if others:
        commands.append(Command(target.install(_pins(others), None), "return the other packages to the baseline's versions"))
    if added:
        notes.append(f"installed since the baseline and left installed: {', '.join(added)}")
    return RestorePlan(commands=commands, manual=manual, refused=refused, notes=notes)
