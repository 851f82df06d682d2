"""contrib/slurm on a real single-node Slurm cluster (slurmctld, slurmd, munge from Debian), in a temp dir.

One cluster serves the module: an ``sbatch --array`` job of ``contrib/slurm/rocm-doctor-check.sbatch``
runs ``rocm-doctor check --json`` once per recorded machine (its sweep file points each task at
one), ``fleet`` aggregates the folder, and slurmd itself runs the shipped health-check wrapper as
HealthCheckProgram: it drains the node when the node's facts carry an injected ``isolate`` fault,
resumes it when they are healthy again, and leaves an administrator's drain alone.

Needs root and the Debian packages ``slurm-wlm`` and ``munge`` (CI installs them); where they are
missing or the daemons cannot start, the tests skip with the reason, and ``test_ansible.py`` runs
the same scenario through ansible-core.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional

import pytest

from fleet_gen import healthy_facts_file, zeros_facts_file

REPO = Path(__file__).resolve().parents[2]
SLURM = REPO / "contrib" / "slurm"
MACHINES = REPO / "tests" / "machines"
TOOLS = ("slurmctld", "slurmd", "munged", "sbatch", "scontrol")
DOCTOR = f"{sys.executable} -m rocm_doctor"


class Unavailable(Exception):
    """The cluster could not be brought up here; the message says why."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _tail(path: Path, lines: int = 6) -> str:
    try:
        return " | ".join(path.read_text(errors="replace").strip().splitlines()[-lines:])
    except OSError:
        return f"{path.name} not written"


