"""Render a check result as the markdown bundle ``rocm-doctor report`` writes.

Layout: a marker comment (``check --from`` recognises the report by it and reads
only its facts JSON back, so the findings round-trip exactly), versions, a section
for the user's own command and error, the findings (one entry per finding, with its
GPUs), a compact facts table, the benchmark summary when one ran, and the facts JSON
in a collapsed ``<details>`` block. Control characters from any input are escaped
(``rocm_doctor.render.safe``). Redaction (``rocm_doctor.redact.ReportRedactor``:
secrets, user, host, folders under home, IP and MAC addresses, UUIDs, serial numbers)
is applied to the facts along their schema before they are serialised, and to the
prose; a redacted report keeps only the kernel parameters that bear on the GPU.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, List, Optional, Tuple

from rocm_doctor import __version__
from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact
from rocm_doctor.ingest import REPORT_MARKER
from rocm_doctor.ingest.blocks import CJK_RANGES, TYPOGRAPHY_ASCII
from rocm_doctor.judge.report import CheckResult
from rocm_doctor.lazy_regex import when_used
from rocm_doctor.redact import ReportRedactor, redacted_along
from rocm_doctor.render.safe import escape_controls, safe_json
from rocm_doctor.report.kernel_params import KEPT_DESCRIPTION, kept_parameters

MARKS = {"error": "✗", "warning": "!", "info": "i"}
MAX_CELL = 160


def _cell(text: Any) -> str:
    value = str(text).replace("\r", " ").replace("\n", " ").replace("|", "\\|")
    return value if len(value) <= MAX_CELL else value[: MAX_CELL - 1] + "…"


def describe(fact: Fact) -> str:
    """A fact's value in words: the value, ``none`` (absent), ``failed: why`` or ``unknown``."""
    if fact.status == "known":
        value = fact.value
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, dict):
            return ", ".join(f"{k}={v}" for k, v in value.items()) or "none"
        if isinstance(value, list):
            return ", ".join(str(v) for v in value) or "none"
        return str(value)
    if fact.status == "absent":
        return "none" + (f" ({fact.reason})" if fact.reason else "")
    if fact.status == "failed":
        return f"failed: {fact.reason or 'no reason given'}"
    return "unknown"


Row = Tuple[str, str, str]


def _row(label: str, fact: Fact, extra: str = "") -> Optional[Row]:
    if fact.status == "unknown":
        return None
    return (label, describe(fact) + extra, fact.source or "")


def _joined(label: str, facts: Iterable[Fact], source_of: Fact) -> Optional[Row]:
    parts = [describe(f) for f in facts if f.status == "known"]
    if not parts:
        return None
    return (label, " ".join(parts), source_of.source or "")


def fact_rows(facts: Facts) -> List[Row]:
    """The compact table: one row per thing a maintainer asks about first."""
    host, torch = facts.host, facts.torch
    rows: List[Optional[Row]] = [
        _joined("OS", [host.os, host.distro_name, host.windows_release, host.windows_version], host.os),
        _row("Kernel", host.kernel_release),
        _row("WSL", host.wsl_version),
        _row("Container", host.container),
        _row("CPU", facts.cpu.model),
    ]
    for agent in facts.gpus.agents:
        name = describe(agent.name) if agent.name.is_known else (describe(agent.product) if agent.product.is_known else "GPU")
        details = [describe(agent.gfx)] if agent.gfx.is_known else []
        if agent.integrated.is_known:
            details.append("integrated" if agent.integrated.value else "discrete")
        rows.append((f"GPU {agent.index}", f"{name} ({', '.join(details)})" if details else name, agent.source))
    rows += [
        _row("GPU discovery", facts.gpus.discovery),
        _row("amdgpu driver", facts.driver.amdgpu_version),
        _row("amdgpu DKMS", facts.driver.dkms_amdgpu),
        _kernel_row(facts.driver.kernel_cmdline),
        _row("PCIe atomics rejected", facts.driver.pcie_atomics_rejected),
        _row("ROCm", facts.rocm.version),
        _row("HIP", facts.rocm.hip_version),
        _row("Windows driver", facts.windows.driver_version),
        _joined("Python", [facts.python.version, facts.python.env_kind], facts.python.version),
        _row("PyTorch", torch.version, f" ({describe(torch.flavour)}, {describe(torch.distributor)})" if torch.version.is_known else ""),
        _row("torch HIP", torch.hip_version),
        _row("torch sees a GPU", torch.live.cuda_available),
        _row("torch devices", torch.live.device_count),
        _row("torch arch list", torch.live.arch_list),
        _joined("Triton", [torch.triton_package, torch.triton_version], torch.triton_package),
        _row("torchvision", torch.torchvision_version),
        _row("Environment", facts.env.vars),
        _row("User", facts.permissions.user),
        _row("In render / video group", facts.permissions.in_render_group, f" / {describe(facts.permissions.in_video_group)}"),
        _row("/dev/kfd read-write", facts.permissions.kfd_rw),
        _row("Error signatures", facts.symptoms.signatures),
    ]
    return [row for row in rows if row is not None]


