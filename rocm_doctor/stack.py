"""One machine in a few values: its software stack and GPU layout as short strings, and its
headline benchmark figures. ``fleet`` compares them across nodes; ``health --prometheus``
publishes them.

Reads the JSON form of :class:`~rocm_doctor.facts.model.Facts` (``facts --json``, the ``facts``
of ``check --json``) as plain dicts, so ten thousand node files need no model validation.
A fact that is not known prints as ``absent`` or ``unknown`` (as in rule messages), never as
an empty string.
"""

from __future__ import annotations

from collections import abc
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Tuple

from rocm_doctor.judge.interpolate import ABSENT_TEXT, UNKNOWN_TEXT, render_value

VISIBLE_DEVICE_VARS = ("HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL")
"""The variables that choose which GPUs a process sees, and in which order."""

STACK: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("os", ("host.distro_id host.distro_version", "host.os")),
    ("kernel", ("host.kernel_release", "host.windows_version")),
    ("driver", ("driver.amdgpu_version", "windows.driver_version")),
    ("rocm", ("rocm.version",)),
    ("torch", ("torch.version",)),
    ("python", ("python.version",)),
)
"""Stack dimension -> its fact paths (space-separated parts), first choice first: the Linux
kernel and amdgpu module version, or Windows' version and AMD display driver."""


def fact_of(facts: Mapping[str, Any], path: str) -> Mapping[str, Any]:
    """The fact dict at a dotted path (``{}`` when the document lacks it)."""
    node: Any = facts
    for part in path.split("."):
        node = node.get(part) if type(node) is dict or isinstance(node, abc.Mapping) else None
    return node if type(node) is dict or isinstance(node, abc.Mapping) else {}


def fact_text(facts: Mapping[str, Any], path: str) -> str:
    """A fact as text: its value, or ``absent`` / ``unknown``."""
    fact = fact_of(facts, path)
    if fact.get("status") == "known":
        return render_value(fact.get("value"))
    return ABSENT_TEXT if fact.get("status") == "absent" else UNKNOWN_TEXT


def known_value(facts: Mapping[str, Any], path: str) -> Any:
    """A known fact's value, else None."""
    fact = fact_of(facts, path)
    return fact.get("value") if fact.get("status") == "known" else None


def _run_length(items: List[str]) -> str:
    """``['gfx942'] * 8`` -> ``8x gfx942``; order is kept (``gfx1036, gfx1100``)."""
    runs: List[List[Any]] = []
    for item in items:
        if runs and runs[-1][1] == item:
            runs[-1][0] += 1
        else:
            runs.append([1, item])
    return ", ".join(item if count == 1 else f"{count}x {item}" for count, item in runs)


def gpu_order(facts: Mapping[str, Any]) -> str:
    """The GPUs in discovery order (what device 0, 1, ... are), by gfx target or name."""
    gpus = facts.get("gpus")
    agents = gpus.get("agents") if isinstance(gpus, abc.Mapping) else None
    if not isinstance(agents, list) or not agents:
        return "none"
    labels = [str(known_value(agent, "gfx") or known_value(agent, "name") or UNKNOWN_TEXT) for agent in agents]
    return _run_length(labels)


def env_vars(facts: Mapping[str, Any]) -> Dict[str, str]:
    """The ROCm/PyTorch variables that are set (``{}`` when none or not known)."""
    value = known_value(facts, "env.vars")
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, abc.Mapping) else {}


def _first_known(facts: Mapping[str, Any], choices: Tuple[str, ...]) -> str:
    """The first choice whose every fact is known, else the first choice as it reads."""
    for choice in choices:
        paths = choice.split()
        if all(fact_of(facts, p).get("status") == "known" for p in paths):
            return " ".join(fact_text(facts, p) for p in paths)
    return " ".join(fact_text(facts, p) for p in choices[0].split())


def _joined(pairs: Mapping[str, str]) -> str:
    return " ".join(f"{k}={pairs[k]}" for k in sorted(pairs)) or "none"


def stack_of(facts: Mapping[str, Any]) -> Dict[str, str]:
    """The stack fingerprint: os, kernel, driver, rocm, torch, python, env (the key variables)."""
    out = {name: _first_known(facts, choices) for name, choices in STACK}
    out["env"] = _joined({k: v for k, v in env_vars(facts).items() if k not in VISIBLE_DEVICE_VARS})
    return out


def devices_of(facts: Mapping[str, Any]) -> Dict[str, str]:
    """GPU layout: discovery order, the visible-device variables, and how many GPUs torch saw."""
    visible = {k: v for k, v in env_vars(facts).items() if k in VISIBLE_DEVICE_VARS}
    return {
        "gpu_order": gpu_order(facts),
        "visible_devices": _joined(visible) if visible else "unset",
        "torch_devices": fact_text(facts, "torch.live.device_count"),
    }


HEADLINE_FIGURES: Tuple[Tuple[str, str, str, str], ...] = (
    # (test, metric key, label, unit)
    ("gemm", "fp32_tflops", "fp32", "TFLOP/s"),
    ("gemm", "fp16_tflops", "fp16", "TFLOP/s"),
    ("gemm", "bf16_tflops", "bf16", "TFLOP/s"),
    ("bandwidth", "d2d_gbs", "d2d", "GB/s"),
    ("bandwidth", "triad_gbs", "triad", "GB/s"),
    ("bandwidth", "h2d_pinned_gbs", "h2d_pinned", "GB/s"),
    ("bandwidth", "d2h_pinned_gbs", "d2h_pinned", "GB/s"),
    ("bandwidth", "h2d_pageable_gbs", "h2d_pageable", "GB/s"),
    ("bandwidth", "d2h_pageable_gbs", "d2h_pageable", "GB/s"),
)
"""The benchmark figures that compare across GPUs of one model: GEMM throughput and copy bandwidth."""


@dataclass(frozen=True)
class Figure:
    """One measured headline figure."""

    test: str
    key: str
    label: str
    unit: str
    value: float


def bench_tests(facts: Mapping[str, Any]) -> Dict[str, Dict[str, Any]]:
    """``bench.tests`` of a facts document (test -> result dict), ``{}`` when no benchmark ran."""
    value = known_value(facts, "bench.tests")
    return value if isinstance(value, dict) else {}


def figures_of_tests(tests: Mapping[str, Any]) -> List[Figure]:
    """The headline figures among benchmark results (``bench.tests``, or ``tests`` of ``bench --json``)."""
    out = []
    for test, key, label, unit in HEADLINE_FIGURES:
        metrics = (tests.get(test) or {}).get("metrics") if isinstance(tests.get(test), abc.Mapping) else None
        value = metrics.get(key) if isinstance(metrics, abc.Mapping) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out.append(Figure(test, key, label, unit, float(value)))
    return out


def headline_figures(facts: Mapping[str, Any]) -> List[Figure]:
    """The headline figures of a facts document's benchmark."""
    return figures_of_tests(bench_tests(facts))
