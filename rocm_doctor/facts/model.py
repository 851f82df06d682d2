"""The typed snapshot of a machine: every section rules, fixes and reports read.

Dotted paths into this model (``torch.hip_version``, ``gpu.gfx``,
``env.vars.HSA_OVERRIDE_GFX_VERSION``) are the contract with the rule database:
renaming a field is a schema change and bumps the number in ``FACTS_SCHEMA``.
"""

from __future__ import annotations


import json
import re
from functools import lru_cache
from typing import Any, Dict, List, Literal, Optional, Tuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_serializer, model_validator

from rocm_doctor import bounded_json
from rocm_doctor.facts.value import Fact
from rocm_doctor.limits import FACTS_ENTRIES, FACTS_GPUS, FACTS_TEXT, JSON_DEPTH

FACTS_SCHEMA = "rocm-doctor/facts/1"
"""The ``schema`` of a facts document (every rocm-doctor JSON document names its kind this way)."""
LEGACY_SCHEMA_VERSION = 1
"""Facts files written before the ``schema`` key carried ``"schema_version": 1`` (also in ``meta``): still read."""


def looks_like_facts(data: Any) -> bool:
    """A facts document, new (``"schema": "rocm-doctor/facts/1"``) or from before (``"schema_version"``)."""
    return isinstance(data, dict) and "meta" in data and (data.get("schema") == FACTS_SCHEMA or "schema_version" in data)


def _fact() -> Any:
    return Field(default_factory=Fact)


