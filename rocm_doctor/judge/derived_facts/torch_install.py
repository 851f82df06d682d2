"""Derived facts about how the torch in use got there: an install step that replaced a ROCm build,
a torch imported from the user's own site-packages.

Read from pip's and uv's install logs in a paste (:mod:`rocm_doctor.ingest.formats.install_log`) or
from the live gatherer's ``torch.location``.
"""

from __future__ import annotations

import re
from typing import List, Tuple, Union

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.knowledge.torch_static import flavour_from_tag, local_tag

USER_SITE = re.compile(
    r"[\\/]\.local[\\/]lib[\\/]python\d+\.\d+[\\/]site-packages"
    r"|AppData[\\/]Roaming[\\/]Python[\\/]Python\d+[\\/]site-packages"
    r"|[\\/]Library[\\/]Python[\\/]\d+\.\d+[\\/]lib[\\/]python[\\/]site-packages",
    re.IGNORECASE,
)
"""Python's per-user site-packages folders (site.USER_SITE on Linux, Windows, macOS:
https://docs.python.org/3.12/library/site.html#site.USER_SITE)."""


def _removed_torch(facts: Facts) -> List[str]:
    earlier = facts.symptoms.earlier
    if not earlier.is_known:
        return []
    return [str(item).partition("=")[2] for item in earlier.value or [] if str(item).startswith("torch.version=")]


def _not_rocm(facts: Facts) -> Fact:
    """Whether the torch in use now is known not to be a ROCm build: its flavour says so, or its version
    carries no local tag at all (every ROCm wheel index tags its builds: +rocm6.2, +rocm7.14.0a..., +rocmsdk...)."""
    version = facts.torch.version
    if not version.is_known or not version.value:
        return unknown(version.reason or "the torch in use now is not known")
    if facts.torch.flavour.is_known:
        return known(facts.torch.flavour.value != "rocm", facts.torch.flavour.source or "torch.flavour")
    tag = local_tag(str(version.value))
    if tag is None:
        return known(True, version.source or "torch.version")
    flavour = flavour_from_tag(tag)
    if flavour is None:
        # +git... is a source build or one of AMD's (their Windows previews carry no rocm tag): undecided.
        return unknown(f"the local tag +{tag} does not say which build torch {version.value} is")
    return known(flavour != "rocm", version.source or "torch.version")


@machine_fact(
    "rocm_torch_replaced",
    "An install step the report shows removed a ROCm build of torch (pip's 'Found existing installation: "
    "torch 2.4.0+rocm6.1', uv's '- torch==...+rocm6.2') and the torch in use now is not a ROCm build "
    "(another flavour, or a version without any local tag, which no ROCm wheel index publishes), as "
    "'removed -> now'; absent when no ROCm torch was removed.",
)
def rocm_torch_replaced(facts: Facts, tables: Tables) -> Fact:
    removed = [v for v in _removed_torch(facts) if flavour_from_tag(local_tag(v)) == "rocm"]
    source = facts.symptoms.earlier.source or "paste"
    if not removed:
        return absent(source, "the report shows no ROCm torch being removed")
    not_rocm = _not_rocm(facts)
    if not not_rocm.is_known:
        return not_rocm
    if not not_rocm.value:
        return absent(source, "the torch in use now is a ROCm build")
    return known(f"{removed[-1]} -> {facts.torch.version.value}", source)


@machine_fact(
    "torch_from_user_site",
    "The folder torch is imported from is the user's own site-packages (~/.local/lib/pythonX.Y/site-packages, "
    "%APPDATA%\\Python\\PythonXY\\site-packages), which Python puts on sys.path ahead of the interpreter's "
    "site-packages unless -s or PYTHONNOUSERSITE is used (https://docs.python.org/3.12/library/site.html); "
    "absent for any other folder.",
)
def torch_from_user_site(facts: Facts, tables: Tables) -> Fact:
    location = facts.torch.location
    if not location.is_known or not location.value:
        return unknown(location.reason or "where torch is imported from is not known")
    if USER_SITE.search(str(location.value)) is None:
        return absent(location.source or "torch.location", "torch is not in the user's site-packages")
    return known(str(location.value), location.source or "torch.location")


