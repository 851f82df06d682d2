"""The typer application, its global options and the error boundary.

Exit codes: 0 fine, 1 findings at or above ``--fail-on``, 2 usage or input
error, 3 internal error (a crash log is written, no traceback on screen).
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from typing import Callable, Dict, List, Optional, Sequence

import typer
from rich.console import Console
from rich.markup import escape

from rocm_doctor import __version__
from rocm_doctor.crashlog import write_crash_log
from rocm_doctor.errors import DoctorError
from rocm_doctor.render.safe import SafeConsole, degrade_streams
from rocm_doctor.system.base import Started

app = typer.Typer(
    name="rocm-doctor",
    help="Diagnose and fix PyTorch on AMD GPUs (ROCm).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Plain help: click's layout wraps at word boundaries and shows metavars, not Python type labels.
    rich_markup_mode=None,
)


def stderr_console() -> Console:
    """Console for messages; honours NO_COLOR; escapes control characters (see ``render.safe``)."""
    return SafeConsole(stderr=True, no_color=bool(os.environ.get("NO_COLOR")), highlight=False)


def stdout_console() -> Console:
    """Console for results; honours NO_COLOR; escapes control characters (see ``render.safe``)."""
    return SafeConsole(no_color=bool(os.environ.get("NO_COLOR")), highlight=False, soft_wrap=False)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"rocm-doctor {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Optional[bool] = typer.Option(
        None, "--version", callback=_version_callback, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Diagnose and fix PyTorch on AMD GPUs (ROCm)."""


COMMAND_MODULES: Dict[str, str] = {
    "facts": "facts_cmd",
    "check": "check_cmd",
    "explain": "check_cmd",
    "rules": "check_cmd",
    "fix": "fix_cmd",
    "dockerfile": "fix_cmd",
    "docker-run": "fix_cmd",
    "bench": "bench_cmd",
    "report": "report_cmd",
    "health": "health_cmd",
    "fleet": "fleet_cmd",
    "matrix": "matrix_cmd",
    "ps": "ps_cmd",
    "baseline": "baseline_cmd",
    "diff": "diff_cmd",
}
"""Command name -> the module under ``rocm_doctor.cli`` that registers it."""


SUMMARIES: Dict[str, str] = {
    "bench": "Run GPU micro-benchmarks in the target interpreter.",
    "check": "Judge this machine and explain every finding.",
    "explain": "Print a rule's full documentation.",
    "facts": "Print what rocm-doctor sees: OS, GPUs, ROCm, PyTorch.",
    "fix": "Print the fix plan; write env files; run pip.",
    "dockerfile": "Print a Dockerfile snippet for this machine.",
    "docker-run": "Print docker run flags and a compose service.",
    "health": "One line for machines: the worst finding's action.",
    "fleet": "Many nodes in one view: drift, findings, slow GPUs.",
    "report": "Write a markdown bug report (redacted by default).",
    "ps": "GPU processes: the torch and runtime each loaded.",
    "diff": "What changed since a baseline; known regressions first.",
    "baseline save": "Save the facts, findings and rule database's version.",
    "baseline list": "List the saved baselines, newest first.",
    "baseline show": "Show a baseline's stack and findings.",
    "baseline rm": "Remove a baseline.",
    "rules list": "List every rule and the rule database's version.",
    "rules validate": "Check rule files; exit 2 on the first problem.",
    "rules update": "Install the newest signed rule database (--revert).",
    "matrix": "Which torch builds run on a GPU, with the install command.",
}
"""The one-line summary ``--help`` lists per command. click cuts a docstring's first sentence to
fit 80 columns less the longest command name, mid-word; these fit whole (under 60 characters)."""


def _apply_summaries(typer_app: typer.Typer, prefix: str = "") -> None:
    """Give every registered command (and ``rules``' subcommands) its summary from :data:`SUMMARIES`."""
    for info in typer_app.registered_commands:
        name = prefix + (info.name or "")
        if info.short_help is None and name in SUMMARIES:
            info.short_help = SUMMARIES[name]
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            _apply_summaries(group.typer_instance, f"{prefix}{group.name} ")


