"""CI installs exactly as README.md says and runs README's test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list:
    blocks = re.findall(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.DOTALL)
    lines = [line for block in blocks for line in block.splitlines()]
    # Up to the first section: the venv, the main job, the tests (later blocks are examples).
    return [line for line in lines[: lines.index(next(l for l in lines if "pytest" in l)) + 1] if "venv" not in line]


def test_ci_runs_every_readme_install_and_test_line_as_written() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = _readme_commands()
    assert any("pytest" in c for c in commands) and any(c.startswith("pip install .") for c in commands)
    for command in commands:
        # CI may only add `|| exit`, which stops a `set -e` script when a command before `&&` fails.
        assert any(line == command or line == command + " || exit" for line in ci), command
    assert ci[-1] in commands and "pytest" in ci[-1], "the test command must be CI's last, so its exit code is CI's"


def test_the_readme_test_command_runs_in_parallel_and_installs_a_cpu_torch_first() -> None:
    commands = _readme_commands()
    torch_first = next(c for c in commands if "download.pytorch.org/whl/cpu" in c)
    assert "--no-deps" in torch_first and "--retries" in torch_first and "||" in torch_first
    assert commands.index(torch_first) < commands.index(next(c for c in commands if '".[test]"' in c))
    assert commands[-1].endswith("python -m pytest -n auto")
