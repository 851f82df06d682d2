"""Labelled fields in every decoration: ``* GPU: ...``, ``1. OS: ...``, ``- **Hardware:** ...``,
``GPU — RX 7900 XTX``, ``| OS | Windows 11 |`` and issue-template sections (``### GPU``
followed by the value on the next line).

The labels and their synonyms are data (``rules/data/report_fields.yaml``); each
label says what kind of value follows. Values are read with a grammar per kind:

* ``os``: ``Win 11 24H2``, ``Windows 10 Pro``, ``Windows 10.0.26200``, ``Ubuntu 24.04 (WSL2)``,
  ``Ubuntu 22.04 on WSL``, ``WSL2 Ubuntu 22.04``, ``Arch``, ``Fedora 41``, ``Linux``, ``Docker``;
* ``gpu`` / ``hardware``: lists (``2x RX 7900 XT``, ``8x MI355X``, ``MI210, RX 6600``,
  ``7900XTX + iGPU``), gfx targets, marketing names and code names through the GPU table,
  and for ``hardware`` also a CPU name;
* ``cpu``: a CPU name (``7800X3D`` alone too), whose integrated GPU the CPU table knows;
* ``kernel``, ``rocm``, ``driver``, ``python``, ``torch``, ``wsl``: version grammars.

Several fields on one line (``GPU: RX 6600, OS: Ubuntu 22.04``) are read one by one.
Every observation is at the trust of a labelled field.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Dict, List, Optional, Pattern, Tuple

from rocm_doctor.data import load_table
from rocm_doctor.errors import InputError
from rocm_doctor.knowledge.gpu_table import codename_regex, model_for_name
from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import COUNT_FIELD, GFX_RE, gfx_of, gpu_fields, make_piece, torch_version_observations
from rocm_doctor.ingest.formats.mentions import GPU_NAME_PATTERNS
from rocm_doctor.ingest.formats.platform_strings import distro_observations, kernel_observations, windows_observations
from rocm_doctor.ingest.model import TRUST_TEMPLATE, GpuSighting, Observation, Piece
from rocm_doctor.knowledge._tables import need_rows, where
from rocm_doctor.knowledge.adrenalin import release_of_windows_driver
from rocm_doctor.knowledge.cpus import cpu_family, igpu_for_cpu
from rocm_doctor.lazy_regex import when_used

TABLE = "report_fields"
KINDS = ("os", "gpu", "hardware", "cpu", "kernel", "rocm", "driver", "python", "torch", "wsl")
# Each run of blanks below follows a character it needs, so a line of blanks is read once, not once per
# way to share it out between neighbouring [ \t]* (quadratic, and cubic in the inline pattern).
_DECOR = r"[ \t]*(?:>[ \t]*)*(?:(?:[*+\-•]|\d{1,2}[.)])[ \t]+)?(?:(?:\*\*|__|\*|_|`)[ \t]*)?"
_CLOSE = r"[ \t]*(?:(?:\*\*|__|\*|_|`)[ \t]*)?"
_SEPARATOR = r"(?:[:：]|=(?!=)|->|[-–—](?=[ \t]))"
"""``torch==2.0.1+cu118`` at the start of a line is a requirement pin (a wrapped ``pip install`` line, a
requirements file), read where pins are (mentions, pip freeze), not a labelled ``Torch = 2.0.1`` field."""
_EXAMPLE_WORDS = r"(?:e\.\s?g\.?|eg\.|for\s+example|example)"
_LABEL_EXAMPLE = rf"(?:\({_EXAMPLE_WORDS}[,:]?[^()\n]{{0,80}}\)[ \t]*)?"
"""A template's example between a field's label and its colon: PyTorch's bug-report template asks
`` - PyTorch Version (e.g., 1.0):`` and `` - OS (e.g., Linux):`` (https://github.com/pytorch/pytorch/blob/dfb94b9717803b11ec9613c70a6812a9ace041f4/.github/ISSUE_TEMPLATE/bug-report.md,
copied by pytorch/opacus and others): the answer is what follows the colon, never the example."""
_TEMPLATE_EXAMPLE = when_used(rf"^[\[(]?\s*{_EXAMPLE_WORDS}\b", re.IGNORECASE)
"""A value that is still the template's example (``- PyTorch version: [e.g. 2.1.0]``, ``OS : (e.g. Linux,
Windows, MacOS)``): the field was left unanswered."""
_ITEM_SPLIT = when_used(r"(?<!\s)\s*(?:[,;，]|\s\+\s|\+(?=\s*i?GPU)|\band\b|&|\bplus\b)\s*", re.IGNORECASE)
_COUNT_AFTER = when_used(r"(?<!\s)(?:\s*[x×*]\s?(\d{1,2})|\s*\((?:x\s?)?(\d{1,2})\s?x?\))\s*$", re.IGNORECASE)
_IGPU_ITEM = when_used(r"^\s*(?:AMD\s+)?(?:the\s+)?(?:iGPU|APU|integrated(?:\s+(?:GPU|graphics))?)\b", re.IGNORECASE)
_VENDOR_ITEM = when_used(r"^\s*(AMD|Radeon|ATI|NVIDIA|Nvidia|Intel)(?:\s+GPU)?\s*$", re.IGNORECASE)
_BARE_CPU = when_used(r"^\s*(?:AMD\s+)?(\d{3,4}(?!\d)[A-Z0-9]{0,4})\s*$", re.IGNORECASE)
_WINDOWS_DRIVER = when_used(r"(?<![\d.])(\d{2}\.\d{1,2}\.\d{1,2}(?:\.\d{1,2})?)(?![\d.])")
_WINDOWS_DRIVER_STORE = when_used(r"(?<![\d.])(3\d\.0\.\d{5}\.\d{1,5})(?![\d.])")
"""AMD's driver-store version as Windows shows it (``32.0.12011.1036``); NVIDIA's (``32.0.15.9186``) and Intel's
(``32.0.101.6790``) have a short third part, so they never match."""
_WINDOWS_DRIVER_INTERNAL = when_used(r"(?<![\d.])(\d{2}\.\d{2}\.\d{2}\.\d{2})(?![\d.])")
"""AMD Software's internal driver build (``24.20.11.01``, ``24.20.11.01-240910a-...``)."""
_LINUX_DRIVER = when_used(r"(?<![\d.])(\d\.\d{1,2}\.\d{1,2})(?![\d.])")
_VERSION = when_used(r"(?<![\d.])v?(\d+\.\d+(?:\.\d+)?)")


