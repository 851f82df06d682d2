"""Each scenario of a running program is found by ``ps`` and by ``check --pid``; a healthy GPU
process gets no finding. Real child processes map files named like the runtime libraries; the
GPU machine (its KFD topology and the KFD process folders, fdinfo) is a recorded one.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Dict, List, Optional, Set

import pytest

from process_support import DGPU_ID, IGPU_ID, MachineWithLiveProcesses, add_drm_fdinfo, add_kfd_context, fake_torch, library, recorded_gpu_machine, start_child
from rocm_doctor.facts.context import GatherOptions
from rocm_doctor.facts.gather import gather
from rocm_doctor.facts.process_scan import scan_processes
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.judge.process_verdict import judge_process
from rocm_doctor.system.process_view import ProcessView

pytestmark = [pytest.mark.live_machine, pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")]

PROCESS_RULES = {"RD770", "RD771", "RD772", "RD773", "RD774", "RD775"}
TEN_MINUTES = 600.0


def _child_env(extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """The launcher's environment: the test's PATH and what the scenario adds (nothing of ROCm else)."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/home/user", **(extra or {})}


class Scenario:
    """A child process on the recorded iGPU + 7900 XTX machine."""

    def __init__(self, tmp_path: Path, files: List[Path], env: Optional[Dict[str, str]] = None,
                 vram: Optional[Dict[int, int]] = None, age: float = TEN_MINUTES, drm_kib: Optional[int] = None) -> None:
        self.folder = recorded_gpu_machine(tmp_path)
        self.child = start_child(files, _child_env(env))
        if vram is not None:
            add_kfd_context(self.folder, self.child.pid, vram)
        if drm_kib is not None:
            add_drm_fdinfo(self.folder, self.child.pid, 7, "0000:03:00.0", drm_kib)
        self.machine = MachineWithLiveProcesses(self.folder, live_roots=[tmp_path], ages={self.child.pid: age})

    def verdict(self) -> str:
        scan = scan_processes(self.machine)
        rows = [r for r in scan.readings if r.entry.pid == self.child.pid]
        assert len(rows) == 1, f"ps did not list the child ({[r.entry.pid for r in scan.readings]})"
        return judge_process(rows[0], scan.amd_gpus).verdict

    def findings(self) -> Set[str]:
        view = ProcessView.attach(self.machine, self.child.pid)
        facts = gather(view, GatherOptions(pid=self.child.pid, torch=False), origin="recorded")
        return {f.id for f in evaluate(load_rules(use_env=False), facts).findings}


def _healthy(tmp_path: Path) -> Scenario:
    torch = fake_torch(tmp_path / "site", "rocm", "2.9.1+rocm6.4")
    return Scenario(tmp_path, torch, vram={DGPU_ID: 6 << 30})


def _launcher_hides_every_gpu(tmp_path: Path) -> Scenario:
    torch = fake_torch(tmp_path / "site", "rocm", "2.9.1+rocm6.4")
    return Scenario(tmp_path, torch, env={"ROCR_VISIBLE_DEVICES": "1", "HIP_VISIBLE_DEVICES": "1"})


def _two_runtimes(tmp_path: Path) -> Scenario:
    torch = [f for f in fake_torch(tmp_path / "site", "rocm", "2.9.1+rocm6.4") if "hsa" not in f.name]
    other = library(tmp_path / "opt" / "rocm-6.2.0" / "lib", "libhsa-runtime64.so.1.14.60200")
    return Scenario(tmp_path, torch + [other], vram={DGPU_ID: 1 << 30})


def _cuda_torch(tmp_path: Path) -> Scenario:
    return Scenario(tmp_path, fake_torch(tmp_path / "site", "cuda", "2.12.0+cu130"))


def _cpu_fallback(tmp_path: Path) -> Scenario:
    return Scenario(tmp_path, fake_torch(tmp_path / "site", "rocm", "2.9.1+rocm6.4"))


def _igpu_context(tmp_path: Path) -> Scenario:
    return Scenario(tmp_path, fake_torch(tmp_path / "site", "rocm", "2.9.1+rocm6.4"), vram={IGPU_ID: 512 << 20})


