"""What a verdict on a pasted report rests on, and what to ask the reporter for.

A report rarely shows everything (the environment, ``id``, the wheel's arch list, the
kernel). Three things make that visible instead of a green tick on thin evidence:

* :func:`asks`: a rule that would fire if a fact the report does not show had a certain
  value, while every fact the report does show supports it, becomes an ``ask``: "not
  shown in the report: run ``id``". An ask never counts as an error; it tells a
  maintainer what to request.
* :func:`coverage`: which areas the report decides (GPU, platform, driver, ROCm, PyTorch,
  environment, permissions) and, for each one it does not show, the command to paste.
* :func:`nothing_matched`: when a report yields no finding, say so plainly and name where
  to report it.

Everything here is a pure function of the facts and the judged rules.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

from pydantic import BaseModel, ConfigDict, Field

from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.derived import DerivedValues
from rocm_doctor.judge.interpolate import interpolate
from rocm_doctor.model.rules import SEVERITY_ORDER, Finding, Rule, Undecided
from rocm_doctor.judge.paths import Scope

_RUN_HINT = re.compile(r"\(run: ([^)]+)\)")


class Collect(BaseModel):
    """One thing to paste next: what it shows and the command that prints it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    what: str
    linux: str
    windows: Optional[str] = None


class Ask(BaseModel):
    """A rule the report leaves open only because it does not show some facts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    title: str
    category: str
    severity: str
    gpu: Optional[int] = None
    missing: List[str] = Field(default_factory=list)
    collect: List[Collect] = Field(default_factory=list)


class Area(BaseModel):
    """One area of a verdict: whether the report decides it, and what to paste if not."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    shown: bool
    evidence: Optional[str] = None
    collect: Optional[Collect] = None


ENVIRONMENT = Collect(
    what="the environment variables",
    linux="env | grep -E 'HSA|HIP|ROCR|PYTORCH|TORCH|AMD'",
    windows="Get-ChildItem Env: | Where-Object Name -Match 'HSA|HIP|ROCR|PYTORCH|TORCH|AMD' | ForEach-Object { \"$($_.Name)=$($_.Value)\" }",
)
GROUPS = Collect(what="the user and its groups", linux="id; ls -l /dev/kfd /dev/dri/renderD*")
GPUS = Collect(what="the GPUs as ROCm sees them", linux="rocminfo", windows="hipInfo")
TORCH = Collect(what="the PyTorch build", linux="python -m torch.utils.collect_env")
ARCH_LIST = Collect(
    what="the gfx targets the installed torch has kernels for",
    linux='python -c "import torch; print(torch.__version__, torch.version.hip, torch.cuda.get_arch_list())"',
)
KERNEL = Collect(what="the kernel and OS", linux="uname -a; cat /etc/os-release", windows="cmd /c ver")
DRIVER = Collect(
    what="the kernel driver",
    linux="dkms status; cat /sys/module/amdgpu/version; uname -r",
    windows="Get-CimInstance Win32_VideoController | Format-List Name, DriverVersion",
)
ROCM = Collect(what="the ROCm release", linux="cat /opt/rocm/.info/version; ls -d /opt/rocm*")
PACKAGES = Collect(what="the Python packages", linux="pip list")

_BY_PATH: Tuple[Tuple[str, Collect], ...] = (
    ("env.", ENVIRONMENT),
    ("permissions.", GROUPS),
    ("torch.live.arch_list", ARCH_LIST),
    ("torch.", TORCH),
    ("gpus.", GPUS),
    ("gpu.", GPUS),
    ("host.kernel_release", DRIVER),
    ("driver.", DRIVER),
    ("windows.driver_version", DRIVER),
    ("host.", KERNEL),
    ("rocm.", ROCM),
    ("packages.", PACKAGES),
    ("python.", TORCH),
)
"""Which paste shows a fact, by the fact's path (first match wins)."""


def _collect_for(missing: str) -> Optional[Collect]:
    """What to paste for one ``path: reason`` entry of an undecided rule; None when nothing would tell."""
    path, _, reason = missing.partition(": ")
    hint = _RUN_HINT.search(reason)
    if hint:
        command = hint.group(1)
        return ENVIRONMENT if command.startswith("env") else Collect(what=path, linux=command)
    for prefix, collect in _BY_PATH:
        if path.startswith(prefix):
            return collect
    return None


