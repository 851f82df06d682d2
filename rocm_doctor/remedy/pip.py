"""Exact pip (or uv) commands for the target interpreter.

Order: uninstall the wrong flavours (torch, torchvision, torchaudio, triton,
pytorch-triton-rocm) first, then install matching, pinned versions from the
index the torch choice names (:mod:`rocm_doctor.wheels.choice`). Commands are argv
lists; they are shown quoted for the user's shell (:mod:`rocm_doctor.shells`) and run without a shell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from rocm_doctor import quoting
from rocm_doctor.knowledge import torch_static
from rocm_doctor.facts.model import Facts
from rocm_doctor.model.fixes import PipFix
from rocm_doctor.wheels import wheeldata
from rocm_doctor.wheels.choice import TorchChoice

TORCH_FAMILY = ("torch", "torchvision", "torchaudio", "triton", "pytorch-triton-rocm", "pytorch-triton")
"""Distributions a torch replacement removes first, so no CUDA/CPU piece stays behind."""
INSTALLERS = ("pip", "uv")


@dataclass(frozen=True)
class Command:
    """One command, why it runs and the findings it resolves."""

    argv: Tuple[str, ...]
    purpose: str


@dataclass(frozen=True)
class Requirement:
    """One install requirement and where it comes from (for ``--verify-index``)."""

    name: str
    spec: str
    """What goes on the command line: ``torch==2.13.*`` or a wheel URL."""
    version: Optional[str]
    """Version or series (``2.13``, ``2.13.0+rocm7.2``) to look for on the index."""
    index_url: Optional[str]
    url: Optional[str] = None


@dataclass(frozen=True)
class Target:
    """The interpreter to act on and how."""

    python: str
    installer: str = "pip"
    index_override: Optional[str] = None
    """Install from this index (a mirror) instead of the chosen one."""

    def uninstall(self, names: Sequence[str]) -> Tuple[str, ...]:
        if self.installer == "uv":
            return ("uv", "pip", "uninstall", "--python", self.python, *names)
        return (self.python, "-m", "pip", "uninstall", "-y", *names)

    def install(self, specs: Sequence[str], index_url: Optional[str], extra: Sequence[str] = ()) -> Tuple[str, ...]:
        index = self.index_override or index_url
        head = ("uv", "pip", "install", "--python", self.python) if self.installer == "uv" else (self.python, "-m", "pip", "install")
        return (*head, *extra, *(("--index-url", index) if index else ()), *specs)


def target_python(facts: Facts, override: Optional[str] = None) -> Tuple[str, str]:
    """(interpreter the commands run, why): ``--python``, else the one the facts describe."""
    if override:
        return override, "--python"
    why = str(facts.python.selected_by.value) if facts.python.selected_by.is_known else "the interpreter the facts describe"
    if facts.python.executable.is_known:
        return str(facts.python.executable.value), why
    return "python", "the target interpreter is not known: the first python on PATH"


def _installed(facts: Facts) -> Optional[Dict[str, str]]:
    return dict(facts.packages.installed.value) if facts.packages.installed.is_known else None


def _pin(name: str, version: Optional[str]) -> str:
    if not version:
        return name
    if "+" in version or version.count(".") >= 2:
        return f"{name}=={version}"
    return f"{name}=={version}.*"


def _windows_files(choice: TorchChoice, names: Sequence[str]) -> List[Requirement]:
    base = wheeldata.windows_index(choice.rocm or "")
    local = choice.torch.split("+", 1)[1] if "+" in choice.torch else None
    found: List[Requirement] = []
    for name, version in (("torch", choice.torch), ("torchvision", choice.torchvision), ("torchaudio", choice.torchaudio)):
        if name != "torch" and name not in names:
            continue
        if not version:
            continue
        if local and "+" not in version and "a0" not in version:
            version = f"{version}+{local}"
        url = choice.wheel_url if name == "torch" and choice.wheel_url else f"{base}{name}-{version}-cp312-cp312-win_amd64.whl"
        found.append(Requirement(name, url, version, None, url=url))
    return found


def torch_requirements(choice: TorchChoice, wanted: Sequence[str]) -> List[Requirement]:
    if choice.route == "amd-windows":
        return _windows_files(choice, wanted)
    if choice.route == "therock":
        extras = ",".join(choice.gfx_extras)
        found = [Requirement("torch", f"torch[{extras}]", None, choice.index_url)]
        if "torchvision" in wanted:
            found.append(Requirement("torchvision", f"torchvision[{extras}]", None, choice.index_url))
        if "torchaudio" in wanted:
            found.append(Requirement("torchaudio", "torchaudio", None, choice.index_url))
        return found
    found = [Requirement("torch", _pin("torch", choice.torch), choice.torch, choice.index_url)]
    for name, version in (("torchvision", choice.torchvision), ("torchaudio", choice.torchaudio)):
        if name in wanted:
            found.append(Requirement(name, _pin(name, version), version, choice.index_url))
    return found


def companions_wanted(facts: Facts) -> List[str]:
    """The companions installed with a new torch (the fix plan's and the Dockerfile's): those that were
    there; when packages are unknown, torchvision only."""
    installed = _installed(facts)
    return ["torchvision"] if installed is None else [n for n in ("torchvision", "torchaudio") if n in installed]


def torch_commands(choice: TorchChoice, facts: Facts, target: Target) -> Tuple[List[Command], List[Requirement], List[str]]:
    """Remove the torch family, then install the chosen build with the companions that were there."""
    commands: List[Command] = []
    notes: List[str] = []
    if choice.python_required:
        notes.append(
            f"The target interpreter is not Python {choice.python_required}: create one first "
            f"(py -{choice.python_required} -m venv venv-rocm) and run these commands with its python.exe"
        )
    installed = _installed(facts)
    remove = [n for n in TORCH_FAMILY if installed is None or n in installed]
    wanted = companions_wanted(facts)
    if remove:
        commands.append(Command(target.uninstall(remove), "remove the current torch build and its companions"))
    if choice.preinstall:
        base = wheeldata.windows_index(choice.rocm or "")
        urls = [base + (p if p.endswith((".whl", ".tar.gz")) else f"{p}-py3-none-win_amd64.whl") for p in choice.preinstall]
        commands.append(Command(target.install(urls, None, ("--no-cache-dir",)), f"install AMD's ROCm {choice.rocm} SDK wheels"))
    requirements = torch_requirements(choice, wanted)
    index = None if choice.route == "amd-windows" else choice.index_url
    described = f"torch {choice.torch} from {choice.route}" + (f" (ROCm {choice.rocm})" if choice.rocm else "")
    commands.append(Command(target.install([r.spec for r in requirements], index), f"install {described}"))
    return commands, requirements, notes


def _installed_rocm_index(facts: Facts) -> Optional[str]:
    if facts.torch.rocm_version.is_known:
        parts = str(facts.torch.rocm_version.value).split(".")
        return wheeldata.pytorch_index(".".join(parts[:2]))
    return None


def _installed_build_index(facts: Facts, torch_version: Optional[str]) -> Optional[str]:
    """The index torch came from, for its companions: the ROCm index of a ROCm torch, pytorch.org's index of the
    tag of a CUDA, CPU or XPU torch (``2.5.1+cu118`` -> ``.../whl/cu118``; PyPI's torchvision is another CUDA
    build, rev47c); None for an untagged torch (PyPI's own)."""
    rocm = _installed_rocm_index(facts)
    if rocm is not None or not torch_version:
        return rocm
    tag = torch_static.local_tag(torch_version)
    if tag and torch_static.flavour_from_tag(tag) in ("cuda", "cpu", "xpu") and re.fullmatch(r"cu\d{2,4}|cpu|xpu", tag):
        return wheeldata.pytorch_tag_index(tag)
    return None


def intent_commands(fix: PipFix, facts: Facts, target: Target) -> Tuple[List[Command], List[str]]:
    """Commands for a pip fix that does not replace torch; a note when it cannot become a command."""
    installed = _installed(facts) or {}
    if fix.intent == "remove-cuda-triton":
        commands = [Command(target.uninstall(["triton"]), "remove the CUDA triton that shadows pytorch-triton-rocm")]
        rocm_triton = installed.get("pytorch-triton-rocm")
        index = _installed_rocm_index(facts)
        if rocm_triton and index:
            commands.append(
                Command(
                    target.install([f"pytorch-triton-rocm=={rocm_triton}"], index, ("--force-reinstall", "--no-deps")),
                    "restore the files of pytorch-triton-rocm that the CUDA triton overwrote",
                )
            )
        return commands, []
    if fix.intent == "reinstall-torchvision-matching":
        # The rule names the companion it found mismatched (torchaudio for RD142/RD144); torchvision otherwise.
        names = [n for n in ("torchvision", "torchaudio") if n in fix.packages] or ["torchvision"]
        torch_version = str(facts.torch.version.value) if facts.torch.version.is_known else installed.get("torch")
        series = dict(zip(("torchvision", "torchaudio"), wheeldata.companions(".".join((torch_version or "").split("+")[0].split(".")[:2]))))
        unknown = [n for n in names if not series[n]]
        if unknown:
            return [], [f"no known {' or '.join(unknown)} for torch {torch_version or 'unknown'}"]
        return [
            Command(target.uninstall(names), f"remove the mismatched {' and '.join(names)}"),
            Command(
                target.install([_pin(n, series[n]) for n in names], _installed_build_index(facts, torch_version)),
                f"install the {' and '.join(names)} built for torch {torch_version}",
            ),
        ], []
    if fix.intent == "pin-numpy-1":
        return [Command(target.install(["numpy<2"], None), "torch wheels before 2.3 were compiled against numpy 1.x")], []
    if fix.packages:
        # Checked again after interpolation: a fact can fill a placeholder with anything.
        problems = [p for p in map(quoting.requirement_problem, fix.packages) if p is not None]
        if fix.index_url is not None:
            problems += [p for p in [quoting.index_problem(fix.index_url)] if p is not None]
        if problems:
            return [], [f"no pip command: {'; '.join(problems)}"]
        return [Command(target.install(list(fix.packages), fix.index_url), fix.text or "install")], []
    return [], [f"no command for pip intent {fix.intent!r}"]
