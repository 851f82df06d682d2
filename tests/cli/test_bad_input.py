"""Bad input ends in one line naming the culprit and exit code 2, never a traceback or an internal error."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Union

import pytest
import yaml

MACHINES = Path(__file__).resolve().parent.parent / "machines"
CPU_ONLY = MACHINES / "cpu-only"
DOCKER = MACHINES / "docker-2x7900xt-rocm62"
BINARY = bytes(range(128, 256)) + b"\x00\xff\xfe"


def doctor_process(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    """``python -m rocm_doctor ARGS`` in a child process: for what happens at the process boundary (bytes on a
    real stdin, the interpreter's own stack and recursion limit)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROCM_DOCTOR_")}
    env.update(NO_COLOR="1", COLUMNS="200")
    return subprocess.run(
        [sys.executable, "-m", "rocm_doctor", *args],
        input=stdin, capture_output=True, env=env, timeout=120, check=False,
    )


@dataclass
class Ran:
    returncode: int
    stdout: bytes
    stderr: bytes


@pytest.fixture
def doctor(run_cli) -> Callable[..., Ran]:
    """``rocm-doctor ARGS`` in this process through the real entry point and its error boundary (an exception
    that escaped it would fail the test as a traceback would): the exit code, stdout and stderr a child would
    give, without starting Python and importing the CLI for each of this file's 35 runs (0.7 s of CPU each)."""

    def run(*args: str) -> Ran:
        result = run_cli(*args)
        return Ran(result.exit_code, result.stdout.encode("utf-8"), result.stderr.encode("utf-8"))

    return run


def assert_input_error(result: Union[Ran, subprocess.CompletedProcess], *culprits: str) -> str:
    out = result.stdout.decode("utf-8", "replace") + result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out and "internal error" not in out, out
    assert result.returncode == 2, out
    message = result.stderr.decode("utf-8", "replace").strip().splitlines()[-1]
    for culprit in culprits:
        assert culprit in message, message
    return message


def copy_machine(tmp_path: Path, source: Path = CPU_ONLY) -> Path:
    folder = tmp_path / "machine"
    shutil.copytree(source, folder)
    return folder


def edit_yaml(path: Path, change) -> None:
    path.write_text(yaml.safe_dump(change(yaml.safe_load(path.read_text(encoding="utf-8")))), encoding="utf-8")


# -- rule files ---------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["rules", "validate"], ["check", "--machine", str(CPU_ONLY), "--rules"]])
def test_rule_file_that_is_not_utf8_is_named(doctor, tmp_path: Path, command: List[str]) -> None:
    rules = tmp_path / "binary.yaml"
    rules.write_bytes(BINARY)
    assert_input_error(doctor(*command, str(rules)), "binary.yaml", "not UTF-8")


def test_rule_file_with_a_list_as_mapping_key_names_file_and_line(doctor, tmp_path: Path) -> None:
    rules = tmp_path / "key.yaml"
    rules.write_text("rules:\n  - ? [a, b]\n    : 1\n", encoding="utf-8")
    assert_input_error(doctor("rules", "validate", str(rules)), "key.yaml:2", "mapping key")


def test_rule_file_nested_too_deeply_is_an_input_error(tmp_path: Path) -> None:
    # Our depth limit or libyaml's own may answer first (PyYAML 6.0.4 with libyaml does): the words are
    # theirs, what is pinned is ours: exit 2, one line naming the file and line, no traceback. In a child
    # process: the stack it has is the command's own, not what pytest left.
    rules = tmp_path / "deep.yaml"
    rules.write_text("[" * 5000 + "]" * 5000, encoding="utf-8")
    result = doctor_process("rules", "validate", str(rules))
    assert_input_error(result, f"{rules}:1:")
    assert len(result.stderr.decode("utf-8", "replace").strip().splitlines()) == 1


def test_error_message_with_markup_brackets_is_printed_verbatim(doctor) -> None:
    message = assert_input_error(doctor("check", "--machine", str(CPU_ONLY), "--rules", "[/x].yaml"))
    assert "[/x].yaml: no such rule file" in message


# -- facts files and pasted reports -------------------------------------------------------------


def test_binary_facts_file_is_an_input_error(doctor, tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    facts.write_bytes(BINARY)
    assert_input_error(doctor("check", "--facts", str(facts)), "facts.json", "not UTF-8")


@pytest.mark.parametrize("content", [b"", b"  \n\n", BINARY])
def test_empty_or_binary_pasted_report_is_an_input_error(doctor, tmp_path: Path, content: bytes) -> None:
    report = tmp_path / "report.md"
    report.write_bytes(content)
    assert_input_error(doctor("check", "--from", str(report)), "report.md")


def test_empty_stdin_report_is_an_input_error() -> None:
    # In a child process: what it reads is a real, empty stdin.
    assert_input_error(doctor_process("facts", "--from", "-", stdin=b""), "stdin", "empty")


# -- recorded machine folders -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "change", "field"),
    [
        ("commands.yaml", lambda d: [{**e, "returncode": "abc"} for e in d], "[0].returncode"),
        ("commands.yaml", lambda d: [{**e, "argv": 5} for e in d], "[0].argv"),
        ("commands.yaml", lambda d: [{**e, "duration": "slow"} for e in d], "[0].duration"),
        ("commands.yaml", lambda d: [1, "x"], "entry [0]"),
        ("machine.yaml", lambda d: {**d, "platform": "linux"}, "platform"),
        ("machine.yaml", lambda d: {**d, "env": ["A=1"]}, "env"),
        ("machine.yaml", lambda d: {**d, "disks": {"/dev/shm": "big"}}, "disks./dev/shm"),
        ("machine.yaml", lambda d: {**d, "resources": {"logical_cores": "many"}}, "resources.logical_cores"),
        ("machine.yaml", lambda d: {**d, "unreadable": 5}, "unreadable"),
        ("machine.yaml", lambda d: {**d, "enviroment": {}}, "enviroment"),
    ],
)
def test_recorded_machine_with_a_wrong_type_names_file_and_field(doctor, tmp_path: Path, document, change, field) -> None:
    folder = copy_machine(tmp_path)
    edit_yaml(folder / document, change)
    assert_input_error(doctor("facts", "--machine", str(folder)), document, field)


def test_recorded_machine_yaml_that_is_a_folder_or_binary_is_an_input_error(doctor, tmp_path: Path) -> None:
    folder = copy_machine(tmp_path)
    (folder / "commands.yaml").write_bytes(BINARY)
    assert_input_error(doctor("facts", "--machine", str(folder)), "commands.yaml", "not UTF-8")
    (folder / "machine.yaml").unlink()
    (folder / "machine.yaml").mkdir()
    assert_input_error(doctor("facts", "--machine", str(folder)), "machine.yaml")


def test_empty_machine_yaml_is_called_empty(doctor, tmp_path: Path) -> None:
    folder = copy_machine(tmp_path)
    (folder / "machine.yaml").write_text("", encoding="utf-8")
    assert_input_error(doctor("facts", "--machine", str(folder)), "machine.yaml", "empty")


# -- files the fix commands read and write ------------------------------------------------------


def test_binary_requirements_file_is_an_input_error(doctor, tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_bytes(BINARY)
    result = doctor("fix", "--machine", str(DOCKER), "--requirements", str(requirements))
    assert_input_error(result, "requirements.txt", "not UTF-8")


@pytest.mark.parametrize("output", ["missing/dir/Dockerfile", "."])
def test_dockerfile_output_that_cannot_be_written_is_an_input_error(doctor, tmp_path: Path, output: str) -> None:
    target = tmp_path / output
    assert_input_error(doctor("dockerfile", "--machine", str(DOCKER), "--output", str(target)), str(target))


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc, where no file can be created")
def test_env_file_in_a_folder_where_nothing_can_be_created_is_an_input_error_and_left_alone(doctor) -> None:
    # /proc/version is read-only: refused as such, and with --force the temporary file cannot be created.
    result = doctor("fix", "--machine", str(DOCKER), "--write-env", "--env-file", "/proc/version", "--shell", "bash")
    assert_input_error(result, "/proc/version", "read-only")
    forced = doctor("fix", "--machine", str(DOCKER), "--write-env", "--env-file", "/proc/version", "--shell", "bash", "--force")
    assert_input_error(forced, "/proc/version", "cannot write")


@pytest.mark.parametrize("base", ["???", "", "two words"])
def test_dockerfile_base_that_is_not_an_image_reference_is_refused(doctor, base: str) -> None:
    assert_input_error(doctor("dockerfile", "--machine", str(DOCKER), "--base", base), "--base")


def test_dockerfile_base_with_registry_port_and_tag_is_accepted(doctor) -> None:
    result = doctor("dockerfile", "--machine", str(DOCKER), "--base", "registry.example.com:5000/team/img:v1")
    assert result.returncode == 0, result.stderr
    assert b"FROM registry.example.com:5000/team/img:v1" in result.stdout


@pytest.mark.live_machine
@pytest.mark.parametrize("kind", ["missing", "directory", "garbage"])
def test_a_python_that_cannot_be_inspected_is_an_input_error_not_a_clean_bill(doctor, tmp_path: Path, kind: str) -> None:
    target = {"missing": tmp_path / "nope", "directory": tmp_path}.get(kind)
    if target is None:
        target = tmp_path / "python"
        target.write_text("#!/bin/sh\necho garbage\n")
        target.chmod(0o755)
    assert_input_error(doctor("check", "--python", str(target)), "--python", str(target))


def test_dockerfile_output_keeps_the_previous_file_as_a_backup(doctor, tmp_path: Path) -> None:
    output = tmp_path / "Dockerfile"
    output.write_text("FROM my/own:image\n# hand-written\n")
    result = doctor("dockerfile", "--machine", str(DOCKER), "--output", str(output))
    assert result.returncode == 0, result.stderr
    backups = list(tmp_path.glob("Dockerfile.*.rocm-doctor.bak"))
    assert [b.read_text() for b in backups] == ["FROM my/own:image\n# hand-written\n"]
    assert output.read_text().startswith("# ") or "FROM rocm/" in output.read_text()
    again = doctor("dockerfile", "--machine", str(DOCKER), "--output", str(output))
    assert again.returncode == 0 and len(list(tmp_path.glob("Dockerfile.*.rocm-doctor.bak"))) == 1
