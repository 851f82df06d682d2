"""The ``rocm-doctor/matrix/1`` document's shape, as pydantic models (its JSON Schema comes from here)."""

from __future__ import annotations

from typing import Dict, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Gpu(_Strict):
    product: str
    pci_id: str
    integrated: bool


class Build(_Strict):
    route: Literal["pytorch.org", "amd-windows", "therock"]
    torch: str
    rocm: Optional[str]
    index_url: Optional[str]
    torchvision: Optional[str]
    torchaudio: Optional[str]
    extras: List[str]
    python_required: Optional[str]


class Recommended(_Strict):
    """What ``check``'s fix plan installs on a machine with only this GPU known, or why nothing fits."""

    build: Optional[Build]
    commands: List[List[str]] = []
    notes: List[str] = []
    reasons: List[str] = []
    why_not: Optional[str] = None
    ruled_out: List[str] = []


class PytorchOrgRelease(_Strict):
    torch: str
    channel: str
    rocm: List[str]
    """The ROCm variants whose wheels carry (or may carry) kernels for the target, newest first."""
    kernels: Literal["yes", "uncertain"]
    python: List[str]
    torchvision: Optional[str]
    torchaudio: Optional[str]
    index_urls: List[str]
    platforms: List[str]
    source: str


class AmdWindowsRelease(_Strict):
    torch: str
    rocm: str
    python: List[str]
    torchvision: Optional[str]
    torchaudio: Optional[str]
    preview: bool
    wheel_url: Optional[str]
    docs: Optional[str]
    runtime_supports_gfx: Optional[bool]
    """True: AMD's Windows GPU list names it; None: the list does not mention it."""


class TheRock(_Strict):
    linux: Optional[Literal["release_ready", "build_only"]]
    windows: Optional[Literal["release_ready", "build_only"]]
    device_extra: Optional[str]
    index_url: str
    python: List[str]


class RocmSupportRow(_Strict):
    rocm: str
    supported: Optional[bool]
    source: str


class HipblasltRow(_Strict):
    torch: str
    rocm: str
    allowed: Optional[bool]
    preferred: Optional[bool]


class Override(_Strict):
    variable: str
    value: str
    recommended: bool
    source: str


class Target(_Strict):
    gfx: str
    family: Optional[str]
    gpus: List[Gpu]
    integrated: bool
    recommended: Dict[Literal["linux", "windows"], Recommended]
    pytorch_org: List[PytorchOrgRelease]
    amd_windows: List[AmdWindowsRelease]
    therock: TheRock
    rocm_linux: List[RocmSupportRow]
    rocm_windows: List[RocmSupportRow]
    hipblaslt: List[HipblasltRow]
    override: Optional[Override]


class RocmOs(_Strict):
    rocm: str
    os: Dict[str, List[str]]


class RuleDatabase(_Strict):
    version: str
    release: Optional[str]
    released: Optional[str]
    origin: Literal["shipped", "updated"]
    checked: Optional[str]


class MatrixDocument(_Strict):
    """``rocm-doctor matrix --json``."""

    schema_: Literal["rocm-doctor/matrix/1"] = Field(default="rocm-doctor/matrix/1", alias="schema")
    tool_version: str
    rule_database: RuleDatabase
    python: Optional[str]
    targets: List[Target]
    rocm_os: List[RocmOs]
    kernel_driver: List[Dict[str, object]]
    pytorch_org_index: Optional[str]
    sources: Dict[str, List[str]]

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

