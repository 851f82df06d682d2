"""Every JSON document names its kind the same way, and real outputs validate against the shipped schemas.

The schemas in ``rocm_doctor/schemas/`` are generated from the pydantic models registered in
``rocm_doctor.documents.DOCUMENTS`` by ``tools/generate_schemas.py``; the outputs come from the real
CLI on the recorded machines (``bench`` runs on this machine's CPU, in a child process).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List

import jsonschema
import pytest

from cli_runner import run_cli  # noqa: F401  (the fixture)
from rocm_doctor.documents import DOCUMENTS, model_of, schema_id

ROOT = Path(__file__).resolve().parents[1]
MACHINES = ROOT / "tests" / "machines"
SCHEMAS = ROOT / "rocm_doctor" / "schemas"
BOXES = ("docker-2x7900xt-rocm62", "win11-strixhalo-preview", "cpu-only")


def _tool():
    spec = importlib.util.spec_from_file_location("generate_schemas", ROOT / "tools" / "generate_schemas.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def _json(result) -> Dict[str, Any]:
    assert "Traceback" not in result.stderr
    return json.loads(result.stdout)


def _per_machine(*args: str) -> Callable[..., List[Dict[str, Any]]]:
    def produce(run_cli, tmp_path: Path) -> List[Dict[str, Any]]:
        return [_json(run_cli(*args[:1], *args[1:], "--machine", str(MACHINES / box))) for box in BOXES]

    return produce


def _check_from_a_paste(run_cli, tmp_path: Path) -> List[Dict[str, Any]]:
    paste = tmp_path / "paste.txt"
    paste.write_text(
        "RuntimeError: HIP error: invalid device function\nHIP_VISIBLE_DEVICES=0\ntorch 2.5.1+rocm6.2\n", encoding="utf-8"
    )
    machines = _per_machine("check", "--json")(run_cli, tmp_path)
    return machines + [_json(run_cli("check", "--from", str(paste), "--json"))]


def _fleet(run_cli, tmp_path: Path) -> List[Dict[str, Any]]:
    from fleet_gen import write_fleet
    from rocm_doctor.judge.loader import load_rules

    fleet = write_fleet(tmp_path / "nodes", 8, load_rules(use_env=False), old_driver=[3], slow={5: 0.4})
    (tmp_path / "nodes" / "broken.json").write_text("{", encoding="utf-8")
    return [_json(run_cli("fleet", str(fleet.folder), "--json"))]


def _diff(run_cli, tmp_path: Path) -> List[Dict[str, Any]]:
    before, after = (MACHINES / box / "facts.json" for box in ("docker-2x7900xt-rocm62", "ubuntu2204-6700xt"))
    return [_json(run_cli("diff", str(before), "--facts", str(after), "--json")), _json(run_cli("diff", str(before), str(before), "--json"))]


def _bench(run_cli, tmp_path: Path) -> List[Dict[str, Any]]:
    probe = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('torch') else 1)"
    if subprocess.run([sys.executable, "-I", "-c", probe], timeout=60).returncode != 0:
        pytest.skip(f"{sys.executable} has no torch to benchmark")
    done = subprocess.run(
        [sys.executable, "-m", "rocm_doctor", "bench", "--device", "cpu", "--python", sys.executable, "--json"],
        capture_output=True, text=True, timeout=600,
    )
    return [_json(done)]


def _ps(run_cli, tmp_path: Path) -> List[Dict[str, Any]]:
    """``ps --json`` on this machine while a process that mapped a torch's libraries runs."""
    spec = importlib.util.spec_from_file_location("process_support", ROOT / "tests" / "processes" / "process_support.py")
    support = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(support)
    child = support.start_child(support.fake_torch(tmp_path / "site", "rocm", "2.9.1+rocm6.4"))
    try:
        return [_json(run_cli("ps", "--json"))]
    finally:
        child.stop()