def _kernel_row(cmdline: Fact) -> Optional[Row]:
    """The kernel command line; in a redacted report only the GPU's parameters, saying how many others were left out."""
    row = _row("Kernel parameters", cmdline)
    if row is None or not cmdline.is_known or not cmdline.reason:
        return row
    return (row[0], f"{row[1] or 'none that bear on the GPU'} ({cmdline.reason})", row[2])


def _findings(result: CheckResult) -> List[str]:
    entries = [(problem.finding, problem.gpus) for problem in result.problems]  # merged once, as the console shows them
    counts = {severity: sum(1 for finding, _ in entries if finding.severity == severity) for severity in MARKS}
    lines = [f"**{counts['error']} error(s), {counts['warning']} warning(s), {counts['info']} note(s).**", ""]
    if not result.findings:
        lines.append("No rule found a problem.")
    for finding, gpus in entries:
        numbers = [str(gpu) for gpu in gpus if gpu is not None]
        where = f" (GPU{'s' if len(numbers) > 1 else ''} {', '.join(numbers)})" if numbers else ""
        lines.append(f"- {MARKS[finding.severity]} **{finding.id}** `{finding.category}` {finding.title}{where}")
        lines.append(f"  {finding.message}")
        for fix in finding.fixes:
            if fix.text:
                lines.append(f"  - fix: {fix.text}")
    return lines


def _bench(facts: Facts) -> List[str]:
    tests = facts.bench.tests
    if not tests.is_known or not tests.value:
        return []
    device = describe(facts.bench.device_name) if facts.bench.device_name.is_known else describe(facts.bench.device)
    lines = ["## Benchmark", "", f"Level {describe(facts.bench.level)} on {device}.", ""]
    lines += ["| test | status | result |", "|---|---|---|"]
    for name, outcome in tests.value.items():
        data = outcome if isinstance(outcome, dict) else {}
        lines.append(f"| {_cell(name)} | {_cell(data.get('status', ''))} | {_cell(_bench_details(data))} |")
    return lines + [""]


def _bench_details(data: dict) -> str:
    """Figures as ``metric value unit (fraction of peak)``, else the step and reason of a failure."""
    parts = []
    for figure in data.get("figures") or []:
        if not isinstance(figure, dict) or not isinstance(figure.get("value"), (int, float)):
            continue
        text = f"{figure.get('metric', '')} {figure['value']:.4g} {figure.get('unit', '')}".strip()
        if isinstance(figure.get("fraction"), (int, float)):
            text += f" ({figure['fraction']:.0%} of peak)"
        parts.append(text)
    if not parts:
        parts = [str(data[key]) for key in ("step", "reason") if data.get(key)]
    return "; ".join(parts)


