"""The ``process`` section: what the process ``--pid`` names loaded and uses (absent without ``--pid``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Dict, Optional

from rocm_doctor.facts.env import is_relevant
from rocm_doctor.facts.context import GatherContext
from rocm_doctor.facts.model import ProcessFacts
from rocm_doctor.facts.processes import MachineView, ProcessReading, read_process
from rocm_doctor.facts.value import Fact, absent, failed, known, unknown
from rocm_doctor.system.process_view import process_view_of

SOURCE = "process"


def launcher_vars(process_env: Dict[str, str], shell_env: Dict[str, str]) -> Dict[str, str]:
    """Relevant variables the process has that the shell has not, or has with another value."""
    return {k: v for k, v in sorted(process_env.items()) if is_relevant(k) and shell_env.get(k) != v}


def _or_problem(value: Any, problem: Optional[str], source: str) -> Fact[Any]:
    return known(value, source) if value is not None else failed(source, problem or "could not be read")


def process_facts(reading: ProcessReading, shell_env: Optional[Dict[str, str]]) -> ProcessFacts:
    """The section of one reading; ``shell_env`` None when the shell's environment is not known."""
    entry = reading.entry
    pid = entry.pid
    maps = f"/proc/{pid}/maps"
    libraries = reading.libraries
    lib_fact = lambda value: _or_problem(value, reading.libraries_problem, maps)  # noqa: E731
    torch = reading.torch
    if libraries is None:
        no_torch: Fact[Any] = failed(maps, reading.libraries_problem or "could not be read")
        flavour = version = location = no_torch
    elif torch is None:
        flavour = version = location = absent(maps, "it loaded no torch library")
    else:
        flavour = known(torch.flavour, maps)
        location = known(torch.location, maps)
        version = known(torch.version, f"{torch.location}-*.dist-info") if torch.version else unknown(
            torch.version_problem or "no version")
    kfd = f"/sys/class/kfd/kfd/proc/{pid}"
    if reading.kfd_context is None:
        context: Fact[Any] = unknown(reading.gpu_problem or "no KFD on this machine to tell")
    else:
        context = known(bool(reading.uses_gpu), kfd)
    nodes = sorted({g.node for g in reading.gpus if g.node is not None})
    if reading.environ is None:
        launched: Fact[Any] = failed(f"/proc/{pid}/environ", reading.environ_problem or "could not be read")
    elif shell_env is None:
        launched = unknown("the environment of the shell is not known")
    else:
        found = launcher_vars(reading.environ, shell_env)
        launched = known(found, f"/proc/{pid}/environ") if found else absent(
            f"/proc/{pid}/environ", "every relevant variable is as in the shell")
    return ProcessFacts(
        pid=known(pid, SOURCE),
        command=known(list(entry.cmdline) or [entry.name], SOURCE),
        user=known(entry.user, SOURCE) if entry.user else unknown(entry.problem or "not readable"),
        executable=known(entry.exe, SOURCE) if entry.exe else unknown(entry.problem or "not readable"),
        age_seconds=known(round(entry.age_seconds, 1), SOURCE) if entry.age_seconds is not None else unknown("not readable"),
        parents=known(list(reading.parents), SOURCE),
        libraries=lib_fact([lib.path for lib in libraries] if libraries is not None else None),
        runtime_installs=lib_fact(sorted({lib.install for lib in reading.of_kind("hip-runtime", "hsa-runtime")})
                                  if libraries is not None else None),
        torch_flavour=flavour,
        torch_version=version,
        torch_location=location,
        gpu_context=context,
        gpu_nodes=known(nodes, kfd) if reading.kfd_context is not None else unknown(reading.gpu_problem or "no KFD"),
        vram_bytes=known(reading.vram_bytes, kfd) if reading.vram_bytes is not None else absent(kfd, "no GPU memory held"),
        launcher_vars=launched,
    )


def gather_process(ctx: GatherContext) -> ProcessFacts:
    """The process section of ``--pid`` (every fact absent without it)."""
    system = process_view_of(ctx.system)
    if ctx.options.pid is None or system is None:
        return ProcessFacts()
    view = MachineView.of(system, only=system.pid)
    reading = read_process(system, system.entry, view, environment=False)
    if reading.gone:
        return ProcessFacts(**{name: failed(SOURCE, reading.gone) for name in ProcessFacts.model_fields})
    # the environment read once, when --pid was attached: the one every other section saw
    reading = replace(reading, environ=dict(system.environ()), environ_problem=None)
    return process_facts(reading, dict(system.shell_environ()))
