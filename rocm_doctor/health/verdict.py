"""The verdict of a health run: the most severe action class, one line of at most 80 characters, an exit code.

Verdicts from the mildest to the most severe, with their exit codes::

    ok 0 · monitor 10 · config 11 · unknown 12 · triage 13 · isolate 14 · reset 15

``unknown`` means the run could not finish (a gatherer hung past the budget or crashed, or
the benchmark did not fit in it) and nothing it did find is worse than ``config``: what was
not looked at may be worse, so the node is not called healthy. Codes rise with severity, so a
wrapper can test ``[ $? -ge 14 ]`` for "stop scheduling here". ``--fail-on`` turns every
verdict below it into exit 0 (the line still names it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

from rocm_doctor.model.rules import ACTION_ORDER, SEVERITY_ORDER, Finding
from rocm_doctor.judge.report import CheckResult
from rocm_doctor.render.safe import escape_controls

VERDICTS = ("ok", "monitor", "config", "unknown", "triage", "isolate", "reset")
"""Every verdict, mildest first."""
EXIT_CODES: Dict[str, int] = {v: (0 if v == "ok" else 9 + i) for i, v in enumerate(VERDICTS)}
"""Verdict -> exit code of ``rocm-doctor health``."""
MAX_LINE = 80
"""node-problem-detector's ``max_output_length`` in AMD's and upstream examples; NHC and Slurm reasons stay short too."""

NPD_OK, NPD_PROBLEM, NPD_UNKNOWN = 0, 1, 2
"""node-problem-detector custom plugin exit codes."""


@dataclass(frozen=True)
class Incomplete:
    """What a health run could not finish, and why (one short reason each)."""

    parts: List[str] = field(default_factory=list)
    """Sections or steps that did not finish or crashed: ``gpus``, ``torch``, ``bench``."""
    reason: str = ""
    """What happened, as a sentence that names them: ``gpus did not finish within the 45 s budget``."""

    def __bool__(self) -> bool:
        return bool(self.parts)

    def line(self) -> str:
        """``unknown: gpus did not finish within the 45 s budget; packages, torch not run``."""
        return clip(f"unknown: {self.reason}")


def rank(verdict: str) -> int:
    """Position of a verdict in :data:`VERDICTS` (higher is more severe)."""
    return VERDICTS.index(verdict)


def ordered(findings: Sequence[Finding]) -> List[Finding]:
    """Most severe first: action class, then severity, then rule id and GPU."""
    return sorted(
        findings,
        key=lambda f: (-ACTION_ORDER[f.action], -SEVERITY_ORDER[f.severity], f.id, -1 if f.gpu is None else f.gpu),
    )


def clip(text: str, width: int = MAX_LINE) -> str:
    """One line, at most ``width`` characters (an ellipsis marks a cut); control characters from
    fact values in a title are escaped first, so they count and never reach the terminal."""
    flat = " ".join(escape_controls(text).split())
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


def finding_line(finding: Finding, more: int = 0) -> str:
    """``RD600 isolate: Data copied to the GPU comes back as zeros [GPU 0] (+2 more)``, clipped to 80."""
    head = f"{finding.id} {finding.action}: "
    tail = (f" [GPU {finding.gpu}]" if finding.gpu is not None else "") + (f" (+{more} more)" if more else "")
    room = MAX_LINE - len(head) - len(tail)
    return head + clip(finding.title, max(room, 8)) + tail


@dataclass(frozen=True)
class Verdict:
    """The outcome of one health run."""

    verdict: str
    line: str
    findings: List[Finding] = field(default_factory=list)
    """Every finding, most severe first."""
    incomplete: Incomplete = field(default_factory=Incomplete)

    @property
    def worst(self) -> Optional[Finding]:
        return self.findings[0] if self.findings else None

    def exit_code(self, fail_on: str = "monitor") -> int:
        """The documented code of the verdict, or 0 when it is below ``fail_on``."""
        return EXIT_CODES[self.verdict] if rank(self.verdict) >= rank(fail_on) else 0

    def npd(self, action: str) -> tuple:
        """(exit code, message) for a node-problem-detector condition of one action class."""
        matching = [f for f in self.findings if f.action == action]
        if matching:
            return NPD_PROBLEM, finding_line(matching[0], len(matching) - 1)
        if self.incomplete:
            return NPD_UNKNOWN, self.incomplete.line()
        return NPD_OK, clip(f"no {action} finding; {self.line}")


def verdict_of(result: CheckResult, incomplete: Incomplete = Incomplete()) -> Verdict:
    """Judge a check result: the most severe finding, unless an incomplete run hides worse."""
    findings = ordered(result.findings)
    worst = findings[0].action if findings else "ok"
    if incomplete and rank(worst) < rank("unknown"):
        return Verdict("unknown", incomplete.line(), findings, incomplete)
    if not findings:
        return Verdict("ok", clip(f"ok: no findings ({result.rules_evaluated} rules)"), findings, incomplete)
    return Verdict(worst, finding_line(findings[0], len(findings) - 1), findings, incomplete)
