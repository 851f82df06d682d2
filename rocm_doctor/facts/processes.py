"""Read one running process: the libraries it loaded, the torch build among them, its
environment, its parent chain, and whether it holds a GPU context and how much VRAM.

Only this module reads a process, and only through the :class:`System`: the process table,
environment and (on Windows) modules from ``System.processes`` / ``process_environ`` /
``process_modules``; on Linux the files ``/proc/<pid>/maps`` and ``/proc/<pid>/fdinfo/*``
and the KFD folder ``/sys/class/kfd/kfd/proc/<pid>/`` (what each holds and the kernel
documentation: :mod:`rocm_doctor.facts.parsers.proc`). A recorded machine replays all of it.

Nothing here raises for a process it cannot read: another user's process without root, one
that exits halfway, a file of any shape become a reading with the reason.
"""

from __future__ import annotations

import ntpath
import posixpath
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from rocm_doctor.facts.parsers.proc import drm_bytes, drm_keys, kfd_vram_gpu_id, mapped_paths, uint_text
from rocm_doctor.system.base import ProcessEntry, ProcessGone, System

KFD_PROC = "/sys/class/kfd/kfd/proc"
KFD_NODES = "/sys/class/kfd/kfd/topology/nodes"
MAPS_BYTES = 8 << 20
"""A torch process maps a few thousand files (a few hundred KB of ``maps``); 8 MiB is ample."""
FDINFO_LIMIT = 4096
"""At most this many fdinfo files per process are read (a process with more is not a GPU app
that this can tell more about; the KFD folder still says whether it holds a context)."""
PARENT_DEPTH = 8

RUNTIME_KINDS = {
    "amdhip64": "hip-runtime",
    "hsa-runtime64": "hsa-runtime",
}
"""The ROCm runtimes proper; two copies (or two installs) of these in one process is the
"two runtimes" failure."""
ROCM_LIBRARIES = frozenset({
    "hsakmt", "amd_comgr", "rocblas", "hipblas", "hipblaslt", "miopen", "rccl", "rocsolver", "hipsolver",
    "rocfft", "hipfft", "rocrand", "hiprand", "rocsparse", "hipsparse", "roctracer64", "roctx64",
    "rocm_smi64", "amd_smi", "hiprtc", "rocprofiler-register", "rocm-core", "hipsparselt", "rocroller",
})
CUDA_LIBRARIES = frozenset({"cudart", "cublas", "cublaslt", "cudnn", "nvrtc", "cuda"})
TORCH_LIBRARIES = {"torch_hip": "rocm", "torch_cuda": "cuda", "torch_cpu": "cpu"}
"""``libtorch_hip`` is loaded by every ROCm build of torch and ``libtorch_cuda`` by every CUDA
build; ``libtorch_cpu`` by every build (alone: a CPU build)."""
_VERSION_SUFFIX = re.compile(r"_\d+$")


def library_key(path: str) -> str:
    """``/opt/rocm/lib/libamdhip64.so.6.2.60200`` -> ``amdhip64``; ``amdhip64_6.dll`` -> ``amdhip64``."""
    base = _basename(path).lower()
    if base.startswith("lib"):
        base = base[3:]
    for ext in (".so", ".dll", ".dylib"):
        at = base.find(ext)
        if at > 0:
            base = base[:at]
            break
    return _VERSION_SUFFIX.sub("", base)


def _windows(path: str) -> bool:
    return "\\" in path or (len(path) > 1 and path[1] == ":")


def _basename(path: str) -> str:
    return ntpath.basename(path) if _windows(path) else posixpath.basename(path)


def _dirname(path: str) -> str:
    return ntpath.dirname(path) if _windows(path) else posixpath.dirname(path)


SYSTEM_LIBRARY_FOLDERS = ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib", "/usr/local/lib64")
"""Folders a distribution's packages install libraries into (with their multiarch subfolders, such as
/usr/lib/x86_64-linux-gnu): a ROCm library there is the distribution's (Debian/Ubuntu libhsa-runtime64-1,
Fedora rocm-runtime), not AMD's /opt/rocm-X.Y."""


