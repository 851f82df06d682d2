"""Distribution package listings that name ROCm, PyTorch or the amdgpu driver, with their versions.

Recognised in every listing people paste and in prose, by the package names in
``rules/data/distro_packages.yaml``:

* ``dpkg -l``: ``ii  rocm-core  6.2.0.60200-66~22.04  amd64  ...``;
* ``apt list --installed``: ``rocm-core/jammy,now 6.2.0.60200-66~22.04 amd64 [installed]``;
* ``dnf list installed`` / ``yum``: ``rocm-runtime.x86_64  6.1.2-1.fc40  @updates``;
* ``rpm -qa``: ``rocm-runtime-6.1.2-1.fc40.x86_64``;
* ``pacman -Q``: ``python-pytorch-rocm 2.3.1-5``; prose: ``I use pytorch-opt-rocm with 2.0.1-3``;
* ``apt show`` / ``apt info`` / ``apt-cache show`` / ``dpkg -s`` records (``Package: rocm-libs`` then
  ``Version: 6.2.2.60202-116~22.04``) and ``yum info`` / ``dnf info`` records (``Name : rocm-libs``,
  ``Version : 2.1.96``, ``Release : 1``): :func:`_records`;
* Nix store paths and names, ``name-version``: ``/nix/store/<hash>-rocm-runtime-5.7.2/lib``, ``a recent
  rocm-runtime-5.7.2,`` (https://nix.dev/manual/nix/2.24/store/store-path: ``<hash>-<name>``, and
  nixpkgs names a package ``pname-version``).

The version is cut to the upstream release (``6.2.0.60200-66~22.04`` -> ``6.2.0``).

``conda list`` rows of PyTorch's conda packages (and collect_env's ``[conda]`` copies of them) name the
build in their build string: ``pytorch  2.0.1  py3.10_cuda11.8_cudnn8.7.0_0  pytorch``, ``pytorch  1.11.0
py3.8_cpu_0  pytorch``, and the variant package ``pytorch-mutex  1.0  cpu  pytorch``
(:data:`CONDA_BUILD_FLAVOURS`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Dict, List, Optional, Pattern, Tuple

from rocm_doctor.data import load_table
from rocm_doctor.errors import InputError
from rocm_doctor.ingest.blocks import Block
from rocm_doctor.ingest.formats.common import identity_observations, make_piece
from rocm_doctor.ingest.model import TRUST_PROSE, TRUST_TEMPLATE, TRUST_TOOL, Observation, Piece
from rocm_doctor.knowledge._tables import need_rows, where
from rocm_doctor.knowledge.torch_identity import identify
from rocm_doctor.lazy_regex import when_used

TABLE = "distro_packages"
FACTS = ("rocm", "rocm-component", "torch", "amdgpu-dkms")
NAMED_KIND = "package-names"
"""Piece kind of ``name-version`` mentions (a loose reading, like prose: ingest's SOFT_KINDS)."""
_VERSION = r"(?:\d+:)?(?P<version>\d+\.\d+(?:\.\d+)?)(?P<rest>[0-9A-Za-z.~+_:-]*)"
_AMD_BUILD = when_used(r"^(?:\.\d+)*?\.([1-9])(\d\d)(\d\d)(?=[-~+]|$)")
"""AMD's packages end their version with the ROCm release as a five-digit build number
(``rocminfo 1.0.0.60200-66~22.04``, ``hip-runtime-amd 6.2.41133.60200-66~22.04``: ROCm 6.2.0),
whatever the component's own version (https://repo.radeon.com/rocm/apt/6.2/dists/jammy/main/binary-amd64/Packages)."""


@lru_cache(maxsize=1)
def table() -> Dict[str, str]:
    """Package name -> what its version tells (rocm, torch, amdgpu-dkms)."""
    data = load_table(TABLE)
    rows = need_rows(data.get("packages") if isinstance(data, dict) else None, TABLE, "packages")
    out: Dict[str, str] = {}
    for index, row in enumerate(rows):
        if not row.get("name") or row.get("fact") not in FACTS:
            raise InputError(f"{where(TABLE, f'packages[{index}]')} needs name and fact ({', '.join(FACTS)})")
        out[str(row["name"])] = str(row["fact"])
    return out


@lru_cache(maxsize=1)
def _nix_pattern() -> Pattern[str]:
    """``name-version`` as Nix spells a package (a store path's tail, or the name people quote): the
    version ends at a path separator, space or punctuation, so an rpm file name (``-1.fc40.x86_64``)
    is not read twice."""
    names = "|".join(re.escape(n) for n in sorted(table(), key=len, reverse=True))
    return re.compile(
        rf"(?:/nix/store/[0-9a-z]{{32}}-|(?<![\w./-]))(?P<name>{names})-(?P<version>\d+\.\d+(?:\.\d+)?)(?=[/\s,;:)'\"`]|\.(?:\s|$)|$)",
        re.IGNORECASE,
    )


@lru_cache(maxsize=1)
def _patterns() -> Tuple[Pattern[str], Pattern[str]]:
    names = "|".join(re.escape(n) for n in sorted(table(), key=len, reverse=True))
    listing = re.compile(
        rf"^[^\S\n]*(?:ii\s+|i\s+)?(?P<name>{names})(?:/\S+|\.(?:x86_64|noarch|aarch64))?\s+(?:version\s+|with\s+|v)?{_VERSION}(?:\s|$)",
        re.MULTILINE,
    )
    rpm = re.compile(rf"(?<![\w.-])(?P<name>{names})-(?P<version>\d+\.\d+(?:\.\d+)?)(?P<rest>(?:\.\d+)*)-[\w.]+\.(?:x86_64|noarch|aarch64)\b")
    prose = re.compile(rf"(?<![\w/.-])(?P<name>{names})\s+(?:version\s+|with\s+|v|=\s*)?{_VERSION}", re.IGNORECASE)
    return listing, re.compile(f"{rpm.pattern}|{prose.pattern.replace('?P<name>', '?P<name2>').replace('?P<version>', '?P<version2>').replace('?P<rest>', '?P<rest2>')}", re.IGNORECASE)


def _rocm_release(version: str, rest: str) -> str:
    """The ROCm release a package version stands for: AMD's build number when the version has one."""
    build = _AMD_BUILD.match(rest or "")
    if build:
        return f"{build.group(1)}.{int(build.group(2))}.{int(build.group(3))}"
    return version


def _observations(name: str, version: str, rest: str, line, trust: int) -> List[Observation]:
    fact = table().get(name.lower()) or table().get(name)
    if fact == "rocm":
        return [Observation("rocm.version", _rocm_release(version, rest), line, trust)]
    if fact == "rocm-component":
        # AMD's repositories version these by component (rocminfo 1.0.0, hsa-rocr 1.14.0); distributions
        # by ROCm release (Arch's rocminfo 6.2.4): a version below 3 is a component's
        release = _rocm_release(version, rest)
        return [Observation("rocm.version", release, line, trust)] if release != version or int(version.split(".")[0]) >= 3 else []
    if fact == "torch":
        return identity_observations(identify(version, package=name.lower()), line, trust)
    if fact == "amdgpu-dkms":
        return [Observation("driver.amdgpu_version", version, line, trust)]
    return []


_RECORD_NAME = when_used(r"^[^\S\n]{0,4}(?:Package|Name)[^\S\n]{0,16}:[^\S\n]{0,4}(?P<name>[\w.+-]{1,64})[^\S\n]{0,8}$")
_RECORD_VERSION = when_used(rf"^[^\S\n]{{0,4}}Version[^\S\n]{{0,16}}:[^\S\n]{{0,4}}{_VERSION}[^\S\n]{{0,8}}$")
_RECORD_END = when_used(r"^[^\S\n]{0,4}(?:Package|Name)[^\S\n]{0,16}:|^\s*$")
_DPKG_NOT_INSTALLED = when_used(r"^[^\S\n]{0,4}(?:[uhrp][nc]|ic|[uihrp][HUFW])R?[^\S\n]{1,8}\S")
"""A ``dpkg -l`` row whose state letter is not ``i`` (``rc``: removed, configuration files left; ``un``: not installed;
``iU``/``iF``: unpacked or half-configured): that version is not in place. (Not "in" or "it": prose opens with them.)"""
_RECORD_STATUS = when_used(r"^[^\S\n]{0,4}Status[^\S\n]{0,16}:[^\S\n]{0,4}\S{1,20}[^\S\n]{1,4}\S{1,20}[^\S\n]{1,4}(?P<state>[\w-]{1,30})")
"""dpkg's ``Status:`` field (``dpkg -s``): want, error flag and state; only the state ``installed`` is a package in
place ("deinstall ok config-files" is a removed package whose configuration files remain)."""
_SECTION = when_used(r"^[^\S\n]{0,4}(?P<which>installed|available|upgrad\w{0,6}|extra|obsoleting|recently\s{1,4}added)[^\S\n]{1,4}packages?[^\S\n]{0,4}:?[^\S\n]{0,4}$", re.IGNORECASE)
"""yum's and dnf's section headers in ``info`` and ``list`` output: only the records under "Installed Packages"
are installed; "Available Packages" lists what the repositories offer."""
RECORD_LINES = 16
"""How far a record's ``Version:`` field may follow its ``Package:``/``Name:`` field (apt show puts it next,
yum info third, after ``Arch``); the look-ahead is bounded so the reader stays linear."""


def _records(block: Block, seen: set) -> List[Observation]:
    """A package's version from a record that gives name and version on their own lines: ``apt show
    rocm-libs -a`` and ``apt info`` print Debian control fields (``Package:``, ``Version:``; AMD's docs
    give it as the way to read the installed ROCm release, and reports paste it: ROCm/legacy-rocm-build#419,
    ROCm/ROCm#511, ROCm/ROCm#3246), ``yum info rocm-libs`` prints ``Name :``, ``Version :`` (the
    upstream version) and ``Release :`` (legacy-rocm-build#419)."""
    out: List[Observation] = []
    lines = block.lines
    known = table()
    offered = False  # under yum's or dnf's "Available Packages" header (or another that is not "Installed")
    for index, line in enumerate(lines):
        section = _SECTION.match(line.text)
        if section:
            offered = not section.group("which").lower().startswith("installed")
            continue
        head = _RECORD_NAME.match(line.text)
        if head and offered:
            continue
        # pip show prints the same two fields for torch (pip_show.py reads it): distribution packages only.
        if not head or line.number in seen or known.get(head.group("name").lower(), known.get(head.group("name"))) in (None, "torch"):
            continue
        for follow in lines[index + 1 : index + 1 + RECORD_LINES]:
            status = _RECORD_STATUS.match(follow.text)
            if status and status.group("state").lower() != "installed":
                break
            field = _RECORD_VERSION.match(follow.text)
            if field:
                seen.add(follow.number)
                out += _observations(head.group("name"), field.group("version"), field.group("rest"), follow, TRUST_TOOL)
                break
            if _RECORD_END.match(follow.text):
                break
    return out


_CONDA_ROW = when_used(
    r"^[^\S\n]{0,8}(?:\[conda\][^\S\n]{1,8})?(?P<name>pytorch|pytorch-mutex)[^\S\n]{1,60}\d{1,3}\.\d{1,3}(?:\.\d{1,3})?"
    r"[^\S\n]{1,60}(?P<build>[A-Za-z0-9_.]{1,80})(?:[^\S\n]{1,60}[\w./:-]{1,80})?[^\S\n]{0,8}$",
    re.MULTILINE,
)
"""A ``conda list`` row (name, version, build string, channel) of PyTorch's conda package or its variant package."""
CONDA_BUILD_FLAVOURS = (
    (when_used(r"(?:^|_)cu(?:da)?\d"), "cuda"),
    (when_used(r"(?:^|_)cpu(?:_|$)"), "cpu"),
)
"""The build a conda build string names. PyTorch's conda channel builds ``py{python}_cuda{CUDA}_cudnn{cuDNN}_{n}``
and ``py{python}_cpu_{n}`` (pytorch/builder conda/build_pytorch.sh,
https://github.com/pytorch/builder/blob/5cc0640848960f188c5e27028b557b9658b65594/conda/build_pytorch.sh), and its
``pytorch-mutex`` package's build string is the variant itself (``cpu`` / ``cuda``). Reports show the rows:
meta-pytorch/data#315 (``pytorch 1.11.0 py3.8_cpu_0`` beside ``py3.8_cuda11.3_cudnn8.2.0_0``),
pytorch/pytorch#32369 (a CUDA install that gave ``cpuonly``), conda/conda#11001 (``pytorch-1.10.0-py3.6_cpu_0``).
No conda channel of PyTorch has published ROCm builds (pytorch/pytorch.github.io#585, #1096: "Conda packages
are not currently available for ROCm, please use pip instead"), so a build string names no ROCm build and a
``pypi_0`` row (pip's torch listed by conda) names none.

The companions' conda builds name the build the same way, with ``cu`` for CUDA: PyTorch's channel builds
``py{python}_cu{CUDA}`` and ``py{python}_cpu`` (``torchaudio 2.0.2 py38_cpu pytorch``, DCASE-REPO/DESED_task#81), Anaconda's defaults channel
``cuda{CUDA}py{python}h{hash}_{n}`` (``torchvision 0.15.2 cuda118py39h196c800_0``, verm/freebsd-stable-diffusion#7)
and conda-forge ``cuda{CUDA}_py{python}h{hash}_{n}`` / ``cpu_py{python}h{hash}_{n}`` (``pytorch 1.13.1
cpu_py38haaa41f7_0``, pytorch/audio#3335). A build string without either (``py_3``: pytorch/pytorch#27745's
``[conda] torchvision 0.2.2 py_3 pytorch``; ``pypi_0``) names no build: :func:`conda_build_flavour` gives None."""


def conda_build_flavour(build: str) -> Optional[str]:
    """The build (``cuda`` / ``cpu``) a conda build string names, or None (:data:`CONDA_BUILD_FLAVOURS`)."""
    return next((name for pattern, name in CONDA_BUILD_FLAVOURS if pattern.search(build)), None)


def _conda_flavours(block: Block) -> List[Observation]:
    out: List[Observation] = []
    for match, line in block.scan(_CONDA_ROW):
        flavour = conda_build_flavour(match.group("build"))
        if flavour:
            # What conda installed, which a pip-installed torch in the same environment may shadow: the
            # torch the interpreter imports (collect_env's "PyTorch version", pip's listing) decides first.
            out.append(Observation("torch.flavour", flavour, line, TRUST_TEMPLATE))
    return out


def parse(block: Block) -> List[Piece]:
    lowered = block.lower
    if "rocm" not in lowered and "torch" not in lowered and "amdgpu-dkms" not in lowered and "hip" not in lowered and "hsa" not in lowered:
        return []
    listing, loose = _patterns()
    out: List[Observation] = []
    lines = []
    seen = set()
    for match, line in block.scan(listing):
        seen.add(line.number)
        out += _observations(match.group("name"), match.group("version"), match.group("rest"), line, TRUST_TOOL)
        lines.append(line)
    named: List[Observation] = []
    named_lines = []
    for match, line in block.scan(loose):
        if line.number in seen:
            continue
        if _DPKG_NOT_INSTALLED.match(line.text):
            seen.add(line.number)
            continue
        seen.add(line.number)
        if match.group("name2"):
            # a package named in a sentence ("Getting \"amdgpu-dkms 1:6.8.5...: ... failed to build\""): a loose
            # mention like the names below, not a listing; as one piece with a listing further down the block it
            # spanned the prose between them, and the mentions read there were dropped as inside a tool's output
            named += _observations(match.group("name2"), match.group("version2"), match.group("rest2") or "", line, TRUST_PROSE)
            named_lines.append(line)
            continue
        out += _observations(match.group("name"), match.group("version"), match.group("rest") or "", line, TRUST_TOOL)
        lines.append(line)
    records = _records(block, seen) if "version" in lowered else []
    out += records
    lines += [o.line for o in records]
    for match, line in block.scan(_nix_pattern()):
        if line.number in seen:
            continue
        named += _observations(match.group("name"), match.group("version"), "", line, TRUST_PROSE)
        named_lines.append(line)
    conda = _conda_flavours(block) if "pytorch" in lowered else []
    pieces = [make_piece("distro-packages", lines, out)] if out else []
    pieces += [make_piece("conda-list", [o.line for o in conda], conda)] if conda else []
    # A name quoted in prose is a loose mention: it must not hide other readings of its line.
    return pieces + ([make_piece(NAMED_KIND, named_lines, named)] if named else [])
