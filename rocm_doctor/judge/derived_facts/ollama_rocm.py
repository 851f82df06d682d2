"""Derived facts: the GPU against the ROCm build that ollama ships, per ollama release.

ollama runs models on the ROCm runtime and math libraries it bundles (lib/ollama, the ollama/ollama:rocm
image), compiled for the gfx targets of that release's build, not on the system's ROCm. A release can drop
a target the ones before it had (gfx900 and gfx906 with 0.12.4: rules/data/ollama_rocm.yaml); a card
that worked for months is then skipped after an upgrade and the model runs on the CPU, with nothing
wrong in the driver or the system's ROCm. Reports: ollama/ollama#12774 (Vega Frontier Edition, gfx900,
ollama/ollama:rocm 0.12.5 after 0.12.3), #12915 (MI50, gfx906: works again on ollama/ollama:0.12.3-rocm),
#12600 (gfx906 "working absolutely fine ... just a few days ago"); the change: ollama/ollama#12481.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact
from rocm_doctor.judge.derived_facts._support import carry
from rocm_doctor.judge.derived_facts.gpus import CPU_IMPLIED_SOURCE
from rocm_doctor.knowledge._tables import parse_version
from rocm_doctor.knowledge.gpu_table import base_gfx

TABLE = "ollama_rocm"
SOURCE = "rules/data/ollama_rocm.yaml"


def _dropped_row(agent: GpuAgent, tables: Tables) -> Optional[Dict[str, Any]]:
    gfx = base_gfx(str(agent.gfx.value))
    rows: List[Dict[str, Any]] = (tables[TABLE] or {}).get("dropped") or []
    return next((row for row in rows if row.get("gfx") == gfx), None)


def _judged_gpu(agent: GpuAgent) -> Optional[Fact]:
    """The fact to return instead when the GPU cannot be judged (inferred from a CPU model, gfx not known)."""
    if agent.source.startswith(CPU_IMPLIED_SOURCE):
        return unknown("this GPU is inferred only from the CPU model the report names, never judged on its own")
    if not agent.gfx.is_known:
        return carry(agent.gfx, f"gpu {agent.index} gfx")
    return None


def _dropped_row_or_fact(agent: GpuAgent, tables: Tables) -> Union[Dict[str, Any], Fact]:
    """The table row of the release that dropped the GPU's target, or the fact both GPU facts return instead
    (the GPU cannot be judged, or no release dropped its target)."""
    instead = _judged_gpu(agent)
    if instead is not None:
        return instead
    row = _dropped_row(agent, tables)
    if row is None:
        return absent(SOURCE, f"no ollama release dropped {base_gfx(str(agent.gfx.value))} from its ROCm build")
    return row


@gpu_fact(
    "ollama_rocm_dropped_gfx",
    "The first ollama release whose bundled ROCm build has no kernels for the GPU's gfx target, where an "
    "earlier release's build had them (gfx900/gfx906: '0.12.4'; rules/data/ollama_rocm.yaml). Absent for a "
    "target no release dropped; unknown for a GPU inferred only from a CPU model. Whatever release the "
    "report shows: rules pair it with gpu.ollama_rocm_lacks_gfx.",
)
def ollama_rocm_dropped_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    row = _dropped_row_or_fact(agent, tables)
    if isinstance(row, Fact):
        return row
    return known(str(row["first_without"]), SOURCE)


@gpu_fact(
    "ollama_rocm_lacks_gfx",
    "What the ollama release the report shows (symptoms.ollama_versions) lacks for the GPU: 'ollama X ships a "
    "ROCm build without <gfx> (dropped in <first release without>; <last> was the last with it)' when every "
    "release shown is at or after the one that dropped the GPU's target; absent when every release shown still "
    "had it or no release dropped it; unknown when the report shows no ollama release, or releases on both "
    "sides of the change (which one failed is not shown).",
)
def ollama_rocm_lacks_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    row = _dropped_row_or_fact(agent, tables)
    if isinstance(row, Fact):
        return row
    gfx = base_gfx(str(agent.gfx.value))
    shown = facts.symptoms.ollama_versions
    if not shown.is_known:
        return carry(shown, "symptoms.ollama_versions") if shown.status == "absent" else unknown("the report shows no ollama release")
    first_without = parse_version(row["first_without"])
    versions = [v for v in (parse_version(s) for s in shown.value or []) if v is not None]
    if not versions or first_without is None:
        return unknown("the report shows no ollama release")
    after = [v for v in versions if v >= first_without]
    if len(after) == len(versions):
        return known(f"ollama {_releases(after)} ships a ROCm build without {gfx} (dropped in {row['first_without']}; {row['last']} was the last with it)",
                     f"{shown.source or 'symptoms.ollama_versions'}; {SOURCE}")
    if not after:
        return absent(shown.source or "symptoms.ollama_versions", f"every ollama release the report shows still had {gfx} (up to {row['last']})")
    return unknown(f"the report shows ollama releases on both sides of {row['first_without']}, which dropped {gfx}; which one failed is not shown")


@gpu_fact(
    "ollama_rocm_never_built",
    "Whether no ollama release from 0.1.25 on built its own ROCm backend for the GPU's gfx target (true for "
    "gfx803, gfx90c, gfx1036, gfx1152 ...; false for the targets of rules/data/ollama_rocm.yaml's built list), "
    "whatever release the report shows; unknown for a GPU inferred only from a CPU model or of unknown gfx.",
)
def ollama_rocm_never_built(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    instead = _judged_gpu(agent)
    if instead is not None:
        return instead
    built = ((tables[TABLE] or {}).get("built") or {}).get("targets") or []
    return known(base_gfx(str(agent.gfx.value)) not in built, SOURCE)


@gpu_fact(
    "ollama_windows_rocm_lacks_gfx",
    "What ollama's Windows build lacks for the GPU: 'ollama X for Windows ships ROCm libraries (HIP SDK 6.1) "
    "without <gfx>' (the HIP SDK of X's release range, rules/data/ollama_rocm.yaml windows.hip_sdk) when the GPU's target is not among the targets the Windows releases before 0.30.0 ship "
    "rocBLAS kernels for (rules/data/ollama_rocm.yaml, windows) and every release the report shows is older "
    "than 0.30.0, or it shows none (said of the releases before 0.30.0 then); 'ollama X for Windows ships ROCm "
    "libraries (ROCm 7.1) without <gfx>' when every release shown is from 0.30.0 on and its ROCm 7 build "
    "(windows.rocm7) lacks the target; absent for a target the builds of the releases shown have; unknown when "
    "the report shows releases whose builds differ on the target, or the GPU cannot be judged. "
    "Rules pair it with host.os windows.",
)
def ollama_windows_rocm_lacks_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    instead = _judged_gpu(agent)
    if instead is not None:
        return instead
    windows = (tables[TABLE] or {}).get("windows") or {}
    until = str(windows.get("until") or "")
    gfx = base_gfx(str(agent.gfx.value))
    shown = facts.symptoms.ollama_versions
    versions = _shown_versions(facts)
    limit = parse_version(until)
    if limit is None:
        return unknown("no Windows release bound in the table")
    if versions and all(v >= limit for v in versions):
        return _windows_rocm7_lacks(gfx, versions, windows, shown)
    if gfx in (windows.get("targets") or []):
        return absent(SOURCE, f"ollama's Windows ROCm build has rocBLAS kernels for {gfx}")
    sdks = _windows_hip_sdks(windows)
    if not versions:
        every = ", ".join(sdk for _, sdk in sdks) or "an AMD HIP SDK"
        return known(f"ollama's Windows releases before {until} ship ROCm libraries (HIP SDK {every}, by release) "
                     f"without {gfx}", SOURCE)
    if all(v < limit for v in versions):
        if sdks and any(_release_row(sdks, v) is None for v in versions):
            return unknown(f"the report shows an ollama release before {sdks[0][0]}, whose Windows build had no ROCm backend")
        used = sorted({sdk for sdk in (_release_row(sdks, v) for v in versions) if sdk})
        built = f"HIP SDK {' and '.join(used)}" if used else "an AMD HIP SDK"
        return known(f"ollama {_releases(versions)} for Windows ships ROCm libraries ({built}) without {gfx}",
                     f"{shown.source or 'symptoms.ollama_versions'}; {SOURCE}")
    return unknown(f"the report shows ollama releases before and from {until} (HIP SDK and ROCm 7.1 builds); which one failed is not shown")


def _shown_versions(facts: Facts) -> List[Any]:
    """The ollama releases the report shows (symptoms.ollama_versions), parsed; none when it shows none."""
    shown = facts.symptoms.ollama_versions
    return [v for v in (parse_version(s) for s in (shown.value or [] if shown.is_known else [])) if v is not None]


def _releases(versions: List[Any]) -> str:
    """'0.6.0 and 0.12.5' for a finding's sentence."""
    return " and ".join(str(v) for v in sorted(set(versions)))


