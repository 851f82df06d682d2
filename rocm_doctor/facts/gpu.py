"""GPU discovery in layers: amdsmi -> KFD topology -> rocminfo -> PCI -> Windows WMI.

Every layer that applies to the machine runs and leaves a
:class:`DiscoveryAttempt`; ``discovery`` names the first layer (in that order)
that found a GPU, and its agents are the base list. Later layers enrich those
agents (matched by PCI address, then KFD node, then device id) without
overwriting what an earlier layer knew, and add GPUs the earlier layers did not
see (an NVIDIA card found only by PCI, an AMD GPU that KFD skipped).
Finally the GPU table (``rules/data/gpus.yaml``) fills in gfx, product and
integrated for AMD device ids. An AMD GPU without ROCm is still reported: the
KFD topology comes with the kernel driver, and PCI plus the table name it when
even that is missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from rocm_doctor.knowledge import gpu_table
from rocm_doctor.facts.common import os_kind, read_file
from rocm_doctor.facts.context import GatherContext
from rocm_doctor.facts.gpu_amdsmi import read_amdsmi, records_to_dicts
from rocm_doctor.facts.model import DiscoveryAttempt, GpuAgent, GpuFacts
from rocm_doctor.facts.parsers import kfd as kfd_parser
from rocm_doctor.facts.parsers.rocminfo import parse_rocminfo
from rocm_doctor.facts.parsers.wmi import WmiParseError, parse_video_controllers
from rocm_doctor.facts.value import Fact, absent, failed, known
from rocm_doctor.numbers import is_index
from rocm_doctor.system.base import System

KFD_NODES = "/sys/class/kfd/kfd/topology/nodes"
PCI_DEVICES = "/sys/bus/pci/devices"
DISPLAY_CLASS_PREFIX = "0x03"
"""PCI base class 0x03: display controllers (VGA 0x0300, 3D 0x0302, other 0x0380)."""
INTEGRATED_VRAM_LIMIT = 1 << 30
"""A KFD node with at most this much frame buffer is an APU carve-out; no discrete GPU that ROCm drives has so little."""
WMI_QUERY = (
    "Get-CimInstance Win32_VideoController | "
    "Select-Object Name,PNPDeviceID,DriverVersion,AdapterRAM | ConvertTo-Json"
)
WMI_COMMAND = ["powershell", "-NoProfile", "-NonInteractive", "-Command", WMI_QUERY]
WMI_SOURCE = "powershell Win32_VideoController"
OVERRIDE_PREFIX = "HSA_OVERRIDE_GFX_VERSION"
LAYERS = ("amdsmi", "kfd", "rocminfo", "pci", "wmi")


@dataclass
class Draft:
    """An agent under construction: field name -> fact; only unknown fields get filled."""

    layer: str
    facts: Dict[str, Fact[Any]] = field(default_factory=dict)

    def put(self, name: str, value: Any, source: str) -> None:
        if value is None:
            return
        current = self.facts.get(name)
        if current is None or not current.is_known:
            self.facts[name] = known(value, source)

    def value(self, name: str) -> Any:
        fact = self.facts.get(name)
        return fact.value if fact is not None and fact.is_known else None

    def absorb(self, other: "Draft") -> None:
        for name, fact in other.facts.items():
            if fact.is_known:
                self.put(name, fact.value, fact.source or other.layer)


@dataclass
class LayerResult:
    attempt: DiscoveryAttempt
    drafts: List[Draft] = field(default_factory=list)


def _attempt(layer: str, status: str, detail: Optional[str] = None, drafts: Optional[List[Draft]] = None) -> LayerResult:
    drafts = drafts or []
    if status == "answered" and not drafts:
        status = "empty"
    return LayerResult(DiscoveryAttempt(layer=layer, status=status, detail=detail, count=len(drafts)), drafts)


def _hex_id(value: Optional[int]) -> Optional[str]:
    return gpu_table.normalize_device_id(value) if value is not None else None


def _put_vendor(draft: Draft, vendor_id: Optional[str], source: str) -> None:
    if vendor_id is None:
        return
    draft.put("vendor_id", vendor_id, source)
    draft.put("vendor", gpu_table.vendor_name(vendor_id), source)


# -- amdsmi ----------------------------------------------------------------------
def _amdsmi_layer(ctx: GatherContext) -> LayerResult:
    from rocm_doctor.system.live import LiveSystem

    if not ctx.options.use_amdsmi:
        return _attempt("amdsmi", "skipped", "turned off")
    if not isinstance(ctx.system, LiveSystem):
        return _attempt("amdsmi", "skipped", "not a live machine (the bindings can only ask this machine)")
    records, status, detail = read_amdsmi()
    return _attempt("amdsmi", status, detail, drafts_from_amdsmi(records or []))


def drafts_from_amdsmi(records: List[Dict[str, Any]]) -> List[Draft]:
    """Map amdsmi records (as :func:`read_amdsmi` returns them) to drafts."""
    drafts = []
    for values in records_to_dicts(records):
        draft = Draft("amdsmi")
        _put_vendor(draft, _hex_id(values["vendor_id"]) or gpu_table.AMD_VENDOR_ID, "amdsmi")
        draft.put("device_id", _hex_id(values["device_id"]), "amdsmi")
        for name in ("name", "compute_units", "pci_bus", "vram_bytes", "kfd_node"):
            draft.put(name, values[name], "amdsmi")
        if values["gfx"]:
            gfx = gpu_table.base_gfx(values["gfx"])
            draft.put("gfx", gfx, "amdsmi")
            draft.put("gfx_target_version", gpu_table.target_version_from_gfx(gfx), "amdsmi")
        drafts.append(draft)
    return drafts


# -- KFD topology ----------------------------------------------------------------
def _read(system: System, path: str) -> Tuple[Optional[str], Optional[str]]:
    """(text, None) or (None, problem); a missing file is (None, None)."""
    result = read_file(system, path)
    if result.text is not None:
        return result.text, None
    problem = result.problem
    return None, (problem.reason if problem is not None and problem.status == "failed" else None)


def _list(system: System, path: str) -> Tuple[Optional[List[str]], Optional[str]]:
    try:
        return system.list_dir(path), None
    except FileNotFoundError:
        return None, None
    except PermissionError:
        return None, f"permission denied listing {path}"
    except OSError as exc:
        return None, f"cannot list {path}: {exc.strerror or exc}"


def _kfd_banks(system: System, node_dir: str) -> List[Dict[str, int]]:
    names, _ = _list(system, f"{node_dir}/mem_banks")
    banks = []
    for name in names or []:
        text, _ = _read(system, f"{node_dir}/mem_banks/{name}/properties")
        if text is not None:
            banks.append(kfd_parser.parse_properties(text))
    return banks


def _layer_root(system: System, layer: str, path: str, why_absent: str) -> Tuple[List[str], Optional[LayerResult]]:
    """List a layer's sysfs directory: (names, None), or ([], the failed/absent attempt)."""
    names, problem = _list(system, path)
    if problem:
        return [], _attempt(layer, "failed", problem)
    if names is None:
        return [], _attempt(layer, "absent", f"{path} does not exist{why_absent}")
    return names, None