@machine_fact(
    "untagged_companions_beside_rocm_torch",
    "torchvision/torchaudio versions without any local tag next to a torch wheel tagged +rocm: every ROCm "
    "wheel index tags its torchvision and torchaudio too (+rocm6.2, +rocm6.3.4.git..., +rocm7.14...), so an "
    "untagged one is PyPI's, built against PyPI's torch (CUDA on Linux, CPU on Windows), as 'name version'; "
    "absent when there is none or torch is not a tagged ROCm wheel.",
)
def untagged_companions_beside_rocm_torch(facts: Facts, tables: Tables) -> Fact:
    version = facts.torch.version
    if not version.is_known or not version.value:
        return unknown(version.reason or "the torch version is not known")
    if flavour_from_tag(local_tag(str(version.value))) != "rocm":
        return absent(version.source or "torch.version", "torch is not a wheel tagged +rocm")
    found = []
    for name, companion in (("torchvision", facts.torch.torchvision_version), ("torchaudio", facts.torch.torchaudio_version)):
        if companion.is_known and companion.value and local_tag(str(companion.value)) is None:
            found.append(f"{name} {companion.value}")
    if not found:
        return absent(version.source or "torch.version", "no untagged torchvision or torchaudio is shown")
    return known(", ".join(found), facts.torch.torchvision_version.source or facts.torch.torchaudio_version.source or "paste")


GPU_FLAVOURS = ("rocm", "cuda", "xpu")
"""Builds whose compiled parts link a GPU backend library of torch's own build (libtorch_hip.so and
libc10_hip.so, libtorch_cuda.so and libc10_cuda.so, libtorch_xpu.so): such a torchvision or torchaudio
does not load beside a torch of another build. A CPU companion links only libtorch_cpu.so and is left to
RD141 (torchvision) or not judged (torchaudio)."""


def _companion_flavour(version: Fact, flavour: Fact) -> str:
    """A companion's build: its flavour fact when read, else the one its version's local tag names."""
    if flavour.is_known and flavour.value:
        return str(flavour.value)
    if version.is_known and version.value:
        return flavour_from_tag(local_tag(str(version.value))) or ""
    return ""


LEFT_TO_FLAVOUR_RULES = ("cuda", "cpu", "xpu")
"""A companion's read flavour that RD141 (torchvision) or RD142 (torchaudio) judge beside a ROCm torch
(``torch.torchvision_flavour`` / ``torch.torchaudio_flavour`` in these): the derived facts below leave such a
companion to them, so one mismatched companion is one finding."""


def _another_gpu_build(facts: Facts) -> Union[Fact, List[Tuple[str, str, str, str]]]:
    """The companions of another GPU build than torch as (name, version, build, source), or the Fact to
    return when there are none (absent) or torch's build is not known (unknown)."""
    torch = facts.torch
    if not torch.flavour.is_known or not torch.flavour.value:
        return unknown(torch.flavour.reason or "which build torch is, is not known")
    mine = str(torch.flavour.value)
    found = []
    for name, version, flavour in (
        ("torchvision", torch.torchvision_version, torch.torchvision_flavour),
        ("torchaudio", torch.torchaudio_version, torch.torchaudio_flavour),
    ):
        other = _companion_flavour(version, flavour)
        if other not in GPU_FLAVOURS or other == mine:
            continue
        if mine == "rocm" and flavour.is_known and flavour.value in LEFT_TO_FLAVOUR_RULES:
            continue  # RD141 (torchvision) / RD142 (torchaudio) name it
        found.append((name, str(version.value), other, version.source or flavour.source or "paste"))
    if not found:
        return absent(torch.flavour.source or "torch.flavour", "no torchvision or torchaudio of another GPU build is shown")
    return found


@machine_fact(
    "companions_of_another_gpu_build",
    "torchvision/torchaudio built for another GPU backend than the torch beside it (torch 1.10.0+cu111 with "
    "torchaudio 0.10.0+rocm4.1; torch 2.5.1+cpu with torchvision 0.20.1+rocm6.2): their extension links the "
    "backend libraries of its own torch build (libtorch_hip.so, libtorch_cuda.so), which this torch does "
    "not carry, as 'name version (build)'. A companion beside a ROCm torch whose read flavour is CUDA, CPU "
    "or XPU is left out (RD141 names torchvision, RD142 torchaudio); absent when every companion shown "
    "matches or is a CPU build.",
)
def companions_of_another_gpu_build(facts: Facts, tables: Tables) -> Fact:
    found = _another_gpu_build(facts)
    if isinstance(found, Fact):
        return found
    return known(", ".join(f"{name} {version} ({other})" for name, version, other, _ in found), found[0][3])


@machine_fact(
    "companion_names_of_another_gpu_build",
    "The names (torchvision, torchaudio) of the companions derived.companions_of_another_gpu_build names, "
    "as a list: the packages its fix reinstalls; absent or unknown as that fact is.",
)
def companion_names_of_another_gpu_build(facts: Facts, tables: Tables) -> Fact:
    found = _another_gpu_build(facts)
    if isinstance(found, Fact):
        return found
    return known([name for name, _, _, _ in found], found[0][3])