EXAMPLES: Dict[str, Callable[..., List[Dict[str, Any]]]] = {
    "facts": _per_machine("facts", "--json"),
    "check": _check_from_a_paste,
    "fix": _per_machine("fix", "--json"),
    "rules": lambda run_cli, tmp_path: [_json(run_cli("rules", "list", "--json"))],
    "health": _per_machine("health", "--json"),
    "bench": _bench,
    "fleet": _fleet,
    "matrix": lambda run_cli, tmp_path: [_json(run_cli("matrix", "--json"))],
    "ps": _ps,
    "diff": _diff,
}
"""Kind -> real documents of that kind (adding a kind to DOCUMENTS needs its line here too)."""


def test_every_document_kind_has_a_checked_in_schema_that_matches_its_model() -> None:
    tool = _tool()
    wanted = tool.expected()
    present = {p.name: p.read_text(encoding="utf-8") for p in SCHEMAS.glob("*.schema.json")}
    assert sorted(present) == sorted(wanted), "run python tools/generate_schemas.py"
    for name, text in wanted.items():
        assert present[name] == text, f"{name} differs from its model: run python tools/generate_schemas.py"
    assert tool.main(["--check"]) == 0


def test_every_registered_kind_is_named_rocm_doctor_kind_version_and_has_real_examples_here() -> None:
    assert sorted(EXAMPLES) == sorted(DOCUMENTS)
    for kind in DOCUMENTS:
        assert schema_id(model_of(kind)) == f"rocm-doctor/{kind}/1"


@pytest.mark.live_machine
@pytest.mark.parametrize("kind", sorted(DOCUMENTS))
def test_real_documents_of_each_kind_validate_against_the_shipped_schema(run_cli, tmp_path: Path, kind: str) -> None:
    schema = json.loads((SCHEMAS / f"{kind}-1.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    documents = EXAMPLES[kind](run_cli, tmp_path)
    assert documents
    for document in documents:
        assert next(iter(document)) == "schema" and document["schema"] == f"rocm-doctor/{kind}/1"
        problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]
        assert problems == [], problems[:5]


def test_a_schema_catches_a_document_that_breaks_it(run_cli, tmp_path: Path) -> None:
    """The schemas are strict enough to fail: an unknown key and a wrong type are both errors."""
    schema = json.loads((SCHEMAS / "fix-1.schema.json").read_text(encoding="utf-8"))
    document = _json(run_cli("fix", "--machine", str(MACHINES / BOXES[0]), "--json"))
    validator = jsonschema.Draft202012Validator(schema)
    assert list(validator.iter_errors({**document, "surprise": 1}))
    assert list(validator.iter_errors({**document, "steps": "none"}))


def test_facts_json_names_its_kind_like_every_other_document(run_cli) -> None:
    document = _json(run_cli("facts", "--machine", str(MACHINES / "cpu-only"), "--json"))
    assert list(document)[0] == "schema" and document["schema"] == "rocm-doctor/facts/1"
    assert "schema_version" not in document and "schema_version" not in document["meta"]


def test_a_facts_file_written_with_the_old_schema_version_is_still_read(run_cli, tmp_path: Path) -> None:
    document = _json(run_cli("facts", "--machine", str(MACHINES / "cpu-only"), "--json"))
    del document["schema"]
    legacy = {"schema_version": 1, **document, "meta": {"schema_version": 1, **document["meta"]}}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(legacy), encoding="utf-8")
    result = run_cli("facts", "--facts", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    assert _json(result)["schema"] == "rocm-doctor/facts/1"


@pytest.mark.parametrize(("key", "value"), [("schema", "rocm-doctor/facts/2"), ("schema_version", 2)])
def test_a_facts_file_of_another_schema_is_refused_with_one_line(run_cli, tmp_path: Path, key: str, value: Any) -> None:
    document = _json(run_cli("facts", "--machine", str(MACHINES / "cpu-only"), "--json"))
    document[key] = value
    path = tmp_path / "new.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    result = run_cli("facts", "--facts", str(path), "--json")
    assert result.exit_code == 2
    assert "is not supported (this rocm-doctor reads rocm-doctor/facts/1)" in result.stderr


def test_the_schema_tool_run_alone_gives_the_checked_in_schemas() -> None:
    import subprocess
    import sys

    # In a fresh interpreter the models are built in another order than inside the suite.
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_schemas.py"), "--check"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