def _kfd_layer(ctx: GatherContext) -> LayerResult:
    system = ctx.system
    names, stop = _layer_root(system, "kfd", KFD_NODES, " (amdgpu not loaded, or no KFD in this container)")
    if stop is not None:
        return stop
    drafts: List[Draft] = []
    problems: List[str] = []
    for name in sorted((n for n in names if is_index(n)), key=int):
        node_dir = f"{KFD_NODES}/{name}"
        path = f"{node_dir}/properties"
        text, problem = _read(system, path)
        if text is None:
            problems.append(problem or f"{path} does not exist")
            continue
        props = kfd_parser.parse_properties(text)
        gpu_id_text, _ = _read(system, f"{node_dir}/gpu_id")
        gpu_id = kfd_parser.parse_int_file(gpu_id_text) if gpu_id_text is not None else None
        if not kfd_parser.is_gpu_node(props, gpu_id):
            continue
        drafts.append(_kfd_draft(int(name), props, _kfd_banks(system, node_dir), path))
    detail = "; ".join(problems) if problems else None
    if not drafts and problems:
        return _attempt("kfd", "failed", detail)
    return _attempt("kfd", "answered", detail, drafts)


def _kfd_draft(node: int, props: Mapping[str, int], banks: List[Dict[str, int]], source: str) -> Draft:
    draft = Draft("kfd")
    draft.put("kfd_node", node, source)
    _put_vendor(draft, _hex_id(props.get("vendor_id")), source)
    draft.put("device_id", _hex_id(props.get("device_id")), source)
    draft.put("pci_bus", kfd_parser.pci_address(props), source)
    version = props.get("gfx_target_version")
    if version:
        draft.put("gfx_target_version", version, source)
        draft.put("gfx", gpu_table.gfx_from_target_version(version), source)
    draft.put("compute_units", kfd_parser.compute_units(props), source)
    minor = props.get("drm_render_minor")
    if minor:
        draft.put("render_node", f"/dev/dri/renderD{minor}", source)
    vram = kfd_parser.vram_bytes(banks)
    if vram is not None:
        draft.put("vram_bytes", vram, source.rsplit("/", 1)[0] + "/mem_banks")
    return draft


