"""Start-up as a property of the design: nothing is loaded that the command and the machine do not need."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, List

import pytest

from rocm_doctor.facts.value import Fact

from rocm_doctor.judge import derived
from rocm_doctor.judge.derived_facts.env_reads import env_vars_read_by_nothing
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate
from test_machine_findings import MACHINES, facts_of

ROOT = Path(__file__).resolve().parent.parent


def tables_read(monkeypatch: pytest.MonkeyPatch) -> List[str]:
    names: List[str] = []
    original = derived.Tables.__getitem__

    def spy(self: derived.Tables, name: str) -> Any:
        names.append(name)
        return original(self, name)

    monkeypatch.setattr(derived.Tables, "__getitem__", spy)
    return names


def test_a_machine_without_a_judged_variable_never_reads_the_table_of_variable_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    facts = facts_of("ubuntu2204-6700xt")
    names = tables_read(monkeypatch)
    evaluate(load_rules(use_env=False), facts)
    assert "env_reads" not in names


def test_a_judged_variable_reads_the_table_and_gets_the_same_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    facts = facts_of("ubuntu2204-6700xt")
    env = dict(facts.env.vars.value or {}, HSA_OVERRIDE_GFX_VERSION="10.3.0", HSA_NO_SUCH_SETTING="1")
    # without torch installed: PyTorch's unscanned C++ may read any of these prefixes, so with torch
    # there the registry never says "read by nothing" (rules/data/env_reads.yaml, unscanned_readers)
    no_torch = facts.torch.model_copy(update={"version": Fact(status="absent", source="test", reason="torch not installed")})
    changed = facts.model_copy(update={
        "env": facts.env.model_copy(update={"vars": facts.env.vars.model_copy(update={"value": env})}),
        "torch": no_torch,
    })
    names = tables_read(monkeypatch)
    fact = env_vars_read_by_nothing(changed, derived.Tables())
    assert "env_reads" in names
    assert fact.is_known and fact.value == ["HSA_NO_SUCH_SETTING"]


PROBE = """
import json, sys
from pathlib import Path
from rocm_doctor.facts.context import GatherOptions
from rocm_doctor.facts.gather import gather
from rocm_doctor.system.recorded import RecordedSystem
import rocm_doctor.judge.engine
import rocm_doctor.pipeline
after_judge = sorted(m for m in sys.modules if m.startswith(("rocm_doctor.remedy", "rocm_doctor.ingest")))
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate
facts = gather(RecordedSystem(Path(sys.argv[1])), GatherOptions(use_amdsmi=False), origin="recorded")
result = evaluate(load_rules(use_env=False), facts)
print(json.dumps({"after_judge": after_judge, "ingest": sorted(m for m in sys.modules if m.startswith("rocm_doctor.ingest")),
                  "remedy": "rocm_doctor.remedy.decide" in sys.modules, "plan": result.plan is not None}))
"""


def test_judging_imports_no_remedy_and_no_ingest_unless_their_stage_runs() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, str(MACHINES / "ubuntu2204-6700xt")], capture_output=True,
                          text=True, timeout=300, check=True, cwd=ROOT)
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["after_judge"] == []  # the judge stage and the pipeline load neither the chooser nor the paste readers
    assert seen["ingest"] == []  # no error signature was seen: the paste readers stay unloaded
    assert seen["remedy"] and seen["plan"]  # the decide stage ran


def test_version_loads_no_stage() -> None:
    code = ("import runpy, sys; sys.argv = ['rocm-doctor', '--version']\n"
            "try:\n    runpy.run_module('rocm_doctor', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('rocm_doctor.')}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True, cwd=ROOT)
    loaded = set(json.loads(done.stdout.strip().splitlines()[-1].replace("'", '"')))
    assert loaded.isdisjoint({"facts", "judge", "remedy", "ingest", "render", "pipeline", "model"})


CHECK_FACTS = """
import runpy, sys, io, contextlib
sys.argv = ["rocm-doctor", "check", "--facts", sys.argv[1]]
try:
    with contextlib.redirect_stdout(io.StringIO()):
        runpy.run_module("rocm_doctor", run_name="__main__")
except SystemExit:
    pass
print("yaml" in sys.modules)
"""


def test_a_check_with_the_rule_database_cached_parses_no_yaml(tmp_path: Path) -> None:
    env = {**os.environ, "ROCM_DOCTOR_CACHE_DIR": str(tmp_path / "cache")}
    argv = [sys.executable, "-c", CHECK_FACTS, str(MACHINES / "cpu-only" / "facts.json")]
    first = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=True, cwd=ROOT, env=env)
    second = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=True, cwd=ROOT, env=env)
    assert first.stdout.split()[-1] == "True"  # the first run parsed the rule files and filled the cache
    assert second.stdout.split()[-1] == "False"  # the second read them from it: PyYAML is never imported


SETTLED_HEAP = """
import atexit, gc, io, contextlib, runpy, sys
sys.argv = ["rocm-doctor", "check", "--facts", sys.argv[1]]
collections = []
gc.collect()  # start from empty generations: what the interpreter's own start-up left pending is not the doctor's
# a collection of the older generations before start-up froze its heap walks what it is building (the
# import machinery's first ~700 objects may still make one young collection before the doctor's own code
# runs); after the freeze the frozen objects are in the permanent generation and nothing walks them
gc.callbacks.append(lambda phase, info: collections.append(info["generation"]) if phase == "start" and info["generation"] >= 1 and gc.get_freeze_count() == 0 else None)
atexit.register(lambda: print(gc.isenabled(), gc.get_freeze_count(), len(collections)))
with contextlib.redirect_stdout(io.StringIO()):
    runpy.run_module("rocm_doctor", run_name="__main__")
"""


def test_the_command_line_collects_nothing_while_it_starts_and_then_collects_as_usual() -> None:
    done = subprocess.run([sys.executable, "-c", SETTLED_HEAP, str(MACHINES / "cpu-only" / "facts.json")],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    enabled, frozen, collections_before_freeze = done.stdout.split()[-3:]
    assert enabled == "True"  # the command's own garbage is collected
    assert int(frozen) > 10_000  # what start-up built is frozen: never walked again
    assert int(collections_before_freeze) == 0  # and no collection walked it while it was built
