"""The GPU table (``rules/data/gpus.yaml``): PCI device id <-> gfx target <-> product.

Also the arithmetic of gfx names: KFD's decimal ``gfx_target_version``
(``major*10000 + minor*100 + stepping``) and the ``HSA_OVERRIDE_GFX_VERSION``
string (``major.minor.stepping``, decimal) map to the gfx name
``gfx{major}{minor:x}{stepping:x}`` (ROCR-Runtime libhsakmt.h / isa.cpp).

Public API (used by the GPU gatherer, the rules' derived facts and the fixes):

* :func:`lookup_pci` -- the :class:`GpuModel` of an AMD PCI device id, or None;
* :func:`models_for_gfx` -- every table row of a gfx target;
* :func:`model_for_name` -- the row a marketing name (``RX 6700 XT``, a ``names`` entry such as ``Radeon 660M``,
  lspci's ``Navi 22 [...]``) names;
* :func:`family_of` -- ``rdna3``, ``cdna3`` ... for a gfx target, or None;
* :func:`gfx_from_target_version` / :func:`target_version_from_gfx`;
* :func:`override_string` -- ``gfx1030`` -> ``"10.3.0"``; :func:`gfx_from_override`;
* :func:`vendor_name` -- ``0x1002`` -> ``AMD``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Dict, List, Optional, Tuple, Union

from rocm_doctor.data import load_table
from rocm_doctor.errors import InputError
from rocm_doctor.knowledge._tables import source_urls

TABLE = "gpus"

AMD_VENDOR_ID = "0x1002"
VENDOR_NAMES: Dict[str, str] = {"0x1002": "AMD", "0x10de": "NVIDIA", "0x8086": "Intel"}
"""PCI vendor ids of the GPU makers rocm-doctor reports as GPUs."""

_GFX_RE = re.compile(r"^gfx(\d{1,2})([0-9a-f])([0-9a-f])$")


@dataclass(frozen=True)
class GpuModel:
    """One row of the device table, joined with its gfx target's row."""

    device_id: str
    """``0x744c``: lower-case hex with ``0x``."""
    gfx: str
    product: str
    integrated: bool
    family: Optional[str]
    source: str
    verified: bool = True
    """False for an inferred row (its note says what is not verified)."""


def normalize_device_id(device_id: Union[str, int]) -> Optional[str]:
    """``744C``, ``0x744c``, ``29772`` (int) -> ``0x744c``; None if not a 16-bit id."""
    if isinstance(device_id, int):
        value = device_id
    else:
        text = device_id.strip().lower()
        if text.startswith("0x"):
            text = text[2:]
        try:
            value = int(text, 16)
        except ValueError:
            return None
    if not 0 <= value <= 0xFFFF:
        return None
    return f"0x{value:04x}"


def vendor_name(vendor_id: Union[str, int]) -> Optional[str]:
    """``AMD``, ``NVIDIA`` or ``Intel`` for their PCI vendor ids, None for any other."""
    return VENDOR_NAMES.get(normalize_device_id(vendor_id) or "")


def gfx_from_target_version(version: int) -> Optional[str]:
    """KFD ``gfx_target_version`` -> gfx name (90010 -> ``gfx90a``, 110501 -> ``gfx1151``).

    None for 0 (a CPU node) or a value out of the encoding's range.
    """
    if version <= 0:
        return None
    major, minor, stepping = version // 10000, (version // 100) % 100, version % 100
    if minor > 15 or stepping > 15:
        return None
    return f"gfx{major}{minor:x}{stepping:x}"


def split_gfx(gfx: str) -> Optional[Tuple[int, int, int]]:
    """``gfx90a`` -> (9, 0, 10); feature suffixes (``gfx90a:xnack-``) are ignored."""
    match = _GFX_RE.match(gfx.strip().lower().split(":", 1)[0])
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2), 16), int(match.group(3), 16)


