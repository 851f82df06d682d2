"""``rocm-doctor docker-run``: ``docker run`` flags and a compose service for this machine.

The flags are AMD's documented ones (https://github.com/ROCm/rocm-install-on-linux/blob/f297bde3afa98d750d1aa460386491db9a721f30/docs/how-to/docker.rst, ROCm docs "Running ROCm Docker
containers" and the PyTorch install page): the compute interface ``/dev/kfd`` and the
render nodes under ``/dev/dri``, the ``video`` group and the render group *by number*
(the image has no group of the host's name), ``--ipc=host`` for the DataLoader's
shared memory, and ``seccomp=unconfined`` that AMD's examples use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import yaml

from rocm_doctor import shells
from rocm_doctor.facts.model import Facts
from rocm_doctor.wheels import wheeldata
from rocm_doctor.judge.derived import Tables
from rocm_doctor.judge.derived_facts.driver import kernel_driver
from rocm_doctor.wheels.choice import machine_of
from rocm_doctor.model.remedy import Plan

DEFAULT_IMAGE = "rocm/pytorch:latest"
"""AMD's PyTorch image; ``latest`` is the latest tested release (https://github.com/ROCm/rocm-install-on-linux/blob/f297bde3afa98d750d1aa460386491db9a721f30/docs/reference/docker-image-support-matrix.rst)."""
BUILT_IMAGE = "rocm-doctor-torch"
"""The tag to build ``rocm-doctor dockerfile`` under when ``rocm/pytorch:latest`` is too new for the host driver."""


@dataclass
class DockerRun:
    """Flags, environment and the notes that explain them."""

    image: str
    devices: List[str] = field(default_factory=lambda: ["/dev/kfd", "/dev/dri"])
    """Host paths; compose maps each to the same path in the container."""
    groups: List[str] = field(default_factory=list)
    environment: Dict[str, str] = field(default_factory=dict)
    extra_flags: List[str] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)

    def flags(self) -> List[str]:
        flags = [f"--device={d}" for d in self.devices]
        for group in self.groups:
            flags += ["--group-add", group]
        flags += ["--ipc=host", "--security-opt", "seccomp=unconfined"]
        for name, value in self.environment.items():
            flags += ["-e", f"{name}={value}"]
        present = set(_units(flags))
        for unit in _units(list(self.extra_flags)):  # a flag and its value stay together (-e X=1)
            if unit not in present:
                flags += list(unit)
                present.add(unit)
        return flags

    def command(self) -> str:
        return " ".join(shells.posix_run_word(word) for word in ["docker", "run", "-it", "--rm", *self.flags(), self.image])

    def compose(self, service: str = "pytorch") -> str:
        body: Dict[str, object] = {
            "image": self.image,
            "devices": [f"{d}:{d}" for d in self.devices],
            "group_add": list(self.groups),
            "ipc": "host",
            "security_opt": ["seccomp=unconfined"],
        }
        if self.environment:
            body["environment"] = dict(self.environment)
        return yaml.safe_dump({"services": {service: body}}, sort_keys=False, default_flow_style=False)


def _default_image(facts: Facts, notes: List[str]) -> str:
    """``rocm/pytorch:latest`` unless the host's kernel driver supports no user space that new."""
    machine = machine_of(facts, kernel_driver(facts, Tables()))
    newest = wheeldata.newest_rocm_series()
    if machine.userspace is not None and newest not in machine.userspace:
        notes.append(
            f"{DEFAULT_IMAGE} ships the newest ROCm ({newest}), which the host's amdgpu kernel driver (ROCm {machine.driver_rocm} "
            f"release) does not support (up to {machine.userspace[-1]}): build {BUILT_IMAGE} first with "
            f"`rocm-doctor dockerfile -o Dockerfile && docker build -t {BUILT_IMAGE} .`"
        )
        return BUILT_IMAGE
    return DEFAULT_IMAGE


def docker_run(facts: Facts, plan: Plan, image: Optional[str] = None) -> DockerRun:
    """The ``docker run`` setup for this machine and plan: the plan's environment (its visibility
    settings included; none is added here), its run flags, and the render group by number."""
    notes: List[str] = []
    run = DockerRun(image=image or _default_image(facts, notes), notes=notes)
    run.groups.append("video")
    gid = facts.permissions.render_group_gid
    if gid.is_known:
        run.groups.append(str(gid.value))
        run.notes.append(f"render group id {gid.value} (from {gid.source}); the image has no group named like the host's")
    else:
        run.groups.append("render")
        run.notes.append("the host's render group id is unknown: replace 'render' with `getent group render | cut -d: -f3`")
    for name, value in plan.env_changes().items():
        if value is not None:
            run.environment[name] = value
        else:
            run.notes.append(f"do not pass -e {name}")
    for step in plan.of_kind("docker"):
        run.extra_flags.extend(step.run_flags)  # repeats are dropped unit by unit in flags()
    return run


COMPOSE_SERVICE_KEYS = frozenset(
    {
        "image", "build", "command", "entrypoint", "environment", "env_file", "devices", "group_add", "ipc",
        "shm_size", "security_opt", "cap_add", "cap_drop", "volumes", "ports", "working_dir", "user",
        "deploy", "privileged", "stdin_open", "tty", "network_mode", "restart",
    }
)
"""Service keys of the Compose specification that the snippet may use (for its structural check)."""


def compose_problems(document: object) -> Tuple[str, ...]:
    """Structural check of a compose document: a services mapping of known keys and types."""
    problems: List[str] = []
    if not isinstance(document, dict) or not isinstance(document.get("services"), dict):
        return ("top level must be a mapping with a 'services' mapping",)
    for name, service in document["services"].items():
        if not isinstance(service, dict):
            problems.append(f"services.{name} must be a mapping")
            continue
        for key in service:
            if key not in COMPOSE_SERVICE_KEYS:
                problems.append(f"services.{name}.{key} is not a compose service key")
        for key in ("devices", "group_add", "security_opt"):
            value = service.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                problems.append(f"services.{name}.{key} must be a list of strings")
        env = service.get("environment", {})
        if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
            problems.append(f"services.{name}.environment must map names to strings")
    return tuple(problems)


def group_flags(run: DockerRun) -> Sequence[str]:
    """The ``--group-add`` values, in order (for renderers and tests)."""
    return tuple(run.groups)


def _units(words: List[str]) -> List[Tuple[str, ...]]:
    """``docker run`` words grouped into flags: ``-e X=1`` is one unit, ``--ipc=host`` another."""
    units: List[Tuple[str, ...]] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word.startswith("-") and "=" not in word and i + 1 < len(words) and not words[i + 1].startswith("-"):
            units.append((word, words[i + 1]))
            i += 2
        else:
            units.append((word,))
            i += 1
    return units
