"""Run every gatherer over a System and assemble one Facts snapshot.

Gatherers run in a fixed order (later ones read what earlier ones found through
``ctx.sections``). A gatherer that raises does not stop the doctor: its section
becomes all-failed facts naming the crash.

The live torch probe needs only the target interpreter's path, and it spends
most of its time in the child's ``import torch``; gather() therefore starts it
(``System.start``) before anything else, or adopts the one the CLI started
before its own imports (``GatherOptions.started_early``), and the torch gatherer
collects its result in turn (``check`` is meant to be no slower than
``collect_env``). Whether torch is installed is still decided from its files.
"""

from __future__ import annotations

import datetime as _dt
import time
from typing import Any, Callable, Dict, List, Optional, Tuple, Type, TypeVar

from pydantic import BaseModel

from rocm_doctor import __version__
from rocm_doctor.crashlog import write_crash_log
from rocm_doctor.facts.context import GatherContext, GatherOptions, failed_section
from rocm_doctor.facts.model import BenchFacts, Crash, Facts, MetaFacts, Section, SymptomFacts
from rocm_doctor.facts.value import absent
from rocm_doctor.system.base import System

S = TypeVar("S", bound=Section)


Gatherer = Callable[[GatherContext], BaseModel]


def _gatherers() -> List[Tuple[str, Type[Section], Gatherer]]:
    # Imported here, for start-up speed only (a downward import: the gatherers import
    # facts.context, never this module): reading a pasted report does not load every probe.
    from rocm_doctor.facts.cpu import gather_cpu
    from rocm_doctor.facts.driver import gather_driver
    from rocm_doctor.facts.env import gather_env
    from rocm_doctor.facts.gpu import gather_gpus
    from rocm_doctor.facts.host import gather_host
    from rocm_doctor.facts.model import (
        CpuFacts,
        DriverFacts,
        EnvFacts,
        GpuFacts,
        HostFacts,
        PackagesFacts,
        PermissionsFacts,
        PythonFacts,
        RocmFacts,
        TorchFacts,
        WindowsHipFacts,
    )
    from rocm_doctor.facts.packages import gather_packages
    from rocm_doctor.facts.permissions import gather_permissions
    from rocm_doctor.facts.python_env import gather_python
    from rocm_doctor.facts.rocm import gather_rocm
    from rocm_doctor.facts.torch import gather_torch
    from rocm_doctor.facts.windows import gather_windows

    return [
        ("host", HostFacts, gather_host),
        ("env", EnvFacts, gather_env),
        ("python", PythonFacts, gather_python),
        ("cpu", CpuFacts, gather_cpu),
        ("permissions", PermissionsFacts, gather_permissions),
        ("driver", DriverFacts, gather_driver),
        ("rocm", RocmFacts, gather_rocm),
        ("windows", WindowsHipFacts, gather_windows),
        ("gpus", GpuFacts, gather_gpus),
        ("packages", PackagesFacts, gather_packages),
        ("torch", TorchFacts, gather_torch),
    ]


def section_types() -> Dict[str, Type[Section]]:
    """Section name -> its model, in gathering order."""
    return {name: cls for name, cls, _ in _gatherers()}


def unfinished_section(name: str, cls: Type[S], reason: str) -> S:
    """The section of a gatherer that did not run or did not finish: every fact failed, naming why."""
    return failed_section(cls, f"rocm_doctor.facts.{name}", reason)


def _run_gatherer(ctx: GatherContext, name: str, cls: Type[Section], gatherer: Gatherer) -> Tuple[BaseModel, Optional[str]]:
    """One gatherer and, when it crashed, why; a crash becomes a section of failed facts naming it,
    and a crash row (with the crash log) in ``meta.crashes``."""
    try:
        return gatherer(ctx), None
    except Exception as exc:  # noqa: BLE001 - a crashed probe becomes failed facts
        reason = f"the {name} gatherer crashed: {type(exc).__name__}: {exc}"
        ctx.crashes.append(Crash(what=f"gatherer {name}", reason=f"{type(exc).__name__}: {exc}", log=write_crash_log(f"gatherer {name}")))
        return unfinished_section(name, cls, reason), reason


SectionDone = Callable[[str, BaseModel, Optional[str]], None]
"""Called after each section: its name, the section, and the crash reason (None when it did not crash)."""