def _ranges(rows: List[Dict[str, Any]], value: Callable[[Dict[str, Any]], Any]) -> List[Tuple[Any, Any]]:
    """(first release, ``value(row)``) per row of a table's release ranges (each row's ``from``), oldest first;
    rows without a parsable release or a value are left out."""
    pairs = [(parse_version(str(row.get("from") or "")), value(row)) for row in rows]
    return sorted((pair for pair in pairs if pair[0] is not None and pair[1]), key=lambda pair: pair[0])


def _release_row(ranges: List[Tuple[Any, Any]], version: Any) -> Any:
    """The value of the range (:func:`_ranges`) ``version`` falls in: the last whose first release it is at or
    after; None before the first."""
    found = None
    for first, value in ranges:
        if version >= first:
            found = value
    return found


def _windows_hip_sdks(windows: Dict[str, Any]) -> List[Tuple[Any, Any]]:
    """(first release, HIP SDK) per release range of ollama's Windows ROCm build, oldest first."""
    return _ranges(windows.get("hip_sdk") or [], lambda row: str(row.get("sdk") or ""))


def _linux_range(agent: GpuAgent, tables: Tables) -> Optional[Dict[str, Any]]:
    gfx = base_gfx(str(agent.gfx.value))
    rows: List[Dict[str, Any]] = ((tables[TABLE] or {}).get("linux") or {}).get("ranges") or []
    return next((row for row in rows if row.get("gfx") == gfx), None)


