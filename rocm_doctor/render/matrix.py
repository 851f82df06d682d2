"""The human answer of ``rocm-doctor matrix``: which torch builds run on a GPU, newest first."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from rocm_doctor.shells import wrapped

WIDTH = 80
"""Commands are broken with the shell's line continuation to fit this width (copy-paste still works)."""
_STATUS = {"release_ready": "release-ready", "build_only": "builds only (not release-ready)", None: "not built"}


def _span(items: List[str]) -> str:
    plain = [p for p in items if not p.endswith("t")]
    if len(plain) > 2:
        return f"{plain[0]}–{plain[-1]}"
    return ", ".join(plain)


def target_lines(entry: Dict[str, Any], shell: Optional[str] = None) -> List[str]:
    """One gfx target: the GPUs, every build with kernels for it, and the install commands check would give."""
    names = _products(entry)
    products = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    family = f" ({entry['family']})" if entry.get("family") else ""
    lines = [f"{entry['gfx']}{family}: {products or 'no product in the GPU table'}", ""]
    lines.append("PyTorch builds with kernels for it, newest first:")
    builds = 0
    for row in entry["pytorch_org"]:
        tag = "" if row["channel"] == "stable" else f" [{row['channel']} channel]"
        maybe = "" if row["kernels"] == "yes" else " (kernels uncertain)"
        lines.append(
            f"  torch {row['torch']}  pytorch.org  ROCm {', '.join(row['rocm'])}  "
            f"Python {_span(row['python'])}  Linux x86_64{tag}{maybe}"
        )
        builds += 1
    rock = entry["therock"]
    for platform in ("linux", "windows"):
        if rock[platform] == "release_ready" and rock["device_extra"]:
            lines.append(f"  torch[{rock['device_extra']}]  TheRock multi-arch ({platform}, development stream)")
            builds += 1
    for row in entry["amd_windows"]:
        preview = ", preview" if row["preview"] else ""
        unlisted = "" if row["runtime_supports_gfx"] else " (not in AMD's Windows GPU list)"
        lines.append(f"  torch {row['torch']}  AMD Windows wheels  ROCm {row['rocm']}  Python {', '.join(row['python'])}{preview}{unlisted}")
        builds += 1
    if not builds:
        lines.append("  none: no PyTorch build rocm-doctor knows (pytorch.org, AMD's Windows wheels, TheRock) carries kernels for this target")
    for platform in ("linux", "windows"):
        default = "powershell" if platform == "windows" else "bash"
        lines += ["", *_recommended(entry["recommended"][platform], platform, shell or default)]
    override = entry.get("override")
    if override:
        kind = "recommended" if override["recommended"] else "documented, not recommended"
        source = override["source"] if isinstance(override["source"], str) else " ".join(override["source"])
        lines += ["", f"Override ({kind}): {override['variable']}={override['value']} ({source})"]
    supported = [_range(r["rocm"]) for r in entry["rocm_linux"] if r["supported"] is True]
    if supported:
        lines += ["", f"In AMD's Linux compatibility matrix for ROCm {'; '.join(supported)}"]
    return lines


def _products(entry: Dict[str, Any]) -> List[str]:
    return list(dict.fromkeys(g["product"] for g in entry["gpus"]))


def _range(spec: str) -> str:
    """``<6.4.1,>=6.0`` -> ``>=6.0,<6.4.1`` (lower bound first, as people read a range)."""
    return ",".join(sorted(spec.split(","), key=lambda part: (not part.startswith(">"), part)))


def _recommended(found: Dict[str, Any], platform: str, shell: str) -> List[str]:
    name = "Linux" if platform == "linux" else "Windows"
    build = found.get("build")
    if build is None:
        return [f"On {name}, check would install nothing: {found.get('why_not')}"]
    rocm = f" (ROCm {build['rocm']})" if build.get("rocm") else ""
    lines = [f"On {name}, check installs torch {build['torch']}{rocm} from {build['route']}:"]
    for argv in found["commands"]:
        lines += [f"  {line}" for line in wrapped(shell, argv, WIDTH, "  ")]
    lines += [f"  note: {note}" for note in found.get("notes", [])]
    return lines


def summary_lines(document: Dict[str, Any]) -> List[str]:
    """Every gfx target on one line: newest pytorch.org torch, TheRock, AMD Windows."""
    lines = [f"{'gfx':<9} {'pytorch.org':<13} {'TheRock linux':<15} {'AMD Windows':<12} GPUs"]
    for entry in document["targets"]:
        stable = [r for r in entry["pytorch_org"] if r["channel"] == "stable"]
        newest = f"torch {stable[0]['torch']}" if stable else "-"
        rock = "ready" if entry["therock"]["linux"] == "release_ready" else ("build only" if entry["therock"]["linux"] else "-")
        listed = [r for r in entry["amd_windows"] if r["runtime_supports_gfx"]]
        windows = f"torch {listed[0]['torch'].split('+')[0]}" if listed else ("unlisted" if entry["amd_windows"] else "-")
        names = _products(entry)
        gpus = ", ".join(names[:2]) + (f" +{len(names) - 2}" if len(names) > 2 else "")
        lines.append(f"{entry['gfx']:<9} {newest:<13} {rock:<15} {windows:<12} {gpus}")
    lines += ["", "`rocm-doctor matrix --gfx GFX` (or --gpu NAME) shows one target with the exact install commands."]
    return lines