def _register_commands(argv: Sequence[str] = ()) -> None:
    """Import the module of the command being run, or every module (help, completion).

    Importing only what the command needs keeps ``check --no-torch`` fast: the fix
    commands pull in requests, the facts view rich tables, and so on.
    """
    words = [a for a in argv if not a.startswith("-")]
    wanted = COMMAND_MODULES.get(words[0]) if words else None
    if wanted is None or os.environ.get("_ROCM_DOCTOR_COMPLETE"):
        modules = sorted(set(COMMAND_MODULES.values()))
    else:
        modules = [wanted]
    for module in modules:
        importlib.import_module(f"rocm_doctor.cli.{module}")
    _apply_summaries(app)


def _click_exceptions() -> tuple:
    """Usage errors: typer vendors its own copy of click, and older typers use click itself."""
    kinds = []
    try:
        from typer._click.exceptions import ClickException as VendoredClickException

        kinds.append(VendoredClickException)
    except ImportError:  # pragma: no cover - typer without a vendored click
        pass
    try:
        from click.exceptions import ClickException

        kinds.append(ClickException)
    except ImportError:  # pragma: no cover - click not installed
        pass
    return tuple(kinds)


_COMMAND_STARTED: List[float] = []
"""``time.monotonic()`` when this command began: the process's start when main() runs in a fresh process."""

_FRESH_PROCESS_SECONDS = 3.0
"""A process younger than this when main() runs was started for this command (interpreter start-up and
imports count: whoever set a budget waits for them too); an older one is a harness calling main()."""


def command_started() -> float:
    """When this command began, as ``time.monotonic()`` (now, when main() did not run)."""
    return _COMMAND_STARTED[-1] if _COMMAND_STARTED else time.monotonic()


def _process_age() -> float:
    """Seconds since this process started: from /proc (clock ticks since boot, exact), else psutil (whose
    start time rests on a boot time rounded to whole seconds); 0 when unknown or not a fresh process."""
    try:
        with open("/proc/self/stat", "rb") as stat_file, open("/proc/uptime", "rb") as uptime_file:
            fields = stat_file.read().rsplit(b")", 1)[1].split()
            age = float(uptime_file.read().split()[0]) - int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        try:
            import psutil

            age = time.time() - psutil.Process().create_time()
        except Exception:  # noqa: BLE001 - no process table (a sandbox): count from now
            return 0.0
    return age if 0.0 <= age < _FRESH_PROCESS_SECONDS else 0.0


def main(after_start_up: Optional[Callable[[], None]] = None) -> None:
    """Console-script entry point: run the app behind the error boundary.

    ``after_start_up`` runs once the command's modules are imported (``rocm_doctor.cli.main`` settles
    the start-up heap there), whether or not that worked.
    """
    _COMMAND_STARTED.append(time.monotonic() - _process_age())
    started: List[Started] = []
    degrade_streams()  # a cp1252 console or a redirected Windows stdout gets \uXXXX, never an exception
    try:
        code = _run(sys.argv[1:], started, after_start_up)
    finally:
        for probe in started:  # started early but never collected (an error, or another source)
            probe.cancel()
    sys.exit(code)


def _run(argv: List[str], started: List[Started], after_start_up: Optional[Callable[[], None]] = None) -> int:
    """Run one command line; every failure becomes an exit code and a message, never a traceback."""
    try:
        try:
            from rocm_doctor.cli.early import start_early

            early = start_early(argv)
            started.extend(early)
            _register_commands(argv)
        finally:
            if after_start_up is not None:
                after_start_up()
        code = app(args=argv, standalone_mode=False, obj=tuple(early))
    except typer.Exit as exc:
        return int(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        stderr_console().print("Interrupted.")
        return 130
    except DoctorError as exc:
        # escape: the message quotes user input (paths, values) that may contain [brackets]
        stderr_console().print(f"[bold red]error:[/] {escape(str(exc))}", markup=True, soft_wrap=True)
        return exc.exit_code
    except Exception as exc:  # noqa: BLE001 - the error boundary
        if isinstance(exc, _click_exceptions()):
            exc.show()  # type: ignore[attr-defined]
            return int(exc.exit_code)  # type: ignore[attr-defined]
        path = write_crash_log()
        stderr_console().print(
            f"[bold red]internal error:[/] {type(exc).__name__}: {escape(str(exc))}\n"
            f"A crash log was written to {path}; please attach it to a bug report."
        )
        return 3
    return code if isinstance(code, int) else 0
