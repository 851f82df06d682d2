"""Choose the torch build for a machine, and say what was ruled out and why.

Three wheel sources (rules/data/torch_wheels.yaml):

* ``pytorch.org``: ``https://download.pytorch.org/whl/rocmX.Y``, Linux x86_64 only, for the
  gfx targets baked into each release;
* ``amd-windows``: AMD's Windows wheels on repo.radeon.com, Python 3.12 only;
* ``therock``: AMD's multi-arch index with a ``device-gfxNNNN`` extra, for targets
  pytorch.org does not build.

All release data comes from ``rules/data/torch_wheels.yaml`` and ``rocm_support.yaml``
through :mod:`rocm_doctor.knowledge.torch_wheels`; this module only decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import AbstractSet, Dict, List, Optional, Sequence, Tuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from rocm_doctor.facts.model import Facts
from rocm_doctor.wheels import wheeldata
from rocm_doctor.wheels.platform import is_windows
from rocm_doctor.knowledge import overrides
from rocm_doctor.knowledge._tables import parse_version, series


@dataclass(frozen=True)
class TorchChoice:
    """The build to install, how, and the reasoning."""

    route: str
    """``pytorch.org``, ``amd-windows`` or ``therock``."""
    torch: str
    """Version or series (``2.13``) or a full AMD version (``2.9.1+rocmsdk20260116``)."""
    rocm: Optional[str]
    index_url: Optional[str]
    torchvision: Optional[str] = None
    torchaudio: Optional[str] = None
    gfx_extras: Tuple[str, ...] = ()
    preinstall: Tuple[str, ...] = ()
    wheel_url: Optional[str] = None
    docs: Optional[str] = None
    reasons: Tuple[str, ...] = ()
    """Why this one: the constraints it satisfies."""
    ruled_out: Tuple[str, ...] = ()
    """Newer or requested candidates that did not fit, each with the reason."""
    python_required: Optional[str] = None
    """Set when the target interpreter is the wrong Python for this build (AMD Windows: 3.12)."""


@dataclass
class NoChoice(Exception):
    """No build fits; ``alternatives`` lists what would."""

    message: str
    ruled_out: List[str] = field(default_factory=list)
    alternatives: List[str] = field(default_factory=list)

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Machine:
    """What the choice depends on, read from facts (unknown values are None)."""

    windows: bool
    wsl: bool
    container: bool
    python: Optional[str]
    """``3.12``."""
    gfx: Tuple[str, ...]
    host_rocm: Optional[str]
    driver_rocm: Optional[str] = None
    """The ROCm release the loaded amdgpu kernel driver shipped with (a container shares the host's)."""
    userspace: Optional[Tuple[str, ...]] = None
    """ROCm user-space series AMD supports with that kernel driver (rules/data/amdgpu_driver.yaml)."""


def _effective_gfx(gfx: str, kfd_node: Optional[int], env: Optional[Dict[str, str]]) -> str:
    """The gfx whose kernels the runtime loads: the target of the override ``env`` applies to the node, else its own."""
    if env is None:
        return gfx
    try:
        found = overrides.override_for_agent(env, kfd_node)
    except LookupError:
        return gfx
    target = overrides.override_gfx(found[1]) if found else None
    return target or gfx


KernelDriver = Tuple[Optional[str], Optional[Tuple[str, ...]]]
"""(the ROCm release the loaded amdgpu kernel driver shipped with, the user-space series AMD supports with
it): derived values the caller passes in (:func:`rocm_doctor.judge.derived_facts.driver.kernel_driver`),
(None, None) when the driver is not known."""


def machine_of(
    facts: Facts, driver: KernelDriver, hidden: AbstractSet[int] = frozenset(), env: Optional[Dict[str, str]] = None
) -> Machine:
    """The facts the torch choice uses; ``driver``: the kernel driver's derived values (:data:`KernelDriver`);
    ``hidden``: agent indices the plan's visibility variables hide
    (a hidden GPU does not drive the wheel choice); ``env``: the environment the plan leaves, whose
    HSA_OVERRIDE_GFX_VERSION decides which gfx kernels the wheel needs."""
    py = facts.python.version.value if facts.python.version.is_known else None
    gfx: List[str] = []
    for agent in facts.gpus.agents:
        vendor = agent.vendor.value if agent.vendor.is_known else None
        if agent.index in hidden:
            continue
        if agent.gfx.is_known and vendor in (None, "AMD"):
            node = agent.kfd_node.value if agent.kfd_node.is_known else None
            target = _effective_gfx(str(agent.gfx.value), node, env)
            if target not in gfx:
                gfx.append(target)
    rocm = facts.rocm.version.value if facts.rocm.version.is_known else None
    driver_rocm, userspace = driver
    return Machine(
        windows=is_windows(facts),
        wsl=facts.host.wsl_version.is_known and facts.host.wsl_version.value == 2,
        container=facts.host.container.is_known,
        python=series(py) if py else None,
        gfx=tuple(gfx),
        host_rocm=rocm,
        driver_rocm=driver_rocm,
        userspace=userspace,
    )


@dataclass(frozen=True)
class Needs:
    """What the build must meet: a fix's ``torch``/``rocm`` specifiers and a requested version."""

    torch: Optional[str] = None
    rocm: Optional[str] = None

    def torch_ok(self, version: str) -> bool:
        return _contains(self.torch, version)

    def rocm_ok(self, version: Optional[str]) -> bool:
        return self.rocm is None or (version is not None and _contains(self.rocm, version))

    def describe(self) -> str:
        parts = [f"torch {self.torch}" if self.torch else "", f"ROCm {self.rocm}" if self.rocm else ""]
        return " with ".join(p for p in parts if p)

    def merged(self, other: "Needs") -> "Needs":
        join = lambda a, b: ",".join(x for x in (a, b) if x) or None  # noqa: E731
        return Needs(join(self.torch, other.torch), join(self.rocm, other.rocm))


def _contains(spec: Optional[str], version: str) -> bool:
    if not spec:
        return True
    try:
        return SpecifierSet(spec).contains(Version(version), prereleases=True)
    except (InvalidSpecifier, InvalidVersion):
        return False


def _driver_allows(variant: str, machine: Machine) -> Optional[str]:
    """None when the kernel driver and the platform allow the variant, else the reason they do not."""
    if machine.userspace is not None and not machine.wsl:
        if series(variant) not in machine.userspace:
            where = "the host's " if machine.container else "the "
            return (
                f"{where}amdgpu kernel driver (ROCm {machine.driver_rocm} release) supports ROCm user space "
                f"{machine.userspace[0]} to {machine.userspace[-1]} (AMD's user/kernel-space support matrix)"
            )
        return None
    if machine.host_rocm is None or machine.container:
        return None
    host = parse_version(machine.host_rocm)
    wheel = parse_version(variant)
    if host is None or wheel is None:
        return None
    if machine.wsl:
        if (wheel.major, wheel.minor) != (host.major, host.minor):
            return (
                f"WSL2 uses the system ROCm {machine.host_rocm} runtime (the wheel's bundled libhsa-runtime64 "
                "is removed), so the wheel must be built for the same release"
            )
        return None
    if wheel.major > host.major:
        return f"needs a newer amdgpu driver than ROCm {machine.host_rocm}'s; upgrade the driver first"
    return None


def _pytorch_org(
    machine: Machine, requested: Optional[str], include_test: bool, needs: Needs = Needs()
) -> Tuple[Optional[TorchChoice], List[str]]:
    ruled_out: List[str] = []
    for release in wheeldata.releases():
        label = f"torch {release.torch}"
        if requested and release.torch != series(requested):
            continue
        if not needs.torch_ok(release.torch):
            ruled_out.append(f"{label}: this fix needs torch {needs.torch}")
            continue
        if release.channel != "stable" and not (include_test or requested):
            ruled_out.append(f"{label}: only a release candidate on the {release.channel} channel")
            continue
        if machine.python and machine.python not in release.python:
            ruled_out.append(f"{label}: no wheel for Python {machine.python} (has {', '.join(release.python)})")
            continue
        # Kernels are per ROCm variant: a target can be in one variant's wheel and not another's.
        missing = [g for g in machine.gfx if all(wheeldata.gfx_in_wheel(release.torch, v, g) is not True for v in release.rocm)]
        if missing:
            ruled_out.append(f"{label}: its pytorch.org wheels have no kernels for {', '.join(missing)}")
            continue
        variants = sorted(release.rocm, key=parse_version, reverse=True)
        chosen = None
        for variant in variants:
            lacking = [g for g in machine.gfx if wheeldata.gfx_in_wheel(release.torch, variant, g) is not True]
            if lacking:
                ruled_out.append(f"{label}+rocm{variant}: no kernels for {', '.join(lacking)} in this variant")
                continue
            gaps = [f"{g} ({gap})" for g in machine.gfx for gap in [wheeldata.library_gap(g, variant)] if gap]
            if gaps:
                ruled_out.append(f"{label}+rocm{variant}: its bundled ROCm libraries lack {', '.join(gaps)}")
                continue
            if not needs.rocm_ok(variant):
                ruled_out.append(f"{label}+rocm{variant}: this fix needs a wheel built for ROCm {needs.rocm}")
                continue
            why_not = _driver_allows(variant, machine)
            if why_not:
                ruled_out.append(f"{label}+rocm{variant}: {why_not}")
                continue
            chosen = variant
            break
        if chosen is None:
            continue
        vision, audio = wheeldata.companions(release.torch)
        reasons = [f"newest pytorch.org release with a ROCm wheel for every GPU here ({', '.join(machine.gfx) or 'no GPU found'})"]
        if machine.python:
            reasons.append(f"has wheels for Python {machine.python}")
        reasons.append(f"ROCm {chosen} is the newest variant of torch {release.torch} the driver allows")
        if machine.userspace is not None and not machine.wsl:
            reasons.append(
                f"the amdgpu kernel driver (ROCm {machine.driver_rocm} release) supports user space up to ROCm {machine.userspace[-1]}"
            )
        elif machine.host_rocm and not machine.container:
            reasons.append(f"driver rule: {wheeldata.driver_compat_note()}")
        return (
            TorchChoice(
                route="pytorch.org",
                torch=requested or release.torch,
                rocm=chosen,
                index_url=wheeldata.pytorch_index(chosen),
                torchvision=vision,
                torchaudio=audio,
                reasons=tuple(reasons),
                ruled_out=tuple(ruled_out),
            ),
            ruled_out,
        )
    return None, ruled_out


def _amd_windows(machine: Machine, requested: Optional[str], needs: Needs = Needs()) -> Tuple[Optional[TorchChoice], List[str]]:
    ruled_out: List[str] = []
    for release in wheeldata.windows_releases():
        label = f"AMD Windows torch {release.torch} (ROCm {release.rocm})"
        if requested and series(release.torch) != series(requested):
            continue
        if not needs.torch_ok(release.torch) or not needs.rocm_ok(release.rocm):
            ruled_out.append(f"{label}: this fix needs {needs.describe()}")
            continue
        blocked = [g for g in machine.gfx if wheeldata.windows_blocks(g, release.rocm)]
        if blocked:
            ruled_out.append(f"{label}: AMD's Windows ROCm {release.rocm} does not support {', '.join(blocked)}")
            continue
        if release.preview and not requested and len(wheeldata.windows_releases()) > 1:
            ruled_out.append(f"{label}: a preview superseded by a newer release")
            continue
        python_required = None
        reasons = [f"AMD publishes Windows wheels (pytorch.org has no Windows ROCm wheel); ROCm {release.rocm}"]
        if machine.python not in release.python:
            python_required = release.python[0]
            reasons.append(f"these wheels need Python {' or '.join(release.python)}; the target is Python {machine.python or 'unknown'}")
        return (
            TorchChoice(
                route="amd-windows",
                torch=release.torch,
                rocm=release.rocm,
                index_url=None,
                torchvision=release.torchvision,
                torchaudio=release.torchaudio,
                preinstall=release.preinstall,
                wheel_url=release.wheel_url,
                docs=release.docs,
                reasons=tuple(reasons),
                ruled_out=tuple(ruled_out),
                python_required=python_required,
            ),
            ruled_out,
        )
    return None, ruled_out


def _therock(machine: Machine, ruled_out: Sequence[str], why_not: Optional[List[str]] = None) -> Optional[TorchChoice]:
    """TheRock's multi-arch build when every GPU here is release-ready there; ``why_not`` collects the reason when not."""
    platform = "windows" if machine.windows else "linux"
    note = why_not.append if why_not is not None else (lambda _text: None)
    if not machine.gfx or not all(wheeldata.therock_ready(g, platform) for g in machine.gfx):
        note(f"TheRock multi-arch wheels: not release-ready for {', '.join(machine.gfx) or 'no GPU found'} on {platform}")
        return None
    if machine.python and machine.python not in wheeldata.therock_python():
        note(f"TheRock multi-arch wheels: none for Python {machine.python}")
        return None
    if machine.wsl:
        note(
            f"TheRock multi-arch wheels: WSL2 uses the system ROCm {machine.host_rocm or ''} runtime, so the wheel must be "
            "built for that release; TheRock's come from ROCm's development stream"
        )
        return None
    newest = wheeldata.newest_rocm_series()
    if machine.userspace is not None and not machine.windows and newest not in machine.userspace:
        note(
            f"TheRock multi-arch wheels: built from ROCm's development stream (newer than ROCm {newest}), which the "
            f"amdgpu kernel driver (ROCm {machine.driver_rocm} release) does not support (it supports up to {machine.userspace[-1]})"
        )
        return None
    return TorchChoice(
        route="therock",
        torch="latest",
        rocm=None,
        index_url=wheeldata.therock_index(),
        gfx_extras=tuple(f"device-{g}" for g in machine.gfx),
        reasons=(
            f"pytorch.org builds no wheel with kernels for {', '.join(machine.gfx)}; AMD's multi-arch index "
            "(TheRock, a development stream) builds one per gfx target via the device-gfxNNNN extra",
        ),
        ruled_out=tuple(ruled_out),
    )


def choose_torch(
    machine: Machine, route: str = "auto", requested: Optional[str] = None, needs: Needs = Needs()
) -> TorchChoice:
    """The newest torch build that fits ``machine`` (or ``requested``) and ``needs``, by ``route``
    (``auto``, ``pytorch.org``, ``amd-windows`` or ``therock``).

    Raises :class:`NoChoice` with the reasons and alternatives when nothing fits.
    """
    if route == "pytorch.org":
        found, ruled_out = _pytorch_org(machine, requested, include_test=False, needs=needs)
        if found:
            return found
        raise NoChoice(_refusal(requested, "pytorch.org"), ruled_out, _alternatives(machine))
    if route == "amd-windows" or (route == "auto" and machine.windows):
        choice, ruled_out = _amd_windows(machine, requested, needs)
        if choice:
            return choice
        fallback = _therock(machine, ruled_out) if not requested else None
        if fallback:
            return fallback
        raise NoChoice(_refusal(requested, "AMD Windows"), ruled_out, _alternatives(machine))
    if route == "therock":
        why: List[str] = []
        choice = _therock(machine, [], why)
        if choice:
            return choice
        raise NoChoice("TheRock's multi-arch wheels do not fit this machine", why, _alternatives(machine))
    choice, ruled_out = _pytorch_org(machine, requested, include_test=False, needs=needs)
    if choice:
        return choice
    if not requested:
        fallback = _therock(machine, ruled_out, ruled_out)
        if fallback:
            return fallback
    raise NoChoice(_refusal(requested, "pytorch.org"), ruled_out, _alternatives(machine))


def _refusal(requested: Optional[str], source: str) -> str:
    if requested:
        return f"torch {requested} cannot be installed on this machine from {source}"
    return f"no {source} torch build fits this machine"


def _alternatives(machine: Machine) -> List[str]:
    """Builds that would fit, for the refusal message."""
    found: List[str] = []
    choice, _ = _pytorch_org(machine, None, include_test=False)
    if choice:
        found.append(f"torch {choice.torch} (ROCm {choice.rocm}) from {choice.index_url}")
    if machine.windows:
        win, _ = _amd_windows(machine, None)
        if win:
            found.append(f"AMD Windows torch {win.torch} (ROCm {win.rocm}, Python 3.12)")
    rock = _therock(machine, [])
    if rock:
        found.append(f"TheRock torch[{','.join(rock.gfx_extras)}] from {rock.index_url}")
    return found
