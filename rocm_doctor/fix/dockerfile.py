"""``rocm-doctor dockerfile``: a Dockerfile snippet that fits this machine.

The base is one of AMD's published images (``rocm/dev-ubuntu-22.04:X.Y``,
``rocm/dev-ubuntu-24.04:X.Y``, ``rocm/pytorch``) whose ROCm matches the torch build
the planner chose; pip lines install that torch when the base does not ship it;
``ENV`` lines carry the environment fixes; comments cite the findings.
Containers share the host's kernel driver (https://github.com/ROCm/rocm-install-on-linux/blob/f297bde3afa98d750d1aa460386491db9a721f30/docs/how-to/docker.rst), so the host driver
must support the base's ROCm.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import List, Optional, Tuple

from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import Facts
from rocm_doctor.wheels import wheeldata
from rocm_doctor.wheels.choice import Machine, Needs, NoChoice, TorchChoice, choose_torch, machine_of
from rocm_doctor.model.remedy import Plan
from rocm_doctor.judge.derived import Tables
from rocm_doctor.judge.derived_facts.driver import kernel_driver
from rocm_doctor.remedy.decide import environment_after, hidden_by
from rocm_doctor.remedy.pip import Target, companions_wanted, torch_requirements
from rocm_doctor.render.safe import escape_controls

UBUNTU_BASES = ("22.04", "24.04")
UBUNTU_PYTHON = {"22.04": "3.10", "24.04": "3.12"}
_ROCM_IN_TAG = re.compile(r"(?:^|[^0-9])(?:rocm)?(\d+\.\d+(?:\.\d+)?)")
_SAFE_ENV = re.compile(r"^[A-Za-z0-9_.,:/+=@-]*$")
_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
IMAGE_REFERENCE = re.compile(
    r"^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]+)?/)?"
    rf"{_COMPONENT}(?:/{_COMPONENT})*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{{0,127}})?(?:@sha256:[0-9a-f]{{64}})?$"
)
"""A Docker image reference (the grammar of distribution/reference): [host[:port]/]name[:tag][@digest]."""
IMAGE_STEPS = ("pip", "env", "docker")
"""What a Dockerfile can fix: packages, ENV lines, its own instructions."""


@dataclass
class DockerfileResult:
    """The Dockerfile text, and the torch choice behind it."""

    text: str
    base: str
    choice: Optional[TorchChoice] = None
    notes: List[str] = field(default_factory=list)


def base_rocm(image: str) -> Optional[str]:
    """The ROCm release in an image tag (``rocm/dev-ubuntu-22.04:6.2`` -> ``6.2``), None if not there."""
    if ":" not in image:
        return None
    tag = image.rsplit(":", 1)[1]
    match = _ROCM_IN_TAG.search(tag)
    return match.group(1) if match else None


def _ubuntu(facts: Facts) -> str:
    if facts.host.distro_id.is_known and facts.host.distro_id.value == "ubuntu" and facts.host.distro_version.is_known:
        if facts.host.distro_version.value in UBUNTU_BASES:
            return str(facts.host.distro_version.value)
    return UBUNTU_BASES[-1]


def _env_line(name: str, value: str) -> str:
    if _SAFE_ENV.match(value):
        return f"ENV {name}={value}"
    return f"ENV {name}={json.dumps(value)}"


def _image_machine(machine: Machine, pinned_rocm: Optional[str], python: Optional[str]) -> Machine:
    """The machine as seen from inside the new image: Linux, the base's Python, the host's kernel driver
    (containers share it, see the module docstring), and the base's ROCm when the base pins one."""
    return replace(
        machine, windows=False, wsl=False, container=pinned_rocm is None, python=python or machine.python,
        host_rocm=pinned_rocm,
    )


def _image_torch(facts: Facts, plan: Plan, pinned: Optional[str], python: Optional[str], requested: Optional[str]) -> TorchChoice:
    """The build for the image: the plan's own build when there is one, else the newest that fits, with the
    image's Python and the host driver's user-space range either way."""
    changes = plan.env_changes()
    machine = _image_machine(machine_of(facts, kernel_driver(facts, Tables()), hidden_by(facts, changes), environment_after(facts, changes)), pinned, python)
    if plan.torch is not None and not requested and plan.torch.route == "pytorch.org":
        try:
            return choose_torch(machine, "pytorch.org", plan.torch.torch, Needs(rocm=f"=={plan.torch.rocm}"))
        except NoChoice:
            pass  # the image's Python or the pinned base rules the plan's build out: choose for the image
    route = plan.torch.route if plan.torch is not None and plan.torch.route == "therock" else "auto"
    return choose_torch(machine, route, requested)


