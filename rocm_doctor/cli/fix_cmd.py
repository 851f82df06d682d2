"""``rocm-doctor fix``, ``dockerfile`` and ``docker-run``: act on what ``check`` found."""

from __future__ import annotations

import enum
import json
import sys
from pathlib import Path
from typing import List, Optional, Tuple

import typer
from rich.console import Console

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
from rocm_doctor.fix.envfile import (
    DEFAULT_FILENAMES,
    HOW_TO_LOAD,
    SHELLS,
    write_env_file,
)
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.model.rules import Rule
from rocm_doctor.judge.report import CheckResult
from rocm_doctor import shells
from rocm_doctor.remedy.decide import Context
from rocm_doctor.model.remedy import EnvChange, Plan
from rocm_doctor.render.safe import escape_controls

Shell = enum.Enum("Shell", {s: s for s in SHELLS}, type=str)  # type: ignore[misc]


FORCE_OPTION = typer.Option(False, "--force", help="Replace the file even when it is read-only.")


class Installer(str, enum.Enum):
    pip = "pip"
    uv = "uv"


def _say(console: Console, text: str = "") -> None:
    console.print(text, markup=False, highlight=False, soft_wrap=True)


def _diagnose(source: FactsSource, rules: Optional[List[Path]], context: Context = Context()) -> Tuple[List[Rule], Facts, CheckResult]:
    """Facts, findings and the plan, decided once for ``context``."""
    loaded = load_rules(rules or [])
    facts = load_facts(source)
    result = evaluate(loaded, facts, context=context)
    if result.plan is None:
        raise InputError("the fix plan could not be decided: " + "; ".join(f"{c.what}: {c.reason} (log {c.log})" for c in result.crashes))
    return loaded, facts, result


def _command_shell(shell: Optional[str]) -> Optional[str]:
    """The shell printed commands are for: ``--shell`` (a dotenv file has no commands: the platform's)."""
    return shell if shell in shells.SHELLS else None


def _verify(console: Console, plan: Plan, facts: Facts, index_override: Optional[str]) -> Tuple[int, int]:
    """Check every torch wheel the plan installs on its index: (missing, not verified) counts."""
    from rocm_doctor.fix.index import target_tags, verify_on_index, verify_url

    python = facts.python.version.value if facts.python.version.is_known else None
    if not python or plan.torch is None:
        _say(console, "   not verified: " + ("the target's Python version is unknown." if not python else "the plan installs no torch."))
        return 0, 0 if plan.torch is None else 1
    tags = target_tags(str(python), "windows" if plan.target.platform == "windows" else "linux")
    missing = unverified = 0
    for wheel in plan.torch.wheels:
        if wheel.url and not index_override:
            verdict = verify_url(wheel.url, wheel.name, tags)
        else:
            index = index_override or wheel.index_url
            if not index:
                continue
            local = f"rocm{plan.torch.rocm}" if plan.torch.route == "pytorch.org" else None
            verdict = verify_on_index(index, wheel.name, wheel.version, tags, local)
        label = {"found": "verified", "missing": "MISSING", "not-verified": "not verified"}[verdict.status]
        _say(console, f"   {label}: {wheel.name}: {verdict.detail}")
        missing += verdict.status == "missing"
        unverified += verdict.status == "not-verified"
    return missing, unverified


def _index_summary(console: Console, missing: int, unverified: int, allow_unverified: bool) -> bool:
    """Say what the index check established; False when the plan must not be called verified."""
    if missing:
        _say(console, f"   The plan cannot be installed: {missing} wheel{'s' if missing > 1 else ''} missing on the index.")
        return False
    if unverified:
        what = f"{unverified} wheel{'s' if unverified > 1 else ''} could not be checked"
        if allow_unverified:
            _say(console, f"   The plan is unverified ({what}); going on because of --allow-unverified.")
            return True
        _say(console, f"   The plan is unverified ({what}): exit 1. Pass --allow-unverified to accept an unverified plan.")
        return False
    _say(console, "   Every wheel of the plan is on its index.")
    return True