# -- rocminfo ---------------------------------------------------------------------
def _rocm_tool(ctx: GatherContext, name: str) -> Optional[str]:
    """A ROCm tool's path: from the rocm section when gathered, else PATH, else /opt/rocm/bin."""
    rocm = ctx.sections.get("rocm")
    tools = getattr(rocm, "tools", None)
    fact = getattr(tools, name.replace("-", "_"), None)
    if isinstance(fact, Fact) and fact.is_known:
        return str(fact.value)
    found = ctx.system.which(name)
    if found:
        return found
    fallback = f"/opt/rocm/bin/{name}"
    return fallback if ctx.system.exists(fallback) else None


def without_overrides(env: Mapping[str, str]) -> Dict[str, str]:
    """The environment minus ``HSA_OVERRIDE_GFX_VERSION[_N]``, so rocminfo names the native gfx.

    libhsakmt reports the override as the agent's ISA (https://github.com/ROCm/ROCR-Runtime/blob/c7785a6da1c10c25bc8d527c00b1fe79bfbd84c9/libhsakmt/src/topology.c#L1218-L1231), which would
    hide the GPU's real target from the doctor.
    """
    return {k: v for k, v in env.items() if not k.startswith(OVERRIDE_PREFIX)}


def _rocminfo_layer(ctx: GatherContext) -> LayerResult:
    tool = _rocm_tool(ctx, "rocminfo")
    if tool is None:
        return _attempt("rocminfo", "absent", "rocminfo is not installed")
    result = ctx.system.run(
        [tool], timeout=ctx.options.command_timeout, env=without_overrides(ctx.system.environ())
    )
    if result.missing:
        return _attempt("rocminfo", "absent", result.failure_reason())
    if not result.ok:
        return _attempt("rocminfo", "failed", result.failure_reason())
    report = parse_rocminfo(result.stdout)
    if not report.hsa_agents_seen and not report.agents:
        return _attempt("rocminfo", "failed", "rocminfo printed no HSA agents (unrecognised output)")
    detail = None if report.complete else "output ended before '*** Done ***'"
    drafts = [_rocminfo_draft(agent) for agent in report.gpus]
    return _attempt("rocminfo", "answered", detail, drafts)


def _rocminfo_draft(agent: Any) -> Draft:
    source = "rocminfo"
    draft = Draft("rocminfo")
    draft.put("name", agent.get("Marketing Name"), source)
    if (agent.get("Vendor Name") or "").upper() == "AMD":
        _put_vendor(draft, gpu_table.AMD_VENDOR_ID, source)
    gfx = gpu_table.base_gfx(agent.name or "")
    if gpu_table.split_gfx(gfx) is not None:
        draft.put("gfx", gfx, source)
        draft.put("gfx_target_version", gpu_table.target_version_from_gfx(gfx), source)
    draft.put("device_id", _hex_id(agent.get_int("Chip ID") or None), source)
    bdfid = agent.get_int("BDFID")
    if bdfid:
        draft.put("pci_bus", kfd_parser.pci_address({"location_id": bdfid}), source)
    draft.put("kfd_node", agent.get_int("Node"), source)
    draft.put("compute_units", agent.get_int("Compute Unit"), source)
    if agent.vram_kb is not None and not agent.is_apu:
        draft.put("vram_bytes", agent.vram_kb * 1024, source)
    if agent.is_apu:
        draft.put("integrated", True, source)
    return draft


