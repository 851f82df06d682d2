"""Which PyTorch build this is: one identity, computed in one place for live machines and reports.

Everything that names a torch build goes through :func:`identify`: the version string
(``2.5.1+rocm6.2``), ``torch.version.hip`` / ``torch.version.cuda``, the index it was
installed from (``--index-url https://download.pytorch.org/whl/rocm6.2``), a wheel's file
name or URL (``torch-2.3.0%2Brocm6.0-cp310-...whl``) and a distribution package
(``python-pytorch-rocm 2.3.1-5``). The answer is the build flavour (``rocm``, ``cuda``,
``cpu``, ``xpu``), the ROCm series it was built for, the CUDA version, the distributor and
the channel. The live gatherer (:mod:`rocm_doctor.facts.torch`) and the report reader
(:mod:`rocm_doctor.ingest`) both call it, so a machine and its pasted report agree.

Distributors:

* ``pytorch.org``: ``+rocmX.Y[.Z]``, ``+cuNNN``, ``+cpu``, ``+xpu`` tags and download.pytorch.org
  indexes (https://github.com/pytorch/test-infra/blob/61a77570f45416dc425c17d4a648376541a84732/tools/scripts/generate_binary_build_matrix.py);
* ``amd``: repo.radeon.com and TheRock builds (``+rocm6.4.1.git1ded221d``, ``+rocmsdk20260116``,
  ``2.8.0a0+gitfc14c65`` with a HIP version, rocm.nightlies.amd.com / repo.amd.com indexes;
  https://github.com/ROCm/TheRock/blob/89553ce3746eda74ade42557470d25e37c91b6f0/RELEASES.md);
* ``distro``: a Linux distribution's package (Arch ``python-pytorch-rocm``, Fedora ``python3-torch``);
* ``source``: a ``+git`` build without a HIP version (built from a checkout);
* ``pypi``: no local tag (PyPI's default torch, a CUDA build on Linux x86_64).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Optional
from urllib.parse import unquote

from rocm_doctor.knowledge.torch_static import (
    cuda_version_from_tag,
    distributor as distributor_from_version,
    flavour_from_tag,
    local_tag,
    public_version,
    rocm_version,
)

_PYTORCH_INDEX = re.compile(
    r"download\.pytorch\.org/whl/(?:(nightly|test)/)?(rocm\d+(?:\.\d+){1,2}|cu\d{2,3}|cpu|xpu)\b", re.IGNORECASE
)
_AMD_INDEX = re.compile(
    r"(?:rocm\.nightlies\.amd\.com|repo\.amd\.com/rocm|stable\.repo\.amd\.com/rocm|repo\.radeon\.com/rocm/(?:manylinux|windows)/rocm-rel-(\d+\.\d+(?:\.\d+)?))",
    re.IGNORECASE,
)
NVIDIA_RUNTIME_WHEEL = r"nvidia-(?:cuda-(?:runtime|nvrtc|cupti)|cudnn|cublas|cufft|curand|cusolver|cusparse|nccl|nvtx|nvjitlink)-cu\d{2,3}"
"""NVIDIA's runtime wheels that only pytorch's CUDA builds declare as requirements (nvidia-cublas-cu12 ...;
https://github.com/pytorch/pytorch/blob/v2.5.1/.github/scripts/generate_binary_build_matrix.py): a torch
that requires one, or an environment that holds one, has a CUDA torch in it. A pattern for a name, to be
anchored where it is used."""
_WHEEL = re.compile(r"\btorch-(\d+\.\d+(?:\.\d+)?(?:a\d+|rc\d+|\.dev\d+)*)(?:\+|%2B)([0-9A-Za-z.]+)-cp\d+", re.IGNORECASE)
_NIGHTLY_VERSION = re.compile(r"\.dev\d{8}|\+rocm[\d.]+a\d{8}", re.IGNORECASE)

DISTRO_TORCH_PACKAGES = {
    "python-pytorch-rocm": "rocm",
    "python-pytorch-opt-rocm": "rocm",
    "pytorch-rocm": "rocm",
    "pytorch-opt-rocm": "rocm",
    "python-pytorch-cuda": "cuda",
    "python-pytorch-opt-cuda": "cuda",
    "python-pytorch": "cpu",
    "python-pytorch-opt": "cpu",
    "python3-torch-rocm": "rocm",
    "python3-torch": None,
}
"""Distribution packages of PyTorch and the flavour their name says (None: the name does not say).

Arch: https://archlinux.org/packages/extra/x86_64/python-pytorch-rocm/ (and -opt-, -cuda variants);
Fedora: https://packages.fedoraproject.org/pkgs/python-torch/python3-torch/;
Debian: https://packages.debian.org/sid/python3-torch-rocm.
"""


@dataclass(frozen=True)
class TorchIdentity:
    """What a PyTorch build is, and what said so."""

    version: Optional[str] = None
    flavour: Optional[str] = None
    """``rocm``, ``cuda``, ``cpu`` or ``xpu``; None when nothing said."""
    rocm_version: Optional[str] = None
    """The ROCm series the build targets (``6.2`` of ``+rocm6.2``; ``X.Y`` of the HIP version)."""
    cuda_version: Optional[str] = None
    distributor: Optional[str] = None
    channel: Optional[str] = None
    """``stable``, ``nightly`` or ``test`` when the version or index says."""
    evidence: str = ""
    """What decided the flavour (``version tag``, ``torch.version.hip``, ``index URL`` ...)."""

    @property
    def public_version(self) -> Optional[str]:
        return public_version(self.version) if self.version else None


def from_index_url(url: str) -> TorchIdentity:
    """What a package index URL implies about the torch it serves (empty identity when nothing)."""
    url = unquote(url)
    match = _PYTORCH_INDEX.search(url)
    if match:
        channel = (match.group(1) or "stable").lower()
        tag = match.group(2).lower()
        return TorchIdentity(
            flavour=flavour_from_tag(tag),
            rocm_version=rocm_version(tag, None),
            cuda_version=cuda_version_from_tag(tag),
            distributor="pytorch.org",
            channel=channel,
            evidence="index URL",
        )
    match = _AMD_INDEX.search(url)
    if match:
        channel = "nightly" if "nightlies" in url.lower() else "stable"
        return TorchIdentity(flavour="rocm", rocm_version=match.group(1), distributor="amd", channel=channel, evidence="index URL")
    return TorchIdentity()


def from_wheel(name_or_url: str) -> TorchIdentity:
    """A torch wheel file name or URL (``torch-2.3.0%2Brocm6.0-cp310-cp310-linux_x86_64.whl``)."""
    text = unquote(name_or_url)
    match = _WHEEL.search(text)
    if match is None:
        return TorchIdentity()
    identity = identify(f"{match.group(1)}+{match.group(2)}")
    index = from_index_url(text)
    if index.distributor and identity.distributor is None:
        identity = replace(identity, distributor=index.distributor)
    return replace(identity, channel=identity.channel or index.channel, evidence="wheel name")


@lru_cache(maxsize=1024)
def identify(
    version: Optional[str] = None,
    hip: Optional[str] = None,
    cuda: Optional[str] = None,
    index_url: Optional[str] = None,
    package: Optional[str] = None,
    hip_known: bool = False,
    xpu: Optional[str] = None,
) -> TorchIdentity:
    """The identity of a torch build from whatever is known about it.

    ``hip``/``cuda`` are ``torch.version.hip``/``torch.version.cuda``; ``hip_known`` says they
    were read (both None then means a CPU build). ``package`` is a distribution package name.
    The version's local tag decides first, then ``torch.version``, then the package name,
    then the index.
    """
    tag = local_tag(version) if version else None
    flavour = flavour_from_tag(tag)
    evidence = "version tag" if flavour else ""
    if hip or cuda or xpu:
        # torch.version is what the build itself says: it outranks a local tag (AMD's +git builds have none).
        if hip:
            flavour, evidence = "rocm", "torch.version.hip"
        elif cuda:
            flavour, evidence = "cuda", "torch.version.cuda"
        else:
            flavour, evidence = "xpu", "torch.version.xpu"
    if flavour is None and hip_known and not hip and not cuda:
        flavour, evidence = "cpu", "torch.version.hip and .cuda are None"
    distributor = None
    if package:
        distributor = "distro"
        package_flavour = DISTRO_TORCH_PACKAGES.get(package.lower())
        if flavour is None and package_flavour:
            flavour, evidence = package_flavour, "package name"
    elif version:
        distributor = distributor_from_version(version, hip)
        if distributor is None and tag and tag.startswith("git"):
            distributor = "source"
    index = from_index_url(index_url) if index_url else TorchIdentity()
    if flavour is None and index.flavour:
        flavour, evidence = index.flavour, "index URL"
    if distributor is None and index.distributor and not tag:
        distributor = index.distributor
    rocm = rocm_version(tag, hip) if flavour == "rocm" else None
    if rocm is None and flavour == "rocm":
        rocm = index.rocm_version
    cuda_version = cuda_version_from_tag(tag) or (cuda if cuda else None) or (index.cuda_version if flavour == "cuda" else None)
    channel = index.channel
    if version and _NIGHTLY_VERSION.search(version):
        channel = "nightly"
    elif version and channel is None and distributor == "pytorch.org":
        channel = "stable"
    return TorchIdentity(
        version=version,
        flavour=flavour,
        rocm_version=rocm,
        cuda_version=cuda_version,
        distributor=distributor,
        channel=channel,
        evidence=evidence,
    )
