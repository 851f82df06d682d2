"""Helpers every format parser shares: building pieces, torch version facts, GPU sightings."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Dict, List, Optional, Sequence

from rocm_doctor.knowledge import gpu_table
from rocm_doctor.knowledge.torch_static import local_tag
from rocm_doctor.knowledge.torch_identity import TorchIdentity, identify
from rocm_doctor.ingest.blocks import Line
from rocm_doctor.knowledge.gpu_table import model_for_name
from rocm_doctor.ingest.model import TRUST_TOOL, GpuSighting, Observation, Piece
from rocm_doctor.lazy_regex import when_used

GFX_RE = when_used(r"\bgfx(\d{1,2}[0-9a-f]{2})\b(?::[a-z+-]+(?::[a-z+-]+)?)?", re.IGNORECASE)
TORCH_VERSION_RE = when_used(r"^\d+\.\d+(?:\.\d+)?(?:(?:a|b|rc|\.dev|\.post)\d+)*(?:\+[0-9A-Za-z.]+)?$")


REPORTED_SPEECH = (
    r"\b(?:(?:some(?:one|body)|people|others?|(?:(?:an)?other|some|many|several|few)\s{1,4}users?|he|she|they|the\s{1,4}(?:op|author|maintainer|reporter|commenter)|(?<=@)[\w-]{1,40})"
    r"\s{1,4}(?:wrote|writes|said|says|commented|posted|reported|mentioned|suggested|claimed|claims|say|report|reports|mention|claim)"
    # "a user" / "one user" is one person: no base form of the verb after it ("a user report" is a noun, the
    # reporter's own: "Here is a user report from our lab: after the kernel update ROCm stopped working")
    r"|(?:a|one)\s{1,4}user\s{1,4}(?:wrote|writes|said|says|commented|posted|reported|reports|mentioned|mentions|suggested|claimed|claims))\b"
)
"""Words that give what follows as another person's ("In that issue someone wrote ...", "@user said ...", "the OP
mentioned ...", "Other users report that ...", "Some users report that ...", "A user reported that ...", "people say ..."): what they said of their machine is no statement of the reporter's. (A program "says" its
output - "rocminfo says no GPU" - and is no person here.)"""

DOCUMENT_SAYS = (
    r"\b(?:(?:readme|docs?|documentation|wiki|guide|tutorial|faq|instructions|manual|article|blog\s{1,4}post)\s{1,4}"
    # ov50: a document's example or page showing a value ("The wiki example shows HSA_OVERRIDE_GFX_VERSION=gfx1030, which is
    # wrong", "the guide's snippet uses ..."): the document's text, not this machine's setting
    r"(?:(?:(?:example|page|section|snippet|table)\s{1,4})?"
    r"(?:says?|said|states?|stated|mentions?|mentioned|claims?|claimed|tells?|told|reads?|writes|wrote|explains?|explained)"
    # rev50a: "shows"/"lists" only after the document's example, page, snippet: "The guide shows the GPU in rocminfo at that
    # step, but my rocminfo shows no GPU agent" is the reporter comparing their output with a screenshot, and the bare verb
    # took the reporter's rocminfo_lists_no_gpu_told away
    r"|(?:example|page|section|snippet|table)\s{1,4}(?:shows|showed|lists|listed|recommends|recommended|suggests|suggested))"
    r"|according\s{1,4}to)\b"
)
"""Words that give what follows as a document's ("the README says it looks for an NVIDIA GPU", "the docs say
\"HSA_OVERRIDE_GFX_VERSION=10.3.0 is required for RX 6700 XT\""): what a text says of programs and GPUs in
general, not what this machine has or did."""

COUNT_FIELD = "_count"
"""Key in a sighting's fields: how many such GPUs the text counts (``2x RX 7900 XT``)."""

TABLE_FIELDS = "_from_table"
"""Key in a sighting's fields listing the fields inferred from the GPU table, not read."""


def make_piece(kind: str, lines: Sequence[Line], observations: List[Observation], gpus: Optional[List[GpuSighting]] = None) -> Piece:
    """A piece spanning ``lines`` (first to last)."""
    numbers = [line.number for line in lines] or [0]
    block = lines[0].block if lines else 0
    return Piece(kind, block, min(numbers), max(numbers), observations, list(gpus or []))