def gather(
    system: System,
    options: GatherOptions = GatherOptions(),
    origin: str = "live",
    origin_detail: Optional[str] = None,
    progress: Optional[Callable[[str], None]] = None,
    on_section: Optional[SectionDone] = None,
) -> Facts:
    """Gather every section; never raises for a probe that fails.

    ``on_section`` sees each section as soon as it is gathered (``health`` keeps them, so a
    gatherer that hangs past its budget costs only its own section).
    """
    start = time.monotonic()
    ctx = GatherContext(system=system, options=options)
    try:
        _adopt_early(ctx)
        for name, cls, gatherer in _gatherers():
            if progress is not None:
                progress(name)
            ctx.sections[name], crash = _run_gatherer(ctx, name, cls, gatherer)
            if on_section is not None:
                on_section(name, ctx.sections[name], crash)
        if options.pid is not None:  # --pid; without it the process section is absent (Facts' default)
            from rocm_doctor.facts.model import ProcessFacts
            from rocm_doctor.facts.process_facts import gather_process

            ctx.sections["process"], _ = _run_gatherer(ctx, "process", ProcessFacts, gather_process)
    finally:
        for started in ctx.prefetched.values():  # started but never collected (a gatherer crashed)
            started.cancel()
    return assemble(ctx.sections, origin, origin_detail, time.monotonic() - start, ctx.crashes)


def _adopt_early(ctx: GatherContext) -> None:
    """Put the children the CLI started early where their gatherers collect them, if each runs exactly
    the command and timeout the gatherer would start (else cancel it); start the torch probe first
    when it was not started early (it takes longest and needs nothing gathered before it)."""
    # Imported here for start-up speed only, like every gatherer (see _gatherers).
    from rocm_doctor.facts.python_env import LABEL as INFO_KEY, info_argv, info_timeout
    from rocm_doctor.facts.torch import PROBE_KEY, probe_argv, start_torch_probe, torch_probe_timeout

    wanted = {INFO_KEY: (info_argv(ctx.python), info_timeout(ctx.options.command_timeout, ctx.options.torch_timeout))}
    if ctx.options.torch:
        wanted[PROBE_KEY] = (probe_argv(ctx.python), torch_probe_timeout(ctx))
    for early in ctx.options.started_early:
        key = next((k for k, (argv, timeout) in wanted.items()
                    if early.argv == argv and getattr(early, "timeout", None) == timeout and k not in ctx.prefetched), None)
        if key is None:
            early.cancel()
        else:
            ctx.prefetched[key] = early
    if ctx.options.torch and PROBE_KEY not in ctx.prefetched:
        ctx.prefetched[PROBE_KEY] = start_torch_probe(ctx)


def assemble(
    sections: Dict[str, Any], origin: str, origin_detail: Optional[str], seconds: float, crashes: Optional[List[Crash]] = None
) -> Facts:
    """One Facts snapshot from gathered sections (every section of :func:`section_types`)."""
    meta = MetaFacts(
        tool_version=__version__,
        origin=origin,
        origin_detail=origin_detail,
        gathered_at=_dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        duration_seconds=round(seconds, 3),
        crashes=list(crashes or []),
    )
    # Error signatures come only from a pasted report (check --from), benchmark results only
    # from `check --bench`: on a gathered machine both are definitely absent, not unknown.
    symptoms = SymptomFacts(signatures=absent("paste", "no report was pasted"), context=absent("paste", "no report was pasted"),
                           earlier=absent("paste", "no report was pasted"), earlier_errors=absent("paste", "no report was pasted"),
                           error_gfx=absent("paste", "no report was pasted"),
                           support_gpus=absent("paste", "no report was pasted"),
                           wheel_indexes=absent("paste", "no report was pasted"),
                           build_targets=absent("paste", "no report was pasted"),
                           ollama_versions=absent("paste", "no report was pasted"),
                           resolutions=absent("paste", "no report was pasted"),
                           loader_libraries=absent("paste", "no report was pasted"),
                           therock_families=absent("paste", "no report was pasted"))
    return Facts(meta=meta, symptoms=symptoms, bench=no_bench(), **sections)


def no_bench() -> BenchFacts:
    """Benchmark facts of a run that did not benchmark (``check --bench LEVEL`` fills them)."""
    reason = "no benchmark ran (use check --bench quick)"
    return BenchFacts(**{name: absent("bench", reason) for name in BenchFacts.model_fields})
