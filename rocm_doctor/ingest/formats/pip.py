"""``pip list`` and ``pip freeze`` output: the installed distributions.

* ``pip list``: a ``Package  Version`` header, a dashed rule, then ``name  version [location]``;
* ``pip freeze``: ``name==version`` or ``name @ url`` lines, one per distribution.

A freeze is recognised only as two or more consecutive such lines with distinct
names, so that ``pip install torch==2.3.1+rocm6.0`` commands and lists of
versions someone tried are not mistaken for what is installed.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.collect_env import companion_observations
from rocm_doctor.ingest.formats.common import make_piece, torch_version_observations
from rocm_doctor.ingest.model import Observation, Piece
from rocm_doctor.lazy_regex import when_used

_HEADER = when_used(r"^\s*Package\s+Version(\s+.*)?$")
_RULE = when_used(r"^\s*-{3,}\s+-{3,}")
_LIST_ROW = when_used(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s+(\d[^\s]*)(?:\s+.*)?$")
_FREEZE_ROW = when_used(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*(?:==\s*([^\s;#]+)|\s@\s+\S+)\s*$")


def canonical(name: str) -> str:
    """PEP 503 normalised distribution name."""
    return re.sub(r"[-_.]+", "-", name).lower()


_BOLD = when_used(r"\*\*")
"""Markdown bold marks a reporter typed around part of a version to point at it (``0.10.0+**rocm4.1**``,
pytorch/audio#1750): outside a fence Markdown takes them off, inside one they stay in the text. No version has
``**`` (PEP 440); a requirement's wildcard ``2.*`` has one star and is left alone."""


def _unmarked(rows: List[Tuple[str, str, Line]]) -> List[Tuple[str, str, Line]]:
    return [(name, _BOLD.sub("", version), line) for name, version, line in rows]


def _observations(rows: List[Tuple[str, str, Line]], builds: Optional[Dict[int, str]] = None) -> List[Observation]:
    rows = _unmarked(rows)
    installed: Dict[str, str] = {name: version for name, version, _ in rows}
    out = [Observation("packages.installed", installed, rows[0][2])]
    for name, version, line in rows:
        if name == "torch" and version:
            out += torch_version_observations(version, line)
        else:
            out += companion_observations(name, version, line, (builds or {}).get(line.number, ""))
    return out


_WHOLE_LISTING_COMMAND = when_used(
    r"^[^|<>\n]{0,120}?\b(?:pip3?(?:\.exe)?|python3?(?:\.exe)?\s{1,4}-m\s{1,4}pip|uv\s{1,4}pip)\s{1,4}(?:list|freeze)\b[^|\n]{0,80}$",
    re.IGNORECASE,
)
"""The command line of a listing that shows the whole environment: ``pip list`` / ``pip freeze`` (pip's, python -m pip's,
uv's) without a pipe into a filter (``pip list | grep torch`` prints only what it kept) or a redirection."""
_CUT_MARK = when_used(r"^\s{0,8}(?:\[\s{0,2}(?:\.{2,}|\u2026)\s{0,2}\]|\.{3,}|\u2026)|\[\s{0,2}(?:\.{2,}|\u2026|snip|cut|truncated|omitted)", re.IGNORECASE)
"""A line that marks rows left out of a paste (``[...]``, ``...``, ``…``, ``[snip]``)."""


def _whole(above: Optional[Line], rows_to: int, lines: tuple, needs_command: bool) -> bool:
    """Whether a listing whose rows end before ``lines[rows_to]`` is the whole environment: the command right above it,
    when shown, lists everything (:data:`_WHOLE_LISTING_COMMAND`), and no cut mark sits right after the rows. A headed
    ``pip list`` needs no command (its header is what a filter drops); a freeze does (its rows alone may be a part)."""
    if above is not None and above.command:
        if not _WHOLE_LISTING_COMMAND.search(above.text):
            return False
    elif needs_command:
        return False
    after = lines[rows_to] if rows_to < len(lines) else None
    return not (after is not None and _CUT_MARK.search(after.text[:200]))


def _complete(line: Line) -> Observation:
    return Observation("packages.complete", True, line)


def _pip_list(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    lines = block.lines
    i = 0
    while i < len(lines):
        if _HEADER.match(lines[i].text) and i + 1 < len(lines) and _RULE.match(lines[i + 1].text):
            rows: List[Tuple[str, str, Line]] = []
            j = i + 2
            while j < len(lines) and _LIST_ROW.match(lines[j].text):
                match = _LIST_ROW.match(lines[j].text)
                rows.append((canonical(match.group(1)), match.group(2), lines[j]))
                j += 1
            if rows:
                whole = _whole(lines[i - 1] if i > 0 else None, j, lines, needs_command=False)
                pieces.append(make_piece("pip-list", lines[i:j], _observations(rows) + ([_complete(lines[i])] if whole else [])))
            i = j
            continue
        i += 1
    return pieces


_NOT_INSTALLED_INTRO = when_used(
    # a command that prints a requirements or constraints file ("cat requirements.txt", "type requirements-rocm.txt")
    # rev55p: only as a command (at the line's start, after a prompt or a shell operator), not the words "more" or "type"
    # in prose ("pip freeze (more than requirements.txt lists):")
    r"(?:^\s{0,8}|^[^\n]{0,60}?[$#>]\s{0,2}|[;&|]\s{0,4})(?:cat|type|less|more|head|tail|bat|Get-Content|gc)\s{1,4}[^\n]{0,80}?\b(?:requirements|constraints)[\w.-]{0,40}\.(?:txt|in)\b"
    # a requirements file's own option line right above its pins
    r"|^\s{0,8}(?:--(?:extra-)?index-url|--find-links|--requirement|--constraint|-[ifrc])(?:\s|=)"
    # prose that gives the rows as what an index offers, not what is installed ("The wheels available at
    # https://download.pytorch.org/whl/ are:", "the index lists:")
    r"|\b(?:available|offered|offers|published|index\s{1,4}(?:has|lists|shows)|wheels?\s{1,4}(?:at|on|from|in)\b)[^\n]{0,160}:\s*$",
    re.IGNORECASE,
)
"""prec55: the line right above a run of ``name==version`` rows that makes them no installed state: a requirements file
printed or its option line (pip's requirements file format, https://pip.pypa.io/en/stable/reference/requirements-file-format/:
``--index-url``, ``-r``, ``-c`` lines among the pins), or an index's listing of wheels. A torch index listing with
``triton==3.1.0`` beside ``pytorch-triton-rocm==3.1.0`` read as a freeze gave RD140's error ("a CUDA triton shadows
pytorch-triton-rocm") on a machine that had installed neither."""


_INSTALLED_INTRO = when_used(r"\bfreeze\b|\binstalled\b|\b(?:my|our|this|the)\s{1,4}(?:v|virtual\s{1,4}|conda\s{1,4}|python\s{1,4})?env(?:ironment)?\b|\bI\s{1,4}have\b", re.IGNORECASE)
"""rev55p: an intro that still gives the rows as installed: a freeze written to the requirements file it prints
(``pip freeze > requirements.txt && cat requirements.txt``), or "available" said of the reporter's own environment
("These are the packages available in my env:", "installed and available:")."""


def _not_installed(intro: str) -> bool:
    return _NOT_INSTALLED_INTRO.search(intro) is not None and _INSTALLED_INTRO.search(intro) is None


def _pip_freeze(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    run: List[Tuple[str, str, Line]] = []
    intro = ""
    intro_line: Optional[Line] = None
    lines = block.lines

    def close(at: int) -> None:
        names = [name for name, _, _ in run]
        if len(run) >= 2 and len(set(names)) == len(names) and not _not_installed(intro):
            whole = _whole(intro_line, at, lines, needs_command=True)
            pieces.append(make_piece("pip-freeze", [line for _, _, line in run], _observations(list(run)) + ([_complete(run[0][2])] if whole else [])))
        run.clear()

    for index, line in enumerate(lines):
        match = _FREEZE_ROW.match(line.text) if not line.command else None
        if match is None:
            close(index)
            intro = line.text
            intro_line = line
            continue
        run.append((canonical(match.group(1)), match.group(2) or "", line))
    close(len(lines))
    return pieces


_ALIGNED_ROW = when_used(
    r"^\s{0,8}([A-Za-z0-9][A-Za-z0-9._-]{0,80})\s{2,40}(\d[^\s]{0,60})"
    r"(?:\s{1,40}(?:[/~]|[A-Za-z]:[\\/])[^\n]{0,300}|\s{2,40}\d[^\s]{0,60}\s{1,40}(?:wheel|sdist)|\s{2,40}(?:pip|uv|conda))?\s*$"
)
"""A ``pip list`` row without its header: name and version in aligned columns (two spaces or more), then only the columns
pip prints after them: a location (and its installer, ``-v``), or ``--outdated``'s latest version and type. A third column
of anything else is another table ("torch   2.4.1   works", a benchmark's timings)."""
_RELEASE = when_used(r"^\d{1,4}\.\d{1,4}\.\d{1,4}")
"""A torch-stack release as pip lists it (``2.5.1+rocm6.2``, ``3.1.0``, ``2.6.0.dev20241112``): three parts; a benchmark's
``torch  2.31`` is a timing."""
_SPACED_ROW = when_used(r"^\s{0,8}([A-Za-z0-9][A-Za-z0-9._-]{0,80})\s{1,40}(\d[^\s]{0,60})\s*$")
"""A row of ``pip list | grep torch`` as a forum or a chat collapsed its spaces (``torch 2.5.1+rocm6.2``): read only right
under the ``pip list`` command that printed it."""
_CONDA_ROW = when_used(r"^\s{0,8}([A-Za-z0-9][A-Za-z0-9._-]{0,80})\s{2,40}(\d[^\s]{0,60})\s{1,40}([A-Za-z0-9_.]{1,80})(?:\s{1,40}[\w./:-]{1,80})?\s*$")
"""A ``conda list`` row: name, version, build string and (for a package from a named channel) the channel
(``torchvision  0.15.2  py310_cu117  pytorch``, ``torch  2.1.1  pypi_0  pypi``). Read as a listing only when the third
column is shaped like a conda build string (:func:`_conda_build`), so "torch  2.4.1  works" stays no listing.
Reports paste ``conda list`` (or ``conda list | grep torch``) for the torch stack: DCASE-REPO/DESED_task#81
(``torchaudio 2.0.2 py38_cpu pytorch`` among ``pypi_0`` rows), verm/freebsd-stable-diffusion#7 (``torchvision 0.15.2
cuda118py39h196c800_0``), pytorch/audio#3335 (``pytorch 1.13.1 cpu_py38haaa41f7_0``), facebookresearch/pytorch3d#183
(a whole ``conda list`` with ``_pytorch_select 0.1 cpu_0``)."""


def _conda_build(text: str) -> bool:
    """A conda build string: digits with an underscore (``py38_cpu``, ``pypi_0``, ``h5eee18b_0``, ``py_3``) or a
    ``py``/``cuda``/``cpu`` build without one (``cuda118py39h196c800_0`` has both)."""
    return any(c.isdigit() for c in text) and ("_" in text or text.startswith(("py", "cuda", "cpu")))


_CONDA_LIST_COMMAND = when_used(r"\b(?:conda|mamba|micromamba)\s{1,4}list\b", re.IGNORECASE)
_LIST_COMMAND = when_used(r"\b(?:pip3?|python3?\s{1,4}-m\s{1,4}pip|uv\s{1,4}pip)\s{1,4}list\b", re.IGNORECASE)
TORCH_FAMILY = frozenset(("torch", "torchvision", "torchaudio", "pytorch-triton-rocm", "pytorch-triton", "triton", "triton-rocm"))
"""Distributions a headerless listing must name one of: the listing is then the torch stack's."""
_NOT_DISTRIBUTIONS = frozenset(
    "rocm hip hipcc python python3 ubuntu debian fedora arch linux windows kernel os gpu cpu driver amdgpu cuda "
    "nvidia rocminfo gfx version ram vram memory mesa gcc clang cmake pytorch".split()
)
"""Names that make a run of ``name version`` lines a field list ("ROCm  6.2", "Python  3.11", "Ubuntu  22.04"), not a
package listing (conda's ``pytorch`` rows are :mod:`.packages`')."""


def _headerless_list(block: Block) -> List[Piece]:
    """``pip list`` rows pasted without the ``Package  Version`` header (``pip list | grep torch``, a cut paste):
    two or more consecutive rows with distinct names, one of them of the torch stack (:data:`TORCH_FAMILY`) and none a
    field list's label (:data:`_NOT_DISTRIBUTIONS`); rows in aligned columns, or rows of one space right under the
    ``pip list`` command. ``pip list | grep torch`` is the check that install guides and replies ask for, so its
    headerless output is what reports paste: ROCm/legacy-rocm-build#2527 (``torch  2.2.0a0+git6849d75 /opt/conda/...``
    with its location column)."""
    pieces: List[Piece] = []
    lines = block.lines
    i = 0
    while i < len(lines):
        under_command = i > 0 and bool(lines[i - 1].command or _LIST_COMMAND.search(lines[i - 1].text))
        rows: List[Tuple[str, str, Line]] = []
        builds: Dict[int, str] = {}
        j = i
        while j < len(lines) and not lines[j].command:
            match = _ALIGNED_ROW.match(lines[j].text) or (_SPACED_ROW.match(lines[j].text) if under_command and _LIST_COMMAND.search(lines[i - 1].text) else None)
            if match is None:
                conda = _CONDA_ROW.match(lines[j].text)
                if conda is None or not _conda_build(conda.group(3)):
                    break
                if canonical(conda.group(1)).startswith("pytorch"):
                    # PyTorch's own conda packages (pytorch, pytorch-mutex, pytorch-cuda): packages.py reads their rows
                    j += 1
                    continue
                builds[lines[j].number] = conda.group(3)
                match = conda
            rows.append((canonical(match.group(1)), match.group(2), lines[j]))
            j += 1
        names = [name for name, _, _ in rows]
        # "conda list | grep torchvision" prints one row: read right under the conda list command that printed it
        under_conda_list = i > 0 and _CONDA_LIST_COMMAND.search(lines[i - 1].text) is not None
        if ((len(rows) >= 2 or (len(rows) == 1 and builds and under_conda_list)) and len(set(names)) == len(names)
                and TORCH_FAMILY & set(names)
                and not _NOT_DISTRIBUTIONS & set(names)
                and all(_RELEASE.match(version) for name, version, _ in rows if name in TORCH_FAMILY)):
            pieces.append(make_piece("pip-list", [line for _, _, line in rows], _observations(rows, builds)))
        i = max(j, i + 1)
    return pieces


def parse(block: Block) -> List[Piece]:
    listed = _pip_list(block)
    freeze = _pip_freeze(block)
    if listed or freeze or "torch" not in block.lower and "triton" not in block.lower:
        return listed + freeze
    return _headerless_list(block)