# -- PCI ----------------------------------------------------------------------------
def _pci_layer(ctx: GatherContext) -> LayerResult:
    system = ctx.system
    names, stop = _layer_root(system, "pci", PCI_DEVICES, "")
    if stop is not None:
        return stop
    drafts: List[Draft] = []
    ignored: List[str] = []
    for address in names:
        base = f"{PCI_DEVICES}/{address}"
        klass, _ = _read(system, f"{base}/class")
        if klass is None or not klass.strip().lower().startswith(DISPLAY_CLASS_PREFIX):
            continue
        vendor_text, _ = _read(system, f"{base}/vendor")
        device_text, _ = _read(system, f"{base}/device")
        vendor_id = gpu_table.normalize_device_id((vendor_text or "").strip()) if vendor_text else None
        if vendor_id is None or gpu_table.vendor_name(vendor_id) is None:
            ignored.append(f"{address} (vendor {vendor_id or 'unknown'})")
            continue
        source = f"{base}/device"
        draft = Draft("pci")
        _put_vendor(draft, vendor_id, f"{base}/vendor")
        draft.put("device_id", gpu_table.normalize_device_id((device_text or "").strip()) if device_text else None, source)
        draft.put("pci_bus", address, base)
        draft.put("render_node", _pci_render_node(system, base), f"{base}/drm")
        drafts.append(draft)
    detail = f"ignored display devices that are not GPUs: {', '.join(ignored)}" if ignored else None
    return _attempt("pci", "answered", detail, drafts)


def _pci_render_node(system: System, base: str) -> Optional[str]:
    names, _ = _list(system, f"{base}/drm")
    renders = sorted(n for n in names or [] if n.startswith("renderD"))
    return f"/dev/dri/{renders[0]}" if renders else None


# -- Windows WMI ------------------------------------------------------------------------
def _wmi_layer(ctx: GatherContext) -> LayerResult:
    result = ctx.system.run(WMI_COMMAND, timeout=ctx.options.command_timeout)
    if result.missing:
        return _attempt("wmi", "absent", result.failure_reason())
    if not result.ok:
        return _attempt("wmi", "failed", result.failure_reason())
    try:
        adapters = parse_video_controllers(result.stdout)
    except WmiParseError as exc:
        return _attempt("wmi", "failed", f"cannot parse PowerShell output: {exc}")
    drafts: List[Draft] = []
    ignored: List[str] = []
    for adapter in adapters:
        if adapter.vendor_id is None or gpu_table.vendor_name(adapter.vendor_id) is None:
            ignored.append(adapter.name or adapter.pnp_device_id or "unnamed adapter")
            continue
        draft = Draft("wmi")
        _put_vendor(draft, adapter.vendor_id, WMI_SOURCE)
        draft.put("device_id", adapter.device_id, WMI_SOURCE)
        draft.put("name", adapter.name, WMI_SOURCE)
        draft.put("driver_version", adapter.driver_version, WMI_SOURCE)
        drafts.append(draft)
    detail = f"ignored adapters that are not GPUs: {', '.join(ignored)}" if ignored else None
    return _attempt("wmi", "answered", detail, drafts)


# -- assembling -------------------------------------------------------------------------
def _layer_plan(ctx: GatherContext) -> List[Tuple[str, Optional[Callable[[GatherContext], LayerResult]], str]]:
    kind = os_kind(ctx.system)
    linux = kind == "linux"
    windows = kind == "windows"
    return [
        ("amdsmi", _amdsmi_layer if linux else None, "Linux only"),
        ("kfd", _kfd_layer if linux else None, "Linux only"),
        ("rocminfo", _rocminfo_layer if linux else None, "Linux only"),
        ("pci", _pci_layer if linux else None, "Linux only"),
        ("wmi", _wmi_layer if windows else None, "Windows only"),
    ]