def base_gfx(gfx: str) -> str:
    """``gfx90a:sramecc+:xnack-`` -> ``gfx90a`` (rocminfo and torch print the features)."""
    return gfx.strip().lower().split(":", 1)[0]


def target_version_from_gfx(gfx: str) -> Optional[int]:
    """``gfx1030`` -> 100300; None for a name that is not a gfx target."""
    parts = split_gfx(gfx)
    if parts is None:
        return None
    major, minor, stepping = parts
    return major * 10000 + minor * 100 + stepping


def override_string(gfx: str) -> Optional[str]:
    """The ``HSA_OVERRIDE_GFX_VERSION`` value naming a gfx target: ``gfx1030`` -> ``10.3.0``."""
    parts = split_gfx(gfx)
    if parts is None:
        return None
    return "{}.{}.{}".format(*parts)


def gfx_from_override(value: str) -> Optional[str]:
    """``11.0.0`` -> ``gfx1100``; None when libhsakmt would reject the value.

    libhsakmt accepts exactly three decimal numbers (major <= 63, minor and
    stepping <= 255); gfx names only exist for minor and stepping <= 15.
    """
    match = re.fullmatch(r"\s*(\d+)\.(\d+)\.(\d+)\s*", value)
    if match is None:
        return None
    major, minor, stepping = (int(g) for g in match.groups())
    if major > 63 or minor > 15 or stepping > 15:
        return None
    return f"gfx{major}{minor:x}{stepping:x}"


@lru_cache(maxsize=None)
def _models() -> Tuple[Dict[str, GpuModel], Dict[str, str]]:
    data = load_table(TABLE)
    where = f"rules/data/{TABLE}.yaml"
    if not isinstance(data, dict):
        raise InputError(f"{where}: must be a mapping with 'targets' and 'devices'")
    families: Dict[str, str] = {}
    for index, row in enumerate(data.get("targets") or []):
        if not isinstance(row, dict) or not row.get("gfx") or source_urls(row.get("source")) is None:
            raise InputError(f"{where}: targets[{index}] needs gfx and a source of public URLs")
        families[str(row["gfx"])] = str(row.get("family") or "")
    models: Dict[str, GpuModel] = {}
    for index, row in enumerate(data.get("devices") or []):
        if not isinstance(row, dict):
            raise InputError(f"{where}: devices[{index}] must be a mapping")
        for field in ("id", "gfx", "product", "source"):
            if not row.get(field):
                raise InputError(f"{where}: devices[{index}] needs field '{field}'")
        urls = source_urls(row["source"])
        if urls is None:
            raise InputError(f"{where}: devices[{index}].source must be a public URL or a list of them")
        device_id = normalize_device_id(str(row["id"]))
        if device_id is None:
            raise InputError(f"{where}: devices[{index}].id '{row['id']}' is not a hex PCI device id")
        gfx = str(row["gfx"])
        models[device_id] = GpuModel(
            device_id=device_id,
            gfx=gfx,
            product=str(row["product"]),
            integrated=bool(row.get("integrated", False)),
            family=families.get(gfx) or None,
            source=" ".join(urls),
            verified=bool(row.get("verified", True)),
        )
    return models, families


def lookup_pci(device_id: Union[str, int]) -> Optional[GpuModel]:
    """The table row of an AMD (vendor 0x1002) PCI device id, or None when it is not listed."""
    key = normalize_device_id(device_id)
    if key is None:
        return None
    return _models()[0].get(key)


def models_for_gfx(gfx: str) -> List[GpuModel]:
    """Every device row whose gfx target is ``gfx`` (feature suffixes ignored), in table order."""
    wanted = base_gfx(gfx)
    return [model for model in _models()[0].values() if model.gfx == wanted]


def family_of(gfx: str) -> Optional[str]:
    """The architecture family of a gfx target (``rdna3``, ``rdna3.5``, ``cdna3`` ...), None if unlisted."""
    return _models()[1].get(base_gfx(gfx)) or None