@machine_fact(
    "torch_build_in_place_not_shown",
    "Whether the report leaves open which torch build is in place: true when no torch build is read "
    "(torch.flavour unknown, absent or failed) or the only ROCm build read is one asked for "
    "(torch.flavour_evidence 'intended': an install command's index, an image's tag), which a later install "
    "step may have replaced (meizhong986/WhisperJAV#120, MrForExample/ComfyUI-AnimateAnyone-Evolved#22, "
    "ROCm/pytorch#1533, pypa/pip#12902); false for a build shown or stated, and for a CPU, CUDA or XPU build "
    "asked for (judged as such: RD101, RD100/RD528); unknown when a ROCm build's evidence is not known.",
)
def torch_build_in_place_not_shown(facts: Facts, tables: Tables) -> Fact:
    flavour, evidence = facts.torch.flavour, facts.torch.flavour_evidence
    if flavour.status in ("unknown", "absent", "failed"):
        return known(True, flavour.source or "torch.flavour")
    if flavour.value != "rocm":
        return known(False, flavour.source or "torch.flavour")
    if evidence.status in ("unknown", "failed"):
        return unknown(evidence.reason or "what showed the ROCm build is not known")
    return known(evidence.is_known and evidence.value == "intended", evidence.source or flavour.source or "torch.flavour_evidence")


BUILD_DATE = re.compile(r"(?:\.dev|rc|a|sdk)(20\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))(?!\d)", re.IGNORECASE)
"""The date a nightly or per-run build carries in its version: pytorch.org nightlies in the public
version (``2.6.0.dev20241014+rocm6.2``), TheRock and AMD's Windows wheels in the local tag
(``+rocm7.0.0rc20250815``, ``+rocm7.14.0a20260521``, ``+rocmsdk20260116``)."""


def build_date(version: str) -> str:
    """The build date a torch, torchvision or torchaudio version carries (``20241014``), or ``""``."""
    found = BUILD_DATE.search(version)
    return found.group(1) if found else ""


@machine_fact(
    "companions_of_another_build_date",
    "torchvision/torchaudio whose version carries another build date than the torch beside it (torch "
    "2.9.0a0+rocm7.0.0rc20250812 with torchvision 0.24.0a0+rocm7.0.0rc20250815; 2.6.0.dev20241014 with "
    "0.20.0.dev20241015): a nightly's companions are built against, and pin, the torch of their own run, "
    "as 'name version'; absent when none differs or a version carries no date.",
)
def companions_of_another_build_date(facts: Facts, tables: Tables) -> Fact:
    version = facts.torch.version
    if not version.is_known or not version.value:
        return unknown(version.reason or "the torch version is not known")
    torch_date = build_date(str(version.value))
    if not torch_date:
        return absent(version.source or "torch.version", "the torch version carries no build date")
    found = []
    for name, companion in (("torchvision", facts.torch.torchvision_version), ("torchaudio", facts.torch.torchaudio_version)):
        date = build_date(str(companion.value)) if companion.is_known and companion.value else ""
        if date and date != torch_date:
            found.append(f"{name} {companion.value}")
    if not found:
        return absent(version.source or "torch.version", "no torchvision or torchaudio of another build date is shown")
    return known(", ".join(found), facts.torch.torchvision_version.source or facts.torch.torchaudio_version.source or "paste")


RELEASE_VERSION = re.compile(r"^\d{1,2}\.\d{1,3}\.\d{1,3}$")
"""A final release without a local tag (``2.4.0``): no ``+rocm6.1``/``+cu121``/``+cpu``, no ``a0``/``.dev``
(pre-releases are source builds or nightlies, which this says nothing about)."""

UNTAGGED_PRINTED = (
    "torch_release_untagged_printed",
    "torch_release_untagged_freeze",
    "torch_release_untagged_pip_show",
    "torch_release_untagged_repl",
    "torch_release_untagged_collect_env",
)
"""Context signatures (rules/data/signatures.yaml, block h28u) for a tool's output that shows the untagged
version: a version retold in prose often drops its tag, so only these count."""

NOT_FROM_PYPI_FOLDERS = re.compile(
    r"^/usr/lib(?:64)?/python3[\d.]*/(?:site|dist)-packages|/nix/store/|conda|mamba|miniforge",
    re.IGNORECASE,
)
"""Folders whose torch may come from a distribution or conda package, which print a release without a
local tag whatever the build (Arch python-pytorch-rocm, Fedora python3-torch, Debian python3-torch-rocm
under /usr/lib; Nix under /nix/store; conda-forge's pytorch, ROCm builds included, in a conda env).
/usr/local/lib/python3.X/dist-packages is where pip itself installs on Debian and Ubuntu: not listed."""

