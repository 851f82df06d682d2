"""Rendering decided remedies for people: wrapped text, exact commands, alternatives marked.

Nothing here chooses: the options, their default and every command line come from the
finding's :class:`~rocm_doctor.model.remedy.Remedy`. Prose is wrapped by us with a hanging
indent (never cut mid-word by the terminal); a long argv command is broken between its
arguments with the shell's line continuation, so what is printed still pastes as one command.
"""

from __future__ import annotations

import textwrap
from typing import List, Optional

from rich.console import Console
from rich.text import Text

from rocm_doctor import shells
from rocm_doctor.model.remedy import Option, Remedy, Step

INTENT_WORDS = {
    "install-rocm-torch": "replace torch with a ROCm build",
    "install-amd-windows-torch": "install AMD's Windows PyTorch wheels",
    "install-therock-torch": "install AMD's TheRock multi-arch wheels",
    "remove-cuda-triton": "remove the CUDA triton",
    "reinstall-torchvision-matching": "reinstall the torchvision that matches torch",
    "pin-numpy-1": "install numpy 1.x",
}
"""pip intents in words (``explain``), never their internal names."""


def wrap(text: str, width: int, first: str, rest: Optional[str] = None) -> List[str]:
    """``text`` wrapped to ``width`` with ``first`` before the first line and ``rest`` (spaces) before the others."""
    rest = " " * len(first) if rest is None else rest
    lines = textwrap.wrap(text, width=max(width, len(first) + 20), initial_indent=first, subsequent_indent=rest,
                          break_long_words=False, break_on_hyphens=False)
    return lines or [first.rstrip()]


def step_lines(step: Step, shell: str, width: int, indent: str, show_where: bool = True) -> List[str]:
    """The command lines of a step (``$ ...``), wrapped between arguments when they are argv lists."""
    lines: List[str] = []
    if show_where and step.where != "environment":
        lines += wrap(f"({step.where_text})", width, indent)
    if step.argv and len(step.argv) == len(step.commands):
        for argv in step.argv:
            parts = shells.wrapped(shell, argv, width - len(indent) - 2, "")
            lines.append(f"{indent}$ {parts[0]}")
            lines += [f"{indent}  {part}" for part in parts[1:]]
    else:
        lines += [f"{indent}$ {command}" for command in step.commands]
    if step.run_flags:
        lines.append(f"{indent}{shells.docker_run_line(shell, ['docker', 'run', *step.run_flags])} ...")
    lines += [f"{indent}Dockerfile: {line}" for line in step.dockerfile]
    if step.base:
        lines.append(f"{indent}base image: {step.base}")
    return lines


def option_lines(option: Option, label: str, shell: str, width: int, indent: str) -> List[str]:
    lines = wrap(option.text, width, f"{indent}{label} ", indent + " " * (len(label) + 1))
    inner = indent + " " * (len(label) + 1)
    if not option.available:
        lines += wrap(f"not possible here: {option.why}", width, inner)
        return lines
    if option.why and option.default:
        lines += wrap(f"why: {option.why}", width, inner)
    for step in option.steps:
        lines += step_lines(step, shell, width, inner)
    return lines


def remedy_lines(remedy: Remedy, width: int, indent: str) -> List[str]:
    """Every group: a single fix as ``fix:``; alternatives as ``fix (default):`` then ``or:``."""
    lines: List[str] = []
    groups = [g for g in remedy.groups if g.options]
    for number, group in enumerate(groups, start=1):
        numbered = f" {number}" if len(groups) > 1 else ""
        if len(group.options) == 1:
            lines += option_lines(group.options[0], f"fix{numbered}:", remedy.shell, width, indent)
            continue
        for option in sorted(group.options, key=lambda o: not o.default):  # the default first, then the others
            label = f"fix{numbered} (default):" if option.default else "or:"
            lines += option_lines(option, label, remedy.shell, width, indent)
    return lines


def print_lines(console: Console, lines: List[str]) -> None:
    for line in lines:
        console.print(Text(line), soft_wrap=True)
