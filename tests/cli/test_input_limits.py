"""Every input channel has named limits, checked before the work: over one is exit 2 naming it, never a crash."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rocm_doctor import limits
from rocm_doctor.errors import InputError

TESTS = Path(__file__).resolve().parents[1]
CPU_ONLY = TESTS / "machines" / "cpu-only"
DOCS = TESTS.parent / "docs" / "limits.md"
VALID_RULE = """rules:
  - id: RD901
    name: custom-rule
    severity: warning
    category: env
    area: test
    when: {fact: torch.flavour, eq: cuda}
    title: t
    message: m
    explanation: e
    references: [{url: "https://example.org"}]
"""


def _input_error(result, *culprits: str) -> str:
    assert result.exit_code == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    for culprit in culprits:
        assert culprit in result.stderr, result.stderr
    return result.stderr


def test_every_limit_is_named_in_the_docs() -> None:
    text = DOCS.read_text(encoding="utf-8")
    missing = [limit.name for limit in limits.ALL if f"`{limit.name}`" not in text]
    assert missing == []
    documented = set(re.findall(r"^\| `([a-z_]+\.[a-z_]+)`", text, re.MULTILINE))
    assert documented == {limit.name for limit in limits.ALL}


def test_a_rule_file_with_a_5000_digit_integer_is_exit_2_naming_the_limit(run_cli, tmp_path: Path) -> None:
    rules = tmp_path / "big.yaml"
    rules.write_text(VALID_RULE.replace("eq: cuda", "gt: " + "9" * 5000), encoding="utf-8")
    _input_error(run_cli("rules", "validate", str(rules)), "big.yaml:7", "number.max_digits")


def test_a_machine_yaml_with_a_5000_digit_integer_is_exit_2(run_cli, tmp_path: Path) -> None:
    folder = tmp_path / "machine"
    shutil.copytree(CPU_ONLY, folder)
    with open(folder / "machine.yaml", "a", encoding="utf-8") as handle:
        handle.write("disks: {/: " + "1" * 5000 + "}\n")
    _input_error(run_cli("check", "--machine", str(folder)), "machine.yaml", "number.max_digits")


def test_a_rule_file_of_aliases_nested_8_deep_is_refused_at_once(run_cli, tmp_path: Path) -> None:
    # Under 1 KiB that expands to 9**8 conditions: the condition walker used to run for minutes.
    levels = ["        - &a0 {fact: torch.flavour, eq: cuda}"] + [
        f"        - &a{i} {{any: [{', '.join([f'*a{i - 1}'] * 9)}]}}" for i in range(1, 9)
    ]
    rules = tmp_path / "bomb.yaml"
    rules.write_text(VALID_RULE.replace("    when: {fact: torch.flavour, eq: cuda}", "    when:\n      all:\n" + "\n".join(levels)),
                     encoding="utf-8")
    assert len(rules.read_bytes()) < 1024
    started = time.monotonic()
    _input_error(run_cli("rules", "validate", str(rules)), "bomb.yaml", "yaml.max_nodes")
    assert time.monotonic() - started < 5


def test_an_alias_inside_its_own_anchor_is_refused(run_cli, tmp_path: Path) -> None:
    rules = tmp_path / "loop.yaml"
    rules.write_text(VALID_RULE.replace("when: {fact: torch.flavour, eq: cuda}", "when: &w {not: *w}"), encoding="utf-8")
    _input_error(run_cli("rules", "validate", str(rules)), "loop.yaml:7", "contains it")


@pytest.mark.parametrize("depth", [25_000, 50_000])
def test_yaml_nested_tens_of_thousands_deep_is_exit_2_not_a_segfault(tmp_path: Path, depth: int) -> None:
    # libyaml's loader recursed once per level in C and died with SIGSEGV: a subprocess, so a crash cannot take pytest.
    folder = tmp_path / "machine"
    shutil.copytree(CPU_ONLY, folder)
    (folder / "commands.yaml").write_text("- " * depth + "x\n", encoding="utf-8")
    env = dict(os.environ, NO_COLOR="1")
    done = subprocess.run([sys.executable, "-m", "rocm_doctor", "facts", "--machine", str(folder)],
                          capture_output=True, timeout=60, env=env)
    assert done.returncode == 2, done.stderr
    assert b"commands.yaml:1: nested too deeply (limit yaml.max_depth" in done.stderr


def test_a_facts_file_with_a_5000_digit_integer_is_exit_2(run_cli, tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text('{"schema_version": 1, "cpu": {"logical_cores": {"status": "known", "value": ' + "7" * 5000 + "}}}")
    _input_error(run_cli("check", "--facts", str(facts)), "facts.json", "number.max_digits")


def _baseline_with_null(path: str) -> dict:
    facts = json.loads((TESTS / "rule_cases" / "baseline.json").read_text(encoding="utf-8"))
    *parents, leaf = path.split(".")
    node = facts
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    node[leaf] = {"status": "known", "value": None, "source": "crafted"}
    return facts


# Found by the long fuzz run: a derived fact read a known KFD node id that was null and exit 3 followed.
@pytest.mark.parametrize("path", ["gpus.agents.0.kfd_node", "torch.version", "host.os", "cpu.logical_cores"])
def test_a_known_fact_with_a_null_value_is_bad_input_not_a_crash(run_cli, tmp_path: Path, path: str) -> None:
    facts = _baseline_with_null(path)
    facts_file = tmp_path / "facts.json"
    facts_file.write_text(json.dumps(facts), encoding="utf-8")
    _input_error(run_cli("check", "--facts", str(facts_file)), "facts.json", path, "null")
    paste = tmp_path / "paste.txt"  # the same document inside a pasted report, with per-node overrides to judge
    paste.write_text("<!-- rocm-doctor report v1 -->\n```json\n" + json.dumps(facts) + "\n```\n"
                     "HSA_OVERRIDE_GFX_VERSION_1=11.0.0\n", encoding="utf-8")
    assert run_cli("check", "--from", str(paste)).exit_code in (0, 1)


def test_a_null_inside_a_known_mapping_fact_is_unknown_to_the_rules_not_a_crash(run_cli, tmp_path: Path) -> None:
    facts = json.loads((TESTS / "rule_cases" / "baseline.json").read_text(encoding="utf-8"))
    facts["bench"] = {"results": {"status": "known", "source": "crafted",
                                  "value": {"copy_integrity.status": None, "copy_integrity.all_zeros": True}}}
    facts_file = tmp_path / "facts.json"
    facts_file.write_text(json.dumps(facts), encoding="utf-8")
    result = run_cli("check", "--facts", str(facts_file))
    assert result.exit_code in (0, 1) and "crashed" not in result.stdout + result.stderr, result.stdout + result.stderr


@pytest.mark.parametrize("answer, instead", [
    ('"is_available": true', '"is_available": null'),
    # Found by the long fuzz run: a mapping where the list of gfx targets belongs crashed the gatherer.
    ('"arch_list": ["gfx900", ', '"arch_list": {"gfx900": true}, "x": ['),
    ('"device_count": 1', '"device_count": "one"'),
])
def test_a_torch_probe_that_answers_null_or_the_wrong_type_is_a_failed_read_not_a_crashed_gatherer(
    run_cli, tmp_path: Path, answer: str, instead: str
) -> None:
    machine = tmp_path / "machine"
    shutil.copytree(TESTS / "machines" / "ubuntu2204-6700xt", machine)
    commands = machine / "commands.yaml"
    text = commands.read_text(encoding="utf-8")
    assert answer in text
    commands.write_text(text.replace(answer, instead), encoding="utf-8")
    result = run_cli("check", "--machine", str(machine))
    assert result.exit_code in (0, 1) and "crashed" not in result.stdout + result.stderr, result.stdout + result.stderr


@pytest.mark.parametrize("depth", [100, 100_000])
def test_a_facts_file_nested_deeply_is_exit_2(run_cli, tmp_path: Path, depth: int) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text('{"bench": {"tests": {"status": "known", "value": {"a": ' + "[" * depth + "]" * depth + "}}}}")
    _input_error(run_cli("check", "--facts", str(facts)), "facts.json", "json.max_depth")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize(
    "command",
    [["check", "--facts"], ["rules", "validate"], ["fix", "--machine", str(CPU_ONLY), "--requirements"]],
)
def test_a_fifo_as_an_input_file_is_refused_without_blocking(run_cli, tmp_path: Path, command) -> None:
    fifo = tmp_path / "input.fifo"
    os.mkfifo(fifo)
    started = time.monotonic()
    _input_error(run_cli(*command, str(fifo)), "input.fifo", "FIFO")
    assert time.monotonic() - started < 5


# -- pasted reports ------------------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["\n", "x\n", "GPU: RX 7900 XTX\n", "x\r", "x\r\n"])
def test_a_paste_of_millions_of_lines_is_refused_before_reading_naming_the_line_limit(
    run_cli, tmp_path: Path, line: str
) -> None:
    paste = tmp_path / "paste.txt"  # just under the byte limit, so the line limit is what refuses it
    paste.write_text(line * ((limits.PASTE_BYTES.value - 1) // len(line)), encoding="utf-8")
    _input_error(run_cli("check", "--from", str(paste)), "paste.txt", "paste.max_lines")


def test_a_paste_over_the_byte_limit_names_it(run_cli, tmp_path: Path) -> None:
    paste = tmp_path / "paste.txt"
    paste.write_bytes(b"y" * (limits.PASTE_BYTES.value + 1))
    _input_error(run_cli("check", "--from", str(paste)), "paste.txt", "paste.max_bytes")


@pytest.mark.parametrize("extra, read", [(0, True), (1, False)])
def test_a_paste_of_exactly_the_line_limit_is_read_and_one_more_line_is_not(
    run_cli, tmp_path: Path, extra: int, read: bool
) -> None:
    paste = tmp_path / "paste.txt"
    paste.write_text("OS: Ubuntu 22.04\n" + "\n" * (limits.PASTE_LINES.value - 1 + extra), encoding="utf-8")
    result = run_cli("check", "--from", str(paste))
    if read:
        assert result.exit_code in (0, 1), result.stderr
    else:
        _input_error(result, "paste.max_lines")


def test_an_amd_smi_listing_of_12000_gpus_is_exit_2_naming_the_gpu_limit(run_cli, tmp_path: Path) -> None:
    # Over every count the listing meets (the reader keeps 256 GPUs, facts.max_gpus is 128, facts.max_entries
    # 10,000); 40,000 GPUs (4 MB, under every byte limit) took 8 s of CPU to read, the longest test of the suite.
    listing = [{"gpu": i, "asic": {"market_name": "AMD Radeon RX 7900 XTX", "target_graphics_version": "gfx1100"}}
               for i in range(12_000)]
    paste = tmp_path / "paste.txt"
    paste.write_text("$ amd-smi static --json\n" + json.dumps(listing) + "\n", encoding="utf-8")
    _input_error(run_cli("check", "--from", str(paste)), "max_gpus")


_READ_WITH_A_SHORT_WAIT = """
import sys
import rocm_doctor.ingest as ingest
from rocm_doctor.errors import InputError
from rocm_doctor.limits import Limit
ingest.PASTE_WAIT = Limit("paste.max_wait_seconds", 2, "s")
try:
    print(repr(ingest.read_report(sys.argv[1])))
