"""What a rule file or a paste puts in a command reaches no shell and no pip unquoted or unchecked."""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from rocm_doctor.facts.model import Facts
from rocm_doctor.fix.envfile import write_env_file
from rocm_doctor.judge.derived import DerivedValues
from rocm_doctor.judge.interpolate import interpolate_fix
from rocm_doctor.model.fixes import make_fix
from rocm_doctor.judge.paths import Scope
from rocm_doctor.remedy.decide import Context, decide
from rocm_doctor.model.remedy import EnvChange

from .helpers import finding, machine_facts

RULE = """rules:
  - id: RD901
    name: custom-rule
    severity: error
    category: env
    area: test
    when: {{fact: host.os, eq: linux}}
    title: t
    message: m
    explanation: e
    fixes:
      - {fix}
    references: [{{url: "https://example.org"}}]
"""
MACHINE = Path(__file__).resolve().parents[1] / "machines" / "cpu-only"


@pytest.mark.parametrize(
    "fix, field",
    [
        ("{kind: env, unset: ['FOO; touch /tmp/pwned']}", "fixes[0].unset"),
        ("{kind: env, set: {'A B': '1'}}", "fixes[0].set"),
        ("{kind: pip, packages: ['.']}", "fixes[0].packages"),
        ("{kind: pip, packages: ['-e', '.']}", "fixes[0].packages"),
        ("{kind: pip, packages: ['--index-url=http://evil/', 'torch']}", "fixes[0].packages"),
        ("{kind: pip, packages: ['pkg @ file:///tmp/evil']}", "fixes[0].packages"),
        ("{kind: pip, packages: ['evil.tar.gz']}", "fixes[0].packages"),
        ("{kind: pip, packages: ['x.zip']}", "fixes[0].packages"),
        ("{kind: pip, packages: ['foo.whl']}", "fixes[0].packages"),
        ("{kind: pip, packages: ['evil-1.0-py3-none-any.WHL[extra]']}", "fixes[0].packages"),
        ("{kind: pip, packages: [torch], index_url: '--trusted-host=evil'}", "fixes[0].index_url"),
    ],
)
def test_a_rule_file_with_an_injected_name_or_pip_option_is_refused_when_it_loads(run_cli, tmp_path: Path, fix, field) -> None:
    rules = tmp_path / "evil.yaml"
    rules.write_text(RULE.format(fix=fix), encoding="utf-8")
    for args in (["rules", "validate", str(rules)], ["fix", "--machine", str(MACHINE), "--rules", str(rules)]):
        result = run_cli(*args)
        assert result.exit_code == 2 and f"field '{field}'" in result.stderr, result.stderr