def asks(
    rules: Sequence[Rule], undecided: Sequence[Undecided], facts: Facts, derived: Optional[DerivedValues] = None,
    by_id: Optional[Dict[str, Rule]] = None,
) -> List[Ask]:
    """Undecided error/warning rules that the report supports as far as it goes (see the module docstring).

    An ask's title shows the facts the report gives and names the ones it does not
    ("torch 2.3.1 has no kernels for <gfx target>"), never a raw ``{gpu.gfx}``.
    """
    if facts.meta.origin != "paste":
        return []
    values = derived if derived is not None else DerivedValues(facts)
    agents = {agent.index: agent for agent in facts.gpus.agents}
    if by_id is None:  # the rules by id (the judge passes the table it keeps for the rule set)
        by_id = {r.id: r for r in rules}
    out: List[Ask] = []
    for item in undecided:
        rule = by_id.get(item.id)
        if rule is None or rule.severity == "info" or not item.supported:
            continue
        collects = [_collect_for(m) for m in item.missing]
        if not collects or any(c is None for c in collects):
            continue  # something the reporter cannot paste keeps it open (an unknown GPU model, a table gap)
        unique: List[Collect] = []
        for collect in collects:
            if collect is not None and collect not in unique:
                unique.append(collect)
        scope = Scope(facts, values, agents.get(item.gpu) if item.gpu is not None else None)
        title = interpolate(rule.title, scope, named=("unknown", "failed", "absent"))  # it has not fired: name what it would print
        out.append(
            Ask(
                id=rule.id, name=rule.name, title=title, category=rule.category, severity=rule.severity,
                gpu=item.gpu, missing=list(item.missing), collect=unique,
            )
        )
    out.sort(key=lambda a: (-SEVERITY_ORDER[a.severity], a.id, -1 if a.gpu is None else a.gpu))
    return out


def _shown(fact_paths: Sequence[Tuple[str, object]]) -> Optional[str]:
    for label, fact in fact_paths:
        if getattr(fact, "is_known", False):
            return f"{label} {getattr(fact, 'value')}".strip()
    return None


def coverage(facts: Facts) -> List[Area]:
    """The areas a pasted report decides, and what to paste for each one it does not."""
    agents = facts.gpus.agents
    gfx = [str(a.gfx.value) for a in agents if a.gfx.is_known]
    names = [str(a.name.value) for a in agents if a.name.is_known]
    gpu = ", ".join(gfx or names) if (gfx or names) else None
    windows = facts.host.os.is_known and facts.host.os.value == "windows"
    areas = [
        Area(name="GPU and gfx target", shown=bool(gfx), evidence=gpu, collect=None if gfx else GPUS),
        Area(
            name="platform",
            shown=facts.host.os.is_known,
            evidence=_shown([("", facts.host.distro_name), ("Windows", facts.host.windows_release), ("", facts.host.os)]),
            collect=None if facts.host.os.is_known else KERNEL,
        ),
        Area(
            name="driver",
            shown=facts.host.kernel_release.is_known or facts.driver.amdgpu_version.is_known or facts.windows.driver_version.is_known,
            evidence=_shown([("kernel", facts.host.kernel_release), ("amdgpu", facts.driver.amdgpu_version), ("Adrenalin", facts.windows.driver_version)]),
            collect=DRIVER,
        ),
        Area(
            name="ROCm",
            shown=facts.rocm.version.is_known or facts.torch.rocm_version.is_known,
            evidence=_shown([("ROCm", facts.rocm.version), ("torch built for ROCm", facts.torch.rocm_version)]),
            collect=ROCM,
        ),
        Area(
            name="PyTorch build",
            shown=facts.torch.flavour.is_known,
            evidence=_shown([("torch", facts.torch.version), ("flavour", facts.torch.flavour)]),
            collect=TORCH,
        ),
        Area(
            name="environment",
            shown=facts.env.vars.is_known,
            evidence=("complete listing" if facts.env.vars.is_known and ".*" in (facts.env.coverage.value or []) else
                      (", ".join(sorted(facts.env.vars.value or {})) or "a partial listing") if facts.env.vars.is_known else None),
            collect=ENVIRONMENT,
        ),
        Area(
            name="permissions",
            shown=facts.permissions.groups.is_known or facts.permissions.kfd_rw.is_known or facts.permissions.is_root.is_known,
            evidence=_shown([("groups", facts.permissions.groups), ("/dev/kfd read-write", facts.permissions.kfd_rw), ("root", facts.permissions.is_root)]),
            collect=None if windows else GROUPS,
        ),
    ]
    return [a if not a.shown else a.model_copy(update={"collect": None}) for a in areas]


WHERE_TO_REPORT: Tuple[Tuple[str, str], ...] = (
    ("PyTorch itself (a crash or wrong result inside torch)", "https://github.com/pytorch/pytorch/issues"),
    ("the ROCm stack (runtime, libraries, drivers)", "https://github.com/ROCm/ROCm/issues"),
    ("TheRock wheels and nightlies", "https://github.com/ROCm/TheRock/issues"),
    ("the application (ComfyUI, ollama, llama.cpp, vLLM ...)", "that application's own issue tracker"),
)
"""Where a report with no finding goes next; `rocm-doctor report` makes the attachment."""


def nothing_matched(findings: Sequence[Finding], facts: Facts) -> bool:
    """A pasted report yielded no error or warning: say so and say where to take it."""
    return facts.meta.origin == "paste" and not any(f.severity in ("error", "warning") for f in findings)