DISTROS_SHIPPING_TORCH = frozenset(
    {"arch", "manjaro", "endeavouros", "cachyos", "garuda", "artix", "fedora", "nobara", "gentoo", "nixos", "debian"}
)
"""os-release IDs of distributions that package a torch of their own, ROCm builds included, whose version
carries no tag: Arch and its derivatives (python-pytorch-rocm, https://archlinux.org/packages/extra/x86_64/python-pytorch-rocm/),
Fedora (python3-torch, https://packages.fedoraproject.org/pkgs/python-torch/python3-torch/), Gentoo
(its pytorch/caffe2 ebuilds with USE=rocm), NixOS
(python3Packages.torchWithRocm) and Debian (python3-torch-rocm, https://packages.debian.org/sid/python3-torch-rocm).
On these, a torch not shown in a pip-managed folder may be the distribution's."""

_PYPI_BUILD = {"linux": "cuda", "windows": "cpu"}
"""The build PyPI's torch wheel is on each platform: CUDA on Linux (its metadata requires NVIDIA's
nvidia-*-cu12 runtime wheels there), CPU-only on Windows (https://pypi.org/project/torch/2.4.0/#files;
https://github.com/pytorch/pytorch/blob/v2.4.0/RELEASE.md, "Release Compatibility Matrix"). macOS has no
AMD GPU build to be missing, so it is not judged."""


@machine_fact(
    "untagged_torch_build",
    "The build of a torch whose version a tool printed as a plain release without a local tag (2.4.0, not "
    "2.4.0+rocm6.1), where nothing shows another source than PyPI: 'cuda' on Linux, 'cpu' on Windows "
    "(PyPI's wheels; every ROCm wheel index tags its builds). Unknown where the torch may be a distribution "
    "or conda package (which carry no tag: /usr/lib/python3*/site-packages, /nix/store, a conda env, a "
    "distribution's torch package in the report) or the platform is not known; absent when the version "
    "carries a tag or is a pre-release, or the report shows the flavour itself.",
)
def untagged_torch_build(facts: Facts, tables: Tables) -> Fact:
    version = facts.torch.version
    if not version.is_known or not version.value:
        return unknown(version.reason or "the torch version is not known")
    source = version.source or "torch.version"
    if not RELEASE_VERSION.match(str(version.value)):
        return absent(source, "the torch version carries a local tag or is a pre-release")
    if facts.torch.flavour.is_known:
        return absent(facts.torch.flavour.source or source, "the report shows which build torch is")
    context = facts.symptoms.context
    printed = context.is_known and any(name in (context.value or []) for name in UNTAGGED_PRINTED)
    if not printed:
        return unknown("no tool's output in the report shows the untagged version (prose often drops the tag)")
    if "torch_not_from_pypi_said" in (context.value or []):
        return unknown("the report names a torch that PyPI did not build (a distribution's or conda's package, a source build)")
    if facts.torch.distributor.is_known and facts.torch.distributor.value in ("distro", "source"):
        return unknown(f"torch is a {facts.torch.distributor.value} build, which carries no tag")
    if facts.python.env_kind.is_known and facts.python.env_kind.value == "conda":
        return unknown("torch is in a conda environment, where conda's own torch packages carry no tag")
    for where in (facts.torch.location, facts.python.executable, facts.python.prefix):
        if where.is_known and where.value and NOT_FROM_PYPI_FOLDERS.search(str(where.value)):
            return unknown(f"torch may be a distribution or conda package ({where.value}), which carries no tag")
    distro = facts.host.distro_id
    in_pip_folder = facts.torch.location.is_known and bool(facts.torch.location.value)
    # a torchvision or torchaudio tagged +rocm beside it came from a ROCm wheel index, not a distribution:
    # pip manages this environment
    rocm_companion = any(
        companion.is_known and companion.value and flavour_from_tag(local_tag(str(companion.value))) == "rocm"
        for companion in (facts.torch.torchvision_version, facts.torch.torchaudio_version)
    )
    if not (in_pip_folder or rocm_companion) and distro.is_known and str(distro.value).lower() in DISTROS_SHIPPING_TORCH:
        return unknown(f"{distro.value} packages a torch of its own, which carries no tag, and the report does not show where torch is")
    os_fact = facts.host.os
    if not os_fact.is_known:
        return unknown(os_fact.reason or "the operating system is not known")
    build = _PYPI_BUILD.get(str(os_fact.value))
    if build is None:
        return absent(os_fact.source or "host.os", f"PyPI's torch on {os_fact.value} is not judged")
    return known(build, source)
