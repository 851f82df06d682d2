"""A torch dependency missing from the package index in use (learn54n).

torch_dependency_missing_from_index: ROCm/TheRock#2344 (uv, filelock on the gfx1150 index), ROCm/TheRock#4180
(MarkupSafe for Python 3.14), ROCm/TheRock PR #1757 (pip, MarkupSafe from jinja2 on the prereleases index).
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors


@pytest.mark.parametrize(
    "line",
    [
        "  ╰─▶ Because filelock was not found in the package registry and torch==2.9.0+rocm7.10.0a20251117 depends on"
        " filelock, we can conclude that",
        "pip install torch --index-url https://rocm.nightlies.amd.com/v2/gfx110X-all/\n"
        "ERROR: Could not find a version that satisfies the requirement MarkupSafe>=2.0 (from jinja2) (from versions: none)",
        # pytorch/pytorch#95986, #164150: download.pytorch.org's own nightly indexes, quoted and CRLF
        "> ERROR: Could not find a version that satisfies the requirement jinja2 (from torch) (from versions: none)",
        "ERROR: Could not find a version that satisfies the requirement filelock (from torch) (from versions: none)\r\n",
        "ERROR: Could not find a version that satisfies the requirement networkx (from torch==2.10.0+rocm7.13.0a20260326)"
        " (from versions: none)",
        "uv pip install --index-url https://download.pytorch.org/whl/rocm6.4 torch\n"
        "  ╰─▶ Because there is no version of markupsafe>=2.0 and jinja2==3.1.6 depends on markupsafe>=2.0, we can conclude",
    ],
)
def test_torch_dependency_missing_from_index_is_read(line: str) -> None:
    assert "torch_dependency_missing_from_index" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        # torch itself missing: no_torch_for_this_python(_resolver)
        "ERROR: Could not find a version that satisfies the requirement torch (from versions: none)",
        "  ╰─▶ Because torch was not found in the package registry and you require torch, we can conclude",
        # a dependency asked for on its own, not pulled in by torch (offline pip, a typo)
        "ERROR: Could not find a version that satisfies the requirement networkx (from versions: none)",
        # found and installed
        "Collecting filelock (from torch==2.9.0+rocm7.10.0a20251117)",
        "Requirement already satisfied: MarkupSafe>=2.0 in ./venv/lib/python3.12/site-packages (from jinja2) (3.0.2)",
        # rev54n: a chain from jinja2 or sympy with no torch in the report (Flask on a private index, sympy alone)
        "pip install --index-url https://pypi.mycorp.local/simple flask\n"
        "ERROR: Could not find a version that satisfies the requirement MarkupSafe>=2.0 (from jinja2) (from versions: none)",
        "  ╰─▶ Because there is no version of mpmath>=1.1.0,<1.4 and sympy==1.13.1 depends on mpmath>=1.1.0,<1.4, we can",
        # a changelog's line, a question about a past error
        "Changelog 2.0.1: fixed 'Could not find a version that satisfies the requirement filelock (from torch)'",
        "Why did I get 'Could not find a version that satisfies the requirement filelock (from torch)' last week?",
    ],
)
def test_other_resolver_lines_are_not_read_as_a_missing_torch_dependency(line: str) -> None:
    assert "torch_dependency_missing_from_index" not in signature_errors(line)


def test_a_missing_torch_dependency_on_a_rocm_index_is_shown_as_an_index_gap() -> None:
    report = (
        "uv pip install --index-url=https://rocm.nightlies.amd.com/v2-staging/gfx1150 torch==2.9.0+rocm7.10.0a20251117\n"
        "  × No solution found when resolving dependencies:\n"
        "  ╰─▶ Because filelock was not found in the package registry and torch==2.9.0+rocm7.10.0a20251117 depends on"
        " filelock, we can conclude that torch==2.9.0+rocm7.10.0a20251117 cannot be used.\n"
    )
    assert problems_shown(report)[:1] == ["RD376"]