@app.command("fix")
@gathering_options
def fix(
    # A flag plus --env-file rather than an optional value: typer's parser cannot take an
    # optional option value, and `--write-env --dry-run` would read --dry-run as the path.
    json_output: bool = typer.Option(False, "--json", help="Print the rocm-doctor/fix/1 plan document."),
    write_env: bool = typer.Option(False, "--write-env", help="Write the environment changes, merged into the file."),
    env_file: Optional[Path] = typer.Option(None, "--env-file", metavar="FILE", help="File for --write-env (default rocm-doctor.<ext> here)."),
    shell: Optional[Shell] = typer.Option(
        None, "--shell", help="Shell of the printed commands and the env file; dotenv is a file format only (default: detected)."
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show the env-file diff; write nothing."),
    activate: bool = typer.Option(
        False, "--activate", help="Set the environment changes whenever the target's venv or conda env is activated."
    ),
    undo_activate: bool = typer.Option(False, "--undo-activate", help="Take out what --activate put into the activation scripts."),
    comment_out_conflicts: bool = typer.Option(
        False, "--comment-out-conflicts", help="Comment out lines of the env file that contradict the plan (backed up first)."
    ),
    pip_only: bool = typer.Option(False, "--pip", help="Print only the pip commands, one per line."),
    installer: Installer = typer.Option(Installer.pip, "--installer", help="pip, or uv pip --python."),
    verify_index: bool = typer.Option(False, "--verify-index", help="Confirm on the index that the wheels exist."),
    allow_unverified: bool = typer.Option(
        False, "--allow-unverified", help="With --verify-index: exit 0 when the index cannot be reached."
    ),
    torch_version: Optional[str] = typer.Option(None, "--torch", metavar="VERSION", help="Install this torch version (refused with alternatives when impossible)."),
    index_url: Optional[str] = typer.Option(None, "--index-url", metavar="URL", help="Install from this index (a mirror) instead of the chosen one."),
    requirements: Optional[Path] = typer.Option(None, "--requirements", metavar="FILE", help="Warn if installing this requirements file would replace the ROCm torch."),
    apply: bool = typer.Option(False, "--apply", help="Run the pip commands in the target environment, then re-check."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask before --apply runs the commands."),
    keep_torch: bool = typer.Option(
        False, "--keep-torch", help="Keep the installed torch: apply the fixes meant for it instead of replacing it."
    ),
    to: Optional[str] = typer.Option(
        None, "--to", metavar="BASELINE", help="Return the Python stack to a saved baseline's versions (see `baseline list`)."
    ),
    force: bool = FORCE_OPTION,
    rules: Optional[List[Path]] = RULES_OPTION,
    source: FactsSource = FactsSource(),
) -> None:
    """Print the fix plan for what `check` finds; write env files; run the pip commands.

    Exit codes: 0 done, 1 a step failed, a finding remains after --apply, --verify-index found a wheel
    missing or could not check one (unless --allow-unverified), or the env file still contradicts the
    plan; 2 bad input or a --torch that cannot be installed here.
    """
    if apply and not source.is_live:
        raise InputError("--apply changes this machine: it cannot be used with --machine, --facts or --from")
    if (activate or undo_activate) and not source.is_live:
        raise InputError("--activate changes this machine's environment: it cannot be used with --machine, --facts or --from")
    if activate and undo_activate:
        raise InputError("--activate and --undo-activate: choose one")
    if to is not None:
        if json_output or write_env or activate or undo_activate or torch_version or requirements or verify_index:
            raise InputError("--to plans the way back to a baseline: it takes only --apply, --yes, --pip, --shell, --installer and --index-url")
        from rocm_doctor.cli.restore import restore

        restore(stdout_console(), to, source, rules, shell.value if shell else None, installer.value, index_url, apply, yes, pip_only)
        return
    context = Context(
        shell=_command_shell(shell.value if shell else None), python=source.python, installer=installer.value,
        index_url=index_url, torch=torch_version, keep_torch=keep_torch,
    )
    loaded, facts, result = _diagnose(source, rules, context)
    plan = result.plan
    assert plan is not None
    console = stdout_console()
    if plan.refusal is not None:
        refusal = plan.refusal
        for line in [refusal.message, *(f"ruled out: {r}" for r in refusal.ruled_out), *(f"instead: {a}" for a in refusal.alternatives)]:
            stderr_console().print(line, markup=False, soft_wrap=True)
        raise typer.Exit(2)
    if json_output:
        sys.stdout.write(json.dumps(plan.to_document(), indent=2) + "\n")
    elif pip_only:
        for step in plan.of_kind("pip"):
            for command in step.commands:
                sys.stdout.write(escape_controls(command) + "\n")  # a path from a paste may carry terminal escapes
    else:
        from rocm_doctor.render.plan import plan_lines

        for line in plan_lines(plan, max(console.width, 40)):
            _say(console, line)
    if verify_index and plan.torch is not None:
        _say(console, "\nIndex check:")
        if not _index_summary(console, *_verify(console, plan, facts, index_url), allow_unverified):
            raise typer.Exit(1)
    if requirements is not None:
        _requirements_section(console, requirements, facts, plan)
    written: Optional[Path] = None
    if write_env or env_file is not None:
        written = _write_env(
            console, plan, facts, env_file, shell.value if shell else None, dry_run, force, comment_out_conflicts
        )
    if activate or undo_activate:
        _activation(console, plan, facts, undo_activate, force, dry_run)
    if apply:
        _apply(console, plan, facts, source, loaded, yes, written)


def _activation(console: Console, plan: Plan, facts: Facts, undo: bool, force: bool, dry_run: bool = False) -> None:
    """Hook the plan's environment changes into the target environment's activation, or take them out
    (``--dry-run``: say what would change)."""
    from rocm_doctor.fix.activate import hook, unhook

    prefix = facts.python.prefix.value if facts.python.prefix.is_known else None
    kind = facts.python.env_kind.value if facts.python.env_kind.is_known else None
    python = facts.python.executable.value if facts.python.executable.is_known else plan.target.python
    if not prefix or kind not in ("venv", "conda"):
        raise InputError(
            f"the target interpreter {python} is not in a virtual environment or a conda environment: there is no "
            "activation to hook into (activate one, or name its python with --python)"
        )
    _say(console, "")
    if undo:
        done = unhook(Path(str(prefix)), str(kind), plan.target.platform, force=force, dry_run=dry_run)
        for item in done:
            if item.changed and dry_run:
                _say(console, f"Would take rocm-doctor's block out of {item.path}" + (" and remove it" if item.removed else ""))
            elif item.removed:
                _say(console, f"Removed {item.path} (it held only rocm-doctor's block).")
            elif item.changed:
                _say(console, f"Took rocm-doctor's block out of {item.path}; the previous file is {item.backup}")
        if not any(item.changed for item in done):
            _say(console, f"Nothing to undo: no activation script of {prefix} holds rocm-doctor's block.")
        return
    changes = _env_changes(plan)
    if not changes:
        _say(console, f"Nothing to hook: the plan changes no environment variable, so {prefix}'s activation was not changed.")
        return
    done = hook(Path(str(prefix)), str(kind), plan.target.platform, changes, force=force, dry_run=dry_run)
    for item in done:
        if item.changed and dry_run:
            _say(console, f"Would hook into {item.path} ({item.shell})")
        elif item.changed:
            kept = f"; the previous file is {item.backup}" if item.backup else ""
            _say(console, f"Hooked into {item.path} ({item.shell}){kept}")
        else:
            _say(console, f"{item.path} already sets these ({item.shell}); nothing changed.")
    if not dry_run:
        _say(
            console,
            f"The settings apply from the next activation of {prefix} (deactivate leaves them set in that shell); "
            "--undo-activate takes them out again.",
        )


def _requirements_section(console: Console, path: Path, facts: Facts, plan: Plan) -> None:
    """Would installing ``path`` replace the ROCm torch? The constraints pin what the plan leaves installed."""
    from rocm_doctor.fix.requirements import check_requirements, constraints_command

    installed = dict(facts.packages.installed.value) if facts.packages.installed.is_known else {}
    flavour = facts.torch.flavour.value if facts.torch.flavour.is_known else None
    report = check_requirements(path, installed, flavour)
    _say(console, f"\nRequirements file {path}:")
    if not report.at_risk:
        _say(console, "   installing it keeps the ROCm torch.")
    for warning in report.warnings:
        _say(console, f"   warning: {warning}")
    python, shell = plan.target.python, plan.target.shell
    if plan.torch is not None:
        # The plan replaces torch: pin what it installs, read after the install, not the build it removes.
        _say(console, "   After the torch step above, write constraints.txt from the build it installed:")
        _say(console, f"   $ {shells.quote_argv(shell, constraints_command(python))}")
    elif report.constraints:
        _say(console, "   Put these lines in constraints.txt and install with -c so pip cannot swap the build:")
        for line in report.constraints:
            _say(console, f"     {line}")
    else:
        return
    _say(console, f"   $ {shells.quote_argv(shell, [python, '-m', 'pip', 'install', '-r', str(path), '-c', 'constraints.txt'])}")


def _env_changes(plan: Plan) -> List[EnvChange]:
    ids: dict = {}
    for step in plan.of_kind("env"):
        for name in step.env:
            ids.setdefault(name, []).extend(step.finding_ids)
    return [EnvChange(name, value, tuple(dict.fromkeys(ids[name]))) for name, value in plan.env_changes().items()]


def _interactive() -> bool:
    """A person at a terminal can be asked (stdin and stdout are terminals)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _write_env(
    console: Console, plan: Plan, facts: Facts, where: Optional[Path], shell: Optional[str], dry_run: bool, force: bool,
    comment_out: bool = False,
) -> Optional[Path]:
    chosen = shell or plan.target.shell
    path = where if where is not None else Path(DEFAULT_FILENAMES[chosen])
    changes = _env_changes(plan)
    _say(console, "")
    if not changes:
        kept = " (the file there is left as it is)" if path.exists() else ""
        _say(console, f"Nothing to write: the plan changes no environment variable, so {path} was not written{kept}.")
        return None
    if not comment_out and not dry_run and _interactive():
        preview = write_env_file(path, chosen, changes, dry_run=True, force=force)
        if preview.conflicts:
            for conflict in preview.conflicts:
                _say(console, "Contradicts the plan: " + conflict.describe(path))
            comment_out = typer.confirm("Comment these lines out (the file is backed up first)?", default=False)
    result = write_env_file(path, chosen, changes, dry_run=dry_run, force=force, comment_out_conflicts=comment_out)
    shown = via(path, result.path)
    if not result.changed:
        _say(console, f"{shown} already has these settings ({chosen}); nothing changed.")
    elif dry_run:
        _say(console, f"Would change {shown} ({chosen}):")
        _say(console, result.diff.rstrip("\n"))
    else:
        _say(console, f"Wrote {shown} ({chosen})" + (f"; the previous file is {result.backup}" if result.backup else ""))
    for conflict in result.commented_out:
        _say(console, f"{'Would comment' if dry_run else 'Commented'} out, as it contradicts the plan: {conflict.describe(path)}")
    if result.conflicts:
        _say(console, f"{shown} still contradicts the plan:")
        for conflict in result.conflicts:
            _say(console, f"   {conflict.describe(path)}")
        _say(console, "Comment these lines out with --comment-out-conflicts (the file is backed up first), or edit them.")
    elif result.changed and not dry_run:
        _say(console, "Load it with: " + HOW_TO_LOAD[chosen].format(path=path))
    for note in result.notes:
        _say(console, f"Note: {note}")
    if result.conflicts:
        raise typer.Exit(1)
    return None if dry_run else path


def _apply(
    console: Console, plan: Plan, facts: Facts, source: FactsSource, rules: List[Rule], yes: bool, written: Optional[Path]
) -> None:
    """Run the pip steps, then re-check every finding the plan addresses (env changes as the written file sets them)."""
    from rocm_doctor.fix.installer import (
        DEFAULT_TIMEOUT,
        Command,
        recheck,
        refreshed,
        run_commands,
    )
    from rocm_doctor.remedy.decide import with_env

    for step in plan.steps:
        if step.kind == "manual":
            _say(console, f"Do this yourself (rocm-doctor never runs sudo): {step.text} [{', '.join(step.finding_ids)}]")
    commands = [Command(tuple(argv), step.text) for step in plan.of_kind("pip") for argv in step.argv]
    env = plan.env_changes()
    after = facts
    if commands:
        _say(console, "\nThese commands will run:")
        for step in plan.of_kind("pip"):
            for line in step.commands:
                _say(console, f"   $ {line}")
        if not yes and not typer.confirm("Run them?", default=False):
            _say(console, "Nothing was run.")
            raise typer.Exit(1)
        _save_restore_point(console, facts, rules)
        outcome = run_commands(commands, lambda line: _say(console, line), DEFAULT_TIMEOUT)
        if not outcome.ok:
            assert outcome.failed is not None
            _say(console, f"\nStopped: {shells.quote_argv(plan.target.shell, outcome.failed.argv)} failed ({outcome.reason}).")
            raise typer.Exit(1)
        after = refreshed(facts, load_facts(source))
    else:
        _say(console, "\nNo pip command to run.")
    if env and written is not None:
        after = with_env(after, env)  # judged as it will be once the written file is loaded
    remaining = recheck(rules, after, plan.finding_ids)
    still = {f.id for f in remaining}
    _say(console, "\nRe-check:")
    for finding_id in plan.finding_ids:
        if finding_id not in still:
            _say(console, f"   resolved{' once you load ' + str(written) if env and written is not None else ''}: {finding_id}")
    for finding in remaining:
        _say(console, f"   still there: {finding.id} {finding.title}")
    if env and written is None:
        _say(console, "   the environment changes are not applied by --apply: write them with --write-env and load the file")
    if remaining:
        raise typer.Exit(1)


def _save_restore_point(console: Console, facts: Facts, rules: List[Rule]) -> None:
    """Remember the state before ``--apply`` changes it: ``fix --to <name>`` returns to it."""
    from rocm_doctor.baseline.auto import save_restore_point
    from rocm_doctor.ruledb import rule_database_info

    try:
        path = save_restore_point(facts, evaluate(rules, facts).findings, rule_database_info()["version"])
    except OSError as exc:
        _say(console, f"Note: no restore point was saved ({exc}).")
        return
    _say(console, f"Saved the state before the change as baseline {path.stem}; `rocm-doctor fix --to {path.stem}` returns to it.")


def _no_container(facts: Facts) -> None:
    """Refuse (exit 2) where a Linux /dev/kfd container recipe does not fit: Windows, WSL2, no AMD GPU."""
    from rocm_doctor.wheels.platform import docker_unsupported

    why = docker_unsupported(facts)
    if why is not None:
        stderr_console().print(f"No container recipe for this machine: {why}.", markup=False, soft_wrap=True)
        raise typer.Exit(2)


@app.command("dockerfile")
@gathering_options
def dockerfile(
    base: str = typer.Option("auto", "--base", metavar="IMAGE", help="auto (an AMD image whose ROCm fits) or an image name."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="FILE", help="Write the Dockerfile here instead of printing it."),
    torch_version: Optional[str] = typer.Option(None, "--torch", metavar="VERSION", help="Install this torch version."),
    force: bool = FORCE_OPTION,
    rules: Optional[List[Path]] = RULES_OPTION,
    source: FactsSource = FactsSource(),
) -> None:
    """Print a Dockerfile snippet for this machine: AMD base image, matching torch, ENV fixes.

    Exit codes: 0 done, 2 bad input, no torch fits, or no container recipe fits this machine.
    """
    from rocm_doctor.fix.dockerfile import refusal_text, render_dockerfile
    from rocm_doctor.wheels.choice import NoChoice

    _loaded, facts, result = _diagnose(source, rules)
    _no_container(facts)
    assert result.plan is not None
    try:
        rendered = render_dockerfile(facts, result.plan, base, torch_version)
    except NoChoice as refusal:
        for line in refusal_text(refusal):
            stderr_console().print(line, markup=False, soft_wrap=True)
        raise typer.Exit(2) from None
    if output is None:
        sys.stdout.write(rendered.text)
    else:
        written = update_file(output, lambda _old: rendered.text, force=force)
        kept = f"; the previous file is kept as {written.backup}" if written.backup is not None else ""
        stderr_console().print(f"Wrote {via(output, written.path)} (FROM {rendered.base}){kept}", markup=False)
    for note in rendered.notes:
        stderr_console().print(f"Note: {note}", markup=False)


@app.command("docker-run")
@gathering_options
def docker_run_cmd(
    image: Optional[str] = typer.Option(None, "--image", metavar="IMAGE", help="Image to run (default rocm/pytorch:latest when the host driver supports it)."),
    compose: Optional[str] = typer.Option(
        None, "--compose", metavar="FILE", help="Write a compose.yaml service to FILE ('-': print only the YAML)."
    ),
    force: bool = FORCE_OPTION,
    rules: Optional[List[Path]] = RULES_OPTION,
    source: FactsSource = FactsSource(),
) -> None:
    """Print `docker run` flags for this machine's GPUs (--compose: a compose file).

    stdout holds one document: the `docker run` line, or with `--compose -` the compose YAML; notes go
    to stderr. Exit codes: 0 done, 2 bad input or no container recipe fits this machine.
    """
    from rocm_doctor.fix.dockerrun import docker_run

    _loaded, facts, result = _diagnose(source, rules)
    _no_container(facts)
    assert result.plan is not None
    run = docker_run(facts, result.plan, image)
    # A control character from a fact (a pasted value) would break the terminal showing it.
    yaml_text = escape_controls(run.compose())
    if compose == "-":
        sys.stdout.write(yaml_text)
    else:
        sys.stdout.write(escape_controls(run.command()) + "\n")
        if compose is not None:
            target = Path(compose)
            written = update_file(target, lambda _old: yaml_text, force=force)
            kept = f"; the previous file is kept as {written.backup}" if written.backup is not None else ""
            what = "Wrote" if written.changed else "Unchanged:"
            stderr_console().print(f"{what} {via(target, written.path)} (compose service 'pytorch'){kept}", markup=False)
    for note in run.notes:
        stderr_console().print(f"Note: {note}", markup=False, soft_wrap=True)
