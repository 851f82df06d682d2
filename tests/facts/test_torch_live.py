"""The live torch probe against fake target interpreters and, when available, a real CPU torch.

Fake interpreters are shell scripts: they answer the python-info probe with a
site-packages folder holding a torch dist-info, and misbehave on the torch probe.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rocm_doctor.facts import python_env
from rocm_doctor.facts.context import GatherContext, GatherOptions
from rocm_doctor.facts.torch import gather_torch
from rocm_doctor.system.live import LiveSystem

pytestmark = [pytest.mark.live_machine, pytest.mark.skipif(os.name != "posix", reason="fake interpreters are sh")]


def fake_python(tmp_path: Path, torch_behaviour: str) -> str:
    site = tmp_path / "site-packages"
    (site / "torch-2.5.1+rocm6.2.dist-info").mkdir(parents=True)
    (site / "torch-2.5.1+rocm6.2.dist-info" / "METADATA").write_text("Name: torch\nVersion: 2.5.1+rocm6.2\n")
    (site / "torch" / "lib").mkdir(parents=True)
    (site / "torch" / "version.py").write_text("hip = '6.2.41133-dd7f95766'\ncuda = None\n")
    info = json.dumps({"executable": "fake", "version": "3.12.3", "implementation": "CPython", "prefix": "/x",
                       "base_prefix": "/x", "site_packages": [str(site)]})
    script = tmp_path / "python"
    script.write_text(f"#!/bin/sh\ncase \"$3\" in\n  *'import torch'*)\n{torch_behaviour}\n    ;;\n"
                      f"  *) echo '{info}' ;;\nesac\n")
    script.chmod(0o755)
    return str(script)


def gather_live(python: str, timeout: float = 2.0):
    ctx = GatherContext(LiveSystem(), GatherOptions(python=python, torch_timeout=timeout))
    ctx.sections["python"] = python_env.gather_python(ctx)
    return gather_torch(ctx)


IMPORT_START = 'echo \'{"stage": "import", "status": "start"}\''


def test_hanging_import_fails_within_the_timeout(tmp_path):
    python = fake_python(tmp_path, f"    {IMPORT_START}\n    sleep 30")
    started = time.monotonic()
    facts = gather_live(python, timeout=1.5)
    assert time.monotonic() - started < 10
    assert facts.live.probe.status == "failed"
    assert facts.live.probe.reason == "torch import hung for 1.5 s in stage 'import'"
    assert facts.version.value == "2.5.1+rocm6.2"


def test_abort_is_reported_with_signal_stage_and_stderr(tmp_path):
    body = (f"    {IMPORT_START}\n    echo '{{\"stage\": \"import\", \"status\": \"ok\", \"seconds\": 0.1}}'\n"
            "    echo '{\"stage\": \"cuda_init\", \"status\": \"start\"}'\n"
            "    echo 'hipErrorNoBinaryForGpu: Unable to find code object for all current devices!' >&2\n"
            "    kill -ABRT $$")
    facts = gather_live(fake_python(tmp_path, body))
    assert facts.live.probe.reason == (
        "the torch probe aborted (SIGABRT) in stage 'cuda_init': "
        "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!")
    assert facts.live.import_seconds.value == 0.1


def test_garbage_output_is_failed(tmp_path):
    facts = gather_live(fake_python(tmp_path, "    echo 'Segmentation fault?'; echo '[1, 2'"))
    assert facts.live.probe.status == "failed" and "printed no result" in (facts.live.probe.reason or "")


def test_missing_interpreter_is_not_found():
    ctx = GatherContext(LiveSystem(), GatherOptions(python="/nope"))
    facts = python_env.gather_python(ctx)
    assert facts.version.status == "failed" and facts.version.reason == "the target interpreter /nope was not found"


def _torch_python() -> str:
    for candidate in ("/tmp/torchvenv/bin/python", sys.executable):
        if not Path(candidate).exists():
            continue
        check = subprocess.run([candidate, "-c", "import importlib.util as u; print(u.find_spec('torch') is not None)"],
                               capture_output=True, text=True, timeout=60)
        if check.stdout.strip() == "True":
            return candidate
    pytest.skip("no interpreter with torch installed (/tmp/torchvenv or the test interpreter)")


def _what_torch_says(python: str) -> dict:
    """The installed torch's own answers, from a child of ``python`` (the test process never imports torch)."""
    code = ("import json, torch; print(json.dumps({'version': torch.__version__, 'hip': torch.version.hip, "
            "'cuda': torch.version.cuda, 'cuda_available': torch.cuda.is_available()}))")
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_real_torch_cli_json_names_the_build_that_is_installed():
    # The README's test command installs the CPU build where the CPU index is reachable and PyPI's
    # build (CUDA on Linux) where it is not: what is expected comes from the torch that is there.
    python = _torch_python()
    own = _what_torch_says(python)
    exe = shutil.which("rocm-doctor")
    argv = [exe] if exe else [sys.executable, "-m", "rocm_doctor"]
    done = subprocess.run(argv + ["facts", "--json", "--python", python], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    facts = json.loads(done.stdout)
    torch = facts["torch"]
    # PyPI's CUDA wheel is 2.13.0 in its metadata and 2.13.0+cu1xx in torch.__version__.
    assert torch["version"]["value"].split("+")[0] == own["version"].split("+")[0]
    assert torch["flavour"]["value"] == ("rocm" if own["hip"] else "cuda" if own["cuda"] else "cpu")
    assert torch["live"]["probe"]["value"] == "ok", torch["live"]["probe"]
    assert torch["live"]["cuda_available"]["value"] is own["cuda_available"]
    assert facts["python"]["executable"]["status"] == "known"