_NAME_NOISE = re.compile(r"\((?:tm|r)\)|\(.*?\)|\b(?:amd|ati|radeon|rx|pro|ai|instinct|graphics|series)\b", re.IGNORECASE)
_NAME_PREFIX = re.compile(r"^(?:(?:amd|ati|radeon|rx|pro|ai|instinct)\s*)+", re.IGNORECASE)


def name_key(variant: str) -> Optional[str]:
    """The key a product name is looked up by: ``AMD Radeon RX 6700 XT`` -> ``6700xt``.

    Lower case, without ``AMD``, ``Radeon``, ``RX``, ``PRO``, ``Instinct``, ``(TM)``, spaces and
    parenthesised notes; None when nothing with a digit is left (``Radeon Graphics`` names no
    single product).
    """
    text = _NAME_NOISE.sub(" ", variant.lower())
    key = re.sub(r"[^0-9a-z]", "", text)
    key = _NAME_PREFIX.sub("", key)
    if not key or not any(ch.isdigit() for ch in key) or len(key) > 16:
        return None
    return key


def name_variants(name: str) -> List[str]:
    """The names a ``/``-separated product string stands for (``6700/6700 XT`` -> two)."""
    return [part for part in re.split(r"\s*/\s*", name) if part.strip()]


# Between the words of a code name: spaces, or the hyphen and underscore of a slug ("strix-halo", "navi_22").
_WORD_GAP = r"[\s_-]*"


@dataclass(frozen=True)
class _Codename:
    pattern: "re.Pattern[str]"
    length: int
    model: GpuModel


@lru_cache(maxsize=1)
def _codenames() -> Tuple[_Codename, ...]:
    """The ``codenames`` rows as whole-word patterns, longest name first."""
    data = load_table(TABLE)
    where = f"rules/data/{TABLE}.yaml"
    families = _models()[1]
    rows: List[_Codename] = []
    for index, row in enumerate(data.get("codenames") or []):
        if not isinstance(row, dict) or not row.get("name") or not row.get("gfx") or not row.get("source"):
            raise InputError(f"{where}: codenames[{index}] needs name, gfx and source")
        gfx = str(row["gfx"])
        if gfx not in families:
            raise InputError(f"{where}: codenames[{index}].gfx '{gfx}' is not in targets")
        words = [re.escape(w) for w in str(row["name"]).lower().split()]
        # the words may also be joined by a hyphen or an underscore: "strix-halo" in an image or repository
        # name (kyuz0/amd-strix-halo-toolboxes) is Strix Halo, not Strix (learn51b)
        pattern = re.compile(r"(?<![0-9a-z])" + _WORD_GAP.join(words) + r"(?![0-9a-z])")
        model = GpuModel(
            device_id="",
            gfx=gfx,
            product=str(row["name"]),
            integrated=bool(row.get("integrated", False)),
            family=families.get(gfx) or None,
            source=str(row["source"]),
        )
        rows.append(_Codename(pattern=pattern, length=len(str(row["name"])), model=model))
    return tuple(sorted(rows, key=lambda r: -r.length))


@lru_cache(maxsize=1)
def codename_regex() -> "re.Pattern[str]":
    """One pattern that finds any of the table's code names in running text (case-insensitive)."""
    # Longest first (a longer name hides a shorter one inside it), then by name: never by hash order.
    names = sorted({str(row.model.product) for row in _codenames()}, key=lambda name: (-len(name), name))
    if not names:
        return re.compile(r"(?!x)x")
    words = [_WORD_GAP.join(re.escape(w) for w in name.split()) for name in names]
    return re.compile(r"(?<![0-9A-Za-z])(?:" + "|".join(words) + r")(?![0-9A-Za-z])", re.IGNORECASE)