def install_of(path: str) -> str:
    """The install a library comes from: its folder, less a trailing ``lib``/``lib64``/``bin``
    (``/opt/rocm-6.2.0/lib/libamdhip64.so`` -> ``/opt/rocm-6.2.0``; ``.../torch/lib/x.so`` -> ``.../torch``)."""
    folder = _dirname(path)
    if _basename(folder).lower() in ("lib", "lib64", "bin"):
        folder = _dirname(folder)
    return folder


@dataclass(frozen=True)
class LoadedLibrary:
    """A library of interest in a process."""

    path: str
    key: str
    """:func:`library_key`."""
    kind: str
    """``hip-runtime``, ``hsa-runtime``, ``rocm-library``, ``torch-rocm``, ``torch-cuda``, ``torch-cpu``, ``cuda``."""
    install: str


def classify(path: str) -> Optional[LoadedLibrary]:
    """The library at ``path`` when it is a ROCm, CUDA or torch library; None otherwise."""
    key = library_key(path)
    if key in RUNTIME_KINDS:
        kind = RUNTIME_KINDS[key]
    elif key in ROCM_LIBRARIES:
        kind = "rocm-library"
    elif key in TORCH_LIBRARIES:
        kind = f"torch-{TORCH_LIBRARIES[key]}"
    elif key in CUDA_LIBRARIES:
        kind = "cuda"
    else:
        return None
    return LoadedLibrary(path=path, key=key, kind=kind, install=install_of(path))


def runtime_mix(libraries: Sequence[LoadedLibrary]) -> Optional[str]:
    """Two ROCm installs in one process: the same ROCm library loaded from two folders, or the HIP
    and HSA runtimes from different installs; a sentence naming them, else None.

    One install split over several folders (TheRock's ``_rocm_sdk_core`` and
    ``_rocm_sdk_libraries``) loads each library once and both runtimes from the same folder.
    """
    rocm = [lib for lib in libraries if lib.kind in ("hip-runtime", "hsa-runtime", "rocm-library")]
    folders: Dict[str, List[str]] = {}
    for lib in rocm:
        places = folders.setdefault(lib.key, [])
        if _dirname(lib.path) not in places:
            places.append(_dirname(lib.path))
    twice = sorted(key for key, places in folders.items() if len(places) > 1)
    if twice:
        return "; ".join(f"lib{key} from {' and '.join(folders[key])}" for key in twice)
    runtimes = {lib.kind: lib.install for lib in rocm if lib.kind in ("hip-runtime", "hsa-runtime")}
    if len(set(runtimes.values())) > 1:
        return f"libamdhip64 from {runtimes['hip-runtime']} and libhsa-runtime64 from {runtimes['hsa-runtime']}"
    return None


@dataclass(frozen=True)
class TorchLoaded:
    """The torch a process loaded."""

    flavour: str
    """``rocm``, ``cuda`` or ``cpu``: which of ``libtorch_hip`` / ``libtorch_cuda`` it loaded."""
    location: str
    """The torch package folder."""
    version: Optional[str] = None
    version_problem: Optional[str] = None


@dataclass(frozen=True)
class GpuUse:
    """A GPU the process holds a context on."""

    source: str
    """``kfd`` (a compute context: ``/sys/class/kfd/kfd/proc/<pid>/vram_<gpu_id>``) or ``drm`` (fdinfo)."""
    gpu_id: Optional[int] = None
    """KFD topology ``gpu_id``."""
    node: Optional[int] = None
    """KFD topology node number (``gpus.agents[].kfd_node``)."""
    pci: Optional[str] = None
    """``drm-pdev``."""
    vram_bytes: Optional[int] = None


