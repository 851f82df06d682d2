"""Derived facts about how the torch in use got there: an install step that replaced a ROCm build,
a torch imported from the user's own site-packages.

Read from pip's and uv's install logs in a paste (:mod:`rocm_doctor.ingest.formats.install_log`) or
from the live gatherer's ``torch.location``.
"""

from __future__ import annotations

import re
from typing import List

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
