"""``rocm-doctor fix``, ``dockerfile`` and ``docker-run``: act on what ``check`` found."""

from __future__ import annotations

import enum
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console

from rocm_doctor import quoting
from rocm_doctor.cli.app import app, stderr_console, stdout_console
from rocm_doctor.cli.inputs import (
    RULES_OPTION,
    FactsSource,
    gathering_options,
    load_facts,
)
from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import Facts
from rocm_doctor.files import update_file, via
from rocm_doctor.fix.choice import NoChoice
from rocm_doctor.fix.dockerfile import refusal_text, render_dockerfile
from rocm_doctor.fix.dockerrun import docker_run
from rocm_doctor.fix.envfile import DEFAULT_FILENAMES, HOW_TO_LOAD, SHELLS, default_shell, write_env_file
from rocm_doctor.fix.index import target_tags, verify_on_index, verify_url
from rocm_doctor.fix.installer import DEFAULT_TIMEOUT, apply_commands
from rocm_doctor.fix.pip import PipPlan, pip_plan
from rocm_doctor.fix.plan import FixPlan, build_plan
from rocm_doctor.fix.requirements import check_requirements
from rocm_doctor.judge.engine import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.judge.model import Rule

Shell = enum.Enum("Shell", {s: s for s in SHELLS}, type=str)  # type: ignore[misc]


FORCE_OPTION = typer.Option(False, "--force", help="Replace the file even when it is read-only.")


class Installer(str, enum.Enum):
    pip = "pip"
    uv = "uv"


def _say(console: Console, text: str = "") -> None:
    console.print(text, markup=False, highlight=False, soft_wrap=True)


def _diagnose(source: FactsSource, rules: Optional[List[Path]]) -> tuple:
    loaded = load_rules(rules or [])
    facts = load_facts(source)
    result = evaluate(loaded, facts)
    return loaded, facts, result.findings


def _ids(ids) -> str:
    return "[" + ", ".join(ids) + "]"


def _print_plan(console: Console, plan: FixPlan, pips: PipPlan, facts: Facts) -> None:
    if plan.is_empty and not pips.commands and pips.refusal is None:
        _say(console, "Nothing to fix: no finding has a fix for this machine.")
        return
    _say(console, f"Fix plan: resolves {', '.join(plan.finding_ids)}")
    step = 0
    if plan.manual:
        step += 1
        _say(console, f"\n{step}. Manual steps (rocm-doctor cannot do these for you)")
        for item in plan.manual:
            _say(console, f"   - {item.text} {_ids(item.finding_ids)}")
            for command in item.commands:
                _say(console, f"       $ {command}" + ("   (needs root)" if item.needs_root else ""))
    if pips.commands or pips.notes or pips.refusal:
        step += 1
        _say(console, f"\n{step}. Python packages")
        for note in pips.notes:
            _say(console, f"   {note}")
        if pips.refusal is not None:
            for line in refusal_text(pips.refusal):
                _say(console, f"   {line}")
        for command in pips.commands:
            _say(console, f"   $ {command.display(pips.windows)}")
            _say(console, f"       # {command.purpose} {_ids(command.finding_ids)}")
    if plan.env:
        step += 1
        _say(console, f"\n{step}. Environment (write it with --write-env)")
        for change in plan.env:
            action = f"unset {change.name}" if change.is_unset else f"set {change.name}={change.value}"
            _say(console, f"   {action} {_ids(change.finding_ids)}")
    if plan.docker:
        step += 1
        _say(console, f"\n{step}. Docker (see `rocm-doctor dockerfile` and `rocm-doctor docker-run`)")
        for item in plan.docker:
            _say(console, f"   - {item.text or ' '.join(item.run_flags)} {_ids(item.finding_ids)}")
    if plan.code:
        step += 1
        _say(console, f"\n{step}. Code advice")
        for item in plan.code:
            _say(console, f"   - {item.text} {_ids(item.finding_ids)}")
    if plan.conflicts:
        _say(console, "\nConflicts (not applied; choose one and set it yourself):")
        for conflict in plan.conflicts:
            _say(console, f"   - {conflict.describe()}")
    if plan.alternatives:
        _say(console, "\nIf you must keep the installed torch instead (rocm-doctor fix --keep-torch):")
        for alternative, ids in plan.alternatives:
            _say(console, f"   - {alternative.text or alternative.kind} {_ids(ids)}")
            for name, value in alternative.set.items():
                _say(console, f"       set {name}={value}")
            for name in alternative.unset:
                _say(console, f"       unset {name}")
    for note in plan.notes:
        _say(console, f"\nNote: {note.text} {_ids(note.finding_ids)}")