def test_a_setup_py_in_the_working_folder_is_never_run_by_a_rule(run_cli, tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "setup.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'w').close()\n", encoding="utf-8")
    rules = tmp_path / "evil.yaml"
    rules.write_text(RULE.format(fix="{kind: pip, packages: ['.']}"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run_cli("fix", "--machine", str(MACHINE), "--rules", str(rules), "--pip").exit_code == 2
    assert not (tmp_path / "ran").exists()


def _sdist(folder: Path, marker: Path) -> Path:
    """``evil.tar.gz``: an sdist whose setup.py creates ``marker`` when pip builds it."""
    source = folder / "src" / "evil-1.0"
    source.mkdir(parents=True)
    (source / "setup.py").write_text(
        f"open({str(marker)!r}, 'w').close()\nfrom setuptools import setup\nsetup(name='evil', version='1.0')\n", encoding="utf-8"
    )
    archive = folder / "evil.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(source, arcname="evil-1.0")
    return archive


def _wheel(folder: Path, marker: Path) -> Path:
    """``evil-1.0-py3-none-any.whl``: a wheel whose .pth file creates ``marker`` when its Python starts."""
    files = {
        "evil.pth": f"import os; open({str(marker)!r}, 'w').close()\n",
        "evil-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: evil\nVersion: 1.0\n",
        "evil-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    records = []
    archive = folder / "evil-1.0-py3-none-any.whl"
    with zipfile.ZipFile(archive, "w") as wheel:
        for name, text in files.items():
            wheel.writestr(name, text)
            digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
            records.append(f"{name},sha256={digest},{len(text.encode())}")
        wheel.writestr("evil-1.0.dist-info/RECORD", "\n".join(records + ["evil-1.0.dist-info/RECORD,,"]) + "\n")
    return archive


@pytest.mark.live_machine  # --apply runs only on this machine (a venv made here is the target)
@pytest.mark.skipif(os.name == "nt", reason="a POSIX venv layout (bin/python)")
@pytest.mark.parametrize("make", [_sdist, _wheel], ids=["sdist-setup-py", "wheel-pth"])
def test_an_archive_named_package_in_the_working_folder_is_never_run_by_fix_apply(run_cli, tmp_path: Path, monkeypatch, make) -> None:
    # "evil.tar.gz" is a valid PEP 508 name, but pip reads it as the archive beside it: before the
    # check, --apply built the sdist (its setup.py ran) or installed the wheel (its .pth ran).
    marker = tmp_path / "ran"
    archive = make(tmp_path, marker)
    rules = tmp_path / "evil.yaml"
    rules.write_text(RULE.format(fix=f"{{kind: pip, packages: ['{archive.name}']}}"), encoding="utf-8")
    target = tmp_path / "venv"  # a throwaway target: what pip would install lands there, not here
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(target)], check=True, timeout=120)
    for name in [n for n in os.environ if n.startswith("PIP_")]:
        monkeypatch.delenv(name)
    # No index, no config; no build isolation, so the sdist would build with the setuptools at hand.
    for name, value in {"PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1", "PIP_NO_BUILD_ISOLATION": "0"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    result = run_cli("fix", "--rules", str(rules), "--python", str(target / "bin" / "python"), "--apply", "--yes")
    assert result.exit_code == 2 and "local archive file" in result.stderr, result.stdout + result.stderr
    subprocess.run([str(target / "bin" / "python"), "-c", "pass"], check=True, timeout=60)  # a wheel's .pth would run now
    assert not marker.exists()


def _scope(facts: Facts) -> Scope:
    return Scope(facts, DerivedValues(facts), None)


def _plan(facts: Facts, *findings):
    return decide(list(findings), facts, Context(is_read=lambda n: True)).plan


def test_a_package_filled_from_a_hostile_fact_becomes_a_note_not_a_command() -> None:
    facts = machine_facts(installed={"numpy": "1.26 --index-url http://evil/"})
    fix = interpolate_fix(make_fix(kind="pip", packages=["numpy=={packages.installed.numpy}"]), _scope(facts))
    plan = _plan(facts, finding("RD1", fix))
    assert plan.of_kind("pip") == []
    assert any("not a requirement specifier" in note for note in plan.notes)


def test_a_value_placed_in_a_manual_command_is_quoted_for_the_shell(tmp_path: Path) -> None:
    facts = machine_facts(installed={"torch": f"2.5; touch {tmp_path}/pwned\nrm -rf x"})
    fix = interpolate_fix(make_fix(kind="manual", commands=["pip show torch=={packages.installed.torch}"]), _scope(facts))
    (command,) = fix.commands
    assert command == f"pip show torch=='2.5; touch {tmp_path}/pwned rm -rf x'"
    subprocess.run(["sh", "-n", "-c", command], check=True)  # one simple command, it parses


def test_a_variable_name_filled_from_a_fact_that_is_not_an_identifier_is_left_out(tmp_path: Path) -> None:
    fix = make_fix(kind="env", unset=["{env.vars.X}"])
    facts = machine_facts()
    facts = facts.model_copy(update={"env": facts.env.model_copy(update={"vars": facts.env.vars.model_copy(
        update={"status": "known", "value": {"X": "FOO; touch pwned"}})})})
    plan = _plan(facts, finding("RD1", interpolate_fix(fix, _scope(facts))))
    assert plan.env_changes() == {} and any("not an environment variable name" in note for note in plan.notes)
    changes = [EnvChange(name, value) for name, value in plan.env_changes().items()] + [EnvChange("SAFE", "1")]
    assert write_env_file(tmp_path / "rocm.sh", "bash", changes).changed
    assert "touch" not in (tmp_path / "rocm.sh").read_text(encoding="utf-8")


def test_a_value_a_shell_cannot_carry_is_left_out_with_a_note_and_the_rest_is_planned() -> None:
    facts = machine_facts(installed={"torch": "2.5.1\nrm -rf ~"})
    bad = interpolate_fix(make_fix(kind="env", set={"PROBE_VAR": "{packages.installed.torch}"}), _scope(facts))
    good = make_fix(kind="env", set={"HIP_VISIBLE_DEVICES": "0"})
    plan = _plan(facts, finding("RD1", bad), finding("RD2", good))
    assert plan.env_changes() == {"HIP_VISIBLE_DEVICES": "0"}
    assert any(note.startswith("not setting PROBE_VAR") for note in plan.notes)


def test_terminal_escapes_in_a_title_never_reach_the_health_line_or_fleet_markdown() -> None:
    from rocm_doctor.fleet.render import _markdown_text
    from rocm_doctor.health.verdict import clip

    for text in (clip("torch 2.5\x1b]0;pwned\x07 is a CUDA build"), _markdown_text("node1 python 3.12\x1b[2J")):
        assert "\x1b" not in text and "\x07" not in text