class Cluster:
    """A throwaway Slurm cluster of this one node, everything under ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.node = socket.gethostname().split(".")[0]
        self.conf = root / "slurm.conf"
        self.hc = root / "hc"
        self.log = root / "healthcheck.log"
        self.env = dict(os.environ, SLURM_CONF=str(self.conf))
        self.munge_socket = root / "munge" / "socket"

    def slurm(self, *argv: str, timeout: float = 30) -> subprocess.CompletedProcess:
        return subprocess.run(list(argv), env=self.env, capture_output=True, text=True, timeout=timeout, check=False)

    def start(self, facts: Path) -> None:
        for folder in ("munge", "state", "spool", "logs", "hc"):
            (self.root / folder).mkdir(mode=0o700)
        key = self.root / "munge" / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        munge = [
            "munged", "--force", f"--socket={self.munge_socket}", f"--key-file={key}",
            f"--pid-file={self.root / 'munge' / 'munged.pid'}", f"--seed-file={self.root / 'munge' / 'seed'}",
            f"--log-file={self.root / 'logs' / 'munged.log'}",
        ]
        if self.slurm(*munge).returncode != 0:
            raise Unavailable(f"munged did not start: {_tail(self.root / 'logs' / 'munged.log')}")
        shutil.copy(SLURM / "rocm-doctor-healthcheck", self.hc / "rocm-doctor-healthcheck")
        self.point_healthcheck_at(facts)
        self.conf.write_text(self._slurm_conf(), encoding="utf-8")
        for daemon in (["slurmctld", "-i"], ["slurmd"]):
            done = self.slurm(*daemon)
            if done.returncode != 0:
                raise Unavailable(f"{daemon[0]} exited {done.returncode}: {(done.stderr or done.stdout).strip()[-300:]}")
        try:
            self.wait(lambda: "IDLE" in self.node_state()[0], 30, "the node to register")
        except AssertionError:
            raise Unavailable(
                f"the node did not come up: slurmctld: {_tail(self.root / 'logs' / 'slurmctld.log')}; "
                f"slurmd: {_tail(self.root / 'logs' / 'slurmd.log')}"
            ) from None

    def _slurm_conf(self) -> str:
        r = self.root
        return "\n".join([
            "ClusterName=rocmdoctortest",
            f"SlurmctldHost={self.node}(127.0.0.1)",
            f"SlurmctldPort={_free_port()}",
            f"SlurmdPort={_free_port()}",
            "SlurmUser=root", "SlurmdUser=root",
            "AuthType=auth/munge", "CredType=cred/munge", f"AuthInfo=socket={self.munge_socket}",
            f"StateSaveLocation={r / 'state'}", f"SlurmdSpoolDir={r / 'spool'}",
            f"SlurmctldPidFile={r / 'slurmctld.pid'}", f"SlurmdPidFile={r / 'slurmd.pid'}",
            f"SlurmctldLogFile={r / 'logs' / 'slurmctld.log'}", f"SlurmdLogFile={r / 'logs' / 'slurmd.log'}",
            "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none", "MpiDefault=none",
            "JobAcctGatherType=jobacct_gather/none", "AccountingStorageType=accounting_storage/none",
            "SelectType=select/cons_tres", "SelectTypeParameters=CR_Core", "ReturnToService=2",
            # schedule at once (the defaults wait seconds between passes, which a test feels)
            "SchedulerType=sched/builtin", "SchedulerParameters=sched_min_interval=0,batch_sched_delay=0",
            "MessageTimeout=5", "SlurmdParameters=config_overrides",
            f"HealthCheckProgram={self.hc / 'rocm-doctor-healthcheck'}", "HealthCheckInterval=2",
            # four job slots even on a two-core machine, so the array's tasks run side by side
            f"NodeName={self.node} NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN",
            f"PartitionName=debug Nodes={self.node} Default=YES MaxTime=INFINITE State=UP",
            "",
        ])

    def point_healthcheck_at(self, facts: Path) -> None:
        """The wrapper's settings file (slurmd gives it no environment, so SLURM_CONF is set here)."""
        conf = self.hc / "rocm-doctor-healthcheck.conf"
        conf.write_text(
            f'export SLURM_CONF="{self.conf}"\nROCM_DOCTOR="{DOCTOR}"\nHEALTH_ARGS="--facts {facts}"\n'
            f'LOG_FILE="{self.log}"\nLOCK_FILE="{self.hc / "lock"}"\nBUDGET=20s\n',
            encoding="utf-8",
        )

    def node_state(self) -> tuple:
        """(State=..., Reason=...) of the node."""
        line = self.slurm("scontrol", "-o", "show", "node", self.node).stdout.strip()
        state = next((f[6:] for f in line.split() if f.startswith("State=")), "")
        reason = line.split(" Reason=", 1)[1] if " Reason=" in line else ""
        return state, reason

    def runs(self, text: str) -> int:
        """How many health-check log lines contain ``text``."""
        if not self.log.exists():
            return 0
        return sum(text in line for line in self.log.read_text(encoding="utf-8").splitlines())

    def wait(self, condition: Callable[[], bool], seconds: float, what: str) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if condition():
                return
            time.sleep(0.25)
        raise AssertionError(f"timed out waiting for {what}; node {self.node_state()}; log: {_tail(self.log)}")

    def stop(self) -> None:
        if self.conf.exists():
            self.slurm("scontrol", "shutdown", timeout=20)
        for pid_file in (self.root / "slurmctld.pid", self.root / "slurmd.pid"):
            self._stop_pid(pid_file)
        if self.munge_socket.exists():
            self.slurm("munged", "--stop", f"--socket={self.munge_socket}", timeout=20)
        self._stop_pid(self.root / "munge" / "munged.pid")

    @staticmethod
    def _stop_pid(pid_file: Path) -> None:
        """Stop the daemon of this pid file (this test's own): wait, then SIGTERM, then SIGKILL."""
        try:
            pid = int(pid_file.read_text().strip())
        except (OSError, ValueError):
            return
        for signal_number, grace in ((0, 3.0), (signal.SIGTERM, 5.0), (signal.SIGKILL, 0.0)):
            try:
                os.kill(pid, signal_number)
            except OSError:
                return  # gone
            deadline = time.monotonic() + grace
            while time.monotonic() < deadline:
                try:
                    os.kill(pid, 0)
                except OSError:
                    return
                time.sleep(0.1)


def _why_not() -> Optional[str]:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        return f"Slurm/munge not installed ({', '.join(missing)} missing; Debian packages slurm-wlm and munge)"
    if os.geteuid() != 0:
        return "the throwaway Slurm cluster runs its daemons as root (SlurmUser=root)"
    return None


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory):
    reason = _why_not()
    if reason:
        pytest.skip(reason)
    root = tmp_path_factory.mktemp("slurm")
    facts = tmp_path_factory.mktemp("slurm-facts")
    running = Cluster(root)
    running.healthy, running.zeros = healthy_facts_file(facts), zeros_facts_file(facts)
    try:
        running.start(running.healthy)
    except (Unavailable, subprocess.TimeoutExpired) as exc:
        running.stop()
        pytest.skip(f"the Slurm daemons could not start here: {exc}")
    yield running
    running.stop()


