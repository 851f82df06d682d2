"""PyTorch in the target interpreter.

Static facts come from files: the ``torch`` dist-info (version with its local
tag) and ``torch/version.py`` (parsed, never executed). Live facts come from
:mod:`rocm_doctor.facts.torch_probe` run in a child of the target interpreter,
only when torch is installed and ``--no-torch`` was not given.

Triton flavour heuristic (``triton_flavour``):

* ``pytorch-triton-rocm`` and ``triton-rocm`` are ROCm builds; ``pytorch-triton``
  is the CUDA build that pytorch.org CUDA nightlies pull in.
* A plain ``triton`` is ROCm when its version carries a ``+rocm`` tag
  (repo.radeon.com); otherwise its RECORD decides: a ``triton/backends/nvidia/``
  entry means the upstream CUDA wheel (which bundles ptxas), only
  ``triton/backends/amd/`` means a ROCm build. Without a RECORD: unknown.
* When several triton distributions are installed they overwrite each other's
  ``triton/`` package (the stray CUDA triton case); the facts list them all and
  the flavour is ``mixed`` when they disagree.
"""

from __future__ import annotations

import math

from typing import Any, Dict, List, Optional, Tuple

from pydantic import ValidationError

from rocm_doctor.facts.common import file_fact, join_path, not_applicable, os_kind
from rocm_doctor.facts.distributions import Distribution, record_lists, scan_distributions, target_site_dirs
from rocm_doctor.facts.context import GatherContext
from rocm_doctor.facts.model import TorchDevice, TorchFacts, TorchLiveFacts
from rocm_doctor.facts.torch_probe import LABEL, devices_from, judge_probe
from rocm_doctor.facts.torch_probe_script import probe_argv
from rocm_doctor.knowledge.torch_static import (
    cuda_version_from_tag,
    flavour_from_tag,
    local_tag,
    parse_version_py,
    rocm_version,
)
from rocm_doctor.facts.value import Fact, absent, failed, known, unknown
from rocm_doctor.limits import TORCH_VERSION_PY_BYTES
from rocm_doctor.knowledge.torch_identity import identify
from rocm_doctor.system.base import Started

TRITON_PACKAGES = ("pytorch-triton-rocm", "triton-rocm", "pytorch-triton", "triton")
_TRITON_FIXED_FLAVOUR = {"pytorch-triton-rocm": "rocm", "triton-rocm": "rocm", "pytorch-triton": "cuda"}
_WANTED = {"torch", "torchvision", "torchaudio", *TRITON_PACKAGES}


def _all(cls: type, fact: Fact[Any]) -> Dict[str, Fact[Any]]:
    """The same fact for every Fact field of a section (its sub-sections keep their defaults)."""
    return {name: fact for name, info in cls.model_fields.items()
            if isinstance(info.annotation, type) and issubclass(info.annotation, Fact)}


def triton_flavour(system: Any, dist: Distribution) -> Tuple[Optional[str], str]:
    """The flavour of one triton distribution and the evidence (see the module docstring)."""
    fixed = _TRITON_FIXED_FLAVOUR.get(dist.name)
    if fixed is not None:
        return fixed, f"package name {dist.name}"
    if flavour_from_tag(local_tag(dist.version)) == "rocm":
        return "rocm", f"version {dist.version}"
    nvidia = record_lists(system, dist, "triton/backends/nvidia/")
    if nvidia is None:
        return None, f"{dist.info_path} has no RECORD"
    if nvidia:
        return "cuda", "RECORD lists triton/backends/nvidia"
    if record_lists(system, dist, "triton/backends/amd/"):
        return "rocm", "RECORD lists only triton/backends/amd"
    return None, "RECORD lists no triton backend"


def _triton_facts(system: Any, found: Dict[str, Distribution], source: str) -> Dict[str, Fact[Any]]:
    installed = [found[name] for name in TRITON_PACKAGES if name in found]
    if not installed:
        gone = absent(source, "no triton distribution is installed")
        return {"triton_package": gone, "triton_version": gone, "triton_flavour": gone}
    flavours = [triton_flavour(system, dist) for dist in installed]
    where = installed[0].info_path
    names = {flavour for flavour, _ in flavours}
    if None in names:
        evidence = "; ".join(f"{dist.name}: {why}" for dist, (_, why) in zip(installed, flavours))
        flavour_fact: Fact[str] = unknown(f"flavour not recognised: {evidence}")
    else:
        flavour_fact = known("mixed" if len(names) > 1 else names.pop(), where)
    return {
        "triton_package": known(", ".join(d.name for d in installed), where),
        "triton_version": known(installed[0].version, where),
        "triton_flavour": flavour_fact,
    }


