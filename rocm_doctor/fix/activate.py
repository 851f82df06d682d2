"""``fix --activate``: the plan's environment changes, set whenever the target's environment is activated.

A file written by ``--write-env`` holds only while someone sources it; the settings belong
where torch runs. For a virtual environment the managed block (the same one
``--write-env`` writes, :func:`rocm_doctor.fix.envfile.render_block`) goes into each
activation script the venv has: ``bin/activate`` (bash, zsh, sh), ``bin/activate.fish``,
``bin/Activate.ps1`` (``Scripts\\`` and ``activate.bat`` on Windows). For a conda
environment it is a file of its own in ``etc/conda/activate.d/``, which conda runs on
activation for the shell whose extension it has
(https://github.com/conda/conda/blob/24.11.0/conda/activate.py, ``_get_activate_scripts``).

The variables are set on activation; ``deactivate`` does not restore what they were (a venv's
``deactivate`` knows only the variables it saved itself), so a shell that deactivates keeps them.

Hooking is idempotent (the block is replaced, never added twice) and reversible: undoing
removes the block, restoring the script's bytes, and deletes the conda files that held
only the block. Every line of a script outside the block is kept byte for byte, and a
changed script is backed up first (:func:`rocm_doctor.files.update_file`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from rocm_doctor.errors import InputError
from rocm_doctor.files import update_file
from rocm_doctor.fix.envfile import begin_marker, end_marker, merge, render_block, split_lines
from rocm_doctor.model.remedy import EnvChange

VENV_SCRIPTS: Tuple[Tuple[str, str], ...] = (
    ("activate", "bash"),
    ("activate.fish", "fish"),
    ("Activate.ps1", "powershell"),
    ("activate.bat", "cmd"),
)
"""A venv's activation scripts (``python -m venv`` writes them) and the shell each is written in."""
CONDA_SCRIPTS: Tuple[Tuple[str, str], ...] = (
    ("rocm-doctor.sh", "sh"),
    ("rocm-doctor.fish", "fish"),
    ("rocm-doctor.ps1", "powershell"),
    ("rocm-doctor.bat", "cmd"),
)
"""Files in ``etc/conda/activate.d``: conda runs ``*.sh`` for POSIX shells, ``*.fish``, ``*.ps1``, ``*.bat``."""
CONDA_FOR = {"linux": ("rocm-doctor.sh", "rocm-doctor.fish"), "windows": ("rocm-doctor.bat", "rocm-doctor.ps1")}
_SIGNATURE = "# SIG # Begin signature block"
"""Where a signed ``Activate.ps1`` (Windows' CPython) starts its signature: the block goes above it."""


@dataclass(frozen=True)
class Hooked:
    """One activation script and what was done to it."""

    path: Path
    shell: str
    changed: bool
    backup: Optional[Path] = None
    removed: bool = False
    """Undo deleted the file (a conda file that held only the block)."""


def hook_targets(prefix: Path, env_kind: str, platform: str) -> List[Tuple[Path, str]]:
    """The activation scripts of the environment at ``prefix``, each with its shell."""
    if env_kind == "venv":
        folder = prefix / ("Scripts" if platform == "windows" else "bin")
        found = [(folder / name, shell) for name, shell in VENV_SCRIPTS if (folder / name).is_file()]
        if not found:
            raise InputError(f"{folder}: no activation script (activate, activate.fish, Activate.ps1, activate.bat) to hook into")
        return found
    if env_kind == "conda":
        folder = prefix / "etc" / "conda" / "activate.d"
        wanted = CONDA_FOR["windows" if platform == "windows" else "linux"]
        return [(folder / name, shell) for name, shell in CONDA_SCRIPTS if name in wanted]
    raise InputError(f"{prefix} is not a virtual environment or a conda environment: there is no activation to hook into")


def _insert(old: str, shell: str, block: Sequence[str]) -> str:
    """``merge``, but a new block goes above a PowerShell signature, which must stay last."""
    lines = split_lines(old)
    has_block = any(line.rstrip("\r\n") == begin_marker(shell) for line in lines)
    signature = next((i for i, line in enumerate(lines) if line.rstrip("\r\n") == _SIGNATURE), None)
    if has_block or signature is None:
        return merge(old, shell, block)
    head, tail = "".join(lines[:signature]), "".join(lines[signature:])
    return merge(head, shell, block) + tail


def remove_block(old: str, shell: str) -> str:
    """``old`` without the managed block (its lines only); unchanged when there is none."""
    lines = split_lines(old)
    starts = [i for i, line in enumerate(lines) if line.rstrip("\r\n") == begin_marker(shell)]
    ends = [i for i, line in enumerate(lines) if line.rstrip("\r\n") == end_marker(shell)]
    if not starts and not ends:
        return old
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise InputError("the managed block's markers are not one opening and one closing line; remove it by hand")
    return "".join(lines[: starts[0]] + lines[ends[0] + 1 :])


def hook(
    prefix: Path, env_kind: str, platform: str, changes: Sequence[EnvChange], force: bool = False, dry_run: bool = False
) -> List[Hooked]:
    """Put the managed block for ``changes`` into every activation script of the environment
    (with ``dry_run``, only say which scripts would change)."""
    done: List[Hooked] = []
    for path, shell in hook_targets(prefix, env_kind, platform):
        block = render_block(shell, changes).lines
        if dry_run and not path.parent.is_dir():
            done.append(Hooked(path, shell, True))
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            written = update_file(
                path, lambda old, shell=shell, block=block: _insert(old, shell, block), force=force, dry_run=dry_run
            )
        except InputError as exc:
            raise InputError(f"{path}: {exc}") from None
        done.append(Hooked(path, shell, written.changed, written.backup))
    return done


def unhook(prefix: Path, env_kind: str, platform: str, force: bool = False, dry_run: bool = False) -> List[Hooked]:
    """Take the managed block out of every activation script; delete conda files left empty
    (with ``dry_run``, only say which would change)."""
    done: List[Hooked] = []
    for path, shell in hook_targets(prefix, env_kind, platform):
        if not path.is_file():
            continue
        try:
            written = update_file(path, lambda old, shell=shell: remove_block(old, shell), force=force, dry_run=dry_run)
        except InputError as exc:
            raise InputError(f"{path}: {exc}") from None
        removed = env_kind == "conda" and written.changed and not written.new.strip()
        if dry_run:
            done.append(Hooked(path, shell, written.changed, None, removed))
            continue
        if removed:  # the file held only the block: nothing of the user's to keep
            path.unlink()
            if written.backup is not None:
                written.backup.unlink()
        done.append(Hooked(path, shell, written.changed, None if removed else written.backup, removed))
    return done
