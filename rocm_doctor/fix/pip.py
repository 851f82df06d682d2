"""Exact pip (or uv) commands for the target interpreter.

Order: uninstall the wrong flavours (torch, torchvision, torchaudio, triton,
pytorch-triton-rocm) first, then install matching, pinned versions from the
index the torch choice names (:mod:`rocm_doctor.fix.choice`). Commands are argv
lists; they are shown quoted for the shell (PowerShell on Windows) and run without one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from rocm_doctor import quoting
from rocm_doctor.facts.model import Facts
from rocm_doctor.fix import wheeldata
from rocm_doctor.fix.choice import NoChoice, TorchChoice, choose_torch, machine_of
from rocm_doctor.fix.plan import TORCH_INTENTS, FixPlan, PipRequest
from rocm_doctor.fix.platform import is_windows
from rocm_doctor.render.safe import escape_controls

TORCH_FAMILY = ("torch", "torchvision", "torchaudio", "triton", "pytorch-triton-rocm", "pytorch-triton")
"""Distributions a torch replacement removes first, so no CUDA/CPU piece stays behind."""
INSTALLERS = ("pip", "uv")


@dataclass(frozen=True)
class Command:
    """One command, why it runs and the findings it resolves."""

    argv: Tuple[str, ...]
    purpose: str
    finding_ids: Tuple[str, ...]

    def display(self, windows: bool = False) -> str:
        """The command to paste into a shell (PowerShell on Windows), control characters escaped."""
        return escape_controls(quoting.command_line(self.argv, windows))


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


@dataclass
class PipPlan:
    """Commands in order, the torch choice behind them, and what could not be turned into a command."""

    commands: List[Command] = field(default_factory=list)
    choice: Optional[TorchChoice] = None
    requirements: List[Requirement] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    refusal: Optional[NoChoice] = None
    windows: bool = False


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


def target_python(facts: Facts, override: Optional[str] = None) -> str:
    """The interpreter the commands run: ``--python``, else the one the facts describe."""
    if override:
        return override
    if facts.python.executable.is_known:
        return str(facts.python.executable.value)
    return "python"


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


def _explain(choice: TorchChoice) -> List[str]:
    lines = [f"torch {choice.torch} from {choice.route}" + (f" (ROCm {choice.rocm})" if choice.rocm else "")]
    lines += [f"  because: {reason}" for reason in choice.reasons]
    lines += [f"  ruled out: {reason}" for reason in choice.ruled_out]
    return lines


def _replace_torch(
    plan: PipPlan, facts: Facts, target: Target, route: str, requested: Optional[str], ids: Tuple[str, ...]
) -> None:
    try:
        choice = choose_torch(machine_of(facts), route, requested)
    except NoChoice as refusal:
        plan.refusal = refusal
        return
    plan.choice = choice
    plan.notes.extend(_explain(choice))
    if choice.python_required:
        plan.notes.append(
            f"The target interpreter is not Python {choice.python_required}: create one first "
            f"(py -{choice.python_required} -m venv venv-rocm) and run these commands with its python.exe"
        )
    installed = _installed(facts)
    remove = [n for n in TORCH_FAMILY if installed is None or n in installed]
    # Reinstall the companions that were there; when packages are unknown, torchvision only.
    wanted = ["torchvision"] if installed is None else [n for n in ("torchvision", "torchaudio") if n in installed]
    if remove:
        plan.commands.append(Command(target.uninstall(remove), "remove the current torch build and its companions", ids))
    if choice.preinstall:
        base = wheeldata.windows_index(choice.rocm or "")
        urls = [base + (p if p.endswith((".whl", ".tar.gz")) else f"{p}-py3-none-win_amd64.whl") for p in choice.preinstall]
        plan.commands.append(Command(target.install(urls, None, ("--no-cache-dir",)), f"install AMD's ROCm {choice.rocm} SDK wheels", ids))
    requirements = torch_requirements(choice, wanted)
    plan.requirements.extend(requirements)
    index = None if choice.route == "amd-windows" else choice.index_url
    plan.commands.append(
        Command(target.install([r.spec for r in requirements], index), f"install torch {choice.torch} ({choice.route})", ids)
    )


def _installed_rocm_index(facts: Facts) -> Optional[str]:
    if facts.torch.rocm_version.is_known:
        parts = str(facts.torch.rocm_version.value).split(".")
        return wheeldata.pytorch_index(".".join(parts[:2]))
    return None


def _intent_commands(plan: PipPlan, facts: Facts, target: Target, request: PipRequest) -> None:
    ids = request.finding_ids
    installed = _installed(facts) or {}
    if request.intent == "remove-cuda-triton":
        plan.commands.append(Command(target.uninstall(["triton"]), "remove the CUDA triton that shadows pytorch-triton-rocm", ids))
        rocm_triton = installed.get("pytorch-triton-rocm")
        index = _installed_rocm_index(facts)
        if rocm_triton and index:
            plan.commands.append(
                Command(
                    target.install([f"pytorch-triton-rocm=={rocm_triton}"], index, ("--force-reinstall", "--no-deps")),
                    "restore the files of pytorch-triton-rocm that the CUDA triton overwrote",
                    ids,
                )
            )
    elif request.intent == "reinstall-torchvision-matching":
        torch_version = str(facts.torch.version.value) if facts.torch.version.is_known else None
        vision, _ = wheeldata.companions(".".join((torch_version or "").split("+")[0].split(".")[:2]))
        if not vision:
            plan.notes.append(f"{', '.join(ids)}: no known torchvision for torch {torch_version or 'unknown'}")
            return
        plan.commands.append(Command(target.uninstall(["torchvision"]), "remove the mismatched torchvision", ids))
        plan.commands.append(
            Command(target.install([_pin("torchvision", vision)], _installed_rocm_index(facts)), f"install the torchvision built for torch {torch_version}", ids)
        )
    elif request.intent == "pin-numpy-1":
        plan.commands.append(Command(target.install(["numpy<2"], None), "torch wheels before 2.3 were compiled against numpy 1.x", ids))
    elif request.packages:
        # Checked again after interpolation: a fact can fill a placeholder with anything.
        problems = [p for p in map(quoting.requirement_problem, request.packages) if p is not None]
        if request.index_url is not None:
            problems += [p for p in [quoting.index_problem(request.index_url)] if p is not None]
        if problems:
            plan.notes.append(f"{', '.join(ids)}: no pip command: {'; '.join(problems)}")
            return
        plan.commands.append(Command(target.install(list(request.packages), request.index_url), request.text or "install", ids))
    elif request.intent:
        plan.notes.append(f"{', '.join(ids)}: no command for pip intent {request.intent!r}; {request.text or ''}".rstrip("; "))


def pip_plan(
    plan: FixPlan,
    facts: Facts,
    python: Optional[str] = None,
    installer: str = "pip",
    requested_torch: Optional[str] = None,
    index_override: Optional[str] = None,
) -> PipPlan:
    """Turn the pip fixes of ``plan`` (and ``--torch``) into commands for the target interpreter."""
    target = Target(target_python(facts, python), installer, index_override)
    result = PipPlan(windows=is_windows(facts))
    torch_requests = [p for p in plan.pip if p.intent in TORCH_INTENTS]
    route = plan.torch_route
    if requested_torch and route is None:
        route = "auto"
    if route is not None:
        ids = tuple(dict.fromkeys(i for p in torch_requests for i in p.finding_ids))
        _replace_torch(result, facts, target, route, requested_torch, ids)
    for request in plan.pip:
        if request.intent in TORCH_INTENTS:
            continue
        if route is not None and request.intent == "remove-cuda-triton":
            continue  # the torch replacement already removes triton
        _intent_commands(result, facts, target, request)
    return result