def _verify(console: Console, pips: PipPlan, facts: Facts, index_override: Optional[str]) -> bool:
    """Check every torch requirement on its index; False when one is missing."""
    python = facts.python.version.value if facts.python.version.is_known else None
    os_name = "windows" if pips.windows else "linux"
    if not python:
        _say(console, "Index not verified: the target's Python version is unknown.")
        return True
    tags = target_tags(str(python), os_name)
    ok = True
    for requirement in pips.requirements:
        if requirement.url and not index_override:
            verdict = verify_url(requirement.url, requirement.name, tags)
        else:
            index = index_override or requirement.index_url
            if not index:
                continue
            local = f"rocm{pips.choice.rocm}" if pips.choice and pips.choice.route == "pytorch.org" else None
            verdict = verify_on_index(index, requirement.name, requirement.version, tags, local)
        label = {"found": "verified", "missing": "MISSING", "not-verified": "not verified"}[verdict.status]
        _say(console, f"   {label}: {requirement.name}: {verdict.detail}")
        ok = ok and verdict.status != "missing"
    return ok


@app.command("fix")
@gathering_options
def fix(
    # A flag plus --env-file rather than an optional value: typer's parser cannot take an
    # optional option value, and `--write-env --dry-run` would read --dry-run as the path.
    write_env: bool = typer.Option(False, "--write-env", help="Write the environment changes, merged into the file."),
    env_file: Optional[Path] = typer.Option(None, "--env-file", help="File for --write-env (default rocm-doctor.<ext> here)."),
    shell: Optional[Shell] = typer.Option(None, "--shell", help="Env file format (default: from the platform)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show the env-file diff; write nothing."),
    pip_only: bool = typer.Option(False, "--pip", help="Print only the pip commands, one per line."),
    installer: Installer = typer.Option(Installer.pip, "--installer", help="pip, or uv pip --python."),
    verify_index: bool = typer.Option(False, "--verify-index", help="Confirm on the index that the wheels exist."),
    torch_version: Optional[str] = typer.Option(None, "--torch", help="Install this torch version (refused with alternatives when impossible)."),
    index_url: Optional[str] = typer.Option(None, "--index-url", help="Install from this index (a mirror) instead of the chosen one."),
    requirements: Optional[Path] = typer.Option(None, "--requirements", help="Warn if installing this requirements file would replace the ROCm torch."),
    apply: bool = typer.Option(False, "--apply", help="Run the pip commands in the target environment, then re-check."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask before --apply runs the commands."),
    keep_torch: bool = typer.Option(
        False, "--keep-torch", help="Keep the installed torch: apply the fixes meant for it instead of replacing it."
    ),
    force: bool = FORCE_OPTION,
    rules: Optional[List[Path]] = RULES_OPTION,
    source: FactsSource = FactsSource(),
) -> None:
    """Print the fix plan for what `check` finds; write env files; run the pip commands.

    Exit codes: 0 done, 1 a step failed or a finding remains after --apply, 2 bad input.
    """
    if apply and not source.is_live:
        raise InputError("--apply changes this machine: it cannot be used with --machine, --facts or --from")
    loaded, facts, findings = _diagnose(source, rules)
    plan = build_plan(findings, facts, keep_torch=keep_torch)
    pips = pip_plan(plan, facts, source.python, installer.value, torch_version, index_url)
    console = stdout_console()
    if torch_version and pips.refusal is not None:
        for line in refusal_text(pips.refusal):
            stderr_console().print(line, markup=False)
        raise typer.Exit(2)
    if pip_only:
        for command in pips.commands:
            sys.stdout.write(command.display(pips.windows) + "\n")
    else:
        _print_plan(console, plan, pips, facts)
    if verify_index and pips.requirements:
        _say(console, "\nIndex check:")
        if not _verify(console, pips, facts, index_url):
            raise typer.Exit(1)
    if requirements is not None:
        _requirements_section(console, requirements, facts, pips)
    if write_env or env_file is not None:
        _write_env(console, plan, facts, env_file, shell.value if shell else None, dry_run, force)
    if apply:
        _apply(console, plan, pips, facts, source, loaded, yes)


def _requirements_section(console: Console, path: Path, facts: Facts, pips: PipPlan) -> None:
    installed = dict(facts.packages.installed.value) if facts.packages.installed.is_known else {}
    flavour = facts.torch.flavour.value if facts.torch.flavour.is_known else None
    report = check_requirements(path, installed, flavour)
    _say(console, f"\nRequirements file {path}:")
    if not report.at_risk:
        _say(console, "   installing it keeps the ROCm torch.")
    for warning in report.warnings:
        _say(console, f"   warning: {warning}")
    if report.constraints:
        _say(console, "   Put these lines in constraints.txt and install with -c so pip cannot swap the build:")
        for line in report.constraints:
            _say(console, f"     {line}")
        target = pips.commands[0].argv[0] if pips.commands else (facts.python.executable.value or "python")
        argv = [str(target), "-m", "pip", "install", "-r", str(path), "-c", "constraints.txt"]
        _say(console, f"   $ {quoting.command_line(argv, pips.windows)}")


def _write_env(
    console: Console, plan: FixPlan, facts: Facts, where: Optional[Path], shell: Optional[str], dry_run: bool, force: bool
) -> None:
    os_name = facts.host.os.value if facts.host.os.is_known else None
    chosen = shell or default_shell(os_name, os.environ.get("SHELL"))
    path = where if where is not None else Path(DEFAULT_FILENAMES[chosen])
    result = write_env_file(path, chosen, plan.env, dry_run=dry_run, force=force)
    shown = via(path, result.path)
    _say(console, "")
    if not result.changed:
        _say(console, f"{shown} already has these settings ({chosen}); nothing changed.")
    elif dry_run:
        _say(console, f"Would change {shown} ({chosen}):")
        _say(console, result.diff.rstrip("\n"))
    else:
        _say(console, f"Wrote {shown} ({chosen})" + (f"; the previous file is {result.backup}" if result.backup else ""))
        _say(console, "Load it with: " + HOW_TO_LOAD[chosen].format(path=path))
    for note in result.notes:
        _say(console, f"Note: {note}")


def _apply(console: Console, plan: FixPlan, pips: PipPlan, facts: Facts, source: FactsSource, rules: List[Rule], yes: bool) -> None:
    for item in plan.manual:
        _say(console, f"Do this yourself (rocm-doctor never runs sudo): {item.text} {_ids(item.finding_ids)}")
    if not pips.commands:
        _say(console, "\nNo pip command to run.")
        return
    _say(console, "\nThese commands will run:")
    for command in pips.commands:
        _say(console, f"   $ {command.display(pips.windows)}")
    if not yes and not typer.confirm("Run them?", default=False):
        _say(console, "Nothing was run.")
        raise typer.Exit(1)
    ids = [i for c in pips.commands for i in c.finding_ids]
    report = apply_commands(
        pips.commands, ids, facts, lambda: load_facts(source), rules, lambda line: _say(console, line), DEFAULT_TIMEOUT
    )
    if not report.run.ok:
        assert report.run.failed is not None
        _say(console, f"\nStopped: {report.run.failed.display(pips.windows)} failed ({report.run.reason}).")
        raise typer.Exit(1)
    _say(console, "\nRe-check:")
    for finding_id in report.resolved:
        _say(console, f"   resolved: {finding_id}")
    for finding in report.remaining:
        _say(console, f"   still there: {finding.id} {finding.title}")
    if report.remaining:
        raise typer.Exit(1)


@app.command("dockerfile")
@gathering_options
def dockerfile(
    base: str = typer.Option("auto", "--base", help="auto (an AMD image whose ROCm fits) or an image name."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the Dockerfile here instead of printing it."),
    torch_version: Optional[str] = typer.Option(None, "--torch", help="Install this torch version."),
    force: bool = FORCE_OPTION,
    rules: Optional[List[Path]] = RULES_OPTION,
    source: FactsSource = FactsSource(),
) -> None:
    """Print a Dockerfile snippet for this machine: AMD base image, matching torch, ENV fixes."""
    _loaded, facts, findings = _diagnose(source, rules)
    plan = build_plan(findings, facts)
    try:
        result = render_dockerfile(facts, plan, base, torch_version)
    except NoChoice as refusal:
        for line in refusal_text(refusal):
            stderr_console().print(line, markup=False)
        raise typer.Exit(2) from None
    if output is None:
        sys.stdout.write(result.text)
    else:
        written = update_file(output, lambda _old: result.text, force=force)
        kept = f"; the previous file is kept as {written.backup}" if written.backup is not None else ""
        stderr_console().print(f"Wrote {via(output, written.path)} (FROM {result.base}){kept}", markup=False)
    for note in result.notes:
        stderr_console().print(f"Note: {note}", markup=False)


@app.command("docker-run")
@gathering_options
def docker_run_cmd(
    image: Optional[str] = typer.Option(None, "--image", help="Image to run (default rocm/pytorch:latest)."),
    rules: Optional[List[Path]] = RULES_OPTION,
    source: FactsSource = FactsSource(),
) -> None:
    """Print the `docker run` flags and a compose.yaml service for this machine's GPUs."""
    _loaded, facts, findings = _diagnose(source, rules)
    run = docker_run(facts, build_plan(findings, facts), image)
    console = stdout_console()
    _say(console, "# docker run")
    _say(console, run.command())
    _say(console, "\n# compose.yaml")
    _say(console, run.compose().rstrip("\n"))
    for note in run.notes:
        _say(console, f"# note: {note}")
