"""``fix --requirements FILE``: would installing it replace the ROCm torch?

The launcher trap (Comfy-Org/comfy-cli#289, LykosAI/StabilityMatrix#885): an unpinned
``torch`` resolved from PyPI, or an ``--extra-index-url`` that lets PyPI's newer
CUDA wheel win over the ROCm index, or a ``+cu``/``+cpu`` pin, silently swaps the
ROCm build for a CUDA or CPU one. The remedy is a constraints file that pins the
installed ROCm build: ``pip install -r FILE -c constraints.txt``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Set

from packaging.requirements import InvalidRequirement, Requirement

from rocm_doctor.errors import InputError
from rocm_doctor.files import read_limited, resolved
from rocm_doctor.limits import REQUIREMENTS_BYTES, REQUIREMENTS_DEPTH, REQUIREMENTS_LINES, LimitError

WATCHED = ("torch", "torchvision", "torchaudio")
_ROCM_INDEX = re.compile(r"rocm|radeon|nightlies\.amd\.com", re.IGNORECASE)
_BAD_INDEX = re.compile(r"/whl/(?:nightly/|test/)?(cu\d+|cpu|xpu)\b", re.IGNORECASE)
_BAD_LOCAL = re.compile(r"\+(cu\d+|cpu|xpu)", re.IGNORECASE)


@dataclass
class RequirementsReport:
    """Warnings, with the file and line, and the constraint lines that prevent the swap."""

    warnings: List[str] = field(default_factory=list)
    constraints: List[str] = field(default_factory=list)

    @property
    def at_risk(self) -> bool:
        return bool(self.warnings)


@dataclass
class _Parsed:
    index_url: Optional[str] = None
    extra_index: List[str] = field(default_factory=list)
    find_links: List[str] = field(default_factory=list)
    torch_lines: Dict[str, List[tuple]] = field(default_factory=dict)
    lines: int = 0
    """Lines read so far, over the file and every file it includes."""


def _logical_lines(text: str) -> List[tuple]:
    """(line number, text) with comments stripped and ``\\`` continuations joined (pip's rules)."""
    lines: List[tuple] = []
    buffer, start = "", 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if not buffer:
            start = number
        line = re.sub(r"(^|\s+)#.*$", "", raw)
        if line.endswith("\\"):
            buffer += line[:-1] + " "
            continue
        buffer += line
        if buffer.strip():
            lines.append((start, buffer.strip()))
        buffer = ""
    if buffer.strip():
        lines.append((start, buffer.strip()))
    return lines


def _parse(path: Path, parsed: _Parsed, seen: Set[Path], depth: int = 0) -> None:
    """Read ``path`` into ``parsed``, following its ``-r`` includes; ``depth`` is how many includes deep it is."""
    if depth > REQUIREMENTS_DEPTH.value:
        raise LimitError(str(path), "included too many levels deep with -r", REQUIREMENTS_DEPTH)
    path = resolved(path)
    if path in seen:
        return
    seen.add(path)
    try:
        text = read_limited(path, REQUIREMENTS_BYTES).decode("utf-8")
    except FileNotFoundError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a requirements file (not UTF-8 text)") from None
    parsed.lines += text.count("\n") + 1
    if parsed.lines > REQUIREMENTS_LINES.value:
        raise LimitError(str(path), f"more than {REQUIREMENTS_LINES.value:,} lines with its includes", REQUIREMENTS_LINES)
    for number, line in _logical_lines(text):
        where = f"{path.name}:{number}"
        try:
            words = shlex.split(line)
        except ValueError:
            words = line.split()
        option = words[0]
        value = words[1] if len(words) > 1 else ""
        if "=" in option and option.startswith("--"):
            option, value = option.split("=", 1)
        if option in ("-i", "--index-url"):
            parsed.index_url = value
        elif option == "--extra-index-url":
            parsed.extra_index.append(value)
        elif option in ("-f", "--find-links"):
            parsed.find_links.append(value)
        elif option in ("-r", "--requirement"):
            _parse(path.parent / value, parsed, seen, depth + 1)
        elif option.startswith("-"):
            continue
        else:
            try:
                requirement = Requirement(line.split(";")[0].strip() if ";" in line else line)
            except InvalidRequirement:
                continue
            if requirement.name.lower() in WATCHED:
                parsed.torch_lines.setdefault(requirement.name.lower(), []).append((where, requirement))


def _pinned_to(requirement: Requirement) -> Optional[str]:
    for spec in requirement.specifier:
        if spec.operator in ("==", "===") and "*" not in spec.version:
            return spec.version
    return None


CONSTRAINTS_SCRIPT = (
    "from importlib import metadata; "
    "names = ('torch', 'torchvision', 'torchaudio'); "
    "found = [(d.metadata['Name'], d.version) for d in metadata.distributions() if (d.metadata['Name'] or '').lower() in names]; "
    "open('constraints.txt', 'w').write(''.join(n + '==' + v + chr(10) for n, v in sorted(found)))"
)
"""Writes constraints.txt pinning the torch family as installed (run after the plan's torch step)."""


def constraints_command(python: str) -> List[str]:
    """The argv that pins what is installed now: after a torch replacement, the build the plan put there."""
    return [python, "-c", CONSTRAINTS_SCRIPT]


def check_requirements(path: Path, installed: Dict[str, str], torch_flavour: Optional[str]) -> RequirementsReport:
    """Warn when installing ``path`` would replace the installed ROCm torch; give the constraints."""
    report = RequirementsReport()
    parsed = _Parsed()
    _parse(Path(path), parsed, set())
    rocm_index = parsed.index_url is not None and bool(_ROCM_INDEX.search(parsed.index_url))
    if parsed.index_url and _BAD_INDEX.search(parsed.index_url):
        report.warnings.append(f"--index-url {parsed.index_url} serves CUDA/CPU builds: torch would be replaced")
    for url in parsed.extra_index + parsed.find_links:
        if _ROCM_INDEX.search(url) and parsed.torch_lines and not rocm_index:
            report.warnings.append(
                f"{url} is only added next to PyPI (--extra-index-url / -f): pip takes the highest version from "
                "either, so a newer CUDA torch on PyPI wins over the ROCm build (comfy-cli#289)"
            )
        elif _BAD_INDEX.search(url):
            report.warnings.append(f"{url} serves CUDA/CPU builds of torch")
    for name, entries in parsed.torch_lines.items():
        for where, requirement in entries:
            pin = _pinned_to(requirement)
            if pin and _BAD_LOCAL.search(pin):
                report.warnings.append(f"{where}: {requirement} pins a CUDA/CPU build of {name}")
            elif pin and "+rocm" in pin:
                continue
            elif not rocm_index:
                report.warnings.append(
                    f"{where}: {requirement} is not pinned to a ROCm build; pip may resolve it from PyPI "
                    f"(a CUDA build on Linux, CPU on Windows) and replace the installed {name}"
                )
    if torch_flavour == "rocm" or any("+rocm" in installed.get(n, "") for n in WATCHED):
        report.constraints = [f"{n}=={installed[n]}" for n in WATCHED if n in installed]
    return report