@lru_cache(maxsize=4096)
def models_for_codename(name: str) -> Tuple[GpuModel, ...]:
    """The code-name rows named as whole words in ``name`` (``Navi 22 [Radeon RX 6700 XT]`` ->
    Navi 22); a longer code name hides the shorter ones inside it (``Strix Halo`` is not ``Strix``)."""
    text = name[:200].lower()
    found: List[GpuModel] = []
    for row in _codenames():
        match = row.pattern.search(text)
        if match is not None:
            found.append(row.model)
            text = text[: match.start()] + " " * (match.end() - match.start()) + text[match.end():]
    return tuple(found)


@lru_cache(maxsize=1)
def _named() -> Tuple[Tuple[str, GpuModel], ...]:
    """The ``names`` rows: (marketing name, the device row it names), in table order.

    A row names a device of ``devices`` by its id and lists more names that device is sold as (libdrm's
    amdgpu.ids); the gfx target and whether it is integrated come from the device row, never from here.
    """
    data = load_table(TABLE)
    where = f"rules/data/{TABLE}.yaml"
    devices = _models()[0]
    out: List[Tuple[str, GpuModel]] = []
    for index, row in enumerate(data.get("names") or []):
        if not isinstance(row, dict) or not row.get("id") or not isinstance(row.get("names"), list) or not row["names"]:
            raise InputError(f"{where}: names[{index}] needs id and a list of names")
        if source_urls(row.get("source")) is None:
            raise InputError(f"{where}: names[{index}].source must be a public URL or a list of them")
        model = devices.get(normalize_device_id(str(row["id"])) or "")
        if model is None:
            raise InputError(f"{where}: names[{index}].id '{row['id']}' is not a row of devices")
        for name in row["names"]:
            if not isinstance(name, str) or name_key(name) is None:
                raise InputError(f"{where}: names[{index}]: {name!r} is not a product name with a number")
            # the device row's gfx, integrated and source, under the name it is sold as
            out.append((name, replace(model, product=name, source=" ".join([model.source, *source_urls(row["source"])]))))
    return tuple(out)


@lru_cache(maxsize=1)
def _name_index() -> Dict[str, List[GpuModel]]:
    index: Dict[str, List[GpuModel]] = {}
    for model in _models()[0].values():
        for variant in name_variants(model.product):
            key = name_key(variant)
            if key is not None:
                index.setdefault(key, []).append(model)
    # A name sold on two chips (libdrm: "RX 6750 GRE 12GB" is Navi 22, "10GB" Navi 23) gets both rows here, so
    # that model_for_name gives none for it.
    for name, model in _named():
        index.setdefault(str(name_key(name)), []).append(model)
    return index


@lru_cache(maxsize=4096)
def model_for_name(name: str) -> Optional[GpuModel]:
    """The table row a GPU's marketing name stands for, or None when it is unknown or ambiguous.

    People and tools spell names many ways (``AMD Radeon RX 6700 XT``, ``RX580``, ``7900xt``,
    lspci's ``Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M]``). The name is cut at ``/``
    into variants, each reduced to its :func:`name_key` and looked up among the keys of the
    table's product names, and the name is searched for the table's code names (``Navi 21``,
    ``Cezanne``, ``Strix Halo``); it gives a row only when everything that matched agrees on one
    gfx target (a device row when one matched, else the code name's row). A broken table gives None here (pasted text must still be read; the GPU
    gatherer reports the table error).
    """
    try:
        index = _name_index()
    except Exception:  # noqa: BLE001 - a broken table must not break reading pasted text
        return None
    found: List[GpuModel] = []
    for variant in name_variants(name[:200]):
        key = name_key(variant)
        if key is not None and key in index:
            found.extend(index[key])
    try:
        codenamed = models_for_codename(name)
    except Exception:  # noqa: BLE001 - same as above
        codenamed = ()
    candidates = found + list(codenamed)
    if not candidates or len({m.gfx for m in candidates}) != 1:
        return None
    return found[0] if found else codenamed[0]


def table_source() -> str:
    """The name used as the ``source`` of facts taken from this table."""
    return f"rules/data/{TABLE}.yaml"