def _companion(found: Dict[str, Distribution], name: str, source: str) -> Dict[str, Fact[Any]]:
    dist = found.get(name)
    if dist is None:
        gone = absent(source, f"{name} is not installed")
        return {f"{name}_version": gone, f"{name}_flavour": gone}
    flavour = flavour_from_tag(local_tag(dist.version))
    return {
        f"{name}_version": known(dist.version, dist.info_path),
        f"{name}_flavour": known(flavour, dist.info_path) if flavour else unknown(
            f"the version {dist.version} carries no build tag"
        ),
    }


def _bundled_hsa(ctx: GatherContext, torch_dir: str) -> Fact[bool]:
    if os_kind(ctx.system) == "windows":
        return not_applicable("windows")
    lib = join_path(torch_dir, "lib")
    try:
        names = ctx.system.list_dir(lib)
    except FileNotFoundError:
        return failed(lib, f"{lib} does not exist")
    except OSError as exc:
        return failed(lib, f"cannot list {lib}: {exc.strerror or exc}")
    return known(any(n.startswith("libhsa-runtime64.so") for n in names), lib)


def _static(ctx: GatherContext, dist: Distribution) -> Dict[str, Fact[Any]]:
    version_path = join_path(dist.site_dir, "torch", "version.py")
    # one byte over the limit, so that parse_version_py sees a file too large and says so
    version_py_fact = file_fact(ctx.system, version_path, parse_version_py, TORCH_VERSION_PY_BYTES.value + 1)
    version_py: Optional[Dict[str, Any]] = version_py_fact.value if version_py_fact.is_known else None
    tag = local_tag(dist.version)
    meta = dist.info_path

    def from_version_py(key: str) -> Fact[Any]:
        if version_py is None:
            return version_py_fact
        value = version_py.get(key)
        return known(str(value), version_path) if value else absent(version_path, f"torch.version.{key} is None")

    hip = version_py.get("hip") if version_py else None
    values: Dict[str, Fact[Any]] = {
        "version": known(dist.version, meta),
        "hip_version": from_version_py("hip"),
        "cuda_version": from_version_py("cuda"),
        "git_version": from_version_py("git_version"),
        "location": known(dist.site_dir, meta),
        "bundled_hsa_runtime": _bundled_hsa(ctx, join_path(dist.site_dir, "torch")),
    }
    identity = identify(
        dist.version,
        hip=hip,
        cuda=version_py.get("cuda") if version_py else None,
        xpu=version_py.get("xpu") if version_py else None,
        hip_known=version_py is not None and "hip" in version_py and "cuda" in version_py,
    )
    flavour = identity.flavour
    flavour_source = version_path if version_py is not None else meta
    values["flavour"] = known(flavour, flavour_source) if flavour else failed(
        flavour_source, f"neither the version {dist.version} nor torch/version.py names the build flavour"
    )
    rocm = identity.rocm_version
    if rocm:
        values["rocm_version"] = known(rocm, meta if rocm_version(tag, None) else version_path)
    elif flavour is not None:
        values["rocm_version"] = absent(meta, f"a {flavour} build is not built for ROCm")
    else:
        values["rocm_version"] = failed(meta, "the build flavour is not known")
    if values["cuda_version"].status != "known" and cuda_version_from_tag(tag):
        values["cuda_version"] = known(cuda_version_from_tag(tag), meta)
    who = identity.distributor
    values["distributor"] = known(who, meta) if who else unknown(
        f"the version tag +{tag} matches no known distributor"
    )
    return values


PROBE_KEY = "torch-probe"
"""Key of the live probe in ``GatherContext.prefetched`` (gather() starts it first)."""


def torch_probe_timeout(ctx: GatherContext) -> float:
    return ctx.options.torch_timeout


def start_torch_probe(ctx: GatherContext) -> Started:
    """Start the live probe in the target interpreter (it needs nothing gathered before it)."""
    return ctx.system.start(probe_argv(ctx.python), timeout=torch_probe_timeout(ctx), label=LABEL)


