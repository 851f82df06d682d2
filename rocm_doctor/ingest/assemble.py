"""Weigh the partial facts of every recognised piece and build one Facts snapshot.

* A fact given by several pieces takes the value of the most trusted kind of text
  (machine output over a template field over a hint from an error message); two
  different values at the same trust make the fact unknown, naming both lines.
* ``symptoms.signatures`` is the union of every piece; ``packages.installed`` merges.
* GPUs: the most authoritative listing (rocminfo, amd-smi, rocm-smi, a HIP-level
  listing, torch, lspci, then labelled fields and error messages) gives the agents;
  other listings only fill fields an agent lacks, when they clearly name the same GPU.
* A rocm-doctor facts document in the paste is the base: the pieces only fill
  facts it left unknown. Inside a rocm-doctor report it is used alone, so that
  ``check --from report.md`` reproduces the findings exactly.
* Every fact the paste does not give stays unknown, with that reason.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from typing import Any, Dict, List, Optional, Tuple

from pydantic import ValidationError

from rocm_doctor import __version__
from rocm_doctor.facts.model import EnvFacts, Facts, Section
from rocm_doctor.facts.value import Fact
from rocm_doctor.ingest.formats.common import COUNT_FIELD, TABLE_FIELDS
from rocm_doctor.knowledge.cpus import cpu_family
from rocm_doctor.knowledge.gpu_table import name_key
from rocm_doctor.knowledge.rocm_releases import not_a_rocm_release
from rocm_doctor.ingest.blocks import Line
from rocm_doctor.lazy_regex import when_used
from rocm_doctor.ingest.model import TRUST_NAMES, TRUST_SIGNATURE, TRUST_TOOL, Absent, GpuSighting, Observation, Piece, SettingSighting

NOT_IN_PASTE = "not in the pasted report"
LAYER_ORDER = ("rocminfo", "amd-smi", "rocm-smi", "hip", "torch", "clinfo", "app", "pci", "windows", "report", "mention", "cpu")
PROSE_LAYERS = ("report", "mention", "cpu")
"""Listings read from what people wrote (labelled fields, mentions, a CPU's iGPU): deduplicated by model."""
DISCOVERY_NAMES = {"amd-smi": "amdsmi"}
MAX_GPUS = 256
"""GPU agents kept from one listing; a paste listing more is cut there (see docs/limits.md)."""
_MERGED_LISTS = {
    "symptoms.signatures", "symptoms.context", "symptoms.earlier", "symptoms.earlier_errors", "symptoms.error_gfx", "symptoms.support_gpus", "symptoms.wheel_indexes", "symptoms.build_targets",
    "symptoms.ollama_versions", "symptoms.resolutions", "symptoms.therock_families", "symptoms.loader_libraries",
    "windows.amdhip_dlls", "windows.hip_sdk_versions", "env.session_programs", "permissions.gpu_node_gids",
}
"""Facts that list what the report shows (every HIP SDK and amdhip64 DLL it names is installed): each
sighting adds to the list; two blocks naming different ones do not disagree."""
_MERGED_DICTS = {"packages.installed"}
_ENV_PATHS = ("env.vars", "env.coverage", "env.settings")
_EXACT_VERSIONS = ("torch.version", "torch.torchvision_version", "torch.torchaudio_version")
"""Versions a tool prints whole (pip, uv, collect_env, torch.__version__): there a missing local tag
(``2.3.1`` beside ``2.3.1+rocm6.0``) is part of the version (PEP 440 local version labels), so a
looser reading with a tag does not refine it; in prose it may be shorthand, and does."""
_BUILD_OF_TORCH = ("torch.flavour", "torch.rocm_version", "torch.cuda_version", "torch.distributor")
"""Facts read from a torch version string: they describe that version, and lose with it."""
_REACH_RANK = {True: 2, None: 1, False: 0}

_UNEXPANDED = when_used(r"\$[A-Za-z_{(]|`|%[A-Za-z_][A-Za-z0-9_]{0,127}%")
"""A value written as a shell, PowerShell or cmd expression (``$GFX``, ``${SLURM_LOCALID}``, ``$(cat f)``, a backtick
command, ``%HSA%``): what the program got is the expansion, which the report does not show. An environment
listing (``env``, an application's own print of its settings) shows values already expanded: a ``$`` there is
literal. Seen in real scripts and configs: ``set -x HIP_VISIBLE_DEVICES $device`` (fish, salman-farooq-sh/.files
.config/fish/conf.d/20-rocm-vars.fish), ``export ROCM_PATH=$PREFIX`` (luxteam/rocm_conda_recipes pytorch/build.sh),
``export ROCR_VISIBLE_DEVICES=$SLURM_LOCALID`` (interTwin-eu/itwinai#378, slurm.lumi.sh)."""
_EXPANDED_ORIGINS = ("env-listing", "app-config")


def _shown_unexpanded(setting: SettingSighting) -> bool:
    return setting.value is not None and setting.origin not in _EXPANDED_ORIGINS and bool(_UNEXPANDED.search(setting.value))


@dataclass(frozen=True)
class Conflict:
    """Two readings of one fact that disagree, and which one was kept (``facts --from`` shows both)."""

    path: str
    kept: str
    """``value (source, trust name)`` of the reading kept, or ``none`` when the fact became unknown."""
    others: Tuple[str, ...]


def _skeleton(model: type) -> Dict[str, Any]:
    """Every Fact field of a section as an unknown fact, nested like the model."""
    out: Dict[str, Any] = {}
    for name, info in model.model_fields.items():
        annotation = info.annotation
        if isinstance(annotation, type) and issubclass(annotation, Fact):
            out[name] = {"status": "unknown", "reason": NOT_IN_PASTE}
        elif isinstance(annotation, type) and issubclass(annotation, Section):
            out[name] = _skeleton(annotation)
    return out


def _slot(tree: Dict[str, Any], path: str) -> Tuple[Optional[Dict[str, Any]], str]:
    """The parent dict of a fact path and the last key; (None, key) when the path is not a fact."""
    parts = path.split(".")
    node: Any = tree
    for part in parts[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
        if node is None:
            return None, parts[-1]
    leaf = node.get(parts[-1]) if isinstance(node, dict) else None
    if not isinstance(leaf, dict) or "status" not in leaf:
        return None, parts[-1]
    return node, parts[-1]


def _decide(path: str, observations: List[Observation], conflicts: Optional[List[Conflict]] = None) -> Optional[Dict[str, Any]]:
    if path in _MERGED_LISTS:
        merged: List[Any] = []
        for obs in observations:
            merged += [v for v in (obs.value if isinstance(obs.value, list) else [obs.value]) if v not in merged]
        return {"status": "known", "value": merged, "source": observations[0].line.source}
    if path in _MERGED_DICTS:
        combined: Dict[str, Any] = {}
        for obs in observations:
            if isinstance(obs.value, dict):
                combined.update(obs.value)
        return {"status": "known", "value": combined, "source": observations[0].line.source}
    top = max(obs.trust for obs in observations)
    best = _most_specific([obs for obs in observations if obs.trust == top])
    looser = [o for o in observations if o.trust < top and _refines(o.value, best[0].value)]
    if path in _EXACT_VERSIONS and top >= TRUST_TOOL:
        looser = [o for o in looser if not _adds_local_label(o.value, best[0].value)]
    refined = _most_specific(best + looser)
    if len(best) == 1 and len(refined) == 1:
        best = refined  # "6.0" in a field and "/opt/rocm-6.0.1" in prose: the same ROCm, said more exactly
    values: List[Any] = [obs.value for obs in _distinct(best)]
    kept = {repr(v) for v in values}
    losers = [
        o for o in _distinct([o for o in observations if o.trust < top])
        if repr(o.value) not in kept and not _refines(values[0], o.value) and not _refines(o.value, values[0])
    ]
    if len(values) == 1:
        if losers and conflicts is not None:
            conflicts.append(Conflict(path, _reading(best[0]), tuple(_reading(o) for o in _distinct(losers)[:4])))
        if isinstance(values[0], Absent):
            return {"status": "absent", "source": best[0].line.source, "reason": values[0].reason}
        return {"status": "known", "value": values[0], "source": best[0].line.source}
    if conflicts is not None:
        conflicts.append(Conflict(path, "none", tuple(_reading(o) for o in _distinct(best + losers)[:6])))
    shown = "; ".join(f"{obs.value!r} ({obs.line.source})" for obs in _distinct(best)[:4])
    return {"status": "unknown", "reason": f"the report gives different values: {shown}"}


_NATIVE_WINDOWS_RUN = when_used(r"^\W{0,8}(?:Python platform:\s{0,3}Windows-|OS:\s{0,3}Microsoft Windows\b|Windows-1[01]-10\.0\.\d{5})")
"""What Python prints on Windows itself, never inside WSL: collect_env's ``OS: Microsoft Windows 11 Pro`` and
``Python platform: Windows-11-10.0.22631-SP0`` (``platform.platform()``); inside WSL the same tools print the Linux
guest ("OS: Ubuntu 22.04", "Linux-...-microsoft-standard-WSL2-x86_64")."""


def _wsl_host_is_not_the_os(grouped: Dict[str, List[Observation]]) -> Dict[str, List[Observation]]:
    """Without the ``windows`` readings of host.os when the report shows WSL 2 at least as trusted: WSL 2
    runs on a Windows host, so a report from it names both ("# Windows 10.0.22631 ... AMD Radeon RX 9070 XT"
    beside rocminfo's "WSL environment detected.", ROCm/legacy-rocm-build#4490; "Host: OS: Windows 11 25H2"
    beside a ``6.6.87.2-microsoft-standard-WSL2`` kernel, #5509; "Windows 10 Pro 22H2" beside a
    ``5.10.16.3-microsoft-standard-WSL2`` kernel and "WSL environment detected.", #6323). The ROCm stack
    runs in the Linux guest; the Windows release is its host's (learn52e). Within one block the mention reader
    already reads no Windows release once it has read WSL (``formats/mentions.py`` ``_platform``); this does the
    same across blocks.

    Only what WSL itself prints counts (rev52e): a tool's output (rocminfo's banner) or a WSL kernel release. A
    prose mention of WSL is often another setup beside the report's own ("It works fine in WSL2 though, only
    native Windows fails", "Have you tried WSL2?", "a friend in WSL2 has no problem"), and a labelled field can
    deny it ("WSL: not installed"): those leave two equal readings, so host.os stays unknown as before. A WSL
    kernel release outweighs a Windows field or mention, not a Windows tool's output; and a native Windows run
    (collect_env or ``platform.platform()`` printed on Windows itself) beside WSL output is a report of both attempts,
    so nothing is dropped."""
    readings = grouped.get("host.os") or []
    windows = [o for o in readings if o.value == "windows"]
    if not windows or not any(o.value == "linux" for o in readings):
        return grouped
    if any(o.trust >= TRUST_TOOL and _NATIVE_WINDOWS_RUN.search(o.line.text) for o in windows):
        # a program ran on Windows itself as well (a native attempt beside a WSL one): both are the report's (rev52e)
        return grouped
    windows_top = max(o.trust for o in windows)
    printed = [o for o in grouped.get("host.wsl_version") or [] if o.value == 2 and o.trust >= TRUST_TOOL]
    # a WSL kernel release is what WSL alone prints, however it was pasted: it outweighs a Windows field
    wsl_kernel = any("microsoft-standard-wsl" in str(o.value).lower() for o in grouped.get("host.kernel_release") or [])
    if not (printed and max(o.trust for o in printed) >= windows_top) and not (wsl_kernel and windows_top < TRUST_TOOL):
        return grouped
    out = dict(grouped)
    out["host.os"] = [o for o in readings if o.value != "windows"]
    return out


_NOT_A_ROCM_RELEASE = "the version given for ROCm is no ROCm release (likely the amdgpu kernel module's own version)"


def _rocm_releases(observations: List[Observation]) -> List[Observation]:
    """Without readings that cannot be a ROCm release: a "ROCm: 6.10.5" is the amdgpu kernel module's version
    (rocminfo's "ROCk module version 6.10.5 is loaded", ollama/ollama#9999), and ROCm 6 ended at 6.4 (AMD's release
    series, ``knowledge/rocm_releases.py``). Judged as a ROCm release it would make a driver too far from itself
    (RD384); dropped, the release stays unknown (fix54a)."""
    return [o for o in observations if not not_a_rocm_release(o.value)]


def _refines(longer: Any, shorter: Any) -> bool:
    """``6.0.1`` refines ``6.0``; ``Ubuntu 22.04.4 LTS`` refines ``Ubuntu 22.04.4``; equal values refine each other."""
    if not isinstance(longer, str) or not isinstance(shorter, str):
        return longer == shorter
    a, b = longer.strip().lower(), shorter.strip().lower()
    return a == b or (a.startswith(b) and a[len(b)] in ".- (_+")


def _adds_local_label(longer: Any, shorter: Any) -> bool:
    """``2.3.1+rocm6.0`` adds a local version label to ``2.3.1``."""
    return isinstance(longer, str) and isinstance(shorter, str) and len(longer) > len(shorter) and longer.lower().startswith(shorter.lower()) and longer[len(shorter)] == "+"


def _stale_build_readings(grouped: Dict[str, List[Observation]], decided: Any) -> Dict[str, List[Observation]]:
    """Without the build facts read from a torch version that lost to an exact tool reading without a local
    label: a prose ``2.3.1+rocm6.0`` says nothing about the build of the ``torch-2.3.1`` pip installed."""
    versions = grouped.get("torch.version") or []
    exact = [o for o in versions if o.trust >= TRUST_TOOL and o.value == decided]
    if not exact or not isinstance(decided, str) or "+" in decided:
        return grouped
    top = max(o.trust for o in exact)
    stale = {id(o.line) for o in versions if o.trust < top and o.value != decided}
    if not stale:
        return grouped
    out = dict(grouped)
    for path in _BUILD_OF_TORCH:
        if path in out:
            out[path] = [o for o in out[path] if id(o.line) not in stale] or []
    return out


def _most_specific(observations: List[Observation]) -> List[Observation]:
    """The observations whose values nothing else in the list refines (the first one per distinct value).

    Linear in the observations (a log repeats one value thousands of times), quadratic only in the
    few distinct values.
    """
    firsts: Dict[str, Observation] = {}
    for obs in observations:
        firsts.setdefault(repr(obs.value), obs)
    distinct = list(firsts.values())
    out = [o for o in distinct if not any(other.value != o.value and _refines(other.value, o.value) for other in distinct)]
    return out or distinct[:1]


def _distinct(observations: List[Observation]) -> List[Observation]:
    firsts: Dict[str, Observation] = {}
    for obs in observations:
        firsts.setdefault(repr(obs.value), obs)
    return list(firsts.values())


def _reading(obs: Observation) -> str:
    value = "absent" if isinstance(obs.value, Absent) else repr(obs.value)
    return f"{value} ({obs.line.source}, {TRUST_NAMES.get(obs.trust, 'trust ' + str(obs.trust))})"


def _same_gpu(a: Dict[str, Any], b: Dict[str, Any]) -> bool:
    for key in ("device_id", "gfx"):
        if a.get(key) and b.get(key):
            return a[key] == b[key]
    if a.get("name") and b.get("name"):
        key_a, key_b = name_key(a["name"]), name_key(b["name"])
        if key_a is not None and key_a == key_b:
            return True
    if a.get("integrated") is True and b.get("integrated") is True and not (a.get("gfx") and b.get("gfx")):
        return True  # "the iGPU" and the integrated GPU a CPU model carries
    return False


def _merge_igpu_keys(sightings: List[GpuSighting]) -> Dict[int, str]:
    """Keys per sighting, where a bare "iGPU" mention joins the integrated model named elsewhere."""
    keys = {id(s): _prose_key(s.fields) for s in sightings}
    integrated = [keys[id(s)] for s in sightings if s.fields.get("integrated") is True and keys[id(s)] != "igpu"]
    if len(set(integrated)) == 1:
        for s in sightings:
            if keys[id(s)] == "igpu":
                keys[id(s)] = integrated[0]
    return keys


def _prose_key(fields: Dict[str, Any]) -> str:
    if fields.get("gfx"):
        return str(fields["gfx"])
    key = name_key(str(fields.get("name") or ""))
    if key:
        return key
    return "igpu" if fields.get("integrated") else str(fields.get("name") or "")


def _prose_groups(sightings: List[GpuSighting]) -> List[List[GpuSighting]]:
    """People's GPU mentions as devices: one per model, as many as any single line counts (``2x RX 7900 XT``)."""
    order: List[str] = []
    per_line: Dict[Tuple[str, int], int] = {}
    first: Dict[str, List[GpuSighting]] = {}
    keys = _merge_igpu_keys(sightings)
    for sighting in sightings:
        key = keys[id(sighting)]
        if key not in first:
            order.append(key)
            first[key] = []
        first[key].append(sighting)
        count = int(sighting.fields.get(COUNT_FIELD) or 1)
        per_line[(key, sighting.line.number)] = max(per_line.get((key, sighting.line.number), 0), count)
    most: Dict[str, int] = {}
    for (key, _), count in per_line.items():
        most[key] = max(most.get(key, 0), count)
    groups: List[List[GpuSighting]] = []
    for key in order:
        groups += [first[key]] * most[key]
    return groups


def _agent(index: int, layer: str, group: List[GpuSighting]) -> Dict[str, Any]:
    fields: Dict[str, Any] = {}
    sources: Dict[str, str] = {}
    for sighting in group:  # one device shown by several lines (name, then gcnArchName)
        for key, value in sighting.fields.items():
            if key not in (TABLE_FIELDS, COUNT_FIELD) and key not in fields:
                fields[key], sources[key] = value, _field_source(sighting, key)
    return {"index": index, "layer": layer, "sighting": group[0], "fields": fields, "sources": sources}


def _fill(agent: Dict[str, Any], other: GpuSighting) -> None:
    for key, value in other.fields.items():
        if key not in (TABLE_FIELDS, COUNT_FIELD) and key not in agent["fields"]:
            agent["fields"][key] = value
            agent["sources"][key] = _field_source(other, key)


def _agents(sightings: List[GpuSighting], cpu: Optional[Dict[str, Any]] = None) -> Tuple[List[Dict[str, Any]], Optional[str]]:
    if any(s.doubtful for s in sightings) and any(not s.doubtful and s.layer != "cpu" for s in sightings):
        # A GPU that another person has, a yes/no question asks about or that is "my old" one is no device
        # of this machine when the report names one that is: "my friend's 9070 XT works on 6.11, mine is a
        # 6800". Alone it is kept: then it is most likely the reporter's ("my friend's 9070 XT works, mine doesn't"),
        # and so it is beside only the iGPU a CPU model carries, which the machine has besides a card.
        sightings = [s for s in sightings if not s.doubtful]
    by_layer: Dict[str, List[GpuSighting]] = {}
    for sighting in sightings:
        by_layer.setdefault(sighting.layer, []).append(sighting)
    primary = next((layer for layer in LAYER_ORDER if by_layer.get(layer)), None)
    if primary is None:
        return [], None
    groups = _prose_groups(by_layer[primary]) if primary in PROSE_LAYERS else _by_position(by_layer[primary])
    agents = [_agent(index, primary, group) for index, group in enumerate(groups[:MAX_GPUS])]
    for layer in LAYER_ORDER:
        if layer == primary:
            continue
        others = by_layer.get(layer, [])[: MAX_GPUS * 4]
        amd_others = [o for o in others if o.fields.get("vendor") == "AMD"]
        for other in others:
            matches = [a for a in agents if _same_gpu(a["fields"], other.fields)]
            amd_agents = [a for a in agents if a["fields"].get("vendor") == "AMD"]
            if not matches and len(amd_agents) == 1 and len(amd_others) == 1 and other.fields.get("vendor") == "AMD":
                target = amd_agents[0]["fields"]
                if not any(target.get(k) and other.fields.get(k) and target[k] != other.fields[k] for k in ("gfx", "device_id")):
                    matches = amd_agents
            if len(matches) == 1:
                _fill(matches[0], other)
            elif not matches and layer == "cpu" and primary in PROSE_LAYERS and len(agents) < MAX_GPUS:
                # The report names its GPUs in words and its CPU carries an iGPU the words left out.
                if not any(a["fields"].get("integrated") is True for a in agents):
                    agents.append(_agent(len(agents), "cpu", [other]))
            elif not matches and layer == "mention" and primary == "report" and len(agents) < MAX_GPUS and other.fields.get("gfx"):
                # A labelled field or an error message names one GPU (rocBLAS "for GPU arch : gfx1036")
                # and the prose another (the discrete card): both are this machine's GPUs.
                if not any(_same_gpu(a["fields"], other.fields) for a in agents):
                    agents.append(_agent(len(agents), "mention", [other]))
            elif not matches and layer == "mention" and len(agents) < MAX_GPUS and other.fields.get("vendor") == "NVIDIA":
                # An NVIDIA card named in words beside a listing of the AMD ones (rocminfo, a GPU field): the
                # AMD tools never list it, and a mixed box runs a CUDA torch for it on purpose.
                if not any(a["fields"].get("vendor") == "NVIDIA" for a in agents):
                    agents.append(_agent(len(agents), "mention", [other]))
    if primary in GENERIC_NAME_LISTINGS:
        _generic_name_beside_named_card(agents, sightings, cpu or {})
    return agents, primary


GENERIC_NAME_LISTINGS = ("hip", "torch")
"""Listings printed by a HIP process (hipInfo, llama.cpp/ggml, torch.cuda.get_device_name): every device in one
of them is named by the same runtime from the same amdgpu.ids table."""
_GENERIC_AMD_NAME = when_used(r"^\s*AMD\s{1,3}Radeon(?:\s{0,2}\((?:TM|R)\))?\s{1,3}Graphics\s*$", re.IGNORECASE)
"""The name the runtime gives a device without a marketing name of its own in amdgpu.ids: the Ryzen integrated
GPUs (Raphael and Granite Ridge gfx1036, Cezanne, Barcelo ...), and on Windows every Ryzen iGPU ("AMD Radeon(TM)
Graphics"). Real listings: ggml "Device 0: AMD Radeon Graphics, gfx1036" (ggml-org/llama.cpp#14421), "Device 0: AMD
Radeon Graphics, gfx1152" (ggml-org/llama.cpp#19949), ComfyUI's "Device: cuda:0 AMD Radeon Graphics : native" on a
Ryzen 7 5800HS (Comfy-Org/ComfyUI#3339); Windows names the Ryzen 9600X iGPU "AMD Radeon(TM) Graphics" beside "AMD
Radeon RX 7900 XTX" (ROCm/legacy-rocm-build#5448) and beside "AMD Radeon RX 6800 XT" (ROCm/legacy-rocm-build#4390).
The same name is also the fallback for *every* device when the runtime finds no amdgpu.ids (a venv or TheRock
wheel: pytorch/pytorch#144203, pytorch/pytorch PR #147791, ROCm/TheRock#4693 on an MI355X), so the name alone names
no iGPU; beside a card the same listing names specifically, the table was found, and the generic name is the iGPU.
A discrete card newer than the amdgpu.ids a wheel bundles (an RX 9070 on an older wheel), an Instinct or a Radeon
Pro it lacks, carries the same generic name beside an older named card; so the name is not read as the iGPU when
the report's CPU carries none (an Intel CPU, a Ryzen without graphics such as a 5950X or a Threadripper), nor when
the report's words name a discrete AMD card that no device of the listing is named as (review rev47f). Left
possible: such a pairing on a Ryzen with graphics whose report names only the older card (a warning, never an
error)."""


def _cpu_without_amd_igpu(cpu: Dict[str, Any]) -> bool:
    """The report names a processor that carries no AMD integrated GPU: not an AMD one (an Intel Core or Xeon), or
    one the processor table knows to have no graphics (Ryzen 5950X, Threadripper, EPYC)."""
    vendor, model = cpu.get("vendor") or {}, cpu.get("model") or {}
    if vendor.get("status") == "known" and str(vendor.get("value") or "") != "AMD":
        return True
    if model.get("status") == "known" and model.get("value"):
        family = cpu_family(str(model["value"]))
        return family is not None and family.igpu is None
    return False


def _unlisted_card_named(agents: List[Dict[str, Any]], sightings: List[GpuSighting]) -> bool:
    """The report's words name a discrete AMD card that no specifically named device of the listing is: the one
    device the listing names generically may be that card ("an RX 9070 XT and an RX 7900 XTX")."""
    named = [a for a in agents if not _GENERIC_AMD_NAME.match(str(a["fields"].get("name") or ""))]
    return any(
        s.layer in ("report", "mention") and not s.doubtful and s.fields.get("vendor") == "AMD"
        and s.fields.get("integrated") is False and not any(_same_gpu(a["fields"], s.fields) for a in named)
        for s in sightings
    )


def _generic_name_beside_named_card(agents: List[Dict[str, Any]], sightings: List[GpuSighting], cpu: Dict[str, Any]) -> None:
    """Mark as integrated the one device of a HIP-printed listing that carries only the runtime's generic name
    ("AMD Radeon Graphics", "AMD Radeon(TM) Graphics") while another device of that listing is a discrete AMD
    card named specifically; its gfx, when shown, decides instead (the GPU table). Not when the report's CPU has
    no AMD iGPU or its words name a discrete AMD card the listing does not name (:data:`_GENERIC_AMD_NAME`)."""
    named_card = any(
        a["fields"].get("integrated") is False and a["fields"].get("vendor") == "AMD"
        and not _GENERIC_AMD_NAME.match(str(a["fields"].get("name") or ""))
        for a in agents
    )
    generic = [
        a
        for a in agents
        if _GENERIC_AMD_NAME.match(str(a["fields"].get("name") or ""))
        and "integrated" not in a["fields"]
        and not a["fields"].get("gfx")
    ]
    if not named_card or len(generic) != 1 or _cpu_without_amd_igpu(cpu) or _unlisted_card_named(agents, sightings):
        return
    agent = generic[0]
    agent["fields"]["integrated"] = True
    agent["sources"]["integrated"] = (
        f"{_field_source(agent['sighting'], 'name')}: the runtime's generic name beside a card it names specifically"
    )


def _by_position(sightings: List[GpuSighting]) -> List[List[GpuSighting]]:
    """Sightings of one listing grouped by device position, in position order."""
    groups: Dict[int, List[GpuSighting]] = {}
    for sighting in sightings:
        groups.setdefault(sighting.position, []).append(sighting)
    return [groups[position] for position in sorted(groups)]


def _field_source(sighting: GpuSighting, key: str) -> str:
    source = f"{sighting.layer} ({sighting.line.source})"
    if key in sighting.fields.get(TABLE_FIELDS, ()):
        source += " via rules/data/gpus.yaml"
    return source


def _agent_dict(agent: Dict[str, Any]) -> Dict[str, Any]:
    sighting: GpuSighting = agent["sighting"]
    out: Dict[str, Any] = {"index": agent["index"], "source": f"paste:{agent['layer']} ({sighting.line.source})"}
    for key, value in agent["fields"].items():
        out[key] = {"status": "known", "value": value, "source": agent["sources"][key]}
    return out


def _torch_devices(sightings: List[GpuSighting]) -> Optional[List[Dict[str, Any]]]:
    groups = _by_position([s for s in sightings if s.layer == "torch"])
    if not groups:
        return None

    def first(group: List[GpuSighting], key: str) -> Any:
        return next((s.fields[key] for s in group if s.fields.get(key)), None)

    return [{"index": i, "name": first(g, "name"), "gcn_arch_name": first(g, "gfx")} for i, g in enumerate(groups)]


def _validate(tree: Dict[str, Any]) -> Facts:
    """Validate; a value of the wrong type makes its fact unknown instead of failing."""
    for _ in range(100):
        try:
            return Facts.model_validate(tree)
        except ValidationError as exc:
            if not _drop(tree, exc.errors()[0]["loc"]):
                break
    return Facts.model_validate({"meta": tree.get("meta", {})})


def _drop(tree: Dict[str, Any], loc: Tuple[Any, ...]) -> bool:
    """Make the fact at ``loc`` unknown (or drop the list item holding it); False if nothing changed."""
    node: Any = tree
    trail: List[Tuple[Any, Any]] = []
    for part in loc:
        try:
            child = node[part]
        except (KeyError, IndexError, TypeError):
            break
        trail.append((node, part))
        node = child
    for parent, key in reversed(trail):
        value = parent[key]
        if isinstance(value, dict) and "status" in value:
            if value.get("reason") == "the report's value could not be read":
                return False
            parent[key] = {"status": "unknown", "reason": "the report's value could not be read"}
            return True
        if isinstance(parent, list):
            del parent[key]
            return True
    return False


TIMELINE_ORIGINS = ("export", "command-prefix", "cmd-set", "powershell", "fish", "python")
"""Settings made by a command in a transcript, where the order of the lines is the order in time."""


def in_force(setting: SettingSighting, error: Line) -> bool:
    """Whether ``setting`` was in effect for the program that printed ``error``: a command's own prefix
    only for that command's output; a command in the same transcript only when it ran before the error.
    What people write around a transcript (a field, a sentence, another block) is not ordered in time;
    a sentence that says the program failed with the setting puts it in force, fenced apart or not."""
    if setting.origin not in TIMELINE_ORIGINS or setting.failed_with:
        return True
    if setting.worked_with:
        return setting.line.number <= error.number
    if setting.until is not None:
        return setting.line.block == error.block and setting.line.number <= error.number <= setting.until
    if setting.paragraph_from is not None and setting.line.block == error.block and error.number < setting.paragraph_from:
        return True
    return setting.line.block != error.block or setting.line.number <= error.number


class _Errors:
    """The lines of the reported errors, by block, to ask :func:`in_force` of every setting at once
    (a bisect per setting, not a test per setting and error: a paste of many blocks stays linear)."""

    def __init__(self, errors: List[Line]) -> None:
        self.count = len(errors)
        self.last = max(error.number for error in errors) if errors else 0
        self.by_block: Dict[int, List[int]] = {}
        for error in errors:
            self.by_block.setdefault(error.block, []).append(error.number)
        for numbers in self.by_block.values():
            numbers.sort()

    def any_in_force(self, setting: SettingSighting) -> bool:
        if setting.origin not in TIMELINE_ORIGINS or setting.failed_with:
            return True
        if setting.worked_with:
            return self.last >= setting.line.number
        here = self.by_block.get(setting.line.block, [])
        if setting.until is not None:
            position = bisect.bisect_left(here, setting.line.number)
            return position < len(here) and here[position] <= setting.until
        if setting.paragraph_from is not None and here and here[0] < setting.paragraph_from:
            return True
        return self.count > len(here) or bool(here and here[-1] >= setting.line.number)


def _scoped(settings: List[SettingSighting], errors: List[Line]) -> List[SettingSighting]:
    """The settings, those in force for none of the reported errors with the reason (they do not decide
    the environment the error came from; :func:`in_force`)."""
    if not errors:
        return settings
    index = _Errors(errors)
    out = []
    for setting in settings:
        if setting.reaches is not False and not index.any_in_force(setting):
            first = errors[0]
            why = (
                f"set for another command (line {setting.line.number}), not the one whose output shows the error (line {first.number})"
                if setting.until is not None
                else f"said to have made it work after the error was printed (line {first.number})"
                if setting.worked_with
                else f"set after the error was printed (line {first.number})"
            )
            setting = replace(setting, reason=why, for_error=False)
        out.append(setting)
    return out


_FORWARDING_SHELL = frozenset({"export", "env-listing", "shell-rc", "fish", "powershell", "cmd-set"})
"""Origins of a setting of the shell that starts a container (its session's own, no one command's)."""
_DOCKER_RUN_REFERENCE = (
    "https://github.com/docker/cli/blob/eb986ae71b0c84eca42a1c28a1a8135269b2757d/docs/reference/commandline/container_run.md#env"
)


_OPENS_ITS_LINE = when_used(
    r"^[ \t>*-]{0,8}(?:export[ \t]{1,4}|unset(?:env)?[ \t]{1,4}|setenv[ \t]{1,4}|set(?:[ \t]{1,4}-{1,2}[a-zA-Z]{1,12}){0,3}[ \t]{1,4}|\$env:)?"
    r"(?P<name>[A-Za-z_][A-Za-z0-9_]{0,127})[ \t]{0,4}(?:=|[ \t;]|$)"
)
"""rev62: a shell's setting that opens its line (its prompt removed): ``export NAME=v``, ``NAME=v`` (a listing's line, a
startup file's), ``unset NAME``, fish's ``set -gx NAME v``, PowerShell's ``$env:NAME = v``, cmd's ``set NAME=v``. A setting in the middle
of a sentence ("I did export NAME=v once", ``echo NAME=v``, a comment) is no value the shell that runs docker is shown to
hold."""
_PLAIN_SUDO_CONTAINER = when_used(
    r"\bsudo(?P<options>(?:[ \t]{1,4}-{1,2}[\w=,-]{1,40}){0,6})[ \t]{1,4}(?:docker|podman)\b"
)
_SUDO_KEEPS_ENV = when_used(r"(?:^|[ \t])(?:-[a-zA-DF-Z]{0,6}E[a-zA-Z]{0,6}|--preserve-env)\b")
"""rev62: ``sudo docker run -e NAME`` starts the CLI with sudo's reset environment (sudoers' env_reset, the default), so
the CLI has no NAME of the user's shell to pass; ``sudo -E`` / ``--preserve-env`` keeps it (sudoers(5): env_reset is on by
default, https://github.com/sudo-project/sudo/blob/SUDO_1_9_15p5/docs/sudoers.man.in; the reader's _SUDO_RESETS)."""


def _sudo_resets(line: Line) -> bool:
    """The container command on ``line`` runs under plain ``sudo`` (no ``-E`` / ``--preserve-env``)."""
    match = _PLAIN_SUDO_CONTAINER.search(line.text)
    return match is not None and not _SUDO_KEEPS_ENV.search(match.group("options"))


def _opens_its_line(setting: SettingSighting) -> bool:
    """``setting`` opens its line (:data:`_OPENS_ITS_LINE`), or is a prefix of the line's own command."""
    if setting.origin == "command-prefix":
        return True
    match = _OPENS_ITS_LINE.match(setting.line.text)
    return match is not None and match.group("name") == setting.name


def _forwarded(settings: List[SettingSighting]) -> List[SettingSighting]:
    """A ``docker run -e NAME`` (no ``=``) passes the container the value NAME has in the shell that runs docker:
    "the Docker CLI client checks the value the variable has in your local environment and passes it to the
    container. If no ``=`` is provided and that variable isn't exported in your local environment, the variable is
    unset in the container" (Docker's run reference, :data:`_DOCKER_RUN_REFERENCE`). The reader writes it as an unset
    (value None); where the report shows the shell's setting of NAME before it (an ``export``, a listing, a startup
    file, a prefix of the docker command itself), the container's setting takes that value. The latest such setting
    decides: an ``unset`` there leaves the container's unset. None shown: left as written (the report shows no value
    the shell had). ``settings`` are in line order."""
    out: List[SettingSighting] = []
    for index, setting in enumerate(settings):
        # rev62: plain sudo gives docker no environment of the user's shell to forward
        if setting.origin == "docker-run" and setting.value is None and not _sudo_resets(setting.line):
            shell = next(
                (
                    earlier for earlier in reversed(settings[:index])
                    if earlier.name == setting.name and earlier.for_error is not False and earlier.reaches is not False
                    and _opens_its_line(earlier)
                    and (
                        (earlier.command is None and earlier.origin in _FORWARDING_SHELL)
                        or (earlier.origin == "command-prefix" and earlier.line.number == setting.line.number)
                    )
                ),
                None,
            )
            if shell is not None and shell.value is not None:
                setting = replace(
                    setting, value=shell.value,
                    reason=f"-e {setting.name} without a value passes the shell's value (line {shell.line.number}) into the container",
                )
        out.append(setting)
    return out


def _env(tree: Dict[str, Any], pieces: List[Piece]) -> None:
    """``env.vars``, ``env.coverage`` and ``env.settings`` from every setting the pieces show."""
    errors = [o.line for p in pieces if p.kind.startswith("error:") for o in p.observations if o.path == "symptoms.signatures"]
    settings: List[SettingSighting] = _forwarded(_scoped(sorted((s for p in pieces for s in p.settings), key=lambda s: s.line.number), errors))
    listings = [p for p in pieces if p.coverage is not None]
    if not settings and not listings:
        return
    env = tree["env"]
    if env["vars"].get("status") != "unknown":
        return  # a facts document in the paste already says what the environment is
    coverage: List[str] = []
    for piece in listings:
        coverage += [c for c in piece.coverage or [] if c not in coverage]
    covered = EnvFacts(coverage=Fact(status="known", value=coverage))
    live = {s.name for s in settings if s.reaches is True and s.value is not None and s.origin in ("env-listing", "app-config")}
    proofs = {s.name: s for s in settings if s.reaches is True and s.value is None and s.origin == "app-config"}
    first_listing = min((p.line_start for p in listings), default=None)
    resolved: List[SettingSighting] = []
    for setting in settings:
        if setting.reaches is None and setting.name not in live and covered.covers(setting.name):
            proof = proofs.get(setting.name)
            reason = (
                f"{proof.reason} ({proof.line.source})" if proof is not None and proof.reason
                else f"the environment listing (line {first_listing}) does not have {setting.name}"
            )
            setting = replace(setting, reaches=False, reason=reason)
        if _shown_unexpanded(setting) and setting.reason is None:
            setting = replace(setting, reason=f"shown unexpanded ({setting.value}): the value the program got is not shown")
        resolved.append(setting)
    chosen: Dict[str, SettingSighting] = {}
    for setting in resolved:
        if setting.for_error is False:
            continue  # not in force for the reported error: it does not decide the environment
        current = chosen.get(setting.name)
        rank = (_REACH_RANK[setting.reaches], setting.trust, setting.line.number)
        if current is None or rank >= (_REACH_RANK[current.reaches], current.trust, current.line.number):
            chosen[setting.name] = setting
    # a variable last set to an expression is set, to a value the report does not show: not in env.vars, so a rule
    # that reads it is undecided (not "malformed", not "unset"), and env.settings keeps what was written
    values = {n: s.value for n, s in chosen.items() if s.reaches is not False and s.value is not None and not _shown_unexpanded(s)}
    source = next((s.line.source for s in resolved if s.origin in ("env-listing", "app-config")), None)
    source = source or (resolved[0].line.source if resolved else "paste")
    env["vars"] = {"status": "known", "value": values, "source": source}
    env["coverage"] = {"status": "known", "value": coverage, "source": source}
    env["settings"] = {
        "status": "known",
        "source": source,
        "value": [
            {"name": s.name, "value": s.value, "origin": s.origin, "where": s.where, "reaches": s.reaches,
             "reason": s.reason, "for_error": s.for_error, "source": s.line.source, "command": s.command}
            for s in resolved
        ],
    }


def _flavour_evidence(tree: Dict[str, Any], observations: List[Observation]) -> None:
    """``torch.flavour_evidence``, the kind of text that decided ``torch.flavour`` (a rule that reads a told replacement of
    torch, an installer that put the CPU build in place, lets an ``intended`` build not decide, as an unknown one), from
    the readings of the flavour kept: ``intended`` when every one of them is what a command or an image asks for
    (:attr:`Observation.intended`); otherwise, from the most trusted of the others, ``shown`` when a tool-output reader
    or an error signature gave it, ``stated`` when prose did. The build asked for is a weaker kind of evidence than the
    build shown: meizhong986/WhisperJAV#120 (a ``rocm/pytorch`` image whose installer put a
    CPU-only torch in place), MrForExample/ComfyUI-AnimateAnyone-Evolved#22 (xformers' requirement replaced the torch of a
    ``--index-url .../rocm5.7`` install), ROCm/pytorch#1533 and pypa/pip#12902 (``pip install torchaudio`` / ``torch`` in a
    ``rocm/pytorch`` image fetched PyPI's torch)."""
    torch = tree["torch"]
    flavour = torch["flavour"]
    if flavour.get("status") != "known" or torch["flavour_evidence"].get("status") != "unknown":
        return
    deciding = [o for o in observations if o.value == flavour.get("value")]
    if not any(o.line.source == flavour.get("source") for o in deciding):
        return  # a facts document in the paste gave it
    # Any reading of the same build that is not only asked for (a listing, a log line, a sentence), whatever its trust,
    # says the build is in place: a ``$ pip install ... --index-url .../rocm6.2`` command line is firmer than a pasted
    # ``torch 2.5.1+rocm6.2`` row (:func:`rocm_doctor.ingest.formats.mentions._firmer`), yet the row shows the build.
    told = [o for o in deciding if not o.intended]
    top = max(o.trust for o in told or deciding)
    kept = [o for o in told or deciding if o.trust == top]
    kind = "intended" if not told else "shown" if top >= TRUST_SIGNATURE else "stated"
    torch["flavour_evidence"] = {"status": "known", "value": kind, "source": kept[0].line.source}


def _packages_shown_in_part(tree: Dict[str, Any]) -> None:
    """A report's packages without a whole listing of them (a ``pip list`` or ``pip freeze`` as printed, read by
    :mod:`.formats.pip`) are a part of the environment: ``pip list | grep torch``, collect_env's relevant libraries, an
    install log. A name they lack is then unknown, not uninstalled (``PackagesFacts.complete``)."""
    packages = tree["packages"]
    if packages["installed"].get("status") == "known" and packages["complete"].get("status") == "unknown":
        packages["complete"] = {
            "status": "known", "value": False, "source": packages["installed"].get("source") or "paste",
            "reason": "the report shows only some of the environment's packages",
        }


def assemble(
    pieces: List[Piece],
    origin_detail: Optional[str] = None,
    documents_only: bool = False,
    conflicts: Optional[List[Conflict]] = None,
) -> Facts:
    """One Facts snapshot from the pieces (see the module docstring); disagreements go to ``conflicts``."""
    base = next((p.facts for p in reversed(pieces) if p.facts is not None), None)
    meta = {"origin": "paste", "origin_detail": origin_detail, "tool_version": __version__}
    if base is not None:
        tree = base.model_dump(mode="json")
        if documents_only:
            # rocm-doctor's own report: its facts are a complete machine snapshot, judged as such
            # (no paste-only rules, no asks), so the round trip gives the machine's findings.
            tree["meta"].update({"origin": "report", "origin_detail": origin_detail})
            return _validate(tree)
        tree["meta"].update({"origin": "paste", "origin_detail": origin_detail})
    else:
        tree = _skeleton(Facts)
        tree["meta"] = meta
    grouped: Dict[str, List[Observation]] = {}
    for piece in pieces:
        for obs in piece.observations:
            grouped.setdefault(obs.path, []).append(obs)
    grouped = _wsl_host_is_not_the_os(grouped)
    if "torch.version" in grouped:
        version = _decide("torch.version", grouped["torch.version"])
        if version is not None and version.get("status") == "known":
            grouped = _stale_build_readings(grouped, version.get("value"))
    for path, observations in grouped.items():
        if not observations:
            continue
        parent, key = _slot(tree, path)
        if parent is None:
            continue
        status = parent[key].get("status")
        if path in _MERGED_LISTS and status in ("known", "absent"):
            # A facts document plus a pasted log: the log's signatures add to the document's.
            observations = [Observation(path, parent[key].get("value") or [], observations[0].line)] + observations
        elif status != "unknown":
            continue
        if path in _ENV_PATHS:
            continue
        if path == "rocm.version":
            observations = _rocm_releases(observations)
            if not observations:
                parent[key] = {"status": "unknown", "reason": _NOT_A_ROCM_RELEASE}
                continue
        decided = _decide(path, observations, conflicts)
        if decided is not None:
            parent[key] = decided
    _flavour_evidence(tree, grouped.get("torch.flavour") or [])
    _packages_shown_in_part(tree)
    _env(tree, pieces)
    if tree["symptoms"]["signatures"].get("status") == "unknown":
        tree["symptoms"]["signatures"] = {"status": "known", "value": [], "source": "paste: no error signature matched"}
    if tree["symptoms"]["context"].get("status") == "unknown":
        tree["symptoms"]["context"] = {"status": "known", "value": [], "source": "paste: nothing said what the report is about"}
    sightings = [s for piece in pieces for s in piece.gpus]
    if not tree.get("gpus", {}).get("agents"):
        agents, layer = _agents(sightings, tree.get("cpu"))
        if layer is not None:
            name = DISCOVERY_NAMES.get(layer, layer)
            source = agents[0]["sighting"].line.source
            tree["gpus"] = {
                "discovery": {"status": "known", "value": f"paste:{name}", "source": source},
                "attempts": [{"layer": f"paste:{name}", "status": "answered", "count": len(agents), "detail": source}],
                "agents": [_agent_dict(a) for a in agents],
            }
    devices = _torch_devices(sightings)
    live = tree["torch"]["live"]
    if devices is not None and live["devices"].get("status") == "unknown":
        live["devices"] = {"status": "known", "value": devices, "source": "paste:torch"}
    return _validate(tree)

