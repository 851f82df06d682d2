"""``facts --record``: a recorded machine replays to the same facts, with user, host and home redacted."""

from __future__ import annotations

import yaml
from core_machine import build_machine, dist_info, probe_lines, python_info

from rocm_doctor.facts import python_env, torch_probe
from rocm_doctor.facts.env import is_recorded
from rocm_doctor.facts.context import GatherOptions
from rocm_doctor.facts.gather import gather
from rocm_doctor.redact import Redactor
from rocm_doctor.system.record import RecordingSystem
from rocm_doctor.system.recorded import RecordedSystem

SITE = "/opt/venv/lib/python3.12/site-packages"


def source_machine(tmp_path, home="/home/alice", user="alice"):
    site = SITE.replace("/opt", home)
    files = {
        "/etc/os-release": "ID=ubuntu\nVERSION_ID=\"24.04\"\nPRETTY_NAME=\"Ubuntu 24.04.1 LTS\"\n",
        "/proc/sys/kernel/osrelease": "6.8.0-45-generic\n", "/proc/version": "Linux version 6.8.0-45-generic\n",
        "/dev/kfd": "", "/dev/dri/renderD128": "", "/dev/dri/card0": "", "/dev/shm": None,
        "/sys/module/amdgpu/initstate": "live\n", "/proc/cmdline": f"BOOT_IMAGE=/vmlinuz root=/dev/sda1 note={user}\n",
        **dist_info(site, "torch", "2.5.1+rocm6.2"), **dist_info(site, "numpy", "1.26.4"),
        f"{site}/torch/version.py": "__version__ = '2.5.1+rocm6.2'\nhip = '6.2.41133-dd7f95766'\ncuda = None\n",
        f"{site}/torch/lib/libhsa-runtime64.so": "",
    }
    probe = probe_lines({"stage": "import", "status": "start"},
                        {"stage": "import", "status": "ok", "seconds": 1.0},
                        {"stage": "cuda_init", "status": "start"})
    commands = [
        {"label": python_env.LABEL, "returncode": 0,
         "stdout": python_info([site], prefix=f"{home}/venv", base_prefix="/usr", executable=f"{home}/venv/bin/python")},
        {"label": torch_probe.LABEL, "returncode": -6, "stdout": probe,
         "stderr": f"{home}/venv/lib/python3.12/site-packages/torch/lib/libamdhip64.so: abort on {user}-workstation\n"},
    ]
    env = {"HOME": home, "PATH": f"{home}/venv/bin:/usr/bin", "HSA_OVERRIDE_GFX_VERSION": "10.3.0",
           "GITHUB_TOKEN": "ghp_secret"}
    return build_machine(tmp_path, files=files, commands=commands, env=env, disks={"/dev/shm": 1 << 30},
                         identity={"user": user, "uid": 1000, "groups": [user, "render"], "group_ids": {"render": 110}},
                         access={"/dev/kfd": "rw", "/dev/dri/renderD128": "r"}, python=f"{home}/venv/bin/python",
                         unreadable=["/proc/cmdline"], name="source")


def record(tmp_path, system, redactor=Redactor()):
    recorder = RecordingSystem(system, redactor=redactor, keep_env=is_recorded)
    facts = gather(recorder, GatherOptions(), origin="recorded")
    out = recorder.write(tmp_path / "recorded")
    return facts, out


def comparable(facts):
    return facts.model_dump(exclude={"meta"})


def test_recorded_machine_replays_to_identical_facts(tmp_path):
    original, folder = record(tmp_path, source_machine(tmp_path, home="/srv/u", user="root"))
    replayed = gather(RecordedSystem(folder), GatherOptions(), origin="recorded")
    assert comparable(replayed) == comparable(original)
    assert original.torch.live.probe.status == "failed"
    assert original.permissions.render_nodes_rw.value is False
    assert original.driver.kernel_cmdline.status == "failed"  # unreadable survives the round trip


def test_recording_redacts_user_host_and_home_and_drops_private_variables(tmp_path):
    redactor = Redactor.from_identity("alice", "alice-workstation.lan", homes=["/home/alice"])
    original, folder = record(tmp_path, source_machine(tmp_path), redactor)
    everything = "\n".join(p.read_text(encoding="utf-8") for p in folder.rglob("*") if p.is_file())
    everything += "\n".join(str(p) for p in folder.rglob("*"))
    assert "alice" not in everything
    assert "ghp_secret" not in everything and "GITHUB_TOKEN" not in everything
    machine = yaml.safe_load((folder / "machine.yaml").read_text())
    assert machine["python"] == "/home/<user>/venv/bin/python"
    assert machine["env"]["HSA_OVERRIDE_GFX_VERSION"] == "10.3.0"
    replayed = gather(RecordedSystem(folder), GatherOptions(), origin="recorded")
    assert replayed.torch.version.value == "2.5.1+rocm6.2"
    assert replayed.python.site_packages.value == ["/home/<user>/venv/lib/python3.12/site-packages"]
    assert replayed.packages.installed.value == original.packages.installed.value
    assert "<host>" in (replayed.torch.live.probe.reason or "")


def test_redactor_rules():
    r = Redactor.from_identity("bob", "gpu-box.example.com", homes=["/home/bob", "C:\\Users\\bob"])
    assert r.text("/home/bob/x and /home/bobby") == "/home/<user>/x and /home/bobby"
    assert r.text("C:\\Users\\Bob\\AppData") == "C:\\Users\\<user>\\AppData"
    assert r.text("bob@gpu-box.example.com; gpu-box; bobcat") == "<user>@<host>; <host>; bobcat"
    assert Redactor.from_identity("root", "localhost").text("root on localhost") == "root on localhost"
    assert r.data({"bob": ["gpu-box", 3]}) == {"<user>": ["<host>", 3]}