@dataclass(frozen=True)
class ProcessReading:
    """Everything read about one process; a part that could not be read is None with its reason."""

    entry: ProcessEntry
    libraries: Optional[Tuple[LoadedLibrary, ...]] = None
    libraries_problem: Optional[str] = None
    torch: Optional[TorchLoaded] = None
    environ: Optional[Dict[str, str]] = None
    environ_problem: Optional[str] = None
    kfd_context: Optional[bool] = None
    """The process has a KFD folder (it opened ``/dev/kfd``); None when that cannot be told."""
    kfd_queues: Optional[int] = None
    gpus: Tuple[GpuUse, ...] = ()
    gpu_problem: Optional[str] = None
    parents: Tuple[str, ...] = ()
    """``name (pid)`` of the parent, its parent, ... (the launcher chain)."""
    gone: Optional[str] = None
    """Set when the process exited while it was read: the reading is to be skipped."""

    @property
    def vram_bytes(self) -> Optional[int]:
        """VRAM held on every GPU (KFD's count when the process has a compute context, else DRM's)."""
        kfd = [g.vram_bytes for g in self.gpus if g.source == "kfd" and g.vram_bytes is not None]
        drm = [g.vram_bytes for g in self.gpus if g.source == "drm" and g.vram_bytes is not None]
        chosen = kfd or drm
        return sum(chosen) if chosen else None

    @property
    def uses_gpu(self) -> Optional[bool]:
        """It holds a compute context that it uses (VRAM or queues in it), or an amdgpu DRM client
        with VRAM; None when that cannot be told. A KFD folder alone is not use: asking torch
        whether a GPU is there opens /dev/kfd."""
        if self.kfd_context is None:
            return None
        if any(g.source == "drm" and (g.vram_bytes or 0) > 0 for g in self.gpus):
            return True
        if not self.kfd_context:
            return False
        return bool((self.vram_bytes or 0) > 0 or (self.kfd_queues or 0) > 0)

    def of_kind(self, *kinds: str) -> List[LoadedLibrary]:
        return [lib for lib in self.libraries or () if lib.kind in kinds]


def _problem(exc: BaseException, what: str, entry: ProcessEntry, me: Optional[int]) -> str:
    """Why ``what`` of a process could not be read."""
    if isinstance(exc, PermissionError):
        other = entry.uid is not None and me is not None and entry.uid != me and me != 0
        if other:
            return f"another user's process ({entry.user or entry.uid}): only that user or root may read {what}"
        return f"{what} could not be read (permission denied)"
    if isinstance(exc, FileNotFoundError):
        return f"{what}: not there"
    return f"{what} could not be read: {exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__}"


def _gone(pid: int, system: System) -> bool:
    return not system.processes([pid])


def gpu_ids_to_nodes(system: System) -> Dict[int, int]:
    """KFD topology ``gpu_id`` -> node number (empty without KFD)."""
    found: Dict[int, int] = {}
    try:
        nodes = system.list_dir(KFD_NODES)
    except OSError:
        return found
    for name in nodes:
        if not name.isdigit():
            continue
        try:
            gpu_id = uint_text(system.read_text(f"{KFD_NODES}/{name}/gpu_id", max_bytes=64))
        except OSError:
            continue
        if gpu_id:
            found[gpu_id] = int(name)
    return found


def kfd_pids(system: System) -> Optional[set]:
    """Pids with a KFD folder (a compute context); None when KFD cannot be listed."""
    try:
        return {int(n) for n in system.list_dir(KFD_PROC) if n.isdigit()}
    except FileNotFoundError:
        return set() if system.exists("/sys/class/kfd/kfd") else None
    except OSError:
        return None


def _libraries(system: System, entry: ProcessEntry, linux: bool) -> List[str]:
    if linux:
        return mapped_paths(system.read_text(f"/proc/{entry.pid}/maps", max_bytes=MAPS_BYTES))
    return system.process_modules(entry.pid)


def read_libraries(system: System, entry: ProcessEntry, linux: bool, me: Optional[int]) -> Tuple[Optional[Tuple[LoadedLibrary, ...]], Optional[str]]:
    """The libraries of interest a process loaded, or None and why not. Raises ProcessGone."""
    try:
        paths = _libraries(system, entry, linux)
    except ProcessGone:
        raise
    except OSError as exc:
        if not isinstance(exc, PermissionError) and _gone(entry.pid, system):
            raise ProcessGone(entry.pid) from None
        return None, _problem(exc, "its libraries", entry, me)
    found = [lib for lib in (classify(p) for p in paths) if lib is not None]
    return tuple(found), None


