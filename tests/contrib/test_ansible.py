"""contrib/ansible with ansible-core: two inventory hosts on the local connection, each pointed at a
machine (a recorded machine with a problem that needs no isolation, and one whose GPU returned zeros: an
injected ``isolate``). Two, not three: each host costs some 9 CPU-seconds of Ansible's own module runs.

The same scenario as the Slurm test, through Ansible: the custom fact carries each host's
``check --json``, the playbook gathers them into one folder and runs ``fleet`` on it, and the
health play fails exactly the host whose GPUs must not be used.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fleet_gen import zeros_facts_file

REPO = Path(__file__).resolve().parents[2]
PLAYBOOK = REPO / "contrib" / "ansible" / "rocm-doctor.yml"
MACHINES = REPO / "tests" / "machines"
PLAYBOOK_BIN = Path(sys.executable).with_name("ansible-playbook")
DOCTOR = f"{sys.executable} -m rocm_doctor"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory):
    if not PLAYBOOK_BIN.exists() and shutil.which("ansible-playbook") is None:
        pytest.skip("ansible-core is not installed (pip install ansible-core; it is in the test extra)")
    tmp = tmp_path_factory.mktemp("ansible")
    hosts = {
        "node-b": f"--machine {MACHINES / 'linux-amd-cuda-wheel'}",
        "node-c": f"--facts {zeros_facts_file(tmp)}",
    }
    inventory = tmp / "inventory.ini"
    inventory.write_text(
        "[gpus]\n"
        + "".join(f"{name} rocm_doctor_args=\"{args}\"\n" for name, args in hosts.items())
        + "\n[gpus:vars]\n"
        + "ansible_connection=local\n"
        + f"ansible_python_interpreter={sys.executable}\n"
        + f"rocm_doctor=\"{DOCTOR}\"\nrocm_doctor_controller=\"{DOCTOR}\"\n"
        # the hosts share this machine, so each gets its own fact folder
        + f"rocm_doctor_facts_dir={tmp / 'facts'}/{{{{ inventory_hostname }}}}\n",
        encoding="utf-8",
    )
    env = dict(
        os.environ, ANSIBLE_NOCOLOR="1", ANSIBLE_FORKS="2", ANSIBLE_RETRY_FILES_ENABLED="0",
        ANSIBLE_LOCAL_TEMP=str(tmp / "local-tmp"), ANSIBLE_REMOTE_TMP=str(tmp / "remote-tmp"),
        ANSIBLE_HOST_KEY_CHECKING="0", ANSIBLE_PYTHON_INTERPRETER=sys.executable,
    )
    binary = str(PLAYBOOK_BIN) if PLAYBOOK_BIN.exists() else "ansible-playbook"
    out = tmp / "report"
    done = subprocess.run(
        [binary, "-i", str(inventory), str(PLAYBOOK), "-e", f"rocm_doctor_collect_dir={out}"],
        cwd=tmp, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    return done, out, sorted(hosts)


def recap(output: str) -> dict:
    """Host -> failed count, from the PLAY RECAP."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\S+)\s+:\s+ok=\d+.*?failed=(\d+)", output, re.M)}


def test_every_host_check_lands_in_one_folder(played) -> None:
    done, out, hosts = played
    assert sorted(p.stem for p in out.glob("*.json")) == hosts, done.stdout[-3000:] + done.stderr[-2000:]
    for path in out.glob("*.json"):
        assert json.loads(path.read_text(encoding="utf-8"))["schema"] == "rocm-doctor/check/1"
    facts = out.parent / "facts"
    assert sorted(p.name for p in facts.iterdir()) == hosts  # the inventory's fact folders were used
    assert sorted(p.name for p in (facts / "node-b").iterdir()) == ["rocm_doctor.conf", "rocm_doctor.fact"]


def test_fleet_over_the_folder_names_the_faulty_host(played, run_cli) -> None:
    _, out, hosts = played
    report = json.loads(run_cli("fleet", str(out), "--json").stdout)
    by_rule = {f["id"]: f for f in report["findings"]}
    assert report["nodes"] == len(hosts) and report["verdict"] == "isolate"
    assert (by_rule["RD600"]["nodes"], by_rule["RD600"]["action"]) == (["node-c"], "isolate")
    assert by_rule["RD100"]["nodes"] == ["node-b"]


def test_the_playbook_shows_the_fleet_report(played) -> None:
    done, _, _ = played
    assert "# rocm-doctor fleet report" in done.stdout and "RD600 isolate" in done.stdout


def test_the_health_play_fails_only_the_host_with_the_injected_fault(played) -> None:
    done, _, _ = played
    assert recap(done.stdout) == {"node-b": 0, "node-c": 1}, done.stdout[-3000:]
    assert "RD600 isolate: Data copied to the GPU comes back as zeros" in done.stdout
    assert done.returncode == 2  # ansible-playbook: a host failed