SCENARIOS = {
    # name: (build, ps verdict, the process rules check --pid finds)
    "healthy GPU process": (_healthy, "gpu", set()),
    "launcher-set visibility that leaves no GPU": (_launcher_hides_every_gpu, "cpu-only", {"RD770", "RD771", "RD774"}),
    "two runtimes": (_two_runtimes, "mixed-runtimes", {"RD772"}),
    "a CUDA torch loaded on an AMD machine": (_cuda_torch, "no-gpu-build", {"RD773"}),
    "CPU fallback": (_cpu_fallback, "cpu-only", {"RD774"}),
    "an iGPU context": (_igpu_context, "gpu", {"RD775"}),
}


@pytest.fixture(params=sorted(SCENARIOS))
def scenario(request, tmp_path: Path):
    build, verdict, rules = SCENARIOS[request.param]
    built = build(tmp_path)
    try:
        yield built, verdict, rules
    finally:
        built.child.stop()


def test_ps_gives_each_scenario_its_verdict(scenario) -> None:
    built, verdict, _ = scenario
    assert built.verdict() == verdict


def test_check_pid_finds_each_scenario_and_nothing_for_a_healthy_process(scenario) -> None:
    built, _, rules = scenario
    assert built.findings() & PROCESS_RULES == rules


def test_a_young_process_without_a_context_is_unknown_not_cpu_only(tmp_path: Path) -> None:
    built = Scenario(tmp_path, fake_torch(tmp_path / "site", "rocm", "2.9.1+rocm6.4"), age=5.0)
    try:
        assert built.verdict() == "unknown"
        assert "RD774" not in built.findings()
    finally:
        built.child.stop()


def test_a_kfd_folder_without_memory_or_queues_is_not_gpu_use(tmp_path: Path) -> None:
    """torch.cuda.is_available() opens /dev/kfd: a context with nothing in it is still the CPU."""
    built = Scenario(tmp_path, fake_torch(tmp_path / "site", "rocm", "2.9.1+rocm6.4"))
    add_kfd_context(built.folder, built.child.pid, {DGPU_ID: 0}, queues=0)
    try:
        assert built.verdict() == "cpu-only"
    finally:
        built.child.stop()


def test_drm_fdinfo_vram_counts_as_gpu_use_and_memory(tmp_path: Path) -> None:
    built = Scenario(tmp_path, fake_torch(tmp_path / "site", "rocm", "2.9.1+rocm6.4"), drm_kib=2048)
    try:
        scan = scan_processes(built.machine)
        row = next(r for r in scan.readings if r.entry.pid == built.child.pid)
        assert row.vram_bytes == 2048 * 1024
        assert judge_process(row, scan.amd_gpus).verdict == "gpu"
    finally:
        built.child.stop()


def test_torch_version_and_runtime_installs_come_from_the_loaded_files(tmp_path: Path) -> None:
    built = _two_runtimes(tmp_path)
    try:
        row = next(r for r in scan_processes(built.machine).readings if r.entry.pid == built.child.pid)
        assert row.torch is not None and (row.torch.flavour, row.torch.version) == ("rocm", "2.9.1+rocm6.4")
        assert row.torch.location == str(tmp_path / "site" / "torch")
        assert {lib.install for lib in row.of_kind("hip-runtime", "hsa-runtime")} == {
            str(tmp_path / "site" / "torch"), str(tmp_path / "opt" / "rocm-6.2.0")}
    finally:
        built.child.stop()


def test_a_process_that_exits_while_being_read_is_skipped_with_a_reason(tmp_path: Path) -> None:
    built = _healthy(tmp_path)
    machine = built.machine
    original = machine.live.read_text

    def exits_first(path: str, max_bytes: int = 1 << 20) -> str:
        if path == f"/proc/{built.child.pid}/maps":
            built.child.stop()  # it exits now; /proc/<pid> is gone once it is reaped
        return original(path, max_bytes=max_bytes)

    machine.live.read_text = exits_first  # type: ignore[method-assign]
    scan = scan_processes(machine)
    assert built.child.pid not in [r.entry.pid for r in scan.readings]
    assert any(pid == built.child.pid and "exited" in why for pid, why in scan.skipped)