def torch_version_observations(version: str, line: Line, trust: int = TRUST_TOOL, hip: Optional[str] = None) -> List[Observation]:
    """``2.5.1+rocm6.2`` -> torch.version, flavour, rocm_version / cuda_version, distributor.

    ``hip`` is ``torch.version.hip`` when the text gives it (it tells AMD's ``+git`` builds apart).
    The meaning of the string is decided by :func:`rocm_doctor.knowledge.torch_identity.identify`.
    """
    version = version.strip().strip("'\"")
    if not TORCH_VERSION_RE.match(version):
        return []
    return identity_observations(identify(version, hip=hip), line, trust)


def identity_observations(identity: TorchIdentity, line: Line, trust: int, intended: bool = False) -> List[Observation]:
    """The torch facts a :class:`TorchIdentity` gives (``intended``: see :attr:`Observation.intended`)."""
    if intended:
        return [replace(o, intended=True) for o in identity_observations(identity, line, trust)]
    out: List[Observation] = []
    if identity.version:
        out.append(Observation("torch.version", identity.version, line, trust))
    if identity.flavour is not None:
        out.append(Observation("torch.flavour", identity.flavour, line, trust))
    if identity.rocm_version is not None:
        out.append(Observation("torch.rocm_version", identity.rocm_version, line, trust))
    if identity.cuda_version is not None and identity.flavour == "cuda":
        out.append(Observation("torch.cuda_version", identity.cuda_version, line, trust))
    if identity.distributor is not None and (identity.distributor != "pypi" or identity.version):
        if identity.version is None or local_tag(identity.version) is not None or identity.distributor == "distro":
            out.append(Observation("torch.distributor", identity.distributor, line, trust))
    return out


def gfx_of(text: str) -> Optional[str]:
    """The base gfx target named in ``text`` (``gfx942:sramecc+:xnack-`` -> ``gfx942``)."""
    match = GFX_RE.search(text)
    if match is None:
        return None
    gfx = "gfx" + match.group(1).lower()
    return gfx if gpu_table.split_gfx(gfx) is not None else None


def gpu_fields(name: Optional[str] = None, gfx: Optional[str] = None, device_id: Optional[str] = None, **extra: Any) -> Dict[str, Any]:
    """GpuAgent fields for a sighting, completed from the GPU table where the table knows them.

    The PCI id is the strongest key, then the runtime-reported gfx, then the name.
    """
    fields: Dict[str, Any] = {k: v for k, v in extra.items() if v is not None}
    model = None
    if device_id:
        device_id = gpu_table.normalize_device_id(device_id)
        if device_id:
            fields["device_id"] = device_id
            model = _safe(lambda: gpu_table.lookup_pci(device_id))
    if name:
        fields["name"] = name.strip()
        if model is None:
            model = model_for_name(name)
    if gfx:
        fields["gfx"] = gfx
    table: List[str] = []

    def from_table(key: str, value: Any) -> None:
        if key not in fields:
            fields[key] = value
            table.append(key)

    if model is not None and (gfx is None or model.gfx == gfx):
        from_table("gfx", model.gfx)
        from_table("product", model.product)
        from_table("integrated", model.integrated)
    elif model is not None:
        # The runtime reports another target than the device is (an override in effect, ROCm/ROCm#5696):
        # whether it is integrated still follows the device its name or PCI id stands for.
        from_table("integrated", model.integrated)
    elif gfx is not None:
        rows = _safe(lambda: gpu_table.models_for_gfx(gfx)) or []
        kinds = {row.integrated for row in rows}
        if len(kinds) == 1:
            from_table("integrated", kinds.pop())
    fields.setdefault("vendor", "AMD")
    if "gfx" in fields:
        version = gpu_table.target_version_from_gfx(fields["gfx"])
        if version is not None:
            fields.setdefault("gfx_target_version", version)
    if table:
        fields[TABLE_FIELDS] = table
    return fields


def _safe(fn: Any) -> Any:
    try:
        return fn()
    except Exception:  # noqa: BLE001 - a broken table leaves the field unknown; the gatherer reports it
        return None


def key_value(text: str) -> Optional[tuple]:
    """``Key: value`` (also with a full-width colon) -> (key, value), else None."""
    match = re.match(r"^\s*([A-Za-z][\w ./()-]{0,60}?)\s*[:：]\s*(.*?)\s*$", text)
    if match is None:
        return None
    return match.group(1).strip(), match.group(2).strip()