def render_dockerfile(facts: Facts, plan: Plan, base: str = "auto", requested_torch: Optional[str] = None) -> DockerfileResult:
    """The Dockerfile for ``facts`` and ``plan``; raises :class:`NoChoice` when no torch fits.

    It claims to resolve only what a Dockerfile can fix (packages, ENV, its own lines); host steps are
    named as such in its header.
    """
    if base != "auto" and not IMAGE_REFERENCE.match(base):
        raise InputError(f"--base {base!r} is not a Docker image reference (like rocm/dev-ubuntu-24.04:7.2)")
    notes: List[str] = []
    ubuntu = _ubuntu(facts)
    ships_torch = base.startswith("rocm/pytorch")
    pinned = None if base == "auto" else base_rocm(base)
    choice: Optional[TorchChoice] = None
    if not ships_torch:
        python = UBUNTU_PYTHON[ubuntu] if base == "auto" or base.startswith("rocm/dev-ubuntu") else None
        choice = _image_torch(facts, plan, pinned, python, requested_torch)
    if base == "auto":
        rocm = choice.rocm if choice and choice.rocm else wheeldata.newest_rocm_series()
        image = f"rocm/dev-ubuntu-{ubuntu}:{rocm}"
    else:
        image = base
    fixed = [s for s in plan.steps if s.kind in IMAGE_STEPS]
    elsewhere = [s for s in plan.steps if s.kind not in IMAGE_STEPS]
    ids = ", ".join(dict.fromkeys(i for s in fixed for i in s.finding_ids)) or "no findings"
    lines = [
        f"# Generated by rocm-doctor dockerfile; in the image it resolves: {ids}",
        "# Containers use the host's amdgpu kernel driver: the host driver must support this image's ROCm.",
    ]
    for step in elsewhere:
        lines.append(f"# Not fixable in a Dockerfile ({step.where_text}): {', '.join(step.finding_ids)} - {step.text}")
    if facts.rocm.version.is_known and facts.host.container.is_known:
        lines.append(f"# The current container runs ROCm {facts.rocm.version.value}.")
    if choice:
        lines.append(f"# torch {choice.torch} from {choice.route}" + (f" (ROCm {choice.rocm})" if choice.rocm else ""))
        lines += [f"#   because: {r}" for r in choice.reasons]
        lines += [f"#   ruled out: {r}" for r in choice.ruled_out[:6]]
    lines.append(f"FROM {image}")
    if choice:
        requirements = torch_requirements(choice, companions_wanted(facts))  # the plan's companions
        argv = Target("python").install([r.spec for r in requirements], choice.index_url, ("--no-cache-dir",))
        pins = "torch comes from its own index, pinned to a release series" if choice.route != "therock" else (
            "TheRock's multi-arch index publishes development builds without stable versions to pin"
        )
        lines += [
            "# DL3008: python3-venv and python3-pip come from the base image's Ubuntu release, which fixes their versions.",
            "# hadolint ignore=DL3008",
            "RUN apt-get update && apt-get install -y --no-install-recommends python3-venv python3-pip "
            "&& rm -rf /var/lib/apt/lists/* && python3 -m venv /opt/venv",
            "ENV PATH=/opt/venv/bin:$PATH",
            f"# {', '.join(dict.fromkeys(i for s in plan.of_kind('pip') for i in s.finding_ids)) or 'torch matching the base image'}",
        ]
        if choice.route == "therock":
            lines += [f"# DL3013: {pins}.", "# hadolint ignore=DL3013"]
        lines.append("RUN " + json.dumps(list(argv)))
    elif ships_torch:
        lines.append("# rocm/pytorch ships a matching torch: no pip lines.")
    for step in plan.of_kind("env"):
        lines.append(f"# {', '.join(step.finding_ids)}")
        for name, value in step.env.items():
            if value is None:
                lines.append(f"# do not set {name}: remove any ENV {name} line and any -e {name}")
            else:
                lines.append(_env_line(name, value))
    for step in plan.of_kind("docker"):
        if step.dockerfile:
            lines.append(f"# {', '.join(step.finding_ids)}: {step.text}".rstrip(": "))
            lines += list(step.dockerfile)
        if step.base:
            notes.append(f"{', '.join(step.finding_ids)} suggests the base {step.base}")
    # A control character from a fact or rule would break the file or the terminal showing it.
    return DockerfileResult(escape_controls("\n".join(lines)) + "\n", image, choice, notes)


def refusal_text(refusal: NoChoice) -> Tuple[str, ...]:
    """Lines that explain why no torch fits, with the alternatives."""
    return (str(refusal), *(f"ruled out: {r}" for r in refusal.ruled_out), *(f"instead: {a}" for a in refusal.alternatives))