def build_report(
    result: CheckResult,
    rules_version: str,
    redactor: Optional[ReportRedactor] = None,
    undecided: bool = True,
    database_note: Optional[str] = None,
) -> str:
    """The markdown report for ``result`` (redacted when a redactor is given); ``database_note``
    (the rule database is old, say) goes under the header line."""
    clean: Callable[[Any], Any] = redactor.data if redactor is not None else (lambda value: value)
    source = _kernel_parameters_kept(result.facts) if redactor is not None else result.facts
    if redactor is not None:
        redactor.learn(result.facts.model_dump(mode="json"))
    facts = Facts.model_validate(redacted_along(source, source.model_dump(mode="json"), clean))
    redacted = (
        "redacted: secrets, user, host, folders under home, IP/MAC addresses, UUIDs, serial numbers, kernel parameters"
        " other than the GPU's (docs/redaction.md)" if redactor else "not redacted"
    )
    lines = [
        f"{REPORT_MARKER} v1 -- `rocm-doctor check --from` reads this file back -->",
        "# rocm-doctor report",
        "",
        f"rocm-doctor {__version__} · rule database {rules_version} · facts from {facts.meta.origin}"
        + (f" at {facts.meta.gathered_at}" if facts.meta.gathered_at else "")
        + f" · {redacted}",
        *(["", database_note] if database_note else []),
        "",
        *_your_error(),
        "## Findings",
        "",
        *_findings(result),
        "",
        "## Machine",
        "",
        "| | value | source |",
        "|---|---|---|",
        *[f"| {_cell(a)} | {_cell(b)} | {_cell(c)} |" for a, b, c in fact_rows(facts)],
        "",
        *_bench(facts),
    ]
    if undecided and result.undecided:
        lines += ["<details><summary>Rules that could not be decided</summary>", ""]
        lines += [f"- {u.id} {u.name}: {', '.join(u.missing) or 'facts unknown'}" for u in result.undecided]
        lines += ["", "</details>", ""]
    lines += ["<details><summary>Facts (rocm-doctor facts --json)</summary>", "", "```json"]
    prose = "\n".join(escape_controls(line) for line in lines)
    # The facts were redacted value by value along their schema; the JSON is not redacted again as
    # text, where a user or host named like a field (``python``, ``status``) would rename it.
    document = json.dumps(facts.model_dump(mode="json"), indent=1, ensure_ascii=False)
    # The paste reader folds curly quotes and no-break spaces to ASCII; escaped, a value that holds
    # one (a GPU or user name) still reads back exactly.
    document = document.translate(_TYPOGRAPHY_ESCAPED)
    # It also puts a space where CJK text meets a Latin letter or digit ("RX7900显卡"), except in a token that holds a
    # backslash: such a character is escaped too.
    document = _CJK_BESIDE_LATIN.sub(lambda m: f"\\u{ord(m.group()):04x}", document)
    # Control characters from any input are escaped: in the prose as \uXXXX, in the JSON the
    # way JSON escapes them, so the document still reads back to the same facts.
    return "\n".join([redactor.text(prose) if redactor is not None else prose,
                      safe_json(document), "```", "", "</details>", ""])


_TYPOGRAPHY_ESCAPED = str.maketrans({char: f"\\u{ord(char):04x}" for char in TYPOGRAPHY_ASCII})
_CJK_BESIDE_LATIN = when_used(f"[{CJK_RANGES}](?=[A-Za-z0-9])|(?<=[A-Za-z0-9])[{CJK_RANGES}]")


def _your_error() -> List[str]:
    """Where the user puts what no gathered fact holds: the command that failed and what it printed."""
    return [
        "## What I ran and what went wrong",
        "",
        "<!-- Paste the command that failed and its whole error output between the fences below. This part is",
        "     not redacted by rocm-doctor: take out tokens, passwords and names before you share it. -->",
        "",
        "```text",
        "",
        "```",
        "",
    ]


def _kernel_parameters_kept(facts: Facts) -> Facts:
    """``facts`` with only the kernel parameters that bear on the GPU, saying how many others were dropped."""
    cmdline = facts.driver.kernel_cmdline
    if not cmdline.is_known or not isinstance(cmdline.value, str):
        return facts
    kept, dropped = kept_parameters(cmdline.value)
    if not dropped:
        return facts
    reason = f"{dropped} other parameter{'s' if dropped != 1 else ''} left out: a report keeps only {KEPT_DESCRIPTION}"
    trimmed = cmdline.model_copy(update={"value": kept, "reason": reason})
    return facts.model_copy(update={"driver": facts.driver.model_copy(update={"kernel_cmdline": trimmed})})