def _range_words(row: Dict[str, Any]) -> str:
    """'before 0.18.0 and from 0.31.2 on' for a row of rules/data/ollama_rocm.yaml linux.ranges."""
    parts = []
    if row.get("first"):
        parts.append(f"before {row['first']}")
    if row.get("first_without"):
        parts.append(f"from {row['first_without']} on")
    return " and ".join(parts)


def _outside_range(row: Dict[str, Any], version: Any) -> bool:
    first = parse_version(str(row.get("first") or ""))
    first_without = parse_version(str(row.get("first_without") or ""))
    return (first is not None and version < first) or (first_without is not None and version >= first_without)


@gpu_fact(
    "ollama_linux_rocm_lacks_gfx",
    "What ollama's Linux ROCm build lacks for the GPU, for a target that only some releases built "
    "(rules/data/ollama_rocm.yaml linux.ranges: gfx1151 from 0.6.2, gfx1200/gfx1201 from 0.6.4, "
    "gfx950/gfx1150/gfx1103 from 0.18.0; gfx1010/gfx1012/gfx1103 no longer from 0.31.2): 'ollama X's Linux ROCm "
    "build has no <gfx> (built only by the releases ...)' when every release the report shows is outside the "
    "target's range; 'ollama's Linux ROCm builds before F ... have no <gfx>' when the report shows none; absent "
    "when a release shown built it, for a target every release or none built, and on Windows (RD565's); unknown "
    "when the report shows releases on both sides or the GPU cannot be judged.",
)
def ollama_linux_rocm_lacks_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    instead = _judged_gpu(agent)
    if instead is not None:
        return instead
    if facts.host.os.is_known and facts.host.os.value == "windows":
        return absent(str(facts.host.os.source or "host.os"), "the report runs ollama on Windows, whose build is another table's")
    gfx = base_gfx(str(agent.gfx.value))
    row = _linux_range(agent, tables)
    if row is None:
        return absent(SOURCE, f"{gfx} is in every or in no Linux ROCm build of ollama's releases from 0.1.25, not in some only")
    words = _range_words(row)
    shown = facts.symptoms.ollama_versions
    versions = _shown_versions(facts)
    if not versions:
        return known(f"ollama's Linux ROCm builds {words} have no {gfx} kernels", SOURCE)
    lacking = [v for v in versions if _outside_range(row, v)]
    if len(lacking) == len(versions):
        return known(f"ollama {_releases(versions)}'s Linux ROCm build has no {gfx} kernels (its releases {words} were built without it)",
                     f"{shown.source or 'symptoms.ollama_versions'}; {SOURCE}")
    if not lacking:
        return absent(shown.source or "symptoms.ollama_versions", f"every ollama release the report shows built its Linux ROCm backend with {gfx}")
    return unknown(f"the report shows ollama releases on both sides of {gfx}'s range ({words}); which one failed is not shown")


def _windows_rocm7_lacks(gfx: str, versions: List[Any], windows: Dict[str, Any], shown: Fact) -> Fact:
    """ollama_windows_rocm_lacks_gfx for releases from 0.30.0 (ROCm 7.1 Windows build: windows.rocm7)."""
    rows = _ranges(windows.get("rocm7") or [], lambda row: row)
    used = [_release_row(rows, v) for v in versions]
    if not rows or any(row is None for row in used):
        return unknown("the table lists no Windows ROCm 7 target list for the release shown")
    lacking = [gfx not in (row.get("targets") or []) for row in used]
    if all(lacking):
        sdks = " and ".join(sorted({str(row.get("sdk")) for row in used if row}))
        return known(f"ollama {_releases(versions)} for Windows ships ROCm libraries (ROCm {sdks}) without {gfx}",
                     f"{shown.source or 'symptoms.ollama_versions'}; {SOURCE}")
    if not any(lacking):
        return absent(shown.source or "symptoms.ollama_versions", f"the Windows ROCm 7 build of every ollama release shown has {gfx}")
    return unknown(f"the report shows ollama releases whose Windows builds differ on {gfx}; which one failed is not shown")