def test_an_array_job_checks_recorded_machines_and_fleet_reads_the_folder(cluster: Cluster, run_cli) -> None:
    names = ["cpu-only", "linux-amd-cuda-wheel", "ubuntu-7900xtx-igpu-norender", "ubuntu2204-6700xt"]
    sweep = cluster.root / "sweep.txt"
    sweep.write_text("".join(f"{name} --machine {MACHINES / name}\n" for name in names), encoding="utf-8")
    out = cluster.root / "checks"
    submitted = cluster.slurm(
        "sbatch", "--parsable", f"--array=0-{len(names) - 1}", f"--output={cluster.root / 'logs' / 'task-%a.log'}",
        f"--export=ALL,ROCM_DOCTOR={DOCTOR},ROCM_DOCTOR_OUT={out},ROCM_DOCTOR_SWEEP={sweep}",
        str(SLURM / "rocm-doctor-check.sbatch"),
    )
    assert submitted.returncode == 0, submitted.stderr
    job = submitted.stdout.strip().split(";")[0]
    # squeue, polled, rather than sbatch --wait: that one checks back only every few seconds
    cluster.wait(lambda: not cluster.slurm("squeue", "-h", "-j", job).stdout.strip(), 120, f"array job {job}")
    logs = [_tail(p) for p in sorted((cluster.root / "logs").glob("task-*"))]
    assert sorted(p.stem for p in out.glob("*.json")) == names, logs
    report = json.loads(run_cli("fleet", str(out), "--json").stdout)
    assert report["nodes"] == len(names) and report["skipped"] == []
    rules: Dict[str, List[str]] = {f["id"]: f["nodes"] for f in report["findings"]}
    assert rules["RD100"] == ["linux-amd-cuda-wheel"] and rules["RD300"] == ["ubuntu-7900xtx-igpu-norender"]


def test_the_health_check_leaves_a_healthy_node_alone(cluster: Cluster) -> None:
    cluster.wait(lambda: cluster.runs("ok: no findings") >= 1, 30, "a healthy health-check run")
    # A loaded machine (the rest of the suite on the other core) can leave slurmd a ping behind for
    # a moment (IDLE+NOT_RESPONDING): what must hold is that the node comes back IDLE, never drained.
    cluster.wait(lambda: cluster.node_state() == ("IDLE", ""), 60, "the healthy node to be IDLE")
    assert "DRAIN" not in cluster.node_state()[0]


def test_an_injected_isolate_fault_drains_the_node_and_health_resumes_it(cluster: Cluster) -> None:
    cluster.point_healthcheck_at(cluster.zeros)
    cluster.wait(lambda: "DRAIN" in cluster.node_state()[0], 30, "the node to be drained")
    state, reason = cluster.node_state()
    assert reason.startswith("rocm-doctor:RD600 isolate: Data copied to the GPU comes back as zeros"), reason
    cluster.point_healthcheck_at(cluster.healthy)
    cluster.wait(lambda: "DRAIN" not in cluster.node_state()[0], 30, "the node to be resumed")
    # the script logs after scontrol resumes the node: wait for the line, not only the state (a race CI lost once)
    cluster.wait(lambda: cluster.runs("resumed (ok: no findings") >= 1, 30, "the resume to be logged")


def test_a_node_an_administrator_drained_stays_drained(cluster: Cluster) -> None:
    update = cluster.slurm("scontrol", "update", f"nodename={cluster.node}", "state=drain", "reason=disk swap")
    assert update.returncode == 0, update.stderr
    cluster.wait(lambda: cluster.runs("(drained by someone else: disk swap") >= 1, 30, "a run that saw the drain")
    state, reason = cluster.node_state()
    assert "DRAIN" in state and reason.startswith("disk swap"), (state, reason)
    cluster.slurm("scontrol", "update", f"nodename={cluster.node}", "state=resume")


def test_prolog_mode_fails_on_a_draining_verdict_and_passes_otherwise(cluster: Cluster) -> None:
    wrapper = [str(cluster.hc / "rocm-doctor-healthcheck"), "--prolog"]
    bare = {"SLURMD_NODENAME": cluster.node}  # what slurmd gives a prolog: no PATH, no SLURM_CONF

    cluster.point_healthcheck_at(cluster.zeros)
    assert subprocess.run(wrapper, env=bare, timeout=60, check=False).returncode == 1
    state, reason = cluster.node_state()
    assert "DRAIN" in state and reason.startswith("rocm-doctor:RD600 isolate: "), (state, reason)
    cluster.point_healthcheck_at(cluster.healthy)
    assert subprocess.run(wrapper, env=bare, timeout=60, check=False).returncode == 0
