"""The parts of the fleet view: reading node documents, majorities, robust outliers."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fleet_gen import FIGURES, bench_run, node_facts
from rocm_doctor import limits
from rocm_doctor.bench.results import run_dict
from rocm_doctor.fleet.aggregate import MIN_PEERS, outliers, spread
from rocm_doctor.fleet.load import Node, node_name
from rocm_doctor.stack import Figure

MACHINES = Path(__file__).resolve().parent.parent / "machines"


def nodes_with(values: list, model: str = "MI300X") -> list:
    return [Node(f"n{i:02d}", model=model, figures=[Figure("bandwidth", "d2d_gbs", "d2d", "GB/s", v)]) for i, v in enumerate(values)]


def test_a_far_slower_gpu_is_an_outlier_and_ordinary_spread_is_not() -> None:
    values = [100, 101, 99, 98, 102, 100, 97, 103, 40]
    assert [(o.node, round(o.ratio, 2)) for o in outliers(nodes_with(values))] == [("n08", 0.4)]
    assert outliers(nodes_with([100, 101, 99, 98, 102, 100, 97, 103, 80])) == []  # 80%: slower, not far below


def test_a_wide_spread_fleet_does_not_call_its_slowest_gpu_an_outlier() -> None:
    assert outliers(nodes_with([100, 60, 130, 70, 110, 90, 65, 120, 72])) == []


def test_identical_peers_still_flag_a_far_slower_one() -> None:
    assert [o.node for o in outliers(nodes_with([100] * 8 + [50]))] == ["n08"]


def test_too_few_peers_or_another_model_are_not_compared() -> None:
    assert outliers(nodes_with([100] * (MIN_PEERS - 2) + [10])) == []
    mixed = nodes_with([100] * 6) + nodes_with([40], model="RX 7900 XTX")
    assert outliers(mixed) == []


def test_a_majority_needs_more_than_half_of_the_nodes() -> None:
    split = spread("driver", {"a": "6.8.5", "b": "6.8.5", "c": "6.16.13", "d": "6.16.13"})
    assert split.majority is None and split.odd == []
    clear = spread("driver", {"a": "6.8.5", "b": "6.16.13", "c": "6.16.13"})
    assert clear.majority == "6.16.13" and [v.nodes for v in clear.odd] == [["a"]]


@pytest.mark.parametrize(
    ("path", "name"),
    [("out/gpu017.json", "gpu017"), ("out/gpu017.bench.json", "gpu017"), ("out/gpu017/check.json", "gpu017"),
     ("out/gpu017.cluster.example.json", "gpu017"), ("facts.json", "facts")],
)
def test_node_names_come_from_file_names(path: str, name: str) -> None:
    assert node_name(Path(path)) == name


def test_facts_documents_are_judged_and_bench_documents_merge_into_their_node(run_cli, tmp_path: Path) -> None:
    shutil.copy(MACHINES / "linux-amd-cuda-wheel" / "facts.json", tmp_path / "wheel.json")
    for index in range(6):
        (tmp_path / f"n{index}.json").write_text(node_facts().to_json(), encoding="utf-8")
        slow = dict(FIGURES, d2d_gbs=300.0) if index == 5 else dict(FIGURES)
        (tmp_path / f"n{index}.bench.json").write_text(json.dumps(run_dict(bench_run(slow))), encoding="utf-8")
    document = json.loads(run_cli("fleet", str(tmp_path), "--json").stdout)
    assert document["nodes"] == 7 and document["files"] == 13
    assert {"id": "RD100", "nodes": ["wheel"]}.items() <= next(f for f in document["findings"] if f["id"] == "RD100").items()
    assert [(o["node"], o["metric"]) for o in document["outliers"]] == [("n5", "d2d")]


def test_a_check_document_from_before_action_classes_gets_them_from_the_rules(run_cli, tmp_path: Path) -> None:
    for index in range(3):
        result = run_cli("check", "--machine", str(MACHINES / "linux-amd-cuda-wheel"), "--json")
        document = json.loads(result.stdout)
        for finding in document["findings"]:
            del finding["action"]
        (tmp_path / f"old{index}.json").write_text(json.dumps(document), encoding="utf-8")
    report = json.loads(run_cli("fleet", str(tmp_path), "--json").stdout)
    assert report["findings"][0]["id"] == "RD100" and report["findings"][0]["action"] == "config"


def test_unusable_files_are_skipped_with_a_reason_and_make_the_verdict_unknown(run_cli, tmp_path: Path) -> None:
    (tmp_path / "good.json").write_text(node_facts().to_json(), encoding="utf-8")
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "binary.json").write_bytes(bytes(range(128, 256)))
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    (tmp_path / "other.json").write_text('{"schema": "something/else"}', encoding="utf-8")
    (tmp_path / "bad-facts.json").write_text('{"schema_version": 1, "meta": {}, "host": 5}', encoding="utf-8")
    result = run_cli("fleet", str(tmp_path), "--json")
    document = json.loads(result.stdout)
    reasons = {Path(s["file"]).name: s["reason"] for s in document["skipped"]}
    assert set(reasons) == {"broken.json", "binary.json", "list.json", "other.json", "bad-facts.json"}
    assert reasons["broken.json"].startswith("not JSON") and reasons["list.json"].startswith("not a rocm-doctor document")
    assert reasons["other.json"] == "not a rocm-doctor check, facts or bench document"
    assert reasons["bad-facts.json"].startswith("invalid facts at host")
    assert (result.exit_code, document["verdict"], document["nodes"]) == (12, "unknown", 1)


def _skip_reasons(run_cli, folder: Path) -> dict:
    result = run_cli("fleet", str(folder), "--json")
    assert result.exit_code not in (2, 3) and "Traceback" not in result.stderr, result.stderr
    document = json.loads(result.stdout)
    assert document["nodes"] == 1 and document["verdict"] == "unknown"  # the good node is still summarised
    return {Path(s["file"]).name: s["reason"] for s in document["skipped"]}


def test_a_node_file_over_a_json_limit_is_skipped_naming_the_limit(run_cli, tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "good.json").write_text(node_facts().to_json(), encoding="utf-8")
    depth = 30_000  # far past the recursion limit: used to end in RecursionError, exit 3
    (tmp_path / "deep.json").write_text('{"a":' + "[" * depth + "]" * depth + "}", encoding="utf-8")
    (tmp_path / "digits.json").write_text('{"a": ' + "9" * 5000 + "}", encoding="utf-8")
    (tmp_path / "large.json").write_text(json.dumps({"pad": "x" * 70_000}), encoding="utf-8")
    monkeypatch.setattr("rocm_doctor.fleet.load.JSON_BYTES", limits.Limit("json.max_bytes", 64 * 1024, "bytes"))
    reasons = _skip_reasons(run_cli, tmp_path)
    assert set(reasons) == {"deep.json", "digits.json", "large.json"}
    assert "json.max_depth" in reasons["deep.json"] and "number.max_digits" in reasons["digits.json"]
    assert "json.max_bytes" in reasons["large.json"]


def test_node_facts_over_the_facts_limits_are_skipped_before_judging(run_cli, tmp_path: Path) -> None:
    (tmp_path / "good.json").write_text(node_facts().to_json(), encoding="utf-8")
    many = json.loads(node_facts().to_json())
    many["gpus"]["agents"] = [{"index": i, "source": "test"} for i in range(40_000)]  # took > 30 s and 1.6 GB
    (tmp_path / "gpus.json").write_text(json.dumps(many), encoding="utf-8")
    long_text = json.loads(node_facts().to_json())
    long_text["driver"]["kernel_cmdline"] = {"status": "known", "value": "x" * 70_000}
    (tmp_path / "text.json").write_text(json.dumps(long_text), encoding="utf-8")
    check = {"schema": "rocm-doctor/check/1", "facts": many, "findings": []}
    (tmp_path / "check.json").write_text(json.dumps(check), encoding="utf-8")
    entries = json.loads(node_facts().to_json())
    entries["env"]["vars"] = {"status": "known", "value": {f"V{i}": "1" for i in range(10_001)}}
    check = {"schema": "rocm-doctor/check/1", "facts": entries, "findings": []}
    (tmp_path / "entries.json").write_text(json.dumps(check), encoding="utf-8")
    started = time.monotonic()
    reasons = _skip_reasons(run_cli, tmp_path)
    assert time.monotonic() - started < 10
    assert set(reasons) == {"gpus.json", "text.json", "check.json", "entries.json"}
    assert "40,000 GPU agents" in reasons["gpus.json"] and "facts.max_gpus" in reasons["check.json"]
    assert "driver.kernel_cmdline" in reasons["text.json"] and "facts.max_text" in reasons["text.json"]
    assert "env.vars" in reasons["entries.json"] and "facts.max_entries" in reasons["entries.json"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_skipped_in_a_folder_and_refused_by_name_without_waiting(run_cli, tmp_path: Path) -> None:
    (tmp_path / "good.json").write_text(node_facts().to_json(), encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.json")  # nobody ever writes to it: reading it would wait for ever
    assert _skip_reasons(run_cli, tmp_path) == {"pipe.json": "is a FIFO (named pipe), not a regular file"}
    named = run_cli("fleet", str(tmp_path / "good.json"), str(tmp_path / "pipe.json"))
    assert named.exit_code == 2 and "pipe.json: is a FIFO (named pipe), not a regular file" in named.stderr


def test_a_folder_nested_too_deep_is_bad_input_naming_the_limit_and_a_shallow_tree_is_read(run_cli, tmp_path: Path) -> None:
    (tmp_path / "good.json").write_text(node_facts().to_json(), encoding="utf-8")
    levels = [tmp_path / "deep"]
    for _ in range(1_199):  # 1,200 levels overflowed Path.rglob's recursion (exit 3)
        levels.append(levels[-1] / "a")
    try:
        for level in levels:
            level.mkdir()
        (levels[-1] / "n.json").write_text("{}", encoding="utf-8")
        deep = run_cli("fleet", str(tmp_path))
        assert deep.exit_code == 2 and "folder.max_depth" in deep.stderr, deep.stderr
        (levels[-1] / "n.json").unlink()
        for level in reversed(levels[2:]):
            level.rmdir()
        (levels[1] / "n.json").write_text(node_facts().to_json(), encoding="utf-8")  # two levels deep is read
        shallow = run_cli("fleet", str(tmp_path), "--json")
        assert shallow.exit_code in (0, 1) and json.loads(shallow.stdout)["nodes"] == 2, shallow.stderr
    finally:  # bottom up: shutil.rmtree recurses once per level too
        for level in reversed(levels):
            for leftover in level.glob("*.json") if level.is_dir() else ():
                leftover.unlink()
            if level.is_dir():
                level.rmdir()


def test_a_subfolder_that_cannot_be_listed_is_skipped_and_the_other_nodes_are_read(run_cli, tmp_path: Path, unlistable) -> None:
    (tmp_path / "good.json").write_text(node_facts().to_json(), encoding="utf-8")
    (tmp_path / "private").mkdir()  # another user's job folder, lost+found
    unlistable("private")
    assert "private" in _skip_reasons(run_cli, tmp_path)


def test_no_usable_document_or_a_missing_path_is_bad_input(run_cli, tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("[]", encoding="utf-8")
    empty = run_cli("fleet", str(tmp_path))
    assert empty.exit_code == 2 and "no node documents" in empty.stderr
    missing = run_cli("fleet", str(tmp_path / "nope"))
    assert missing.exit_code == 2 and "no such file or folder" in missing.stderr and "Traceback" not in missing.stderr


def test_gpu_order_and_visible_devices_are_compared_across_nodes(run_cli, tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        shutil.copy(MACHINES / "linux-amd-cuda-wheel" / "facts.json", tmp_path / f"{name}.json")
    shutil.copy(MACHINES / "ubuntu-7900xtx-igpu-norender" / "facts.json", tmp_path / "igpu.json")
    document = json.loads(run_cli("fleet", str(tmp_path), "--json").stdout)
    order = next(d for d in document["devices"] if d["dimension"] == "gpu_order")
    assert order["majority"] == "gfx1100"
    assert {"value": "gfx1036, gfx1100", "count": 1, "nodes": ["igpu"]} in order["values"]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
FACT_LIKE = st.fixed_dictionaries({"status": st.sampled_from(["known", "absent", "failed", "x"]), "value": JSON})
SECTION = st.dictionaries(st.sampled_from(["version", "vars", "agents", "tests", "device_name", "gfx", "os"]), JSON | FACT_LIKE)
FACTS = st.dictionaries(st.sampled_from(["host", "gpus", "driver", "rocm", "torch", "python", "env", "bench"]), SECTION | JSON)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(facts=FACTS, findings=st.lists(JSON | st.dictionaries(st.sampled_from(["id", "severity", "action", "gpu", "title"]), JSON)))
def test_malformed_check_documents_never_raise(facts, findings) -> None:
    from rocm_doctor.fleet.aggregate import aggregate
    from rocm_doctor.fleet.load import Reader

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "n1.json"
        path.write_text(json.dumps({"schema": "rocm-doctor/check/1", "facts": facts, "findings": findings}), encoding="utf-8")
        nodes, skipped = Reader([]).read([path])
        aggregate(nodes, skipped, 1)


@pytest.mark.parametrize("output", [(), ("--format", "markdown")], ids=["console", "markdown"])
def test_a_new_line_in_a_node_name_is_escaped_and_forges_no_line(run_cli, tmp_path: Path, output: tuple) -> None:
    # A node's name is its file name, which may hold any character but '/'.
    forged = "isolate: node42 GPU reset needed"
    shutil.copy(MACHINES / "linux-amd-cuda-wheel" / "facts.json", tmp_path / f"evil\n{forged}\u2028x\r.json")
    (tmp_path / f"bad\n{forged}.json").write_text("{not json", encoding="utf-8")
    for index in range(2):
        (tmp_path / f"n{index}.json").write_text(node_facts().to_json(), encoding="utf-8")
    result = run_cli("fleet", str(tmp_path), *output)
    assert result.exit_code != 3 and "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    assert [line for line in lines if line.lstrip(" -").startswith("isolate")] == []
    assert "\u2028" not in result.stdout and "\r" not in result.stdout
    assert "evil\\u000aisolate: node42 GPU reset needed" in result.stdout


def test_node_files_named_with_a_leading_dot_keep_distinct_names() -> None:
    # Cut at the first dot, every ".name.json" was the node '' and they all merged.
    names = {node_name(Path(f".{name}.json")) for name in ("gpu01", "gpu02")}
    assert names == {".gpu01", ".gpu02"}
    assert node_name(Path("gpu01.bench.json")) == "gpu01"


def test_fleet_with_a_rule_regex_that_backtracks_in_python_ends_quickly(run_cli, tmp_path: Path) -> None:
    # `fleet --rules rx.yaml` with (x+x+)+y on a long fact was still running at 60 s (issue 20).
    from rocm_doctor.facts.value import known

    nodes = tmp_path / "nodes"
    nodes.mkdir()
    facts = node_facts()
    driver = facts.driver.model_copy(update={"kernel_cmdline": known("x" * 8000, "test")})
    for name in ("gpu01", "gpu02", "gpu03"):
        (nodes / f"{name}.json").write_text(facts.model_copy(update={"driver": driver}).to_json(), encoding="utf-8")
    rules = tmp_path / "rx.yaml"
    rules.write_text(
        "rules:\n  - id: RD901\n    name: rx\n    severity: warning\n    category: env\n    area: test\n"
        "    when: {fact: driver.kernel_cmdline, matches: '(x+x+)+y'}\n    title: t\n    message: m\n"
        "    explanation: e\n    references: [{url: 'https://example.org'}]\n", encoding="utf-8")
    started = time.monotonic()
    result = run_cli("fleet", str(nodes), "--rules", str(rules), "--json")
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    assert time.monotonic() - started < 20