@lru_cache(maxsize=1)
def labels() -> Dict[str, str]:
    """Lower-cased label -> kind, from the table; a malformed table is an InputError."""
    data = load_table(TABLE)
    rows = need_rows(data.get("fields") if isinstance(data, dict) else None, TABLE, "fields", source_key="sources")
    out: Dict[str, str] = {}
    for index, row in enumerate(rows):
        if row.get("kind") not in KINDS or not isinstance(row.get("labels"), list):
            raise InputError(f"{where(TABLE, f'fields[{index}]')} needs a kind ({', '.join(KINDS)}) and a labels list")
        for label in row["labels"]:
            out[str(label).lower()] = str(row["kind"])
    return out


@lru_cache(maxsize=1)
def _patterns() -> Tuple[Pattern[str], Pattern[str], Pattern[str], Pattern[str]]:
    names = sorted(labels(), key=len, reverse=True)
    alternation = "|".join(r"[ \t]+".join(re.escape(word) for word in name.split()) for name in names)
    label = rf"(?P<label>{alternation})"
    line = re.compile(rf"^{_DECOR}{label}{_CLOSE}{_LABEL_EXAMPLE}{_SEPARATOR}{_CLOSE}(?P<value>[^\n]*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)
    heading = re.compile(
        rf"^[ \t]*(?:#{{1,6}}{_CLOSE}{label}{_CLOSE}#*|(?:\*\*|__){label.replace('label', 'bold')}[ \t]*:?(?:\*\*|__)[ \t]*:?)[ \t]*$",
        re.IGNORECASE | re.MULTILINE,
    )
    table = re.compile(rf"^[ \t]*\|[ \t]*(?:\*\*|`)?{label}(?:\*\*|`)?[ \t]*:?[ \t]*\|[ \t]*(?P<value>[^|\n]*?)[ \t]*\|", re.IGNORECASE | re.MULTILINE)
    inline = re.compile(rf"(?:^[ \t]*|[,;，|][ \t]*|(?<!\s)\s{{2,}}){label}[ \t]*[:：][ \t]*", re.IGNORECASE)
    return line, heading, table, inline


def _kind(label: str) -> Optional[str]:
    return labels().get(re.sub(r"\s+", " ", label.strip().lower()))


# ------------------------------------------------------------------ value grammars


_DENIED_BEFORE = when_used(r"\b(?:not|no|without|outside)\b[^.,;]{0,20}$")
_NO = when_used(r"^\W*(?:no|none|n/?a|false|not used|not using|-+)\W*$", re.IGNORECASE)
# A ``WSL:`` field that starts by denying it ("not installed", "No, native", "native Ubuntu") names no WSL.
_WSL_DENIED = when_used(r"^\W*(?:no|not|none|never|native|bare[ -]?metal)\b", re.IGNORECASE)


def _wsl(value: str, line: Line) -> List[Observation]:
    """A ``WSL:`` field: ``yes``/``2``/``WSL2``/a distro mean WSL 2, ``1`` means WSL 1, ``no`` means none."""
    text = value.strip()
    if not text or _NO.match(text) or _WSL_DENIED.match(text):
        return []
    version = 1 if re.fullmatch(r"(?:wsl\s?)?(?:version\s*)?1(?:\.\d+)*", text, re.IGNORECASE) else 2
    return [Observation("host.os", "linux", line, TRUST_TEMPLATE), Observation("host.wsl_version", version, line, TRUST_TEMPLATE)]


def _os(value: str, line: Line) -> List[Observation]:
    text = value.strip()
    lowered = text.lower()
    out: List[Observation] = []
    wsl = re.search(r"\bwsl\s?2?\b", lowered)
    if wsl and _DENIED_BEFORE.search(lowered[: wsl.start()]):
        lowered = lowered[: wsl.start()]  # "Windows 11 (not using WSL)": the rest is the OS
        text = re.sub(r"[\s(\[,;-]*(?:not|no|without)\b.*$", "", text[: wsl.start()], flags=re.IGNORECASE).strip()
        wsl = None
    if wsl:
        out += [Observation("host.os", "linux", line, TRUST_TEMPLATE), Observation("host.wsl_version", 2, line, TRUST_TEMPLATE)]
        rest = re.sub(r"\(?\s*(?:on\s+|under\s+|in\s+|\+\s*)?wsl\s?2?\s*\)?", " ", text, flags=re.IGNORECASE).strip(" -/,")
        distro = [o for o in distro_observations(rest, line, TRUST_TEMPLATE) if o.path != "host.os"]
        return out + distro
    if re.match(r"^(?:microsoft\s+)?win(?:dows?)?\s*(?:10|11)?\b", lowered):
        text = re.sub(r"^(?:microsoft\s+)?win(?:dows?)?\s*(?=\d)", "Windows ", text, flags=re.IGNORECASE)
        return windows_observations(text, line, TRUST_TEMPLATE)
    if lowered in ("linux", "gnu/linux"):
        return [Observation("host.os", "linux", line, TRUST_TEMPLATE)]
    if lowered == "docker":
        return [Observation("host.container", "docker", line, TRUST_TEMPLATE), Observation("host.os", "linux", line, TRUST_TEMPLATE)]
    if re.match(r"^arch\b", lowered) and not lowered.startswith("arch linux"):
        text = "Arch Linux" + text[4:]
    if lowered.startswith("rhel"):
        text = "Red Hat Enterprise Linux" + text[4:]
    return distro_observations(text, line, TRUST_TEMPLATE)


def _gpu_item(item: str, line: Line, position: int) -> List[GpuSighting]:
    count_match = _COUNT_AFTER.search(item)
    count = 1
    if count_match:
        count = int(count_match.group(1) or count_match.group(2))
        item = item[: count_match.start()]
    lead = re.match(r"^\s*(\d{1,2})\s?[x×*]\s*", item)
    if lead:
        count, item = int(lead.group(1)), item[lead.end() :]
    count = max(1, min(count, 16))
    if _IGPU_ITEM.match(item):
        fields = {"integrated": True, "vendor": "AMD", "name": "integrated GPU (" + item.strip() + ")"}
        return [GpuSighting("report", position, line, fields)]
    vendor = _VENDOR_ITEM.match(item)
    if vendor:
        name = vendor.group(1).upper()
        return [GpuSighting("report", position, line, {"vendor": {"RADEON": "AMD", "ATI": "AMD"}.get(name, name.title() if name != "NVIDIA" else "NVIDIA")})]
    targets = [gfx_of(m.group(0)) for m in GFX_RE.finditer(item)]
    targets = [t for t in targets if t]
    name = _gpu_name(item)
    if name is None and not targets:
        if re.search(r"\b(?:AMD|Radeon|Instinct)\b", item, re.IGNORECASE):
            fields = {"name": item.strip()[:80], "vendor": "AMD"}
            if count > 1:
                fields[COUNT_FIELD] = count
            return [GpuSighting("report", position, line, fields)]
        return []
    gfx = targets[0] if len(set(targets)) == 1 else None
    fields = gpu_fields(name=name, gfx=gfx)
    if count > 1:
        fields[COUNT_FIELD] = count
    return [GpuSighting("report", position, line, fields)]


def _gpu_name(item: str) -> Optional[str]:
    """The GPU product the item names (the whole item, else the name inside it), via the GPU table."""
    if model_for_name(item) is not None:
        return item.strip()
    for pattern in GPU_NAME_PATTERNS:
        for match in pattern.finditer(item):
            if model_for_name(match.group(0)) is not None:
                return match.group(0).strip()
    match = codename_regex().search(item)
    return match.group(0) if match and model_for_name(match.group(0)) is not None else None


def _gpus(value: str, line: Line, position: int) -> List[GpuSighting]:
    out: List[GpuSighting] = []
    targets = [gfx_of(m.group(0)) for m in GFX_RE.finditer(value)]
    if len({t for t in targets if t}) > 1 and not any(c.isspace() for c in re.sub(r"gfx\w+", "", value).strip(" ,;/")):
        return [GpuSighting("report", position + i, line, gpu_fields(gfx=t)) for i, t in enumerate(t for t in targets if t)]
    for item in _ITEM_SPLIT.split(value):
        if item.strip():
            found = _gpu_item(item, line, position + len(out))
            if not found and len(item) > 3:
                # "Radeon 8060S (gfx1151)" inside a longer phrase: the first name in it
                found = _gpu_item(re.sub(r"\(.*?\)", " ", item), line, position + len(out))
            out += found
    return out


def _cpu(value: str, line: Line) -> Tuple[List[Observation], List[GpuSighting]]:
    name = value.strip()
    if not name:
        return [], []
    lookup = name
    bare = _BARE_CPU.match(name)
    if bare and cpu_family("Ryzen " + bare.group(1)) is not None:
        lookup = "Ryzen " + bare.group(1)  # "CPU: 7800X3D" names a Ryzen only when the table knows that model
    observations = [Observation("cpu.model", name, line, TRUST_TEMPLATE)]
    if re.search(r"\b(?:AMD|Ryzen|Threadripper|Athlon|EPYC)\b", name, re.IGNORECASE) or lookup != name:
        observations.append(Observation("cpu.vendor", "AMD", line, TRUST_TEMPLATE))
    elif re.search(r"\b(?:Intel|Core|Xeon)\b", name, re.IGNORECASE):
        observations.append(Observation("cpu.vendor", "Intel", line, TRUST_TEMPLATE))
    igpu = igpu_for_cpu(lookup)
    gpus: List[GpuSighting] = []
    if igpu is not None:
        fields = gpu_fields(gfx=igpu.gfx)
        fields.update({"integrated": True, "name": f"{igpu.name} (the iGPU of {name})"})
        gpus.append(GpuSighting("cpu", 0, line, fields))
    return observations, gpus


def _driver(value: str, line: Line) -> List[Observation]:
    lowered = value.lower()
    if "amdgpu" in lowered or "dkms" in lowered:
        match = _LINUX_DRIVER.search(value)
        return [Observation("driver.amdgpu_version", match.group(1), line, TRUST_TEMPLATE)] if match else []
    # drv63: Windows' driver-store version ("Driver Version: 32.0.31021.5001", vosen/ZLUDA#659; ollama#16423; the
    # same numbering beside its release in lshqqytiger/ZLUDA#1 "31.0.24002.92, adrenalin 24.1.1" and in AMD Software's
    # system info, hanamizuki-ai/launcher-support#64) names a release only through AMD's list
    # (rules/data/adrenalin_releases.yaml); AMD Software's internal build (24.20.11.01-240910a-...) is no release at all.
    store = _WINDOWS_DRIVER_STORE.search(value)
    if store:
        release = release_of_windows_driver(store.group(1))
        return [Observation("windows.driver_version", release, line, TRUST_TEMPLATE)] if release else []
    if _WINDOWS_DRIVER_INTERNAL.search(value):
        return []
    match = _WINDOWS_DRIVER.search(value)
    if match and ("adrenalin" in lowered or int(match.group(1).split(".")[0]) >= 20):
        return [Observation("windows.driver_version", match.group(1), line, TRUST_TEMPLATE)]
    return []


def _field(kind: str, value: str, line: Line, gpus: List[GpuSighting]) -> List[Observation]:
    value = re.sub(r"^(?:\*\*|__|`)+|(?:\*\*|__|`)+$", "", value.strip()).strip()
    if not value or value.lower() in ("n/a", "na", "none", "-", "_no response_", "no response") or _TEMPLATE_EXAMPLE.match(value):
        return []
    if kind == "os":
        return _os(value, line)
    if kind in ("gpu", "hardware"):
        out: List[Observation] = []
        gpus += _gpus(value, line, len(gpus))
        if kind == "hardware" and re.search(r"\b(?:Ryzen|Threadripper|EPYC)\b", value, re.IGNORECASE):
            cpu = re.search(r"(?:AMD\s+)?(?:Ryzen|Threadripper|EPYC)[^,;()]*", value, re.IGNORECASE)
            if cpu:
                observations, igpus = _cpu(cpu.group(0), line)
                out += observations
                gpus += igpus
        return out
    if kind == "cpu":
        observations, igpus = _cpu(value, line)
        gpus += igpus
        return observations
    if kind == "kernel":
        # a release at the start of the value (after "Linux"/"v"), not any number in it
        token = re.match(r"^\s*(?:linux\s+)?v?([2-9]\.\d{1,2}(?:\.\d{1,3})?[^\s,;)]*)", value, re.IGNORECASE)
        return kernel_observations(token.group(1), line, TRUST_TEMPLATE) if token else []
    if kind == "rocm":
        pair = re.match(r"^\(\s*(\d+)\s*,\s*(\d+)\s*\)$", value)
        if pair:
            # ComfyUI's start-up banner prints torch.version.hip as a tuple: the ROCm torch was built for.
            return [Observation("torch.rocm_version", f"{pair.group(1)}.{pair.group(2)}", line, TRUST_TEMPLATE)]
        match = _VERSION.search(value)
        return [Observation("rocm.version", match.group(1), line, TRUST_TEMPLATE)] if match else []
    if kind == "python":
        match = re.search(r"(?<![\d.])(3\.\d{1,2}(?:\.\d{1,2})?)", value)
        return [Observation("python.version", match.group(1), line, TRUST_TEMPLATE)] if match else []
    if kind == "torch":
        token = re.search(r"(?<!\d)\d+\.\d+(?:\.\d+)?\S*", value)
        return torch_version_observations(token.group(0).rstrip(".,;)"), line, TRUST_TEMPLATE) if token else []
    if kind == "driver":
        return _driver(value, line)
    if kind == "wsl":
        return _wsl(value, line)
    return []


def _segments(value: str) -> List[Tuple[Optional[str], str]]:
    """``RX 6600, OS: Ubuntu 22.04`` -> [(None, RX 6600), (OS, Ubuntu 22.04)]: further labelled fields on the line."""
    inline = _patterns()[3]
    out: List[Tuple[Optional[str], str]] = []
    last_label: Optional[str] = None
    last_end = 0
    for match in inline.finditer(value):
        if match.start() == 0 and last_end == 0 and not value[: match.start()].strip():
            continue
        out.append((last_label, value[last_end : match.start()]))
        last_label, last_end = match.group("label"), match.end()
    out.append((last_label, value[last_end:]))
    return out


def _next_value(block: Block, index: int) -> Optional[Line]:
    """The line holding a heading's value: the next non-empty one, unless it is another heading."""
    for line in block.lines[index + 1 : index + 4]:
        text = line.text.strip()
        if not text:
            continue
        if text.startswith("#") or _patterns()[1].match(text):
            return None
        return line
    return None


def parse(block: Block) -> List[Piece]:
    line_re, heading_re, table_re, _ = _patterns()
    out: List[Observation] = []
    gpus: List[GpuSighting] = []
    used: List[Line] = []
    seen: set = set()

    def read(kind: Optional[str], value: str, line: Line) -> None:
        if kind is None:
            return
        before = (len(out), len(gpus))
        out.extend(_field(kind, value, line, gpus))
        if (len(out), len(gpus)) != before:
            used.append(line)

    for match, line in block.scan(line_re):
        seen.add(line.number)
        for label, value in _segments(match.group("value")):
            read(_kind(label or match.group("label")), value, line)
    for match, line in block.scan(table_re):
        if line.number not in seen:
            seen.add(line.number)
            read(_kind(match.group("label")), match.group("value"), line)
    if "#" in block.text or "**" in block.text or "__" in block.text:
        for match, line in block.scan(heading_re):
            target = _next_value(block, block.index_at(match.start()))
            if target is not None and target.number not in seen:
                seen.add(target.number)
                read(_kind(match.group("label") or match.group("bold")), target.text, target)
    return [make_piece("report-fields", used, out, gpus)] if used else []