def torch_of(system: System, libraries: Sequence[LoadedLibrary]) -> Optional[TorchLoaded]:
    """The torch build among ``libraries`` and its version from the package's own metadata."""
    torch_libs = [lib for lib in libraries if lib.kind.startswith("torch-")]
    if not torch_libs:
        return None
    kinds = {lib.kind for lib in torch_libs}
    flavour = "rocm" if "torch-rocm" in kinds else "cuda" if "torch-cuda" in kinds else "cpu"
    location = torch_libs[0].install
    version, problem = _dist_version(system, _dirname(location), "torch")
    return TorchLoaded(flavour=flavour, location=location, version=version, version_problem=problem)


def _dist_version(system: System, site: str, name: str) -> Tuple[Optional[str], Optional[str]]:
    """``Version:`` of ``<site>/<name>-*.dist-info/METADATA``, or None and why not."""
    join = ntpath.join if _windows(site) else posixpath.join
    try:
        infos = [n for n in system.list_dir(site) if n.lower().startswith(f"{name}-") and n.endswith(".dist-info")]
    except OSError as exc:
        return None, f"{site} could not be listed ({exc.strerror or type(exc).__name__})"
    if len(infos) != 1:
        return None, f"{len(infos)} {name} dist-info folders in {site}"
    try:
        metadata = system.read_text(join(site, infos[0], "METADATA"), max_bytes=16384)
    except OSError as exc:
        return None, f"{infos[0]}/METADATA could not be read ({exc.strerror or type(exc).__name__})"
    for line in metadata.splitlines():
        if line.startswith("Version:"):
            return line.split(":", 1)[1].strip() or None, None
        if not line.strip():
            break
    return None, f"{infos[0]}/METADATA names no version"


def read_environ(system: System, entry: ProcessEntry, me: Optional[int]) -> Tuple[Optional[Dict[str, str]], Optional[str]]:
    """The process's environment, or None and why not. Raises ProcessGone."""
    try:
        return dict(system.process_environ(entry.pid)), None
    except ProcessGone:
        raise
    except OSError as exc:
        return None, _problem(exc, "its environment", entry, me)


def read_gpu_use(system: System, pid: int, linux: bool, nodes: Dict[int, int], in_kfd: Optional[bool],
                 libraries_readable: bool) -> Tuple[Optional[bool], Optional[int], Tuple[GpuUse, ...], Optional[str]]:
    """(KFD context, its queue count, the GPUs used, a problem) of one process (Linux only)."""
    if not linux:
        return None, None, (), "GPU contexts are read from Linux's KFD and DRM files; not on this system"
    uses: List[GpuUse] = []
    queues: Optional[int] = None
    context = in_kfd
    problem: Optional[str] = None
    folder = f"{KFD_PROC}/{pid}"
    if in_kfd:
        try:
            names = system.list_dir(folder)
        except OSError:
            names = []
        for name in names:
            gpu_id = kfd_vram_gpu_id(name)
            if gpu_id is None:
                continue
            try:
                vram = uint_text(system.read_text(f"{folder}/{name}", max_bytes=64))
            except OSError:
                vram = None
            uses.append(GpuUse(source="kfd", gpu_id=gpu_id, node=nodes.get(gpu_id), vram_bytes=vram))
        if "queues" in names:
            try:
                queues = len([q for q in system.list_dir(f"{folder}/queues") if q.isdigit()])
            except OSError:
                queues = None
    if libraries_readable:
        uses += _drm_clients(system, pid)
    elif in_kfd is None:
        problem = "whether it holds a GPU context could not be read"
    return context, queues, tuple(uses), problem


def _drm_clients(system: System, pid: int) -> List[GpuUse]:
    """One GpuUse per amdgpu DRM client (``drm-client-id``) in the process's fdinfo files."""
    try:
        fds = system.list_dir(f"/proc/{pid}/fdinfo")
    except OSError:
        return []
    clients: Dict[Tuple[str, str], GpuUse] = {}
    for fd in fds[:FDINFO_LIMIT]:
        try:
            keys = drm_keys(system.read_text(f"/proc/{pid}/fdinfo/{fd}", max_bytes=16384))
        except OSError:
            continue
        if keys.get("drm-driver") != "amdgpu":
            continue
        pci = keys.get("drm-pdev")
        client = (pci or "", keys.get("drm-client-id") or f"fd{fd}")
        vram = drm_bytes(keys["drm-memory-vram"]) if "drm-memory-vram" in keys else None
        clients.setdefault(client, GpuUse(source="drm", pci=pci, vram_bytes=vram))
    return list(clients.values())


