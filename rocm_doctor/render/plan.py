"""``rocm-doctor fix``: the decided plan for people, in the order it must be done.

Everything printed comes from the :class:`~rocm_doctor.model.remedy.Plan`; nothing is chosen here.
"""

from __future__ import annotations

from typing import List

from rocm_doctor.model.remedy import Plan, Step
from rocm_doctor.render.remedy import step_lines, wrap

SECTIONS = (
    ("manual", "Do these yourself first (rocm-doctor cannot)"),
    ("pip", "Python packages"),
    ("after_torch", "Changes to the installed torch (re-do them after any torch reinstall)"),
    ("env", "Environment (write it with --write-env)"),
    ("docker", "Docker (see `rocm-doctor dockerfile` and `rocm-doctor docker-run`)"),
    ("code", "Code advice"),
)


def _section(step: Step) -> str:
    return "after_torch" if step.kind == "manual" and step.after_torch else step.kind


def _ids(ids: List[str]) -> str:
    return f" [{', '.join(ids)}]" if ids else ""


def _step(step: Step, shell: str, width: int) -> List[str]:
    root = " (needs root)" if step.needs_root else ""
    lines = wrap(step.text + _ids(step.finding_ids) + root, width, "   - ", "     ")
    return lines + step_lines(step, shell, width, "       ")


def plan_lines(plan: Plan, width: int = 80) -> List[str]:
    """The plan as text lines, each within ``width`` except unbreakable words (URLs)."""
    target = plan.target
    lines = wrap(f"Target: {target.python} ({target.python_why}); commands for {target.shell} ({target.shell_why}).", width, "")
    if plan.is_empty:
        lines.append("Nothing to fix: no finding has a fix to apply on this machine.")
    else:
        lines += wrap(f"Fix plan for {', '.join(plan.finding_ids)}:", width, "")
    number = 0
    for key, title in SECTIONS:
        steps = [s for s in plan.steps if _section(s) == key]
        if not steps:
            continue
        number += 1
        lines += ["", f"{number}. {title}"]
        if key == "pip" and plan.torch is not None:
            t = plan.torch
            lines += wrap(f"torch {t.torch} from {t.route}" + (f" (ROCm {t.rocm})" if t.rocm else ""), width, "   ")
            lines += [l for r in t.reasons for l in wrap(f"because: {r}", width, "     ", "       ")]
            lines += [l for r in t.ruled_out[:4] for l in wrap(f"ruled out: {r}", width, "     ", "       ")]
            if len(t.ruled_out) > 4:
                lines.append(f"     ruled out: {len(t.ruled_out) - 4} more (fix --json lists them)")
        for step in steps:
            lines += _step(step, target.shell, width)
    if plan.refusal is not None:
        lines += ["", "Refused:"] + wrap(plan.refusal.message, width, "   ")
        lines += [l for r in plan.refusal.ruled_out[:6] for l in wrap(f"ruled out: {r}", width, "     ", "       ")]
        lines += [l for a in plan.refusal.alternatives for l in wrap(f"instead: {a}", width, "     ", "       ")]
    if plan.conflicts:
        lines += ["", "Conflicts (not applied and not written; choose one and set it yourself):"]
        for conflict in plan.conflicts:
            lines += wrap(conflict.describe(), width, "   - ", "     ")
    if plan.alternatives:
        lines += ["", "Alternatives (not applied):"]
        for alt in plan.alternatives:
            lines += wrap(alt.text + _ids(alt.finding_ids), width, "   - ", "     ")
            if not alt.available:
                lines += wrap(f"not possible here: {alt.why}", width, "       ")
            for step in alt.steps:
                lines += step_lines(step, target.shell, width, "       ")
    if plan.advice:
        lines += ["", "Advice (info findings and diagnostics: shown, never applied or written):"]
        for step in plan.advice:
            lines += _step(step, target.shell, width)
    for note in plan.notes:
        lines += [""] + wrap(f"Note: {note}", width, "", "      ")
    return lines
