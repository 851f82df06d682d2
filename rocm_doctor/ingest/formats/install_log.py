"""pip's and uv's install logs: what an install step removed, kept and put in place.

* pip: ``Found existing installation: torch 2.4.0+rocm6.1``, ``Uninstalling torch-2.4.0+rocm6.1:``,
  ``Successfully uninstalled torch-2.4.0+rocm6.1`` (removed: an earlier state, never the machine
  now); ``Successfully installed filelock-3.9.0 torch-2.3.1`` (what is installed now);
  ``Requirement already satisfied: torch in C:\\Users\\me\\AppData\\Roaming\\Python\\Python312\\site-packages
  (from -r requirements.txt (line 4)) (2.4.1)`` (kept, with the folder it is imported from);
* pip, ``Collecting torch>=1.1.0 (from torchvision)`` followed by the wheel it fetches
  (``Downloading https://files.pythonhosted.org/.../torch-1.1.0-cp36-cp36m-manylinux1_x86_64.whl``): torch
  pulled in by another package's requirement, from an index without ROCm builds when the wheel has no
  ROCm tag (context ``torch_pulled_by_dependency``); torch itself, or from a requirements file
  (``Collecting torch (from -r requirements.txt (line 4))``), fetched as a wheel that is not a ROCm
  build (context ``torch_wheel_not_rocm_fetched``); so is a fetch line naming such a torch wheel without
  ``Collecting torch`` right above it (pip >= 23 fetches ``….whl.metadata`` first and the wheel after
  resolving; launchers print part of pip's output). Whether a wheel is a ROCm build is read from its
  file name: the local tag, else the platform tag (PyPI's file is the CUDA build on Linux x86_64 and the CPU
  build on Windows; macOS and aarch64 are not judged: ``rules/data/torch_pypi_wheels.yaml``);
* uv, after ``Installed 3 packages in 1.2s`` / ``Uninstalled 1 package in 20ms``: `` - torch==2.5.1+rocm6.2``
  (removed) and `` + torch==2.6.0`` (installed).

Only torch and its companions (torchvision, torchaudio, triton) become facts: an install log names
the packages one command touched, not everything installed, so it never says what is missing.
Messages: pip's ``src/pip/_internal/req/req_install.py`` and ``commands/install.py``, uv's install
summary (sources in :data:`SOURCES`).
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Set, Tuple
from urllib.parse import unquote

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.collect_env import companion_observations
from rocm_doctor.ingest.formats.common import make_piece, torch_version_observations
from rocm_doctor.ingest.model import TRUST_PROSE, TRUST_TOOL, Observation, Piece
from rocm_doctor.knowledge.torch_identity import from_index_url
from rocm_doctor.knowledge.torch_wheel_files import WheelBuild, wheel_build
from rocm_doctor.knowledge.torch_static import flavour_from_tag, local_tag
from rocm_doctor.lazy_regex import when_used

SOURCES = (
    "https://github.com/pypa/pip/blob/24.2/src/pip/_internal/commands/install.py",
    "https://github.com/pypa/pip/blob/24.2/src/pip/_internal/req/req_install.py",
    "https://github.com/pypa/pip/blob/24.2/src/pip/_internal/req/req_uninstall.py",
    "https://github.com/astral-sh/uv/blob/0.5.0/crates/uv/src/commands/pip/operations.rs",
)

_NAME = r"[A-Za-z0-9][A-Za-z0-9._-]*"
_REMOVED = when_used(
    rf"^\s*(?:Found existing installation:\s+(?P<name>{_NAME})\s+(?P<version>\d\S*?)"
    rf"|(?:Uninstalling|Successfully uninstalled)\s+(?P<pair>{_NAME}-\d\S*?)):?\s*$"
)
_INSTALLED = when_used(r"^\s*Successfully installed\s+(?P<list>\S.*?)\s*$")
_SATISFIED = when_used(rf"^\s*Requirement already satisfied:\s+(?P<name>{_NAME})(?:\[[^\]\n]*\])?(?:[<>=!~][^\s]*)?\s+in(?:\s+|$)")
_SATISFIED_VERSION = when_used(r"\((?P<version>\d[^()\s]*)\)\s*$")
_NEVER = when_used(r"(?!)")
"""A list of installed packages has no end mark: its continuation lines are joined until the next message."""
_UV_SUMMARY = when_used(r"^[ \t]*(?:Uni|I)nstalled \d+ packages? in ")
_UV_LINE = when_used(rf"^\s*(?P<sign>[-+])\s+(?P<name>{_NAME})==(?P<version>\d\S*)\s*$")
_PAIR = when_used(r"^(?P<name>.+?)-(?P<version>\d\S*)$")
_COLLECTING = when_used(r"^\s*Collecting torch(?![\w-])(?:[<>=!~][^\s(]*)?(?:\s+\(from (?P<by>[^\s)]+))?")
_FETCH = when_used(r"^\s*(?:Downloading|Using cached|Processing|Obtaining dependency information for \S+ from)\s")
"""pip's lines naming a file it fetches or installs from: ``Downloading <file or URL> (<size>)`` and ``Using
cached <file>`` (network/download.py ``_log_download``; the wheel, or first its ``.whl.metadata``), ``Processing
<path>`` for a local file (operations/prepare.py), ``Obtaining dependency information for torch from
<URL>.whl.metadata`` (pip 23.2 to 24.0 at the default verbosity: operations/prepare.py at tag 23.2,
https://github.com/pypa/pip/blob/23.2/src/pip/_internal/operations/prepare.py). Which torch build the file is, is
:func:`rocm_doctor.knowledge.torch_wheel_files.wheel_build`'s to say, from its local tag or its platform tag."""
_DOWNLOAD_ONLY = when_used(r"^\s*(?:Saved\s|Successfully downloaded\s|File was already downloaded\s)")
"""``pip download`` names the files it saved instead of installing them (commands/download.py): its wheels
are not the environment's."""
_PROMPT = r"^\s{0,16}(?:\S{0,80}[$#>]\s{1,4})?(?:sudo\s{1,4})?"
"""A command line's start: an optional shell prompt and sudo."""
_PYTHON_M = r"(?:\S{0,200}python[\d.]{0,8}(?:\.exe)?\s{1,4}-m\s{1,4})?"
_PIP = _PYTHON_M + r"(?:pip[\d.]{0,8}|uv\s{1,4}pip)\s{1,4}"
"""pip or uv pip, run directly or as ``python -m pip``, up to its subcommand (shared by :data:`_NOT_INSTALLING_COMMAND`
and :data:`_PIP_INSTALL`)."""
_NOT_INSTALLING_COMMAND = when_used(
    _PROMPT + r"(?:" + _PIP + r"(?:(?:download|wheel|index\s{1,4}versions|compile)(?![\w-])"
    r"|install\s(?=.{0,2000}?(?<!\S)--dry-run(?![\w-])))"
    r"|" + _PYTHON_M + r"pip-compile(?![\w-]))",
    re.IGNORECASE,
)
"""A command that resolves, fetches or lists packages and installs none: ``pip download`` and ``pip wheel`` save files
(commands/download.py, commands/wheel.py), ``pip install --dry-run`` prints ``Would install ...`` and changes nothing
(with or without ``--report``: the report of a real install describes an install, so ``--report`` alone counts as one),
``pip index versions`` lists an index's releases (commands/index.py), ``uv pip compile`` and ``pip-compile`` write a
requirements file. The torch builds they name are candidates, not the environment's (sources in :data:`NOT_INSTALLING_SOURCES`)."""
NOT_INSTALLING_SOURCES = (
    "https://github.com/pypa/pip/blob/24.2/src/pip/_internal/commands/download.py",
    "https://github.com/pypa/pip/blob/24.2/src/pip/_internal/commands/install.py",
    "https://github.com/pypa/pip/blob/24.2/src/pip/_internal/commands/index.py",
    "https://github.com/pypa/pip/blob/24.2/docs/html/cli/pip_install.rst",
    "https://github.com/astral-sh/uv/blob/0.5.0/docs/pip/compile.md",
)
_NOT_INSTALLING_OUTPUT = when_used(
    r"^\s*(?:Would\s(?:install|download)\s|Saved\s.{0,300}?\.(?:whl|tar\.gz|zip)\s*$|Successfully\sdownloaded\s"
    r"|File\swas\salready\sdownloaded\s|Available\sversions:)"
)
"""Lines only a command that installs nothing prints: pip's and uv's dry run (``Would install torch-2.3.0+cu121``, uv's
``Would download 1 package``), pip download's (:data:`_DOWNLOAD_ONLY`), ``pip index versions``' list."""
_LOOKING_IN = when_used(r"^\s*Looking\sin\sindexes:\s")
_INSTALLED_NOW = when_used(r"^\s*INSTALLED:\s")
"""``pip index versions`` names the release installed now on a line of its own: still read."""
_NEXT_COMMAND = when_used(_PROMPT + r"(?:\S{0,200}[/\\])?(?:pip[\d.]{0,8}|uv|python[\d.]{0,8}|py|conda|mamba|git|cd|export|set|docker)(?:\.exe)?\s", re.IGNORECASE)
_INSTALL_DONE = when_used(r"^\s*(?:Installing\scollected\spackages:|Successfully\sinstalled\s)|" + _UV_SUMMARY.pattern)
"""rev55pb: lines only a real install prints (pip's ``Installing collected packages:``/``Successfully installed``, uv's
``Installed 1 package in``): a command that installs nothing never prints them, so its output ends before one
("Would install torch-2.3.0+cu121" / "then ran it without --dry-run:" / "Successfully installed torch-2.3.0+cu121")."""
_NOT_INSTALLING_WORDS = ("download", "wheel", "dry-run", "index versions", "compile", "would install", "saved ", "available versions")


def not_installing_lines(block: Block) -> Set[int]:
    """The numbers of the lines where a command that installs nothing (:data:`_NOT_INSTALLING_COMMAND`) and its output
    stand (up to a blank line or the next command; pip index's ``INSTALLED:`` line excepted), with the lines only such a
    command prints (:data:`_NOT_INSTALLING_OUTPUT`); in a log that shows only such lines and no install
    (``Saved ./torch-...whl`` and no ``Successfully installed``), pip's fetch and index lines too. What they name is not installed."""
    lowered = block.lower
    if not any(word in lowered for word in _NOT_INSTALLING_WORDS):
        return set()
    out: Set[int] = set()
    lines = block.lines
    for index, line in enumerate(lines):
        if _NOT_INSTALLING_COMMAND.match(line.text):
            out.add(line.number)
            for after in lines[index + 1 :]:
                if after.command or not after.text.strip() or _NEXT_COMMAND.match(after.text) or _INSTALL_DONE.match(after.text):
                    break
                if _INSTALLED_NOW.match(after.text) is None:
                    out.add(after.number)
        elif _NOT_INSTALLING_OUTPUT.match(line.text):
            out.add(line.number)
    if out and not any(_INSTALLED.match(line.text) or _UV_SUMMARY.match(line.text) for line in lines):
        out.update(line.number for line in lines if _FETCH.match(line.text) or _COLLECTING.match(line.text) or _LOOKING_IN.match(line.text))
    return out


_COMPANION_COLLECTING = when_used(r"^\s*Collecting (?:torchvision|torchaudio)(?![\w-])")
_COMPANION_FETCHED = when_used(r"^\s*(?:Downloading|Using cached)\s+\S*?\b(?:torchvision|torchaudio)-(?P<version>\d[^-\s]*)-cp\d+\S*\.whl")
COMPANION_FETCHED = "companion_wheel_not_rocm_fetched"
"""Context id: pip collected torchvision or torchaudio and fetched a wheel that is not a ROCm build: no local
tag (PyPI's, built against PyPI's torch; every ROCm wheel index tags its companions: 0.20.1+rocm6.2,
0.24.0+rocm7.0.0rc...) or a CUDA/CPU/XPU one."""
_FOLLOWING = 3
"""How many lines after ``Collecting torch (from X)`` pip names the wheel it fetches."""
REPLACED = "torch_replaced_by_package_install"
"""Context id (pkgenv47): installing another package uninstalled the torch that was there: pip collected torch as
that package's dependency (``Collecting torch==2.0.0 (from xformers==0.0.19)``), or the log's own ``pip install``
command names no torch, and ``Found existing installation: torch V`` / ``Successfully uninstalled torch-V`` follows.
The package pins another torch release than the one installed, so whatever was built for the old torch
(torchvision, torchaudio, extensions) no longer belongs to the new one. Reports: facebookresearch/xformers#1146
(``pip3 install -U xformers`` uninstalled torch 2.4.1; maintainer: xFormers 0.0.28 is the one for 2.4.1),
facebookresearch/xformers#752 (xformers 0.0.19 collected torch 2.0.0 over 2.0.1+cu118), facebookresearch/xformers#1052
(xformers 0.0.26.post1 replaced torch 2.3.1+cu121 with 2.3.0), AUTOMATIC1111/stable-diffusion-webui#10494
(``Collecting torch==2.0.0 (from xformers==0.0.19)`` in a Docker build)."""
_PIP_INSTALL = when_used(_PROMPT + _PIP + r"install\s{1,4}(?P<args>.{1,2000}?)\s*$")
_PIP_UNINSTALL = when_used(r"(?:^|[\s>$#\"'\\/])(?:py(?:thon[\d.]{0,8})?(?:\.exe)?[\"']?\s{1,4}-m\s{1,4})?(?:pip[\d.]{0,8}(?:\.exe)?|uv\s{1,4}pip)\s{1,4}uninstall(?P<args>(?:\s.{0,2000})?)$")
"""A ``pip uninstall`` (``uv pip uninstall``) command line: pip prints the same ``Found existing installation: torch V``
/ ``Successfully uninstalled torch-V`` for it (req/req_uninstall.py), so a torch removed after it was removed on the
user's request, not by an install of another package. Reports pasting an explicit uninstall after an unrelated
``pip install``: ROCm/legacy-rocm-build#4358 (``pip install --upgrade pip``, then ``pip uninstall -y torch
torchvision``), lllyasviel/Fooocus#3674 (``pip uninstall torch torchvision torchaudio torchtext functorch xformers``
before the ROCm install), ROCm/legacy-rocm-build#4749 (``pip3 uninstall torch torchvision pytorch-triton-rocm``
before installing the repo.radeon.com wheels). Searched anywhere in the line (rev55g): the prompt or the interpreter's
path may hold spaces (``(venv) PS C:\\Users\\Jane Doe\\app> python -m pip uninstall``, ``C:\\Program Files\\Python311\\python.exe
-m pip uninstall``) or be ``py -m pip``; Windows forms: lllyasviel/Fooocus#2294 and #624
(``C:\\Users\\...\\Fooocus_win64_2-1-831(1)>.\\python_embeded\\python.exe -m pip uninstall torch ... -y``); only an uninstall that names torch (:func:`_uninstalls_torch`) accounts for a torch removed."""


_SPECIFIER = when_used(r"[<>=!~\[@;]")
"""Where a requirement's name ends: a version specifier, extras, a URL (``@``) or an environment marker."""


def _requested_name(word: str) -> str:
    """The name a command-line requirement asks for (``torch>=2.4``, ``'torch[opt-einsum]==2.5.1'`` -> ``torch``)."""
    return _SPECIFIER.split(word.strip("'\""), maxsplit=1)[0]


def _uninstalls_torch(line: Line) -> bool:
    """A ``pip uninstall`` command line that names torch, a requirements file (``-r``: it may list torch), or is
    continued on the next line (the names are not all on this one); an uninstall of torchvision alone never
    removed torch (rev55g)."""
    found = _PIP_UNINSTALL.search(line.text)
    if found is None:
        return False
    args = found.group("args").strip()
    if args.endswith(("\\", "^", "`")):
        return True
    for word in args.replace("`", " ").split():
        if word in ("&&", "||", "|", ";", "#") or word.endswith(";"):
            return False
        if word == "--requirement" or word.startswith(("-r", "--requirement=")):
            return True
        if _canonical(_requested_name(word)) == "torch":
            return True
    return False


_INSTALL_OPTION_WITH_VALUE = frozenset(("-i", "--index-url", "--extra-index-url", "-f", "--find-links", "-c", "--constraint", "-r", "--requirement", "--target", "-t", "--prefix", "--root", "--platform", "--python-version", "--only-binary", "--no-binary", "--trusted-host", "--cache-dir"))
PULLED = "torch_pulled_by_dependency"
"""Context id: pip collected torch as another package's dependency and fetched a wheel that is not a ROCm build."""
FETCHED = "torch_wheel_not_rocm_fetched"
"""Context id: pip collected torch (asked for, or from a requirements file) and fetched a wheel that is not a ROCm build."""


def _fetched_torch(line: Line) -> Optional[WheelBuild]:
    """What a pip fetch line says about the torch wheel it names; None when it names none."""
    return wheel_build(line.text) if _FETCH.match(line.text) else None


def _not_rocm_wheel(version: str) -> bool:
    """A torch wheel version that is not a ROCm build: no local tag at all (every ROCm index tags its builds)
    or a CUDA/CPU/XPU tag; a ``+git...`` tag (a source build, or one of AMD's Windows previews) decides nothing."""
    tag = local_tag(version)
    return tag is None or flavour_from_tag(tag) in ("cuda", "cpu", "xpu")

KEPT_NOT_ROCM = "rocm_install_kept_other_torch"
"""Context id: an install from a ROCm wheel index answered ``Requirement already satisfied: torch ... (V)``
with a torch that is not a ROCm build, so it installed nothing (pip keeps an installed distribution
that satisfies the requirement, whatever index it came from: only --force-reinstall or an uninstall
first replaces it; https://github.com/pypa/pip/blob/24.2/docs/html/cli/pip_install.rst)."""
_ONLY_INDEX = when_used(r"(?:--index-url|(?<![\w-])-i)(?:=|\s+)[\"']?(\S+?)[\"']?(?=\s|$)|^\s*Looking in indexes:\s*(\S+)\s*$")
"""An install that searches one index: ``--index-url URL`` (``-i URL``) in the command, or pip's ``Looking in
indexes:`` naming that index alone (search_scope.py); whether it is a ROCm wheel index is
:func:`rocm_doctor.knowledge.torch_identity.from_index_url`'s to say."""


def _rocm_index_only(line: Line) -> bool:
    return any(from_index_url(match.group(1) or match.group(2)).flavour == "rocm" for match in _ONLY_INDEX.finditer(line.text))


_SYSTEM_SITE = when_used(r"^/usr/(?:local/)?lib(?:64)?/python3[\d.]*/(?:site|dist)-packages\b")
"""A distribution's own site-packages: a torch there came from the distribution's package manager
(Arch's python-pytorch-rocm has no local tag), not from PyPI."""


def kept_torch_not_rocm(block: Block) -> Optional[Line]:
    """The ``Requirement already satisfied: torch`` line of an install from a ROCm index alone when the
    torch it kept is not a ROCm build: a CUDA/CPU/XPU tag, or no tag in a folder that is not a
    distribution's site-packages (PyPI's torch); None otherwise."""
    if "already satisfied" not in block.lower or not any(_rocm_index_only(line) for line in block.lines):
        return None
    for index, line in enumerate(block.lines):
        if _SATISFIED.match(line.text) is None:
            continue
        joined, _ = _continued(block.lines, index, _SATISFIED_VERSION)
        satisfied = _satisfied(joined)
        if satisfied is None or satisfied[0] != "torch":
            continue
        version, folder = satisfied[1], satisfied[2]
        tag = local_tag(version)
        if tag is not None and flavour_from_tag(tag) in ("cuda", "cpu", "xpu"):
            return line
        if tag is None and folder and _SYSTEM_SITE.match(folder.replace("\\", "/")) is None:
            return line
    return None


KIND = "install-log"
"""What an install kept or put in place: read like prose around it (ingest's SOFT_KINDS), so that the
platform a path shows is still read from its line."""
REMOVED_KIND = "install-removed"
"""The lines naming what an install removed: the earlier state, never the current one."""

TRACKED = ("torch", "torchvision", "torchaudio", "pytorch-triton-rocm", "pytorch-triton", "triton", "triton-rocm")
"""Distributions whose versions an install log turns into facts."""


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _split(pair: str) -> Optional[Tuple[str, str]]:
    """``torch-2.3.1+cu121`` -> (``torch``, ``2.3.1+cu121``): the name ends at the first ``-`` before a digit."""
    match = _PAIR.match(pair)
    return (_canonical(match.group("name")), match.group("version")) if match else None


def _current(name: str, version: str, line: Line) -> List[Observation]:
    if name == "torch":
        return torch_version_observations(version, line, TRUST_TOOL)
    return companion_observations(name, version, line)


_PIP_MESSAGE = when_used(
    r"^\s*(?:Requirement|Collecting|Downloading|Using|Installing|Successfully|Attempting|Found|Uninstalling|Building|Created|Stored|Looking|Obtaining|Preparing|Processing|ERROR|WARNING|DEPRECATION|\[notice\]|[-+]\s)"
)
_CONTINUATION = 3
"""How many following lines may continue a message that an editor or terminal wrapped."""


def _continued(lines: List[Line], index: int, done: "re.Pattern[str]") -> Tuple[str, int]:
    """The line at ``index`` joined with the lines that continue it after a hard wrap (not a new pip
    message, not blank), until ``done`` matches the joined text; and how many lines were joined."""
    text = lines[index].text
    used = 0
    while done.search(text) is None and used < _CONTINUATION and index + used + 1 < len(lines):
        following = lines[index + used + 1].text
        if not following.strip() or _PIP_MESSAGE.match(following):
            break
        text = f"{text.rstrip()} {following.strip()}"
        used += 1
    return text, used


def _satisfied(text: str) -> Optional[Tuple[str, str, str]]:
    """(name, version, folder) of a ``Requirement already satisfied`` message; the folder is what
    follows `` in `` up to pip's ``(from ...)`` note or the version."""
    match = _SATISFIED.match(text)
    if match is None:
        return None
    rest = text[match.end():]
    version = _SATISFIED_VERSION.search(rest)
    if version is None:
        return None
    folder = rest[: version.start()]
    cut = folder.find(" (from ")
    folder = (folder[:cut] if cut >= 0 else folder).strip().strip("'\"")
    return _canonical(match.group("name")), version.group("version"), folder


def _install_without_torch(line: Line) -> bool:
    """A ``pip install`` command line whose requested packages (neither options nor their values) do not
    include torch, and name at least one package; a requirements file (``-r``) may hold torch, so it decides nothing."""
    found = _PIP_INSTALL.match(line.text)
    if found is None:
        return False
    args = found.group("args")
    if args.endswith(("\\", "^", "`")):
        return False  # continued on the next line (bash, cmd, PowerShell): the packages are not all on this line
    words = args.replace("`", " ").split()
    packages: List[str] = []
    skip = False
    first = True  # within the first command of the line
    for word in words:
        if skip:
            skip = False
            continue
        if word in ("&&", "||", "|", ";", "#") or word.endswith(";"):
            # a chain: a later pip install that names torch (or a requirements file) may be the one that
            # replaced it ("pip install xformers && pip install torch==2.5.1"); rev47c
            first = False
            continue
        if word == "--requirement" or word.startswith("--requirement=") or (word.startswith("-r") and not word.startswith("--")):
            return False
        if word in _INSTALL_OPTION_WITH_VALUE or word == "--upgrade-strategy":
            skip = True
            continue
        if word.startswith("-"):
            continue
        name = _requested_name(word).lower()  # "torch>=2.4", 'torch[opt-einsum]==2.5.1'
        if first:
            packages.append(name)
        elif name == "torch" or (name.endswith((".whl", ".txt")) and "torch-" in name):
            return False
    return bool(packages) and "torch" not in packages and not any(p.endswith((".whl", ".txt")) and "torch-" in p for p in packages)


_EVERY_DEPENDENCY = when_used(r"(?:^|\s)(?:--force-reinstall|--upgrade-strategy(?:=|\s{1,4})eager)(?=\s|$)")
"""``--force-reinstall`` and ``--upgrade-strategy eager`` reinstall or upgrade every dependency, torch too, whatever
the package pins: torch uninstalled by them says nothing of the package's own torch requirement (rev47c)."""


def _torch_replaced_by_other_package(block: Block, removed: List[Tuple[str, Line]], installed: List[Tuple[str, str, Line]]) -> Optional[Line]:
    """The first line that shows torch uninstalled by another package's install (:data:`REPLACED`), or None."""
    if not removed:
        return None
    new_versions = {version for name, version, _ in installed if name == "torch"}
    if new_versions and all(version in new_versions for version, _ in removed):
        return None  # the same torch put back (a --force-reinstall): nothing replaced
    if new_versions and any(name in ("torchvision", "torchaudio") for name, _, _ in installed):
        return None  # torch installed together with its companions: a set pulled together (an upgrade of the set)
    first_removed = min(block.position_of(line) for _, line in removed)
    command: Optional[Line] = None  # the last pip install command before the removal: the one that removed it
    pulled_by: Optional[Line] = None
    for line in block.lines[:first_removed]:
        collecting = _COLLECTING.match(line.text)
        if collecting is not None:
            by = collecting.group("by") or ""
            if by and not by.startswith("-") and _canonical(re.split(r"[<>=!~\[]", by, maxsplit=1)[0]) != "torch":
                pulled_by = pulled_by or line
        elif _PIP_INSTALL.match(line.text):
            command, pulled_by = line, None
        elif _uninstalls_torch(line):
            command, pulled_by = line, None
    if command is not None and _uninstalls_torch(command):
        return None  # the user's own pip uninstall removed it
    if command is not None:
        if _EVERY_DEPENDENCY.search(command.text):
            return None
        return command if _install_without_torch(command) else pulled_by
    return pulled_by


def _removes_torch(line: Line) -> bool:
    """pip's line that names the torch it uninstalls (``Found existing installation: torch 2.4.1``)."""
    found = _REMOVED.match(line.text)
    if found is None:
        return False
    pair = (_canonical(found.group("name")), found.group("version")) if found.group("name") else _split(found.group("pair"))
    return bool(pair) and pair[0] == "torch"


def replacement_across_blocks(blocks: List[Block]) -> List[Piece]:
    """:data:`REPLACED` where the ``pip install`` command is the last line of the block right before the
    log's own block (a command written in prose, then pip's output pasted in a fence:
    facebookresearch/xformers#1146), and the log names no command of its own before the uninstall."""
    pieces: List[Piece] = []
    for before, block in zip(blocks, blocks[1:]):
        if before.scope != "current" or block.scope != "current" or block.index != before.index + 1:
            continue
        if not before.lines or "uninstall" not in block.lower and "found existing installation" not in block.lower:
            continue
        command = before.lines[-1]
        if _PIP_INSTALL.match(command.text) is None or not _install_without_torch(command) or _EVERY_DEPENDENCY.search(command.text):
            continue
        removed = [line for line in block.lines if _removes_torch(line)]
        if not removed:
            continue
        first = block.position_of(removed[0])
        if any(_PIP_INSTALL.match(line.text) or _uninstalls_torch(line) for line in block.lines[:first]):
            continue  # the block's own command decides (parse), or the user's own uninstall removed it
        if any(_INSTALLED.match(line.text) and re.search(r"(?<!\S)torch-\d", line.text) and re.search(r"(?<!\S)torch(?:vision|audio)-\d", line.text) for line in block.lines):
            continue  # torch installed with its companions: a set
        pieces.append(make_piece(f"context:{REPLACED}", [command], [Observation("symptoms.context", [REPLACED], command, TRUST_TOOL)]))
    return pieces


def _uv_diff_only(block: Block) -> bool:
    """uv's package diff pasted without the summary above it (`` - torch==2.5.1+rocm6.2`` then
    `` + torch==2.5.1``): the block holds both signs of :data:`_UV_LINE` for torch. The ``-`` line is what the
    step removed (an earlier state), never the torch now; without the summary the ``+`` line is not taken for
    what is installed (a diff of a requirements file has the same shape)."""
    signs = {found.group("sign") for found in (_UV_LINE.match(line.text) for line in block.lines)
             if found is not None and _canonical(found.group("name")) == "torch"}
    return signs == {"-", "+"}


def parse(block: Block) -> List[Piece]:
    uv = "nstalled " in block.lower and any(_UV_SUMMARY.match(line.text) for line in block.lines)
    uv_diff = not uv and "torch==" in block.lower and _uv_diff_only(block)
    removed: List[Tuple[str, Line]] = []
    installed: List[Tuple[str, str, Line]] = []
    kept: List[Tuple[str, str, str, Line]] = []
    lines: List[Line] = []
    pulled: List[Line] = []
    fetched_not_rocm: List[Line] = []
    companions_not_rocm: List[Line] = []
    attached: Set[int] = set()
    fetched_versions: Dict[int, str] = {}
    collected: Set[str] = set()
    download_only = any(_DOWNLOAD_ONLY.match(line.text) for line in block.lines)
    idle = not_installing_lines(block)
    for index, line in enumerate(block.lines):
        text = line.text
        if line.number in idle:
            continue  # a dry run's, a download's or an index listing's line: nothing installed
        if _COMPANION_COLLECTING.match(text) is not None:
            for after in block.lines[index + 1 : index + 1 + _FOLLOWING]:
                fetched = _COMPANION_FETCHED.match(after.text)
                if fetched is not None:
                    if _not_rocm_wheel(unquote(fetched.group("version"))):
                        companions_not_rocm.append(line)
                    break
            continue
        collecting = _COLLECTING.match(text)
        if collecting is not None:
            for after in block.lines[index + 1 : index + 1 + _FOLLOWING]:
                fetched = _fetched_torch(after)
                if fetched is not None:
                    attached.add(id(after))
                    collected.add(fetched.version)
                    if fetched.not_rocm and not download_only:
                        by = collecting.group("by") or ""
                        (pulled if by and not by.startswith("-") else fetched_not_rocm).append(line)
                        fetched_versions[id(line)] = fetched.version
                    break
            continue
        if id(line) not in attached and not download_only:
            # A fetch line whose "Collecting torch" is not right above it: pip >= 23 fetches the metadata
            # first and the wheel after resolving, a launcher prints only part of pip's output, a paste cuts it.
            fetched = _fetched_torch(line)
            if fetched is not None:
                # pip >= 23 names the metadata under "Collecting torch (from X)" and the same wheel again after
                # resolving: that wheel is already judged with what collected it
                if fetched.not_rocm and fetched.version not in collected:
                    fetched_not_rocm.append(line)
                    fetched_versions[id(line)] = fetched.version
                continue
        found = _REMOVED.match(text)
        if found is not None:
            pair = (_canonical(found.group("name")), found.group("version")) if found.group("name") else _split(found.group("pair"))
            if pair and pair[0] == "torch":
                removed.append((pair[1], line))
            lines.append(line)
            continue
        found = _INSTALLED.match(text)
        if found is not None:
            joined, used = _continued(block.lines, index, _NEVER)
            for token in _INSTALLED.match(joined).group("list").split():
                pair = _split(token)
                if pair and pair[0] in TRACKED:
                    installed.append((pair[0], pair[1], line))
            lines.extend(block.lines[index : index + used + 1])
            continue
        if _SATISFIED.match(text) is not None:
            joined, used = _continued(block.lines, index, _SATISFIED_VERSION)
            satisfied = _satisfied(joined)
            if satisfied is not None:
                if satisfied[0] in TRACKED:
                    kept.append((*satisfied, line))
                lines.extend(block.lines[index : index + used + 1])
            continue
        if uv or uv_diff:
            found = _UV_LINE.match(text)
            if found is not None:
                name = _canonical(found.group("name"))
                if found.group("sign") == "-" and name == "torch":
                    removed.append((found.group("version"), line))
                    lines.append(line)
                elif uv:  # a diff without uv's summary: only its removed torch is read (_uv_diff_only)
                    if found.group("sign") == "+" and name in TRACKED:
                        installed.append((name, found.group("version"), line))
                    lines.append(line)
    # a fetched torch that a later step of the same log uninstalled is the earlier state, not the torch now
    # ("Downloading torch-2.4.0-...manylinux1_x86_64.whl" ... "Successfully uninstalled torch-2.4.0")
    order = {id(line): position for position, line in enumerate(block.lines)}
    fetched_not_rocm = [
        line for line in fetched_not_rocm
        if not any(version == fetched_versions.get(id(line)) and order[id(gone)] > order[id(line)] for version, gone in removed)
    ]
    pulled = [
        line for line in pulled
        if not any(version == fetched_versions.get(id(line)) and order[id(gone)] > order[id(line)] for version, gone in removed)
    ]
    kept_other = kept_torch_not_rocm(block)
    replaced = None if download_only else _torch_replaced_by_other_package(block, removed, installed)
    if not lines and not pulled and not fetched_not_rocm and not companions_not_rocm:
        return []
    removed_lines = {id(line) for _, line in removed}
    observations: List[Observation] = []
    last = {}
    for name, version, line in installed:
        last[name] = (version, line)
    for name, (version, line) in last.items():
        observations += _current(name, version, line)
    for name, version, folder, line in kept:
        if name in last:
            continue
        observations += _current(name, version, line)
        if name == "torch" and folder:
            observations.append(Observation("torch.location", folder, line, TRUST_TOOL))
    pieces = []
    for context, found in ((PULLED, pulled), (FETCHED, fetched_not_rocm), (COMPANION_FETCHED, companions_not_rocm)):
        if found:
            pieces.append(make_piece(f"context:{context}", found[:1], [Observation("symptoms.context", [context], found[0], TRUST_TOOL)]))
    if replaced is not None:
        pieces.append(make_piece(f"context:{REPLACED}", [replaced], [Observation("symptoms.context", [REPLACED], replaced, TRUST_TOOL)]))
    if kept_other is not None:
        pieces.append(make_piece(f"context:{KEPT_NOT_ROCM}", [kept_other], [Observation("symptoms.context", [KEPT_NOT_ROCM], kept_other, TRUST_TOOL)]))
    now = [line for line in lines if id(line) not in removed_lines]
    if now and observations:
        pieces.append(make_piece(KIND, now, observations))
    if removed:
        said = list(dict.fromkeys(f"torch.version={version}" for version, _ in removed))
        first = removed[0][1]
        # A tool piece over the removed lines: no loose reader takes the uninstalled torch for the current one.
        pieces.append(make_piece(REMOVED_KIND, [line for _, line in removed], [Observation("symptoms.earlier", said, first, TRUST_PROSE)]))
    return pieces