def _live(ctx: GatherContext, installed: Fact[Any]) -> TorchLiveFacts:
    if not ctx.options.torch:
        return TorchLiveFacts(**_all(TorchLiveFacts, unknown("--no-torch")))
    if installed.status != "known":
        reason = "torch is not installed" if installed.status == "absent" else installed.reason or "torch not found"
        maker = absent if installed.status == "absent" else failed
        return TorchLiveFacts(**_all(TorchLiveFacts, maker(installed.source or "torch", reason)))
    timeout = ctx.options.torch_timeout
    result = ctx.result_of(PROBE_KEY, start_torch_probe)
    outcome = judge_probe(result, timeout)
    source = f"{ctx.python} -I -c <{LABEL}>"
    lost = failed(source, outcome.problem or "no result")

    def stage_value(stage: str, key: str) -> Fact[Any]:
        data = outcome.results.get(stage)
        if data is None or key not in data:
            return lost
        if not _finite(data[key]):  # JSON has no Infinity or NaN: such a fact could not be written or read back
            return failed(source, f"the probe answered {key} with a number that is not finite")
        return known(data[key], source)

    devices: Fact[Any] = lost
    if "devices" in outcome.results:
        unread: List[str] = []
        listed = [_device(d, unread) for d in devices_from(outcome.results["devices"])]
        devices = known(listed, source)
        if unread:
            devices = devices.model_copy(update={"reason": "left unknown: " + "; ".join(unread)})
    return _typed(source, {
        "probe": known("ok", source) if outcome.problem is None else lost,
        "import_seconds": stage_value("import", "seconds"),
        "cuda_available": stage_value("cuda_init", "is_available"),
        "device_count": stage_value("cuda_init", "device_count"),
        "devices": devices,
        "arch_list": stage_value("arch_list", "arch_list"),
        "hip_runtime_version": unknown("torch does not expose the HIP runtime version"),
    })


_DEVICE_FIELDS = (("name", "name"), ("gcnArchName", "gcn_arch_name"), ("total_memory", "total_memory"))
"""The probe's key for each field of a TorchDevice."""


def _device(answer: Dict[str, Any], unread: List[str]) -> TorchDevice:
    """One device of the probe's answer, checked field by field: a field the probe answered with a value
    of the wrong type or out of range (``1e999`` memory, a negative size) is left unknown, and ``unread``
    says which and why; the other fields and devices stay."""
    fields: Dict[str, Any] = {}
    for key, name in _DEVICE_FIELDS:
        value = answer.get(key)
        try:
            TorchDevice(index=answer["index"], **{name: value})
        except ValidationError:
            unread.append(f"device {answer['index']} {key} {_shown(value)} is not a valid value")
            continue
        fields[name] = value
    return TorchDevice(index=answer["index"], **fields)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _finite(value: Any) -> bool:
    """No infinite or NaN float anywhere in ``value`` (a probe answer: numbers, strings, lists, mappings)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, (list, tuple)):
        return all(_finite(item) for item in value)
    if isinstance(value, dict):
        return all(_finite(item) for item in value.values())
    return True


def _typed(source: str, fields: Dict[str, Fact[Any]]) -> TorchLiveFacts:
    """The live facts; an answer of the wrong type (a mapping where a list belongs) is a failed fact.

    The probe's JSON comes from another process, which a broken or hostile interpreter controls."""
    for _ in range(len(fields)):
        try:
            return TorchLiveFacts(**fields)
        except ValidationError as exc:
            wrong = {str(error["loc"][0]) for error in exc.errors() if error["loc"]} & fields.keys()
            if not wrong:
                raise
            for name in wrong:
                fields[name] = failed(source, f"the probe answered {name} with a value of the wrong type")
    return TorchLiveFacts(**fields)


def gather_torch(ctx: GatherContext) -> TorchFacts:
    """Static facts from files, then the live probe."""
    dirs = target_site_dirs(ctx.sections)
    if not dirs.is_known:
        return TorchFacts(**_all(TorchFacts, dirs), live=_live(ctx, dirs))
    source = ", ".join(dirs.value or []) or "site-packages"
    scan = scan_distributions(ctx.system, dirs.value or [], only=_WANTED)
    torch = scan.found.get("torch")
    if torch is not None:
        values = _static(ctx, torch)
    elif scan.problems:
        values = _all(TorchFacts, failed(source, "; ".join(scan.problems)))
    else:
        values = _all(TorchFacts, absent(source, "torch is not installed"))
    values.update(_triton_facts(ctx.system, scan.found, source))
    for name in ("torchvision", "torchaudio"):
        values.update(_companion(scan.found, name, source))
    return TorchFacts(**values, live=_live(ctx, values["version"]))
