"""Where facts come from: the live machine, a recorded machine, a facts file or a pasted report.

``facts``, ``check``, ``fix``, ``dockerfile``, ``docker-run`` and ``report`` all take
these options, so they live here once.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Tuple, TypeVar

import typer

from rocm_doctor.errors import InputError
from rocm_doctor.facts.context import GatherOptions
from rocm_doctor.facts.gather import gather
from rocm_doctor.facts.model import Facts, FactsFileError, over_limit
from rocm_doctor.files import read_limited
from rocm_doctor.limits import JSON_BYTES
from rocm_doctor.system.base import Started

if typing.TYPE_CHECKING:
    from rocm_doctor.ingest.model import IngestResult

PYTHON_OPTION = typer.Option(None, "--python", metavar="PYTHON", help="Target interpreter (default: the active venv or conda env, else python3 on PATH).")
NO_TORCH_OPTION = typer.Option(False, "--no-torch", help="Do not start torch; read only what files say.")
MACHINE_OPTION = typer.Option(None, "--machine", metavar="DIR", help="Replay a recorded machine folder instead of this machine.")
FACTS_OPTION = typer.Option(None, "--facts", metavar="FILE", help="Read facts from a JSON file written by `facts --json`.")
FROM_OPTION = typer.Option(None, "--from", metavar="FILE", help="Diagnose a pasted report (file, or - for stdin).")
TIMEOUT_OPTION = typer.Option(60.0, "--timeout", metavar="SECONDS", help="Seconds the target interpreter may take: its inspection, and the live torch probe.")
PID_OPTION = typer.Option(None, "--pid", metavar="PID", min=1, help="Read a running process instead of the shell: its environment, interpreter, loaded libraries, GPU context.")
RULES_OPTION = typer.Option(None, "--rules", metavar="PATH", help="Extra rule file or folder (repeatable; also ROCM_DOCTOR_RULES).")

_GATHERING: Tuple[Tuple[str, Any, Any], ...] = (
    ("python", Optional[str], PYTHON_OPTION),
    ("no_torch", bool, NO_TORCH_OPTION),
    ("machine", Optional[Path], MACHINE_OPTION),
    ("facts_file", Optional[Path], FACTS_OPTION),
    ("from_file", Optional[str], FROM_OPTION),
    ("timeout", float, TIMEOUT_OPTION),
    ("pid", Optional[int], PID_OPTION),
)
"""(parameter, type, typer option) of every gathering option, in --help order."""

C = TypeVar("C", bound=Callable[..., Any])


@dataclass(frozen=True)
class FactsSource:
    """The gathering options a command received."""

    python: Optional[str] = None
    no_torch: bool = False
    machine: Optional[Path] = None
    facts_file: Optional[Path] = None
    from_file: Optional[str] = None
    timeout: float = 60.0
    pid: Optional[int] = None
    started_early: Tuple[Started, ...] = field(default=(), compare=False)
    """The children the CLI started before its imports (see ``rocm_doctor.cli.early``)."""

    @property
    def is_live(self) -> bool:
        """True when facts come from this machine (not --machine, --facts or --from)."""
        return self.machine is None and self.facts_file is None and self.from_file is None


def gathering_options(command: C) -> C:
    """Give a typer command the shared gathering options, passed to it as ``source: FactsSource``.

    The command declares ``source: FactsSource`` as its last parameter; typer sees
    ``--python``, ``--no-torch``, ``--machine``, ``--facts``, ``--from`` and ``--timeout``
    in its place.
    """
    signature = inspect.signature(command)
    kept = [p for name, p in signature.parameters.items() if name != "source"]
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=annotation)
        for name, annotation, option in _GATHERING
    ]
    # typer passes its Context to a parameter annotated typer.Context; ctx.obj holds the children started early.
    added.append(inspect.Parameter("typer_context", inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context))
    hints = typing.get_type_hints(command)
    hints.pop("source", None)

    @functools.wraps(command)
    def with_source(*args: Any, **kwargs: Any) -> Any:
        values = {name: kwargs.pop(name) for name, _, _ in _GATHERING}
        if not values["timeout"] > 0:
            raise InputError("--timeout must be a positive number of seconds")
        context = kwargs.pop("typer_context", None)
        early = getattr(context, "obj", None)
        return command(*args, source=FactsSource(**values, started_early=tuple(early or ())), **kwargs)

    with_source.__signature__ = signature.replace(parameters=kept + added)  # type: ignore[attr-defined]
    with_source.__annotations__ = {
        **hints,
        **{name: annotation for name, annotation, _ in _GATHERING},
        "typer_context": typer.Context,
    }
    return typing.cast(C, with_source)


def load_facts(source: FactsSource, progress: Optional[Callable[[str], None]] = None) -> Facts:
    """Obtain facts from exactly one source, within the facts limits; bad input raises InputError."""
    return within_limits(_load_facts(source, progress), source)


def within_limits(facts: Facts, source: FactsSource) -> Facts:
    """``facts`` when they are within ``facts.max_gpus``, ``facts.max_entries`` and ``facts.max_text``."""
    problem = over_limit(facts)
    if problem is not None:
        name = next((str(n) for n in (source.facts_file, source.machine, source.from_file) if n is not None), "this machine")
        raise InputError(f"{name}: {problem}")
    return facts


@dataclass(frozen=True)
class GatherPlan:
    """How to gather a live or recorded machine (``--facts`` and ``--from`` need no gathering)."""

    system: Any
    options: GatherOptions
    origin: str
    origin_detail: Optional[str] = None


def gather_plan(source: FactsSource) -> Optional[GatherPlan]:
    """The system and options to gather, or None when facts come from a file; bad input raises InputError."""
    chosen = [x for x in (source.machine, source.facts_file, source.from_file) if x is not None]
    if len(chosen) > 1:
        raise InputError("use only one of --machine, --facts and --from")
    if source.facts_file is not None or source.from_file is not None:
        if source.pid is not None:
            raise InputError("--pid reads a running process; it cannot be combined with --facts or --from")
        return None
    options = GatherOptions(
        python=source.python,
        torch=not source.no_torch,
        torch_timeout=source.timeout,
        started_early=source.started_early,
    )
    if source.machine is not None:
        from rocm_doctor.system.recorded import RecordedSystem

        system = RecordedSystem(source.machine)  # a bad folder raises RecordedMachineError, an InputError
        return for_process(GatherPlan(system, options, "recorded", str(source.machine)), source.pid)
    from rocm_doctor.system.live import LiveSystem

    return for_process(GatherPlan(LiveSystem(), options, "live"), source.pid)


def for_process(plan: GatherPlan, pid: Optional[int]) -> GatherPlan:
    """``plan`` as process ``pid`` sees the machine (``--pid``): its environment and interpreter."""
    if pid is None:
        return plan
    from rocm_doctor.system.process_view import ProcessUnreadable, ProcessView

    try:
        view = ProcessView.attach(plan.system, pid)
    except ProcessUnreadable as exc:
        raise InputError(f"--pid {pid}: {exc}") from None
    options = dataclasses.replace(plan.options, pid=pid, started_early=())
    return GatherPlan(view, options, plan.origin, plan.origin_detail)


def _load_facts(source: FactsSource, progress: Optional[Callable[[str], None]] = None) -> Facts:
    plan = gather_plan(source)
    if plan is not None:
        facts = gather(plan.system, plan.options, origin=plan.origin, origin_detail=plan.origin_detail, progress=progress)
        return usable_target(source, facts) if plan.origin == "live" else facts
    if source.facts_file is not None:
        try:
            text = read_limited(Path(source.facts_file), JSON_BYTES).decode("utf-8")
        except OSError as exc:
            raise InputError(f"{source.facts_file}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise InputError(f"{source.facts_file}: not a facts file (not UTF-8 text)") from None
        try:
            return Facts.from_json(text)
        except FactsFileError as exc:
            raise InputError(f"{source.facts_file}: {exc}") from None
    return ingest_paste(source.from_file).facts  # type: ignore[arg-type]


def ingest_paste(path_or_dash: str) -> "IngestResult":
    """A pasted report read into facts; a paste in which no reader recognised anything (and none crashed) is bad input.

    Judging such a paste would print "no problem found" and exit 0 for text that says nothing
    (``echo hello | rocm-doctor check --from -``): say so instead, and what to paste.
    """
    from rocm_doctor.ingest import ingest_report_file
    from rocm_doctor.judge.paste_verdict import coverage

    ingested = ingest_report_file(path_or_dash)
    if ingested.pieces or ingested.facts.meta.crashes:
        return ingested  # a reader that crashed may have been the one that would have recognised it: check says so
    name = "stdin" if path_or_dash == "-" else path_or_dash
    asks = [f"  {area.collect.what}: {area.collect.linux}" for area in coverage(ingested.facts) if area.collect is not None]
    raise InputError(
        f"{name}: nothing in it was recognised (no command output or report that rocm-doctor reads).\n"
        "Paste the output of these commands (or the file `rocm-doctor report` writes on the machine):\n" + "\n".join(asks)
    )


def usable_target(source: FactsSource, facts: Facts) -> Facts:
    """An explicit ``--python`` that cannot be run is bad input, not an undecided diagnosis."""
    executable = facts.python.executable
    if source.python is not None and executable.status == "failed":
        raise InputError(f"--python {source.python}: {executable.reason}")
    return facts
