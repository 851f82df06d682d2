"""Whether an HSA_OVERRIDE_GFX_VERSION the report sets was in effect where the GPU failed.

libhsakmt replaces the gfx target of every GPU node by the global override (when no per-node
variable is set), and everything above it - HIP, rocBLAS, ollama's discovery - sees only the
replaced target (ROCR-Runtime libhsakmt/src/topology.c at c7785a6). So:

* an error of the failing program that names a target other than the override's (rocBLAS'
  'Cannot read TensileLibrary.dat ... for GPU arch : gfx1032', HIP's 'Cannot find CO in the
  bundle ... for ISA: gfx1031', ollama's 'amdgpu is not supported ... gpu_type=gfx1031') was
  printed by a process that ran without it: ollama/ollama#8679 and #8772 (Environment= in the
  unit, the server started another way), ollama/ollama#6152 (exported in ~/.bashrc, the server a
  systemd service), invoke-ai/InvokeAI#3967 (fish ``set -U`` without ``-x``);
* a GPU memory access fault while an override is in effect is what a value of another family
  produces (ROCm/ROCm#5238: an RX 6600's 10.3.0 left set on an MI210; ollama/ollama#8851: 11.0.0
  on an RDNA2 card; kyuz0/amd-strix-halo-toolboxes#115: a stale 11.0.0 on a gfx1151), though a
  right value can fault too (ROCm/MIOpen#3540), so this only says what to check.
"""

from __future__ import annotations

from typing import List, Optional

from rocm_doctor.facts.model import EnvSetting, Facts
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts.gfx import own_gfx
from rocm_doctor.judge.derived_facts.gpus import is_amd
from rocm_doctor.judge.derived_facts.platform import is_windows
from rocm_doctor.knowledge import overrides as ov

_NOT_A_SETTING = ("prose",)
"""A value only named in a sentence ("tried 10.3.0 too") is not shown being set anywhere."""
_WINDOWS_WAYS = ("powershell", "cmd-set", "setx")
"""Settings made the Windows way: there the HIP runtime reads no HSA_ variable (RD539), so an error
naming the GPU's own target does not show the process lacked it."""


def _override_settings(facts: Facts) -> Optional[List[EnvSetting]]:
    """The report's global override settings with a value libhsakmt accepts; None when a per-node
    variable is also set (it, not the global one, decides for its GPU) or nothing is known."""
    settings = facts.env.settings
    if not settings.is_known:
        return None
    found = settings.value or []
    if any(ov.per_node_index(s.name) is not None for s in found):
        return None
    return [s for s in found if s.name == ov.VARIABLE and s.value is not None and ov.is_valid_override(s.value)]


def _where(settings: List[EnvSetting]) -> str:
    places = []
    for setting in settings:
        text = f"{setting.name}={setting.value} ({setting.where})"
        if text not in places:
            places.append(text)
    return "; ".join(places)


@machine_fact(
    "override_not_in_effect_at_error",
    "An error of the failing program names a gfx target that the report's HSA_OVERRIDE_GFX_VERSION "
    "would have replaced, so the process that printed it ran without the override: "
    "'HSA_OVERRIDE_GFX_VERSION=10.3.0 (where it is set), yet the error names gfx1032, which ...'. Absent without such a setting or "
    "error, or on Windows (no ROCm component there reads the variable); unknown when a per-node override is also set "
    "or the setting is made the Windows way (PowerShell, cmd set, setx) on a platform not shown.",
)
def override_not_in_effect_at_error(facts: Facts, tables: Tables) -> Fact:
    named = facts.symptoms.error_gfx
    if not named.is_known or not named.value:
        return absent(named.source or "paste", "no error message names a gfx target")
    settings = _override_settings(facts)
    if settings is None:
        if facts.env.settings.is_known:
            return unknown("a per-node HSA_OVERRIDE_GFX_VERSION_<node> is also set; which GPU the error is from is not known")
        return absent("paste", "the report sets no HSA_OVERRIDE_GFX_VERSION")
    if any(s.origin == "app-config" for s in settings):
        return absent("paste", "the program's own log prints the override: it was in its environment")
    shown = [s for s in settings if s.origin not in _NOT_A_SETTING and s.reaches is not False and s.for_error is not False]
    if not shown:
        return absent("paste", "the report shows no HSA_OVERRIDE_GFX_VERSION being set (or only one that cannot reach, or one set after the error)")
    windows = is_windows(facts, tables)
    if windows.is_known and windows.value:
        return absent(windows.source or "host", "on Windows no ROCm component reads HSA_OVERRIDE_GFX_VERSION: the process may well have had it")
    if any(s.origin in _WINDOWS_WAYS for s in shown) and not (windows.is_known and windows.value is False):
        return unknown("set the Windows way, and on Windows no ROCm component reads the variable: the error does not show the process lacked it")
    targets = {ov.override_gfx(str(s.value)) for s in shown}
    others = sorted({str(g) for g in named.value} - targets)
    if not others or len(targets) != 1:
        return absent(named.source or "paste", "the error names the override's own target")
    target = next(iter(targets))
    return known(
        f"{_where(shown)}, yet the error names {', '.join(others)}, which the override would have turned into {target}",
        named.source or "paste",
    )


@machine_fact(
    "override_set_at_memory_fault",
    "The GPU faulted on a memory access (symptoms.signatures gpu_memory_access_fault) while the report "
    "sets a global HSA_OVERRIDE_GFX_VERSION and shows no AMD GPU whose family the override table can "
    "compare with it: 'HSA_OVERRIDE_GFX_VERSION=11.0.0 (where), which makes the GPU run gfx1100 code objects'. Absent when a GPU of a listed family is "
    "known (the cross-family and unneeded-override rules judge the value then) or no override is set.",
)
def override_set_at_memory_fault(facts: Facts, tables: Tables) -> Fact:
    signatures = facts.symptoms.signatures
    if not signatures.is_known or "gpu_memory_access_fault" not in (signatures.value or []):
        return absent(signatures.source or "paste", "no GPU memory access fault in the report")
    settings = _override_settings(facts)
    shown = [s for s in settings or [] if s.origin not in _NOT_A_SETTING and s.reaches is not False and s.for_error is not False]
    if not shown:
        return absent("paste", "the report shows no HSA_OVERRIDE_GFX_VERSION being set")
    targets = sorted({str(ov.override_gfx(str(s.value))) for s in shown})
    # each GPU's own target (gpu.own_gfx): rocminfo under the override prints the override's target, whose family
    # is then the override's own and says nothing of the GPU that faulted
    owns = [own_gfx(facts, a, tables) for a in facts.gpus.agents if is_amd(facts, a, tables).value is True]
    known_gfx = [str(own.value) for own in owns if own.is_known]
    if any(ov.is_cross_family(gfx, target) is not None for gfx in known_gfx for target in targets):
        return absent("GPU discovery", "the GPU's family is known: the cross-family and unneeded-override rules judge the value")
    return known(f"{_where(shown)}, which makes the GPU run {', '.join(targets)} code objects", signatures.source or "paste")