def parent_chain(system: System, entry: ProcessEntry, depth: int = PARENT_DEPTH) -> Tuple[str, ...]:
    """``name (pid)`` of the parent, grandparent, ... up to ``depth`` (stops at pid 0/1 or a loop)."""
    chain: List[str] = []
    seen = {entry.pid}
    ppid = entry.ppid
    while ppid and ppid not in seen and len(chain) < depth:
        seen.add(ppid)
        found = system.processes([ppid])
        if not found:
            break
        parent = found[0]
        chain.append(f"{parent.name or '?'} ({parent.pid})")
        if parent.pid == 1:
            break
        ppid = parent.ppid
    return tuple(chain)


@dataclass
class MachineView:
    """What a reading needs to know about the machine, read once per run."""

    linux: bool
    me: Optional[int]
    """The uid rocm-doctor runs as."""
    kfd: Optional[set] = None
    nodes: Dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, system: System, only: Optional[int] = None) -> "MachineView":
        """The view for a whole scan, or for process ``only`` (its own KFD folder is looked up,
        not the list of every process with a context: a recording keeps only what was asked)."""
        linux = system.platform().system.strip().lower() == "linux"
        if not linux:
            kfd = None
        elif only is None:
            kfd = kfd_pids(system)
        elif system.exists(f"{KFD_PROC}/{only}"):
            kfd = {only}
        else:
            kfd = set() if system.exists("/sys/class/kfd/kfd") else None
        return cls(linux=linux, me=system.identity().uid, kfd=kfd, nodes=gpu_ids_to_nodes(system) if linux else {})


def read_process(system: System, entry: ProcessEntry, view: MachineView, environment: bool = True,
                 parents: bool = True) -> ProcessReading:
    """Read one process; one that exits meanwhile comes back with ``gone`` set."""
    try:
        libraries, lib_problem = read_libraries(system, entry, view.linux, view.me)
        environ, env_problem = read_environ(system, entry, view.me) if environment else (None, "not read")
        in_kfd = None if view.kfd is None else entry.pid in view.kfd
        context, queues, gpus, gpu_problem = read_gpu_use(system, entry.pid, view.linux, view.nodes, in_kfd, libraries is not None)
        chain = parent_chain(system, entry) if parents else ()
    except ProcessGone:
        return ProcessReading(entry=entry, gone=f"process {entry.pid} exited while it was read")
    return ProcessReading(
        entry=entry,
        libraries=libraries,
        libraries_problem=lib_problem,
        torch=torch_of(system, libraries) if libraries else None,
        environ=environ,
        environ_problem=env_problem,
        kfd_context=context,
        kfd_queues=queues,
        gpus=gpus,
        gpu_problem=gpu_problem,
        parents=chain,
    )


def is_candidate(entry: ProcessEntry, view: MachineView) -> bool:
    """Worth reading ``maps``: it holds a KFD context, or its command is a Python interpreter.

    Reading every process's maps would cost most of ``ps``'s second on a busy machine; GPU
    programs that are not Python show up through their KFD context once they use the GPU.
    """
    if view.kfd is not None and entry.pid in view.kfd:
        return True
    names = [entry.name, _basename(entry.exe or ""), _basename(entry.cmdline[0]) if entry.cmdline else ""]
    return any(n.lower().startswith("python") for n in names if n)


def loads_gpu_stack(reading: ProcessReading) -> bool:
    """The process loaded torch or a ROCm/CUDA runtime (or could not be read: it may have)."""
    if reading.libraries is None:
        return True
    return bool(reading.of_kind("hip-runtime", "hsa-runtime", "torch-rocm", "torch-cuda", "torch-cpu", "cuda"))