class Section(BaseModel):
    """Base of every facts section: frozen, unknown keys rejected."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class HostFacts(Section):
    """Operating system, WSL and container."""

    os: Fact[str] = _fact()
    """``linux``, ``windows`` or ``macos``."""
    arch: Fact[str] = _fact()
    distro_id: Fact[str] = _fact()
    """os-release ``ID`` (``ubuntu``, ``rhel``, ``fedora``)."""
    distro_version: Fact[str] = _fact()
    """os-release ``VERSION_ID`` (``24.04``)."""
    distro_name: Fact[str] = _fact()
    """os-release ``PRETTY_NAME``."""
    kernel_release: Fact[str] = _fact()
    """``uname -r`` / ``/proc/sys/kernel/osrelease`` (``6.8.0-45-generic``)."""
    windows_version: Fact[str] = _fact()
    """Windows version string (``10.0.26100``)."""
    windows_build: Fact[int] = _fact()
    """Windows build number (26100); Windows 11 is build >= 22000."""
    windows_release: Fact[str] = _fact()
    """``10`` or ``11``."""
    macos_version: Fact[str] = _fact()
    wsl_version: Fact[int] = _fact()
    """1 or 2 inside WSL; absent on a machine that is not WSL."""
    container: Fact[str] = _fact()
    """``docker``, ``podman``, ``singularity``, ``kubernetes``, ``lxc``; absent outside one."""
    dev_kfd: Fact[bool] = _fact()
    """``/dev/kfd`` exists (the ROCm compute interface)."""
    dev_dri: Fact[bool] = _fact()
    """``/dev/dri`` exists."""
    dev_dxg: Fact[bool] = _fact()
    """``/dev/dxg`` exists (WSL2's GPU paravirtualisation device)."""
    render_nodes: Fact[List[str]] = _fact()
    """``/dev/dri/renderD*`` nodes."""
    shm_bytes: Fact[int] = _fact()
    """Size of ``/dev/shm`` in bytes."""
    shell: Fact[str] = _fact()
    """The shell rocm-doctor was started from (its parent process), else the login shell (``$SHELL``);
    commands are printed for it."""


class PythonFacts(Section):
    """The target interpreter (``--python``)."""

    executable: Fact[str] = _fact()
    selected_by: Fact[str] = _fact()
    """Why this interpreter is the target: ``--python``, the active virtual environment (``VIRTUAL_ENV``),
    the active conda environment (``CONDA_PREFIX``), the first ``python3``/``python`` on PATH, or the
    interpreter running rocm-doctor."""
    version: Fact[str] = _fact()
    """``3.12.3``."""
    implementation: Fact[str] = _fact()
    prefix: Fact[str] = _fact()
    env_kind: Fact[str] = _fact()
    """``venv``, ``conda`` or ``system``."""
    env_name: Fact[str] = _fact()
    site_packages: Fact[List[str]] = _fact()
    """Directories where distributions are installed (purelib, platlib)."""


class CpuFacts(Section):
    """Processor and memory (psutil)."""

    model: Fact[str] = _fact()
    vendor: Fact[str] = _fact()
    logical_cores: Fact[int] = _fact()
    physical_cores: Fact[int] = _fact()
    memory_total_bytes: Fact[int] = _fact()
    memory_available_bytes: Fact[int] = _fact()


class GpuAgent(Section):
    """One GPU agent (one per device; an MI250X shows two)."""

    index: int
    """Position in discovery order (KFD node order / rocminfo order)."""
    source: str
    """The discovery layer that produced this entry."""
    name: Fact[str] = _fact()
    """Marketing name (``AMD Radeon RX 7900 XTX``)."""
    vendor: Fact[str] = _fact()
    """``AMD``, ``NVIDIA``, ``Intel``."""
    vendor_id: Fact[str] = _fact()
    """PCI vendor id, ``0x1002`` for AMD."""
    device_id: Fact[str] = _fact()
    """PCI device id, lower-case hex with ``0x`` (``0x744c``)."""
    pci_bus: Fact[str] = _fact()
    """PCI address (``0000:03:00.0``)."""
    gfx: Fact[str] = _fact()
    """gfx target (``gfx1100``)."""
    gfx_target_version: Fact[int] = _fact()
    """KFD decimal encoding major*10000 + minor*100 + stepping (110000)."""
    product: Fact[str] = _fact()
    """Product family from the PCI table (``RX 7900 XT/XTX/GRE``)."""
    vram_bytes: Fact[int] = _fact()
    integrated: Fact[bool] = _fact()
    """True for an APU/iGPU that shares system memory."""
    compute_units: Fact[int] = _fact()
    render_node: Fact[str] = _fact()
    """``/dev/dri/renderD128``."""
    kfd_node: Fact[int] = _fact()
    """KFD topology node id (the ``_N`` of ``HSA_OVERRIDE_GFX_VERSION_N``)."""
    driver_version: Fact[str] = _fact()
    """Windows display driver version of this adapter."""


class DiscoveryAttempt(Section):
    """What one GPU discovery layer said."""

    layer: str
    status: str
    """``answered``, ``empty``, ``absent``, ``failed`` or ``skipped``."""
    detail: Optional[str] = None
    count: int = 0


class GpuFacts(Section):
    """All GPUs, found in layers: amdsmi, KFD, rocminfo, PCI, Windows WMI."""

    discovery: Fact[str] = _fact()
    """The layer that answered."""
    attempts: List[DiscoveryAttempt] = Field(default_factory=list)
    agents: List[GpuAgent] = Field(default_factory=list)


class DriverFacts(Section):
    """Kernel driver."""

    amdgpu_loaded: Fact[bool] = _fact()
    amdgpu_version: Fact[str] = _fact()
    """``/sys/module/amdgpu/version`` (set by the DKMS driver)."""
    dkms_amdgpu: Fact[str] = _fact()
    """The amdgpu line of ``dkms status``."""
    kernel_cmdline: Fact[str] = _fact()
    pcie_atomics_rejected: Fact[bool] = _fact()
    """The kernel log says ``PCI rejects atomics`` for a GPU."""


class RocmTools(Section):
    """Paths of the ROCm command-line tools; absent when not installed."""

    rocminfo: Fact[str] = _fact()
    rocm_agent_enumerator: Fact[str] = _fact()
    amd_smi: Fact[str] = _fact()
    rocm_smi: Fact[str] = _fact()
    hipconfig: Fact[str] = _fact()


class RocmFacts(Section):
    """ROCm user space."""

    version: Fact[str] = _fact()
    """``6.2.0``; the source says where it was read."""
    path: Fact[str] = _fact()
    """``/opt/rocm`` or ``ROCM_PATH``."""
    installs: Fact[List[str]] = _fact()
    """All ``/opt/rocm-X.Y.Z`` directories."""
    hip_version: Fact[str] = _fact()
    """HIP runtime version (``6.2.41133``)."""
    tools: RocmTools = Field(default_factory=RocmTools)


class WindowsHipFacts(Section):
    """Windows HIP SDK and driver."""

    hip_path: Fact[str] = _fact()
    hip_sdk_versions: Fact[List[str]] = _fact()
    """From ``HIP_PATH_57``, ``HIP_PATH_61`` ... variables."""
    amdhip_dlls: Fact[List[str]] = _fact()
    """``amdhip64_6.dll`` / ``amdhip64_7.dll`` found on the system or in site-packages."""
    driver_version: Fact[str] = _fact()
    """AMD display driver version (WMI ``DriverVersion``)."""


class TorchDevice(Section):
    """One device as the live torch probe saw it."""

    index: int
    name: Optional[str] = None
    gcn_arch_name: Optional[str] = None
    total_memory: Optional[int] = Field(default=None, ge=0)
    """Bytes; a negative or non-finite answer is left unknown (see facts/torch.py)."""


class TorchLiveFacts(Section):
    """What ``import torch`` said in a child process of the target interpreter."""

    probe: Fact[str] = _fact()
    """``ok`` when the probe finished; failed with the stage and stderr tail otherwise."""
    import_seconds: Fact[float] = _fact()
    cuda_available: Fact[bool] = _fact()
    device_count: Fact[int] = _fact()
    devices: Fact[List[TorchDevice]] = _fact()
    arch_list: Fact[List[str]] = _fact()
    """``torch.cuda.get_arch_list()``: the gfx targets compiled into the wheel."""
    hip_runtime_version: Fact[str] = _fact()


class TorchFacts(Section):
    """PyTorch in the target interpreter: static facts from files, live ones from a child."""

    version: Fact[str] = _fact()
    """Full version with local part (``2.5.1+rocm6.2``)."""
    flavour: Fact[str] = _fact()
    """``rocm``, ``cuda``, ``cpu`` or ``xpu``."""
    flavour_evidence: Fact[str] = _fact()
    """What kind of text decided ``flavour`` in a pasted report: ``shown`` (read by a tool-output reader or an error
    only that build prints: torch's own print, collect_env, pip show, pip's install log), ``stated`` (read from prose:
    the reporter's words, a labelled field, a version or listing row the readers take as text) or ``intended`` (nothing
    but what a command or an image asks for: an install command's wheel index, a container image's tag, which a later
    install step may have replaced). Unknown where ``flavour`` is, and on a live machine."""
    rocm_version: Fact[str] = _fact()
    """ROCm release the wheel was built for, ``major.minor[.patch]`` (``6.2``)."""
    hip_version: Fact[str] = _fact()
    """``torch.version.hip`` (``6.2.41133-dd7f95766``)."""
    cuda_version: Fact[str] = _fact()
    """``torch.version.cuda``."""
    git_version: Fact[str] = _fact()
    location: Fact[str] = _fact()
    distributor: Fact[str] = _fact()
    """``pytorch.org``, ``amd`` (repo.radeon.com / TheRock) or ``pypi``, from the version tag."""
    bundled_hsa_runtime: Fact[bool] = _fact()
    """The wheel ships its own ``libhsa-runtime64.so`` (must be replaced on WSL2)."""
    triton_package: Fact[str] = _fact()
    """``pytorch-triton-rocm``, ``triton``, ``triton-rocm`` ...; absent when none."""
    triton_version: Fact[str] = _fact()
    triton_flavour: Fact[str] = _fact()
    """``rocm``, ``cuda``, or ``mixed`` when several triton distributions disagree; an unknown fact when the
    files do not tell (heuristic documented in ``rocm_doctor.facts.torch``)."""
    torchvision_version: Fact[str] = _fact()
    torchvision_flavour: Fact[str] = _fact()
    torchaudio_version: Fact[str] = _fact()
    torchaudio_flavour: Fact[str] = _fact()
    live: TorchLiveFacts = Field(default_factory=TorchLiveFacts)


class PackagesFacts(Section):
    """Python distributions in the target environment."""

    installed: Fact[Dict[str, str]] = _fact()
    """Canonical name -> version for every distribution found."""
    complete: Fact[bool] = _fact()
    """Whether ``installed`` lists every distribution of the environment: true for a live read of its site
    directories and for a pasted ``pip list``/``pip freeze`` shown whole; false for what a report shows of it
    otherwise (``pip list | grep torch``, collect_env's "relevant libraries", a conda row, an install log). A name a
    listing that is not complete lacks is unknown, not uninstalled. Unknown means complete (a facts document from
    before this field)."""

    def covers(self, name: str) -> bool:
        """Whether ``installed`` would show ``name`` if it were installed."""
        return not (self.complete.is_known and self.complete.value is False)


class EnvSetting(Section):
    """One place a report sets (or unsets) an environment variable, with where the setting lives.

    A value written in a file (a Dockerfile, a systemd unit, a shell rc) or typed into
    another shell is configuration, not the process environment: ``reaches`` says
    whether the report shows it reaching the program (``True``: an ``env`` listing,
    a ``NAME=value command`` prefix), proves it cannot (``False``: fish ``set -U``
    without ``-x`` is never exported, ``sudo`` resets the environment), or cannot tell
    (``None``).
    """

    name: str
    value: Optional[str] = None
    """None for an ``unset``."""
    origin: str
    """How it was set: ``export``, ``command-prefix``, ``powershell``, ``cmd-set``, ``setx``,
    ``fish``, ``shell-rc`` (an export in a shell startup file: ~/.bashrc, ~/.profile ...), ``systemd``, ``dockerfile``, ``docker-run``, ``compose``, ``python``,
    ``env-listing``, ``app-config``, ``assignment`` (a bare ``NAME=value``), ``prose``."""
    where: str
    """Where it applies, in words (``this shell``, ``the systemd service``, ``the image``...)."""
    reaches: Optional[bool] = None
    reason: Optional[str] = None
    """Why ``reaches`` is False (or the caveat when None)."""
    for_error: Optional[bool] = None
    """False when a transcript shows it set only after every reported error was printed, or only for
    another command than the one that printed them: the failing program did not run under it. None
    when the report does not order it against the errors."""
    source: str
    """The line it was read from (``paste:block 2 line 5``) or ``env`` on a live machine."""
    command: Optional[str] = None
    """For a setting that is one command's own environment (``NAME=value cmd``, also written in prose's inline
    code, "I run `ROCR_VISIBLE_DEVICES=1 ollama serve`"): which command, the same text for every prefix of that
    command (``paste:block 2 line 5 col 0``). None for a setting of the session (``export``, a listing, a
    file, a sentence), which every later command inherits. Two settings of different commands never meet in
    one program's environment (:func:`rocm_doctor.judge.derived_facts.env.environments`)."""


class EnvFacts(Section):
    """Environment variables that matter to ROCm and PyTorch."""

    vars: Fact[Dict[str, str]] = _fact()
    """Relevant variables that are set (HSA_*, HIP_*, ROCR_*, PYTORCH_*, ...): on a live
    machine the process environment; from a report, every setting it shows that is not
    proven to miss the program (each value's origin is in ``settings``)."""
    coverage: Fact[List[str]] = _fact()
    """Which variable names ``vars`` is complete for, as regular expressions (``.*``: all of
    them, a live machine or a full ``env`` listing; ``HSA|HIP``: an ``env | grep`` listing;
    empty: only single settings were shown). A name the listing does not cover and that
    is not in ``vars`` is unknown, not unset. Unknown coverage means complete."""
    settings: Fact[List[EnvSetting]] = _fact()
    """Every setting a pasted report shows, in order, with where it lives."""
    rocm_path_entries: Fact[List[str]] = _fact()
    """``PATH`` entries that point into a ROCm install."""
    session_programs: Fact[List[str]] = _fact()
    """From a report: where it starts a GPU program with no environment prefix of its own (``$ python b.py`` in a
    transcript, ```python b.py``` in prose), which runs under the session's settings, not under another command's
    prefix (:func:`rocm_doctor.judge.derived_facts.env.program_environments`). Each entry is the line's source."""

    def covers(self, name: str) -> bool:
        """Whether ``vars`` would show ``name`` if it were set (unknown coverage: it would)."""
        coverage = self.coverage
        if not coverage.is_known or not isinstance(coverage.value, list):
            return True
        return any(_coverage_pattern(pattern).search(name) for pattern in coverage.value)


@lru_cache(maxsize=256)
def _coverage_pattern(pattern: str) -> "re.Pattern[str]":
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error:
        return re.compile(re.escape(pattern), re.IGNORECASE)


class PermissionsFacts(Section):
    """The user's access to the GPU device files."""

    user: Fact[str] = _fact()
    is_root: Fact[bool] = _fact()
    groups: Fact[List[str]] = _fact()
    in_render_group: Fact[bool] = _fact()
    in_video_group: Fact[bool] = _fact()
    render_group_gid: Fact[int] = _fact()
    group_ids: Fact[List[int]] = _fact()
    """Numeric ids of the groups the user's process holds (its group and supplementary groups), as ``id`` prints
    them, or as a pod's securityContext gives them; inside a container these are the numbers the kernel checks."""
    unnamed_group_ids: Fact[List[int]] = _fact()
    """Those of ``group_ids`` with no name where they were listed (``id`` prints a bare number; a pod's
    securityContext gives numbers): a bare node group held by the same bare number was listed in the same place."""
    gpu_node_gids: Fact[List[int]] = _fact()
    """Group ids owning ``/dev/kfd`` or a ``/dev/dri/renderD*`` where the program runs, shown only as a number: an
    ``ls -l`` inside a container whose group column is a bare id (65534 for ``nogroup``, a host group not mapped into
    the container's user namespace), or an LXC/Proxmox/LXD device entry's ``gid=``; nodes any user may open are left out."""
    kfd_rw: Fact[bool] = _fact()
    """Read and write access to ``/dev/kfd``."""
    render_nodes_rw: Fact[bool] = _fact()
    """Read and write access to every ``/dev/dri/renderD*``."""


def _no_pid() -> Any:
    return Field(default_factory=lambda: Fact(status="absent", source="process", reason=NO_PID))


NO_PID = "no process was named (--pid)"
"""Why the process facts of a machine, a facts file or a paste are absent: nothing to read them from."""


class ProcessFacts(Section):
    """The running process ``--pid`` names: what it really loaded and uses (absent without ``--pid``).

    With ``--pid`` every other section is gathered as that process sees the machine: ``env`` is its
    environment, ``python`` its interpreter (see :mod:`rocm_doctor.system.process_view`).
    """

    pid: Fact[int] = _no_pid()
    command: Fact[List[str]] = _no_pid()
    user: Fact[str] = _no_pid()
    executable: Fact[str] = _no_pid()
    age_seconds: Fact[float] = _no_pid()
    """Seconds since it started."""
    parents: Fact[List[str]] = _no_pid()
    """``name (pid)`` of its parent, grandparent, ...: the launcher chain."""
    libraries: Fact[List[str]] = _no_pid()
    """Paths of the ROCm, CUDA and torch libraries it loaded (``/proc/<pid>/maps``; modules on Windows)."""
    runtime_installs: Fact[List[str]] = _no_pid()
    """The installs its HIP and HSA runtimes come from (two or more: two runtimes in one process)."""
    torch_flavour: Fact[str] = _no_pid()
    """``rocm``, ``cuda`` or ``cpu``: the torch build it loaded (``libtorch_hip`` / ``libtorch_cuda``); absent: no torch."""
    torch_version: Fact[str] = _no_pid()
    """From the loaded package's ``torch-*.dist-info/METADATA``."""
    torch_location: Fact[str] = _no_pid()
    gpu_context: Fact[bool] = _no_pid()
    """It holds a KFD compute context with memory or queues in it (``/sys/class/kfd/kfd/proc/<pid>/``)."""
    gpu_nodes: Fact[List[int]] = _no_pid()
    """KFD topology nodes of its compute contexts (``gpus.agents[].kfd_node``)."""
    vram_bytes: Fact[int] = _no_pid()
    launcher_vars: Fact[Dict[str, str]] = _no_pid()
    """Relevant variables (``env.vars``' kind) it has that the shell rocm-doctor was started from has
    not, or has with another value; absent when there are none."""


class BenchFacts(Section):
    """Results of ``rocm-doctor bench`` (filled only when a benchmark ran)."""

    level: Fact[str] = _fact()
    device: Fact[str] = _fact()
    tests: Fact[Dict[str, Dict[str, Any]]] = _fact()
    """Test name -> result (``status``, ``step``, metrics)."""
    device_name: Fact[str] = _fact()
    """Name of the benchmarked device as torch reports it (``cpu`` on the CPU device)."""
    gfx: Fact[str] = _fact()
    """gfx target of the benchmarked device (``gcnArchName`` without feature flags)."""
    results: Fact[Dict[str, Any]] = _fact()
    """Flat view of ``tests`` for rules: ``<test>.<key>`` -> scalar, read as
    ``bench.results.copy_integrity.status``, ``bench.results.gemm.bf16_tflops_fraction``."""


class SymptomFacts(Section):
    """Error signatures seen in a pasted log (``check --from``)."""

    signatures: Fact[List[str]] = _fact()
    """Signature ids such as ``hip_invalid_device_function``."""
    context: Fact[List[str]] = _fact()
    """What the report speaks of that is not an error (``rocm_stack_mentioned``: it is about ROCm)."""
    error_gfx: Fact[List[str]] = _fact()
    """gfx targets that error messages name as the device they ran on (rocBLAS's "for GPU arch :
    gfx1036", hipBLASLt's "No paths matched ... gfx1036"): the GPU the failing program used."""
    support_gpus: Fact[List[str]] = _fact()
    """The GPUs a sentence asking a program to support a GPU, or saying it lacks or dropped one, names
    (gpu_support_requested_told, gpu_support_lacking_told), each as the gfx target (``gfx1031``), target family
    (``gfx110x``) or architecture family (``rdna2``, ``gcn5``) it stands for; ``?name`` for a name the GPU table
    cannot read. What the sentence is about, which need not be this machine's GPU."""
    wheel_indexes: Fact[List[str]] = _fact()
    """The download.pytorch.org ROCm wheel indexes the report names (``rocm5.2``, ``nightly/rocm5.5``,
    ``test/rocm6.2``): each names the ROCm release its wheels were built with, where the report may
    never print torch's own version."""
    build_targets: Fact[List[str]] = _fact()
    """The gfx target lists a build in the report was configured with (``-DAMDGPU_TARGETS=``,
    ``GPU_TARGETS=``, ``PYTORCH_ROCM_ARCH=``), one ``;``-joined string per list named."""
    ollama_versions: Fact[List[str]] = _fact()
    therock_families: Fact[List[str]] = _fact()
    """The TheRock GPU families a report installs wheels for (the per-family index ``.../v2/gfx110X-all/``,
    the package ``rocm-sdk-libraries-gfx110X-all``): each family's build holds its targets only."""
    """The ollama releases the report shows running (``ollama version is 0.12.5``, the image tag
    ``ollama/ollama:0.12.5-rocm``, the server's ``(version 0.5.4)``, the issue form's "Ollama version"):
    ollama ships its own ROCm build, whose gfx targets change between releases."""
    resolutions: Fact[List[str]] = _fact()
    """What the reporter says made the problem go away or turned out to be its cause ("setting
    HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it"), as ``<row id>: <the sentence>``, the row being the change's
    in rules/data/resolution_statements.yaml."""
    loader_libraries: Fact[List[str]] = _fact()
    """ROCm libraries a loader line could not find and what the report shows of the same files
    (rocm_doctor/ingest/formats/loader_libraries.py): ``missing:<soname>``, ``present:<file>`` (a listing or a
    sentence shows it there), ``off-path:<file>`` (installed in a folder the loader does not search),
    ``path-fixed`` (putting a folder on the loader's path made the program start)."""
    earlier: Fact[List[str]] = _fact()
    """What a pasted report shows of an earlier state it introduces as such ("Last working
    environment:", "before the update", "on my other machine"), as ``path=value``: evidence of what
    changed, never the machine as it is now."""
    earlier_errors: Fact[List[str]] = _fact()
    """Error signature ids read in a block a pasted report introduces as an earlier state of its own
    ("Old version used ... resulting in pytest failing with:", "Before the update it failed with:"): what
    failed then, the reason a change was made, never an error of the machine as it is now (those are
    ``signatures``). Another machine's errors are not kept."""


class Crash(BaseModel):
    """A gatherer, derived fact, rule or the remedy chooser that raised: a result, not a silence."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    what: str
    """``gatherer gpus``, ``derived fact gpu.in_wheel``, ``rule RD201``, ``remedy chooser``."""
    reason: str
    log: Optional[str] = None
    """Path of the crash log with the traceback."""


class MetaFacts(Section):
    """Where this snapshot came from."""

    tool_version: str = ""
    origin: str = "live"
    """``live``, ``recorded``, ``facts-file``, ``paste`` (read from a pasted report) or ``report`` (the facts
    inside a pasted ``rocm-doctor report``: a complete snapshot, judged like the machine itself)."""
    origin_detail: Optional[str] = None
    gathered_at: Optional[str] = None
    duration_seconds: Optional[float] = None
    crashes: List[Crash] = Field(default_factory=list)
    """Gatherers that raised (their sections are failed facts naming the crash)."""


class Facts(Section):
    """Everything rocm-doctor knows about one machine."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    schema_: Literal["rocm-doctor/facts/1"] = Field(default=FACTS_SCHEMA, alias="schema")
    meta: MetaFacts = Field(default_factory=MetaFacts)
    host: HostFacts = Field(default_factory=HostFacts)
    python: PythonFacts = Field(default_factory=PythonFacts)
    cpu: CpuFacts = Field(default_factory=CpuFacts)
    gpus: GpuFacts = Field(default_factory=GpuFacts)
    driver: DriverFacts = Field(default_factory=DriverFacts)
    rocm: RocmFacts = Field(default_factory=RocmFacts)
    windows: WindowsHipFacts = Field(default_factory=WindowsHipFacts)
    torch: TorchFacts = Field(default_factory=TorchFacts)
    packages: PackagesFacts = Field(default_factory=PackagesFacts)
    env: EnvFacts = Field(default_factory=EnvFacts)
    permissions: PermissionsFacts = Field(default_factory=PermissionsFacts)
    bench: BenchFacts = Field(default_factory=BenchFacts)
    process: ProcessFacts = Field(default_factory=ProcessFacts)
    symptoms: SymptomFacts = Field(default_factory=SymptomFacts)

    @model_validator(mode="before")
    @classmethod
    def _legacy_schema_version(cls, data: Any) -> Any:
        """A facts file from before the ``schema`` key: ``schema_version`` 1 (top level and ``meta``) is this schema."""
        if not isinstance(data, dict) or ("schema_version" not in data and "schema_version" not in (data.get("meta") or {})):
            return data
        data = dict(data)
        if data.pop("schema_version", LEGACY_SCHEMA_VERSION) != LEGACY_SCHEMA_VERSION:
            raise ValueError(f"schema_version is not {LEGACY_SCHEMA_VERSION}")
        data.setdefault("schema", FACTS_SCHEMA)
        if isinstance(data.get("meta"), dict) and "schema_version" in data["meta"]:
            data["meta"] = {k: v for k, v in data["meta"].items() if k != "schema_version"}
        return data

    @model_serializer(mode="wrap")
    def _schema_first(self, handler: Any):  # type: ignore[no-untyped-def]
        """``schema`` (not the attribute's name ``schema_``) leads the document, whatever dumps it.

        No return annotation: pydantic then describes the output with the model's own JSON Schema."""
        data = handler(self)
        if isinstance(data, dict) and "schema_" in data:
            data = {"schema": data.pop("schema_"), **data}
        return data

    def to_json(self, indent: Optional[int] = 2) -> str:
        """Serialise to JSON (the format ``facts --json`` prints and ``--facts`` reads)."""
        return self.model_dump_json(indent=indent)

    @classmethod
    def from_json(cls, text: str) -> "Facts":
        """Parse JSON written by :meth:`to_json`; raises :class:`FactsFileError`."""
        try:
            data = bounded_json.loads(text)
        except json.JSONDecodeError as exc:
            raise FactsFileError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
        except bounded_json.JsonLimitError as exc:
            raise FactsFileError(str(exc)) from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> "Facts":
        """Validate a dict (e.g. a facts overlay merged on a baseline)."""
        if not isinstance(data, dict):
            raise FactsFileError("facts must be a JSON object")
        version = data.get("schema_version", LEGACY_SCHEMA_VERSION)
        schema = data.get("schema", FACTS_SCHEMA)
        if version != LEGACY_SCHEMA_VERSION or schema != FACTS_SCHEMA:
            found = f"schema {schema!r}" if schema != FACTS_SCHEMA else f"schema_version {version!r}"
            raise FactsFileError(f"facts {found} is not supported (this rocm-doctor reads {FACTS_SCHEMA})")
        too_big = raw_over_limit(data)  # before validating, the costly step
        if too_big is not None:
            raise FactsFileError(too_big)
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise FactsFileError(f"invalid facts at {where}: {first['msg']}") from None


def over_limit(facts: Facts) -> Optional[str]:
    """What in ``facts`` is over ``facts.max_gpus``, ``facts.max_entries`` or ``facts.max_text``; None when nothing is.

    Judging and rendering cost grows with these sizes; any source (a facts file, a recorded
    machine, a paste, a live machine) is held to them before the rules run.
    """
    if len(facts.gpus.agents) > FACTS_GPUS.value:
        return f"{len(facts.gpus.agents):,} GPU agents (limit {FACTS_GPUS})"
    sections: List[Tuple[str, BaseModel]] = [(f"gpus.agents[{agent.index}]", agent) for agent in facts.gpus.agents]
    sections.append(("", facts))
    while sections:
        where, section = sections.pop()
        for name in type(section).model_fields:
            value = getattr(section, name)
            if isinstance(value, Section):
                sections.append((f"{where}.{name}".lstrip("."), value))
            elif isinstance(value, Fact):
                problem = _value_over_limit(value.value) or _value_over_limit(value.reason) or _value_over_limit(value.source)
                if problem is not None:
                    return f"{where}.{name}: {problem}"
    return None


def raw_over_limit(data: Any) -> Optional[str]:
    """:func:`over_limit` for facts still in their JSON form (a check document's, or before validating).

    Validating is the costly step (40,000 GPU agents take seconds and a gigabyte), so a
    document read from a file is held to the same limits before it. Every object with a
    ``status`` is taken for a fact and its ``value``, ``reason`` and ``source`` are checked.
    """
    if not isinstance(data, dict):
        return None
    gpus = data.get("gpus")
    agents = gpus.get("agents") if isinstance(gpus, dict) else None
    if isinstance(agents, list) and len(agents) > FACTS_GPUS.value:
        return f"{len(agents):,} GPU agents (limit {FACTS_GPUS})"
    items: List[Tuple[str, Any]] = [("", data)]
    while items:
        where, item = items.pop()
        children = item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else ()
        if isinstance(item, dict) and "status" in item:
            for key in ("value", "reason", "source"):
                problem = _value_over_limit(item.get(key))
                if problem is not None:
                    return f"{where}: {problem}"
            continue
        items.extend((f"{where}[{key}]" if isinstance(key, int) else f"{where}.{key}".lstrip("."), child)
                     for key, child in children if isinstance(child, (dict, list)))
    return None


def scan_limits(document: Any, facts: Any) -> Tuple[bool, bool]:
    """(``document`` nests deeper than ``json.max_depth``, ``facts`` is over a facts limit), in one walk.

    ``facts`` is the facts part of ``document`` (the document itself, an object directly inside it, or
    None). The same verdicts as :func:`rocm_doctor.bounded_json.depth` and :func:`raw_over_limit`, but
    each container is visited once, level by level, with no path built: a reader of many files
    (``fleet``) walks each file once and asks those two for the exact message only when one is over.
    """
    facts_bad = False
    if not isinstance(facts, dict):
        facts = None  # raw_over_limit holds only an object to the facts limits
    else:
        gpus = facts.get("gpus")
        agents = gpus.get("agents") if isinstance(gpus, dict) else None
        facts_bad = isinstance(agents, list) and len(agents) > FACTS_GPUS.value
    containers = (dict, list)
    text_limit, entries_limit = FACTS_TEXT.value, FACTS_ENTRIES.value
    if type(document) not in containers:
        return False, facts_bad
    plain: List[Any] = [] if document is facts else [document]
    checked: List[Any] = [document] if document is facts and not facts_bad else []
    if not plain and not checked:
        plain = [document]
    level = 1
    while plain or checked:
        if level > JSON_DEPTH.value:
            return True, facts_bad
        next_plain = [
            c for item in plain for c in (item.values() if type(item) is dict else item) if type(c) in containers
        ]
        next_checked: List[Any] = []
        for item in checked:
            is_fact = type(item) is dict and "status" in item
            if is_fact and not facts_bad:
                for key in ("value", "reason", "source"):  # _value_over_limit, inlined: this runs for every fact
                    value = item.get(key)
                    kind = type(value)
                    if (kind is str and len(value) > text_limit) or (kind in containers and len(value) > entries_limit):
                        facts_bad = True
                        break
            target = next_plain if is_fact or facts_bad else next_checked
            for child in item.values() if type(item) is dict else item:
                if type(child) in containers:
                    target.append(child)
        if level == 1 and facts is not None and facts is not document and type(document) is dict:
            for position, child in enumerate(next_plain):
                if child is facts and not facts_bad:
                    next_checked.append(next_plain.pop(position))
                    break
        plain, checked = next_plain, next_checked
        level += 1
    return False, facts_bad


def _value_over_limit(value: Any) -> Optional[str]:
    if isinstance(value, str) and len(value) > FACTS_TEXT.value:
        return f"{len(value):,} characters (limit {FACTS_TEXT})"
    if isinstance(value, (list, dict)) and len(value) > FACTS_ENTRIES.value:
        return f"{len(value):,} entries (limit {FACTS_ENTRIES})"
    return None


class FactsFileError(ValueError):
    """A facts document that cannot be read, with a one-line reason."""
