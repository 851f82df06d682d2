"""Real child processes that map files named like the ROCm, CUDA and torch libraries, and a
machine whose /sys/class/kfd (and fdinfo) trees are replayed from a recorded machine folder.

A child maps its files, prints ``ready`` and waits for its stdin to close: tests wait for that
line and for the exit, never sleep.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence

from rocm_doctor.system.base import CommandResult, ProcessEntry
from rocm_doctor.system.live import LiveSystem
from rocm_doctor.system.recorded import RecordedSystem

MACHINES = Path(__file__).resolve().parents[1] / "machines"
IGPU_BOX = "ubuntu-7900xtx-igpu-norender"
"""RX 7900 XTX (KFD node 2, gpu_id 2834) and a Raphael iGPU (KFD node 1, gpu_id 42353)."""
DGPU_ID, IGPU_ID = 2834, 42353

CHILD = (
    "import mmap, sys\n"
    "held = []\n"
    "for path in sys.argv[1:]:\n"
    "    with open(path, 'rb') as f:\n"
    "        held.append(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))\n"
    "print('ready', flush=True)\n"
    "sys.stdin.read()\n"
)


def library(folder: Path, name: str) -> Path:
    """A file named like a library (mmap needs at least one byte)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(b"\x7fELF" + b"\0" * 4092)
    return path


def fake_torch(site: Path, flavour: str, version: str) -> List[Path]:
    """A torch package in ``site`` (its libraries and its dist-info), bundled runtimes for ROCm."""
    lib = site / "torch" / "lib"
    names = ["libtorch_cpu.so"] + {"rocm": ["libtorch_hip.so", "libamdhip64.so", "libhsa-runtime64.so"],
                                    "cuda": ["libtorch_cuda.so"], "cpu": []}[flavour]
    info = site / f"torch-{version}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: torch\nVersion: {version}\n\nA fake torch.\n", encoding="utf-8")
    return [library(lib, name) for name in names]


@dataclass
class Child:
    process: subprocess.Popen

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(timeout=30)


def start_child(files: Sequence[Path], env: Optional[Mapping[str, str]] = None) -> Child:
    """A python child that maps ``files`` and waits; returns once it has mapped them."""
    process = subprocess.Popen([sys.executable, "-c", CHILD, *map(str, files)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, env=dict(env) if env is not None else None, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.strip() == "ready", f"child did not start: {line!r}"
    return Child(process)


def recorded_gpu_machine(tmp: Path, box: str = IGPU_BOX) -> Path:
    """A copy of a recorded machine folder to add KFD process folders and fdinfo files to."""
    folder = tmp / "machine"
    shutil.copytree(MACHINES / box, folder)
    return folder


def add_kfd_context(folder: Path, pid: int, vram: Dict[int, int], queues: int = 1) -> None:
    """``/sys/class/kfd/kfd/proc/<pid>/vram_<gpu_id>`` (bytes) and ``queues/<n>/`` as KFD writes them."""
    proc = folder / "files" / "sys" / "class" / "kfd" / "kfd" / "proc" / str(pid)
    proc.mkdir(parents=True, exist_ok=True)
    (proc / "pasid").write_text("32770\n", encoding="utf-8")
    for gpu_id, size in vram.items():
        (proc / f"vram_{gpu_id}").write_text(f"{size}\n", encoding="utf-8")
    for n in range(queues):
        (proc / "queues" / str(n)).mkdir(parents=True, exist_ok=True)


def add_drm_fdinfo(folder: Path, pid: int, fd: int, pdev: str, vram_kib: int) -> None:
    """An amdgpu DRM client's ``/proc/<pid>/fdinfo/<fd>`` (drm-usage-stats keys)."""
    path = folder / "files" / "proc" / str(pid) / "fdinfo" / str(fd)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t1035\ndrm-driver:\tamdgpu\ndrm-pdev:\t{pdev}\n"
        f"drm-client-id:\t{fd + 100}\ndrm-memory-vram:\t{vram_kib} KiB\ndrm-memory-gtt:\t2048 KiB\n"
        "drm-engine-gfx:\t0 ns\ndrm-engine-compute:\t123456 ns\n",
        encoding="utf-8",
    )


class MachineWithLiveProcesses:
    """A recorded GPU machine whose process table, process files and the children's own files are live.

    ``/sys`` and ``/dev`` and the machine's commands and identity come from the recorded folder; the
    process table, a process's environment, ``/proc/<pid>/maps`` and files under ``live_roots``
    (the fake site-packages) from this machine; ``/proc/<pid>/fdinfo`` from the folder when it has
    one for that pid. ``ages`` sets a pid's age (the machine's clock): a CPU fallback is only one
    after a minute.
    """

    def __init__(self, folder: Path, live_roots: Sequence[Path] = (), ages: Optional[Dict[int, float]] = None) -> None:
        self.recorded = RecordedSystem(folder)
        self.live = LiveSystem()
        self.folder = folder
        self.live_roots = [str(r) for r in live_roots] + [sys.prefix, sys.base_prefix, str(Path(sys.executable).parent)]
        self.ages = dict(ages or {})

    def _side(self, path: str):
        if path.startswith("/proc/") and path.split("/")[2].isdigit():
            # fdinfo is replayed (a pid without recorded fdinfo has none); maps and the rest are live
            return self.recorded if "/fdinfo" in path else self.live
        if any(path == root or path.startswith(root.rstrip("/") + "/") for root in self.live_roots):
            return self.live
        return self.recorded

    def read_text(self, path: str, max_bytes: int = 1 << 20) -> str:
        return self._side(path).read_text(path, max_bytes=max_bytes)

    def list_dir(self, path: str) -> List[str]:
        return self._side(path).list_dir(path)

    def exists(self, path: str) -> bool:
        return self._side(path).exists(path)

    def is_dir(self, path: str) -> bool:
        return self._side(path).is_dir(path)

    def run(self, argv: Sequence[str], timeout: float = 10.0, label=None, env=None) -> CommandResult:
        side = self.live if argv and self._side(str(argv[0])) is self.live else self.recorded
        return side.run(argv, timeout=timeout, label=label, env=env)

    def start(self, argv: Sequence[str], timeout: float = 10.0, label=None, env=None):
        side = self.live if argv and self._side(str(argv[0])) is self.live else self.recorded
        return side.start(argv, timeout=timeout, label=label, env=env)

    def processes(self, pids: Optional[Sequence[int]] = None) -> List[ProcessEntry]:
        found = self.live.processes(pids)
        return [replace(e, age_seconds=self.ages[e.pid]) if e.pid in self.ages else e for e in found]

    def process_environ(self, pid: int) -> Dict[str, str]:
        return self.live.process_environ(pid)

    def process_modules(self, pid: int) -> List[str]:
        return self.live.process_modules(pid)

    def __getattr__(self, name: str):  # platform, identity, environ, resources, which, access, ...
        return getattr(self.recorded, name)