def _bus_key(address: Any) -> Optional[str]:
    """``0000:03:00.0`` -> ``03:00.0`` (rocminfo's BDFID has no PCI domain)."""
    return str(address)[-7:].lower() if address else None


def _match(agents: List[Draft], draft: Draft, taken: List[int]) -> Optional[int]:
    checks: List[Tuple[str, Callable[[Any], Any]]] = [("pci_bus", _bus_key), ("kfd_node", lambda v: v)]
    for name, key in checks:
        wanted = key(draft.value(name))
        if wanted is None:
            continue
        for index, agent in enumerate(agents):
            if index not in taken and key(agent.value(name)) == wanted:
                return index
    device = draft.value("device_id")
    if device is not None:
        for index, agent in enumerate(agents):
            if index not in taken and agent.value("device_id") == device and agent.value("pci_bus") is None:
                return index
        for index, agent in enumerate(agents):
            if index not in taken and agent.value("device_id") == device and draft.value("pci_bus") is None:
                return index
    return None


def merge_layers(results: List[LayerResult]) -> List[Draft]:
    """Join the drafts of every layer into one list of agents (see the module docstring)."""
    agents: List[Draft] = []
    for result in results:
        taken: List[int] = []
        for draft in result.drafts:
            index = _match(agents, draft, taken)
            if index is None:
                agents.append(draft)
                taken.append(len(agents) - 1)
            else:
                agents[index].absorb(draft)
                taken.append(index)
    return agents


def _enrich_from_table(draft: Draft) -> None:
    if draft.value("vendor_id") != gpu_table.AMD_VENDOR_ID or draft.value("device_id") is None:
        return
    model = gpu_table.lookup_pci(draft.value("device_id"))
    if model is None:
        return
    source = gpu_table.table_source()
    draft.put("product", model.product, source)
    draft.put("integrated", model.integrated, source)
    if model.verified:
        draft.put("gfx", model.gfx, source)
        draft.put("gfx_target_version", gpu_table.target_version_from_gfx(model.gfx), source)


def _finish(index: int, draft: Draft) -> GpuAgent:
    _enrich_from_table(draft)
    vram = draft.value("vram_bytes")
    if draft.value("integrated") is None and vram is not None and vram <= INTEGRATED_VRAM_LIMIT:
        vram_source = draft.facts["vram_bytes"].source or draft.layer
        draft.put("integrated", True, f"{vram_source} (frame buffer <= 1 GiB: an APU carve-out)")
    facts: Dict[str, Fact[Any]] = dict(draft.facts)
    if "name" not in facts:
        facts["name"] = absent(draft.layer, "no layer that reports marketing names (amdsmi, rocminfo, WMI) answered")
    return GpuAgent(index=index, source=draft.layer, **facts)


def gather_gpus(ctx: GatherContext) -> GpuFacts:
    """Run every discovery layer that applies and assemble the GPU list."""
    results: List[LayerResult] = []
    for layer, probe, why in _layer_plan(ctx):
        results.append(probe(ctx) if probe is not None else _attempt(layer, "skipped", why))
    agents = [_finish(i, draft) for i, draft in enumerate(merge_layers(results))]
    attempts = [result.attempt for result in results]
    answered = next((a for a in attempts if a.count > 0), None)
    if answered is not None:
        discovery: Fact[str] = known(answered.layer, f"gpu discovery layer '{answered.layer}'")
    else:
        tried = [a for a in attempts if a.status != "skipped"]
        summary = "; ".join(f"{a.layer}: {a.status}{' (' + a.detail + ')' if a.detail else ''}" for a in tried)
        if any(a.status == "failed" for a in tried):
            discovery = failed("gpu discovery", f"no GPU found and some layers failed: {summary}")
        else:
            discovery = absent("gpu discovery", f"no GPU found ({summary or 'no layer applies to this OS'})")
    return GpuFacts(discovery=discovery, attempts=attempts, agents=agents)
