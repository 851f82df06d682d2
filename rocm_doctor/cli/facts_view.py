"""Human view of a Facts snapshot: one rich table per section.

Unknown and failed facts show their reason, dimmed. Facts that do not apply to
this operating system, and sections with nothing else in them, appear only with
``-v``, which also adds the column saying where each fact was read.
"""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Tuple

from pydantic import BaseModel
from rich.console import Console
from rich.table import Table
from rich.text import Text

from rocm_doctor.facts.model import Facts, GpuAgent, GpuFacts, PackagesFacts, Section
from rocm_doctor.facts.value import Fact
from rocm_doctor.render.trimmed import print_trimmed

SECTIONS = ("host", "python", "cpu", "gpus", "driver", "rocm", "windows", "torch", "packages", "env",
            "permissions", "bench", "symptoms", "process")
NOTABLE_PACKAGES = (
    "torch", "torchvision", "torchaudio", "pytorch-triton-rocm", "triton", "triton-rocm", "pytorch-triton",
    "numpy", "accelerate", "peft", "torchtune", "transformers", "bitsandbytes", "flash-attn", "onnxruntime",
    "onnxruntime-rocm", "onnxruntime-gpu", "onnxruntime-directml", "onnxruntime-migraphx", "xformers", "vllm",
)
"""Packages shown without ``-v`` (all are shown with it)."""


def _human_bytes(value: int) -> str:
    size = float(value)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if size < 1024 or unit == "TiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return str(value)


def format_value(name: str, value: Any) -> str:
    """A fact's value as one short string."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and (name.endswith("bytes") or name == "total_memory"):
        return f"{_human_bytes(value)} ({value})"
    if isinstance(value, dict):
        return "\n".join(f"{k}={v}" for k, v in value.items()) if value else "(none)"
    if isinstance(value, list):
        if value and isinstance(value[0], BaseModel):
            return "\n".join(_device_line(v) for v in value)
        return ", ".join(str(v) for v in value) if value else "(none)"
    return str(value)


def _device_line(device: BaseModel) -> str:
    data = device.model_dump(exclude_none=True)
    memory = data.get("total_memory")
    parts = [f"#{data.get('index')}", data.get("name", ""), data.get("gcn_arch_name", "")]
    if memory:
        parts.append(_human_bytes(memory))
    return " ".join(str(p) for p in parts if p)


def _not_applicable(fact: Fact[Any]) -> bool:
    return fact.status == "unknown" and (fact.reason or "").startswith("not applicable")


def _cell(name: str, fact: Fact[Any]) -> Text:
    if fact.status == "known":
        return Text(format_value(name, fact.value))
    if fact.status == "absent":
        return Text("absent" + (f" ({fact.reason})" if fact.reason else ""), style="dim")
    label = "failed" if fact.status == "failed" else "unknown"
    return Text(f"{label}: {fact.reason or 'no reason given'}", style="dim italic")


def iter_facts(section: BaseModel, prefix: str = "") -> Iterator[Tuple[str, Fact[Any]]]:
    """(dotted name, fact) for every fact of a section, nested sections included."""
    for name in type(section).model_fields:
        value = getattr(section, name)
        if isinstance(value, Fact):
            yield prefix + name, value
        elif isinstance(value, Section) and not isinstance(value, GpuAgent):
            yield from iter_facts(value, f"{prefix}{name}.")


def _table(title: str, verbose: bool) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", show_header=verbose, box=None,
                  padding=(0, 2, 0, 0))
    table.add_column("fact", style="cyan", no_wrap=True)
    table.add_column("value", overflow="fold")
    if verbose:
        table.add_column("source", style="dim", overflow="fold")
    return table


def _add(table: Table, name: str, fact: Fact[Any], verbose: bool) -> None:
    cells: List[Any] = [name, _cell(name.rsplit(".", 1)[-1], fact)]
    if verbose:
        cells.append(fact.source or "")
    table.add_row(*cells)


def _section_table(name: str, section: BaseModel, verbose: bool) -> Optional[Table]:
    rows = [(n, f) for n, f in iter_facts(section) if verbose or not _not_applicable(f)]
    if not verbose and all(f.status == "unknown" for _, f in rows):
        return None
    if isinstance(section, PackagesFacts) and section.installed.is_known and not verbose:
        installed = section.installed.value or {}
        notable = {k: v for k, v in installed.items() if k in NOTABLE_PACKAGES}
        shown = section.installed.model_copy(update={"value": notable})
        rows = [(f"installed ({len(installed)}; notable shown, -v for all)", shown)]
    table = _table(name, verbose)
    for fact_name, fact in rows if verbose else collapse(rows):
        _add(table, fact_name, fact, verbose)
    return table


def collapse(rows: List[Tuple[str, Fact[Any]]], least: int = 3) -> List[Tuple[str, Fact[Any]]]:
    """Fold runs of ``least`` or more facts missing for the same reason into one row."""
    out: List[Tuple[str, Fact[Any]]] = []
    index = 0
    while index < len(rows):
        name, fact = rows[index]
        end = index + 1
        while (end < len(rows) and fact.status != "known"
               and (rows[end][1].status, rows[end][1].reason) == (fact.status, fact.reason)):
            end += 1
        if end - index >= least:
            out.append((f"{name} … {rows[end - 1][0]} ({end - index} facts)", fact))
        else:
            out.extend(rows[index:end])
        index = end
    return out


def _gpu_tables(gpus: GpuFacts, verbose: bool) -> List[Table]:
    summary = _table("gpus", verbose)
    _add(summary, "discovery", gpus.discovery, verbose)
    for attempt in gpus.attempts:
        detail = f" ({attempt.detail})" if attempt.detail else ""
        summary.add_row(f"layer {attempt.layer}", Text(f"{attempt.status}, {attempt.count} found{detail}",
                                                        style="" if attempt.status == "answered" else "dim"),
                        *([""] if verbose else []))
    tables = [summary]
    for agent in gpus.agents:
        table = _table(f"gpu {agent.index} (from {agent.source})", verbose)
        for fact_name, fact in iter_facts(agent):
            if verbose or not _not_applicable(fact):
                _add(table, fact_name, fact, verbose)
        tables.append(table)
    if not gpus.agents:
        summary.add_row("agents", Text("none found", style="dim"), *([""] if verbose else []))
    return tables


def render_facts(facts: Facts, console: Console, verbose: bool = False) -> None:
    """Print every section."""
    meta = facts.meta
    origin = meta.origin + (f" {meta.origin_detail}" if meta.origin_detail else "")
    console.print(Text(f"rocm-doctor {meta.tool_version} facts ({origin})", style="bold"))
    for name in SECTIONS:
        if name == "process" and facts.process.pid.status == "absent":
            continue  # no --pid: nothing to show
        section = getattr(facts, name)
        tables = _gpu_tables(section, verbose) if isinstance(section, GpuFacts) else [
            t for t in [_section_table(name, section, verbose)] if t is not None
        ]
        for table in tables:
            console.print()
            print_trimmed(console, table)
