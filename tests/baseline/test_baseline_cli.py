"""``baseline save`` then ``diff``: the same machine has no change; one changed package is named, alone."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

MACHINES = Path(__file__).resolve().parents[1] / "machines"
MACHINE = MACHINES / "docker-2x7900xt-rocm62"


def test_baseline_save_then_diff_on_the_same_machine_prints_no_change(run_cli) -> None:
    saved = run_cli("baseline", "save", "before", "--machine", str(MACHINE))
    assert saved.exit_code == 0, saved.stderr
    shown = run_cli("diff", "before", "--machine", str(MACHINE))
    assert shown.exit_code == 0, shown.stderr
    assert "no change" in shown.stdout
    listed = run_cli("baseline", "list")
    assert listed.stdout.startswith("before ") and "torch 2.5.1+rocm6.2" in listed.stdout
    assert "RD160" in run_cli("baseline", "show", "before").stdout
    assert run_cli("baseline", "rm", "before").exit_code == 0
    assert run_cli("diff", "before", "--machine", str(MACHINE)).exit_code == 2


def test_diff_without_a_baseline_says_how_to_save_one(run_cli) -> None:
    shown = run_cli("diff", "--machine", str(MACHINE))
    assert shown.exit_code == 2 and "no baseline named 'last-good'" in shown.stderr


def test_baseline_save_refuses_a_path_as_a_name(run_cli) -> None:
    shown = run_cli("baseline", "save", "../escape", "--machine", str(MACHINE))
    assert shown.exit_code == 2 and "not a baseline name" in shown.stderr


def _venv(tmp_path: Path) -> Path:
    folder = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
    python = folder / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True, timeout=60,
    ).stdout.strip()
    _dist(Path(site), "demo-package", "1.0")
    _dist(Path(site), "steady", "3.1")
    return python


def _dist(site: Path, name: str, version: str) -> None:
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")


@pytest.mark.live_machine
def test_after_one_package_changes_in_a_venv_diff_names_exactly_that_package(run_cli, tmp_path: Path) -> None:
    python = _venv(tmp_path)
    saved = run_cli("baseline", "save", "venv", "--python", str(python), "--no-torch")
    assert saved.exit_code == 0, saved.stderr
    assert run_cli("diff", "venv", "--python", str(python), "--no-torch").exit_code == 0
    site = next(tmp_path.glob("venv/**/demo_package-1.0.dist-info")).parent
    shutil.rmtree(site / "demo_package-1.0.dist-info")
    _dist(site, "demo-package", "2.0")
    shown = run_cli("diff", "venv", "--python", str(python), "--no-torch", "--json")
    assert shown.exit_code == 1, shown.stderr
    document = json.loads(shown.stdout)
    assert [(c["what"], c["before"], c["after"]) for c in document["changes"]] == [("demo-package", "1.0", "2.0")]
    assert document["findings_appeared"] == [] and document["findings_disappeared"] == []


@pytest.mark.live_machine
def test_fix_to_apply_saves_a_restore_point_runs_the_commands_and_rechecks_the_stack(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rocm_doctor.fix.installer as installer
    from rocm_doctor.baseline.store import list_all

    python = _venv(tmp_path)
    assert run_cli("baseline", "save", "good", "--python", str(python), "--no-torch").exit_code == 0
    site = next(tmp_path.glob("venv/**/demo_package-1.0.dist-info")).parent
    shutil.rmtree(site / "demo_package-1.0.dist-info")
    _dist(site, "demo-package", "2.0")
    ran = []

    def pip_as_it_would(commands, on_line, timeout=0, env=None):  # the venv has no pip: do what the command asks
        ran.extend(c.argv for c in commands)
        shutil.rmtree(site / "demo_package-2.0.dist-info")
        _dist(site, "demo-package", "1.0")
        return installer.RunOutcome(completed=list(commands))

    monkeypatch.setattr(installer, "run_commands", pip_as_it_would)
    shown = run_cli("fix", "--to", "good", "--python", str(python), "--no-torch", "--apply", "--yes")
    assert shown.exit_code == 0, shown.stdout + shown.stderr
    assert ran == [(str(python), "-m", "pip", "install", "demo-package==1.0")]
    assert "the Python stack matches baseline good" in shown.stdout
    assert [i.baseline.reason for i in list_all()[0]].count("fix --apply") == 1


def test_diff_against_an_unchanged_last_good_names_the_earlier_good_states(run_cli) -> None:
    from rocm_doctor.baseline.capture import capture
    from rocm_doctor.baseline.store import save
    from rocm_doctor.facts.model import Facts

    facts = Facts.from_json((MACHINE / "facts.json").read_text(encoding="utf-8"))
    save(capture("good-20261101080000", facts, [], "rules-x", "check"))
    assert run_cli("baseline", "save", "last-good", "--machine", str(MACHINE)).exit_code == 0
    shown = run_cli("diff", "--machine", str(MACHINE))
    assert shown.exit_code == 0 and "no change" in shown.stdout
    assert "earlier ones: good-20261101080000 (`rocm-doctor diff good-20261101080000`)" in shown.stdout