except InputError as exc:
    print("refused:", exc)
"""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_nobody_writes_to_ends_at_the_wait_limit(tmp_path: Path) -> None:
    fifo = tmp_path / "paste.fifo"
    os.mkfifo(fifo)
    # A child process with a timeout: if the reader blocked again, the test fails instead of hanging.
    done = subprocess.run([sys.executable, "-c", _READ_WITH_A_SHORT_WAIT, str(fifo)], capture_output=True, text=True,
                          timeout=60)
    assert "refused:" in done.stdout and "paste.max_wait_seconds" in done.stdout, done.stdout + done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_whose_writer_comes_after_the_reader_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "paste.fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen([sys.executable, "-c", _READ_WITH_A_SHORT_WAIT, str(fifo)], stdout=subprocess.PIPE, text=True)
    time.sleep(0.5)  # `rocm-doctor check --from p & cmd > p`: the reader opens first
    with open(fifo, "w", encoding="utf-8") as writer:
        writer.write("GPU: RX 7900 XTX\n")
    out, _ = reader.communicate(timeout=60)
    assert "RX 7900 XTX" in out, out


def test_an_empty_anonymous_pipe_is_an_empty_report_without_waiting(monkeypatch) -> None:
    import rocm_doctor.ingest as ingest

    monkeypatch.setattr(ingest, "PASTE_WAIT", limits.Limit("paste.max_wait_seconds", 5, "s"))
    read_end, write_end = os.pipe()
    os.close(write_end)  # `--from <(true)`: the writer came and went
    try:
        with pytest.raises(InputError, match="empty"):
            ingest.read_report(f"/dev/fd/{read_end}")
    finally:
        os.close(read_end)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs pipes")
def test_a_pipe_is_read_to_its_end_and_one_left_open_stops_at_the_wait_limit(monkeypatch) -> None:
    import rocm_doctor.ingest as ingest

    read_end, write_end = os.pipe()
    os.write(write_end, b"OS: Ubuntu 22.04\nGPU: RX 7900 XTX\n")
    os.close(write_end)
    assert "RX 7900 XTX" in ingest.read_report(f"/dev/fd/{read_end}")  # as `--from <(cat report.txt)` gives it
    os.close(read_end)

    monkeypatch.setattr(ingest, "PASTE_WAIT", limits.Limit("paste.max_wait_seconds", 1, "s"))
    read_end, write_end = os.pipe()
    os.write(write_end, b"OS: Ubuntu 22.04\n")  # the writer never closes its end
    try:
        with pytest.raises(limits.LimitError, match="paste.max_wait_seconds"):
            ingest.read_report(f"/dev/fd/{read_end}")
    finally:
        os.close(read_end)
        os.close(write_end)


# -- recorded machine folders are data ----------------------------------------------------------------


def _machine(tmp_path: Path) -> Path:
    folder = tmp_path / "machine"
    shutil.copytree(CPU_ONLY, folder)
    return folder


@pytest.mark.skipif(not os.path.exists("/proc/self/environ"), reason="needs /proc")
@pytest.mark.parametrize("command", [["report"], ["facts", "--record", "{tmp}/rec"], ["check"]])
def test_a_link_out_of_the_machine_folder_is_refused_and_leaks_nothing(run_cli, tmp_path: Path, monkeypatch, command) -> None:
    monkeypatch.setenv("HF_TOKEN", "hf_planted_secret_4242")
    folder = _machine(tmp_path)
    cmdline = folder / "files" / "proc" / "cmdline"
    cmdline.parent.mkdir(parents=True, exist_ok=True)
    cmdline.unlink(missing_ok=True)
    cmdline.symlink_to("/proc/self/environ")
    result = run_cli(*[c.replace("{tmp}", str(tmp_path)) for c in command], "--machine", str(folder))
    _input_error(result, "cmdline", "outside the recorded machine folder")
    assert "hf_planted_secret_4242" not in result.stdout + result.stderr
    assert not (tmp_path / "rec").exists()


def test_a_link_inside_the_machine_folder_is_fine(run_cli, tmp_path: Path) -> None:
    folder = _machine(tmp_path)
    os_release = folder / "files" / "etc" / "os-release"
    (folder / "files" / "usr" / "lib").mkdir(parents=True, exist_ok=True)
    os_release.rename(folder / "files" / "usr" / "lib" / "os-release")
    os_release.symlink_to("../usr/lib/os-release")
    assert run_cli("facts", "--machine", str(folder)).exit_code == 0


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_the_machine_folder_is_refused_without_blocking(run_cli, tmp_path: Path) -> None:
    folder = _machine(tmp_path)
    (folder / "files" / "proc").mkdir(parents=True, exist_ok=True)
    (folder / "files" / "proc" / "cmdline").unlink(missing_ok=True)
    os.mkfifo(folder / "files" / "proc" / "cmdline")
    started = time.monotonic()
    _input_error(run_cli("check", "--machine", str(folder)), "cmdline", "FIFO")
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("depth", [limits.FOLDER_DEPTH.value + 1, 1_200])
def test_a_machine_folder_nested_too_deep_is_refused_naming_the_limit(run_cli, tmp_path: Path, depth: int) -> None:
    folder = _machine(tmp_path)
    levels = [folder / "files" / "a"]
    for _ in range(depth - 1):  # one level at a time: 1,200 levels overflowed os.walk's recursion
        levels.append(levels[-1] / "a")
    try:
        for level in levels:
            level.mkdir()
        for command in (["check"], ["report"], ["facts", "--record", str(tmp_path / "rec")]):
            _input_error(run_cli(*command, "--machine", str(folder)), "folder.max_depth")
    finally:  # bottom up: shutil.rmtree (and pytest's cleanup of old runs) recurses once per level too
        for level in reversed(levels):
            if level.is_dir():
                level.rmdir()


def test_a_machine_subfolder_that_cannot_be_listed_is_bad_input_not_a_crash(run_cli, tmp_path: Path, unlistable) -> None:
    folder = _machine(tmp_path)
    (folder / "files" / "private").mkdir()
    unlistable("private")
    _input_error(run_cli("check", "--machine", str(folder)), "private", "cannot be listed")


def test_a_machine_folder_over_the_entry_limit_is_refused(run_cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("rocm_doctor.system.recorded.MACHINE_ENTRIES", limits.Limit("machine.max_entries", 10, "files"))
    _input_error(run_cli("check", "--machine", str(_machine(tmp_path))), "machine.max_entries")


# -- facts from any source are held to their sizes before the rules run ------------------------------


def _facts_file(tmp_path: Path, change) -> Path:
    from rocm_doctor.judge.cases import load_baseline, overlay

    data = overlay(load_baseline(TESTS / "rule_cases" / "baseline.json"), change)
    path = tmp_path / "facts.json"
    path.write_text(json.dumps(data), encoding="utf-8")  # as written, not validated: the limits come first
    return path


@pytest.mark.parametrize(
    "change, limit",
    [
        ({"gpus": {"agents": [{"index": i, "source": "test"} for i in range(129)]}}, "facts.max_gpus"),
        ({"packages": {"installed": {"status": "known", "value": {f"p{i}": "1" for i in range(10_001)}}}},
         "facts.max_entries"),
        ({"driver": {"kernel_cmdline": {"status": "known", "value": "x" * 70_000}}}, "facts.max_text"),
    ],
)
def test_facts_over_their_size_limits_are_exit_2_before_judging(run_cli, tmp_path: Path, change, limit) -> None:
    started = time.monotonic()
    _input_error(run_cli("check", "--facts", str(_facts_file(tmp_path, change))), "facts.json", limit)
    assert time.monotonic() - started < 10


HANGING_PATTERNS = ["(a+)+$", "(a|a?)+$", "(a|aa)*$", "([a-z]+)*!", "(x+x+)+y", "(.*x){10}y", r"(\w+\s?)*y",
                    "x{1,1000}x{1,1000}y"]
"""Patterns a backtracking engine takes seconds to minutes on, on a fact of 8 KB of x's or a's (issue 20)."""


@pytest.mark.parametrize("pattern", HANGING_PATTERNS)
def test_a_rule_regex_that_backtracks_in_python_judges_a_long_fact_in_linear_time(run_cli, tmp_path: Path, pattern: str) -> None:
    rules = tmp_path / "redos.yaml"
    rules.write_text(VALID_RULE.replace("{fact: torch.flavour, eq: cuda}", f"{{fact: driver.kernel_cmdline, matches: '{pattern}'}}"),
                     encoding="utf-8")
    facts = _facts_file(tmp_path, {"driver": {"kernel_cmdline": {"status": "known", "value": "x" * 4000 + "a" * 4000}}})
    started = time.monotonic()
    result = run_cli("check", "--facts", str(facts), "--rules", str(rules))
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("pattern", [r"(x+)(?:\\1)+y", "a(?=b)", "(?<!a)b", "(?P<x>a)(?P=x)"])
def test_a_rule_regex_re2_cannot_run_in_linear_time_is_refused_at_load_naming_file_and_rule(
    run_cli, tmp_path: Path, pattern: str
) -> None:
    rules = tmp_path / "backref.yaml"
    rules.write_text(VALID_RULE.replace("eq: cuda", f'matches: "{pattern}"'), encoding="utf-8")
    _input_error(run_cli("rules", "validate", str(rules)), "backref.yaml:7", "RD901", "RE2")


def test_a_rule_regex_searches_only_the_start_of_a_long_value(run_cli, tmp_path: Path) -> None:
    # Quadratic on the whole value (seconds at 64 KiB); bounded by rules.max_match_chars.
    rules = tmp_path / "slow.yaml"
    rules.write_text(VALID_RULE.replace("{fact: torch.flavour, eq: cuda}", r"{fact: driver.kernel_cmdline, matches: '(\d+\.)+$'}"),
                     encoding="utf-8")
    facts = _facts_file(tmp_path, {"driver": {"kernel_cmdline": {"status": "known", "value": "1." * 32_000 + "x"}}})
    started = time.monotonic()
    assert run_cli("check", "--facts", str(facts), "--rules", str(rules)).exit_code in (0, 1)
    assert time.monotonic() - started < 5


def test_a_requirements_file_over_the_line_limit_is_exit_2(run_cli, tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("numpy>=1\n" * 50_001, encoding="utf-8")
    started = time.monotonic()
    _input_error(run_cli("fix", "--machine", str(CPU_ONLY), "--requirements", str(requirements)),
                 "requirements.txt", "requirements.max_lines")
    assert time.monotonic() - started < 5


def test_a_long_chain_of_requirements_includes_is_exit_2_naming_the_depth_limit(run_cli, tmp_path: Path) -> None:
    # 1,000 files each including the next with -r: the reader recursed into RecursionError, exit 3.
    for index in range(1000):
        (tmp_path / f"r{index}.txt").write_text(f"-r r{index + 1}.txt\n", encoding="utf-8")
    (tmp_path / "r1000.txt").write_text("numpy\n", encoding="utf-8")
    _input_error(run_cli("fix", "--machine", str(CPU_ONLY), "--requirements", str(tmp_path / "r0.txt")),
                 "r17.txt", "requirements.max_include_depth")


def test_requirements_includes_as_deep_as_the_limit_are_read(run_cli, tmp_path: Path) -> None:
    depth = limits.REQUIREMENTS_DEPTH.value
    for index in range(depth):
        (tmp_path / f"r{index}.txt").write_text(f"-r r{index + 1}.txt\n", encoding="utf-8")
    (tmp_path / f"r{depth}.txt").write_text("torch\n", encoding="utf-8")
    result = run_cli("fix", "--machine", str(CPU_ONLY), "--requirements", str(tmp_path / "r0.txt"))
    assert result.exit_code != 2 and f"r{depth}.txt" in result.stdout, result.stdout + result.stderr


@pytest.mark.parametrize("command", [["check"], ["fix"], ["report"]])
def test_a_version_with_a_5000_digit_part_is_not_a_version_and_no_crash(run_cli, tmp_path: Path, command) -> None:
    # Found by the long fuzz run (a recorded machine's /opt/rocm/.info/version): packaging raised a plain
    # ValueError from int(), which only InvalidVersion handlers did not catch: exit 3.
    huge = "6.2" + "9" * 5000
    facts = _facts_file(tmp_path, {"rocm": {"version": {"status": "known", "value": huge}},
                                   "torch": {"version": {"status": "known", "value": huge + "+rocm6.2"}}})
    assert run_cli(*command, "--facts", str(facts)).exit_code in (0, 1)


HUGE = "7" * 5_000
"""More digits than int() converts (4,300): every reader that turns a number in text into an int sees it."""


@pytest.mark.parametrize("line", [
    f"Linux box 6.{HUGE}-generic #45-Ubuntu SMP x86_64 GNU/Linux",  # found by the long fuzz run: derived.kernel_version
    f"Linux box 6.8.0-{HUGE}-oem #45-Ubuntu SMP x86_64 GNU/Linux",
    f"Agent {HUGE}",
    f"GPU: {HUGE}",
    f"GPU[{HUGE}]\t\t: Card series: Navi 22",
    f"device# {HUGE}",
    f"  Device {HUGE}: AMD Radeon RX 7900 XTX, gfx1100 (0x1100), VMM: no",
    f"uid={HUGE}(zed) gid=1000(zed) groups=1000(zed)",
    f"HSA_OVERRIDE_GFX_VERSION_{HUGE}=10.3.0",
    f'time=2024 level=INFO msg="inference compute" id={HUGE} library=rocm compute=gfx1100',
])
def test_a_number_of_5000_digits_in_any_reader_is_no_crash(run_cli, tmp_path: Path, line: str) -> None:
    paste = tmp_path / "paste.txt"
    paste.write_text(line + "\n", encoding="utf-8")
    result = run_cli("check", "--from", str(paste))
    assert result.exit_code in (0, 1, 2) and "crashed" not in result.stdout + result.stderr, result.stdout + result.stderr


def test_a_facts_file_with_a_kernel_release_of_5000_digits_is_no_crash(run_cli, tmp_path: Path) -> None:
    facts = _facts_file(tmp_path, {"host": {"kernel_release": {"status": "known", "value": f"6.{HUGE}-generic"}}})
    result = run_cli("check", "--facts", str(facts))
    assert result.exit_code in (0, 1) and "crashed" not in result.stdout, result.stdout


@pytest.mark.parametrize("before, after", [
    # Found by the long fuzz run: `#\S+.*?\b(x86_64...)` backtracked quadratically (200 KB: two minutes).
    ("Linux box 6.8.0-45-generic #", ""),
    # Found by a scan of every reader pattern against long words: `\S+\.whl is not...` searched from each position.
    ("ERROR: ", " is not a supported wheel on this platform."),
])
def test_a_line_with_a_long_word_is_read_and_rendered_in_linear_time(tmp_path: Path, before: str, after: str) -> None:
    # A child process with a timeout, so a regression fails the test instead of stalling the suite.
    paste = tmp_path / "paste.txt"
    # 400 KB: minutes when quadratic; the OS line makes it a paste with something recognised, so it is judged too.
    paste.write_text("OS: Ubuntu 22.04\n" + before + "x7" * 200_000 + after + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rocm_doctor", "check", "--from", str(paste)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 1), done.stderr


def _machine_copy(tmp_path: Path) -> Path:
    machine = tmp_path / "machine"
    shutil.copytree(CPU_ONLY, machine, symlinks=True)
    return machine


@pytest.mark.parametrize("command", [("facts",), ("check",)])
def test_a_recorded_machine_file_that_links_to_itself_is_exit_2(run_cli, tmp_path: Path, command) -> None:
    # Path.resolve() raised RuntimeError on the loop (Python 3.11): exit 3.
    machine = _machine_copy(tmp_path)
    cmdline = machine / "files" / "proc" / "cmdline"
    cmdline.parent.mkdir(parents=True, exist_ok=True)
    cmdline.unlink(missing_ok=True)
    os.symlink("cmdline", cmdline)
    _input_error(run_cli(*command, "--machine", str(machine)), "cmdline", "loop")


@pytest.mark.parametrize("through_include", [False, True])
def test_a_requirements_file_that_links_to_itself_is_exit_2(run_cli, tmp_path: Path, through_include: bool) -> None:
    looped = tmp_path / "looped.txt"
    os.symlink("looped.txt", looped)
    named = looped
    if through_include:
        named = tmp_path / "requirements.txt"
        named.write_text("numpy\n-r looped.txt\n", encoding="utf-8")
    _input_error(run_cli("fix", "--machine", str(CPU_ONLY), "--requirements", str(named)), "looped.txt", "loop")


def test_a_recorded_machine_read_refuses_a_fifo_without_waiting(tmp_path: Path) -> None:
    from rocm_doctor.system.recorded import RecordedMachineError, RecordedSystem

    machine = _machine_copy(tmp_path)
    system = RecordedSystem(machine)
    fifo = machine / "files" / "proc" / "version_fifo"
    fifo.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(fifo)  # planted after the folder check, as a replay could meet it
    started = time.monotonic()
    with pytest.raises(RecordedMachineError, match="FIFO"):
        system.read_text("/proc/version_fifo")
    assert time.monotonic() - started < 2


def test_report_output_dash_is_standard_output_not_a_file_named_dash(run_cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_cli("report", "--machine", str(CPU_ONLY), "-o", "-")
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    assert "rocm-doctor" in result.stdout and not (tmp_path / "-").exists()


@pytest.mark.live_machine
@pytest.mark.skipif(os.name != "posix", reason="the hanging interpreter is a shell script")
def test_timeout_bounds_the_inspection_of_a_hanging_interpreter(run_cli, tmp_path: Path) -> None:
    # --timeout 5 gave up after 11 s: the inspection ran under the 10 s command timeout.
    python = tmp_path / "python"
    python.write_text("#!/bin/sh\nexec sleep 60\n", encoding="utf-8")
    python.chmod(0o755)
    started = time.monotonic()
    result = run_cli("facts", "--python", str(python), "--timeout", "2", "--json")
    assert result.exit_code in (0, 1, 2), result.stdout + result.stderr
    assert time.monotonic() - started < 8


@pytest.mark.parametrize("field", ["returncode", "duration"])
def test_a_recorded_command_with_a_null_field_is_a_failed_read_not_a_crashed_gatherer(run_cli, tmp_path: Path, field: str) -> None:
    # Found by the long fuzz run: `returncode:` with no value crashed the GPU gatherer (int(None)): exit 3.
    folder = _machine(tmp_path)
    commands = folder / "commands.yaml"
    text = commands.read_text(encoding="utf-8")
    commands.write_text(text.replace("  returncode: 0\n", f"  {field}:\n", 1), encoding="utf-8")
    assert f"  {field}:\n" in commands.read_text(encoding="utf-8")
    result = run_cli("check", "--machine", str(folder), "--json")
    assert result.exit_code in (0, 1), result.stderr
    assert json.loads(result.stdout)["crashes"] == []


@pytest.mark.parametrize("entry", ["/opt/" + "x" * 300 + "/bin", "../../outside/bin"])
def test_a_recorded_path_entry_that_names_no_file_here_is_skipped_not_a_crash(run_cli, tmp_path: Path, entry: str) -> None:
    # Found by the long fuzz run: a PATH entry longer than a file name may be (ENAMETOOLONG) was exit 3.
    import yaml

    folder = _machine(tmp_path)
    meta = yaml.safe_load((folder / "machine.yaml").read_text(encoding="utf-8"))
    env = meta.setdefault("env", {})
    env["PATH"] = entry + ":" + str(env.get("PATH", "/usr/bin"))
    meta.pop("python", None)  # the target interpreter is then looked for on PATH
    (folder / "machine.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
    result = run_cli("check", "--machine", str(folder), "--json")
    assert result.exit_code in (0, 1), result.stderr
    assert json.loads(result.stdout)["crashes"] == []
