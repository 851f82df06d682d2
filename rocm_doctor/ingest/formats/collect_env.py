"""``python -m torch.utils.collect_env`` output.

The lines that matter (PyTorch 1.x to 2.x)::

    PyTorch version: 2.6.0+rocm6.2.4
    CUDA used to build PyTorch: N/A
    ROCM used to build PyTorch: 6.2.41134-65d174c3e
    OS: Ubuntu 24.04.1 LTS (x86_64)
    Python version: 3.13.1 | packaged by Anaconda, Inc. | (main, ...) [GCC 11.2.0] (64-bit runtime)
    Python platform: Linux-6.8.0-55-generic-x86_64-with-glibc2.39
    Is CUDA available: True
    GPU models and configuration: AMD Instinct MI300X (gfx942:sramecc+:xnack-)
    HIP runtime version: 6.2.41134
    MIOpen runtime version: 3.2.0
    Versions of relevant libraries:
    [pip3] pytorch-triton-rocm==3.2.0

``Could not collect`` and ``N/A`` say nothing and are skipped (except that
``N/A`` for both CUDA and ROCm means a CPU build, unless ``PyTorch version`` is ``N/A`` too: collect_env
could not import torch, and every torch line then says ``N/A``, whatever build is installed elsewhere).
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional

from rocm_doctor.knowledge.torch_static import flavour_from_tag, local_tag, rocm_version, torch_flavour
from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import gfx_of, gpu_fields, key_value, make_piece, torch_version_observations
from rocm_doctor.ingest.formats.packages import conda_build_flavour
from rocm_doctor.ingest.formats.platform_strings import distro_observations, python_platform_observations
from rocm_doctor.ingest.model import GpuSighting, Observation, Piece
from rocm_doctor.lazy_regex import when_used

KEYS = {
    "PyTorch version",
    "Is debug build",
    "CUDA used to build PyTorch",
    "ROCM used to build PyTorch",
    "OS",
    "GCC version",
    "Clang version",
    "Libc version",
    "Python version",
    "Python platform",
    "Is CUDA available",
    "GPU models and configuration",
    "HIP runtime version",
    "MIOpen runtime version",
    "CUDA runtime version",
    "Nvidia driver version",
    "Is XNNPACK available",
    "CUDA_MODULE_LOADING set to",
}
TEMPLATE_KEYS = frozenset({"PyTorch version", "OS", "Python version"})
"""Keys an issue template asks for as well (``OS: Ubuntu 22.04`` / ``PyTorch version: 2.5.1+rocm6.2`` / ``Python
version: 3.12`` typed under PyTorch's, ROCm's or a project's template: ROCm/clr#280, ROCm/legacy-rocm-build#6049, ROCm/ROCm#2429,
pytorch/pytorch#51213): lines holding only these are the report's fields (read by formats/fields.py), not
collect_env's output, which always prints a key of its own (``Is debug build``, ``ROCM used to build PyTorch``,
``GCC version`` ...) beside them."""
_SILENT = {"could not collect", "n/a", "none", ""}
_NO_GPU = _SILENT | {"no cuda"}
"""GPU-line values that name no GPU: collect_env fills the GPU, driver and CUDA runtime fields with
'No CUDA' when torch.cuda is not available (pretty_str, torch/utils/collect_env.py at v2.5.0:
https://github.com/pytorch/pytorch/blob/v2.5.0/torch/utils/collect_env.py)."""
_PIP_LINE = when_used(r"^\[(pip3?|conda)\]\s+([A-Za-z0-9_.-]+)\s*(?:==|\s)\s*(\S+)(?:\s+(\S+))?")
"""A ``[pip3]`` or ``[conda]`` row of "Versions of relevant libraries": which lister, name, version, and for conda the
build string (``[conda] torchvision 0.7.0 py37_cu102 pytorch``)."""
_GPU_LINE = when_used(r"^GPU\s+(\d+)\s*:\s*(.+)$")


def _gpu(text: str, position: int, line: Line) -> Optional[GpuSighting]:
    text = text.strip()
    if not text or text.lower() in _NO_GPU:
        return None
    gfx = gfx_of(text)
    name = re.sub(r"(?<!\s)\s*\(gfx[^)]*\)\s*$", "", text).strip() or None
    vendor = "NVIDIA" if name and "nvidia" in name.lower() else None
    fields = gpu_fields(name=name, gfx=gfx)
    if vendor:
        fields["vendor"] = vendor
    return GpuSighting("torch", position, line, fields)


def parse(block: Block) -> List[Piece]:
    values: Dict[str, tuple] = {}
    used: List[Line] = []
    gpus: List[GpuSighting] = []
    packages: List[tuple] = []
    in_gpu = False
    wrapped: Optional[str] = None
    for line in block.lines:
        if wrapped is not None:
            key, wrapped = wrapped, None
            if line.text.strip() and key_value(line.text) is None and not _PIP_LINE.match(line.text.strip()):
                values[key] = (line.text.strip(), line)
                used.append(line)
                continue
        pip = _PIP_LINE.match(line.text.strip())
        if pip and values:
            packages.append((pip.group(2).lower().replace("_", "-"), pip.group(3), line, pip.group(1), pip.group(4) or ""))
            used.append(line)
            continue
        gpu_line = _GPU_LINE.match(line.text.strip())
        if in_gpu and gpu_line:
            sighting = _gpu(gpu_line.group(2), int(gpu_line.group(1)), line)
            if sighting:
                gpus.append(sighting)
            used.append(line)
            continue
        in_gpu = False
        pair = key_value(line.text)
        if pair is None or pair[0] not in KEYS:
            continue
        key, value = pair
        if key not in values and not value.strip() and key != "GPU models and configuration":
            # collect_env prints no field empty but the GPU list's head: an empty value is one an editor's wrap
            # moved to the next line ("Python platform:\nLinux-6.8.0-0.rc0...fc40.x86_64-x86_64-with-glibc2.38")
            wrapped = key
        values.setdefault(key, (value, line))
        used.append(line)
        if key == "GPU models and configuration":
            in_gpu = True
            sighting = _gpu(value, 0, line)
            if sighting:
                gpus.append(sighting)
    if len(values) < 2 or not ({"PyTorch version", "ROCM used to build PyTorch", "Is CUDA available"} & set(values)):
        return []
    if not set(values) - TEMPLATE_KEYS:
        return []
    return [make_piece("collect_env", used, _observations(values, packages), gpus)]


def _known(values: Dict[str, tuple], key: str) -> Optional[tuple]:
    item = values.get(key)
    if item is None or item[0].strip().lower() in _SILENT:
        return None
    return item


def _observations(values: Dict[str, tuple], packages: List[tuple]) -> List[Observation]:
    out: List[Observation] = []
    version = _known(values, "PyTorch version")
    hip = _known(values, "ROCM used to build PyTorch")
    cuda = _known(values, "CUDA used to build PyTorch")
    # collect_env prints torch.version.hip and torch.version.cuda on its two build lines; together they say
    # the build, with or without "PyTorch version:" ("CUDA used to build PyTorch: 12.1" with "ROCM used to
    # build PyTorch: N/A" is a CUDA build).
    build_lines = "ROCM used to build PyTorch" in values and "CUDA used to build PyTorch" in values
    # "PyTorch version: N/A" is collect_env without torch: get_env_info() sets the version, the debug flag,
    # is_available and both compiled versions to 'N/A' when torch cannot be imported (get_env_info's else
    # branch in https://github.com/pytorch/pytorch/blob/v2.13.0/torch/utils/collect_env.py, read in the
    # 2.13.0 wheel; the 2018 version at 00adac86 printed no ROCm line at all),
    # so the two build lines then say nothing about a build: the script ran on the host of a container
    # (ROCm/pytorch#786), or in an environment without torch beside a report of a +rocm nightly
    # (pytorch/pytorch#138067). A CPU build prints its version (2.6.0+cpu) and "CUDA used to build
    # PyTorch: None" instead.
    if "PyTorch version" in values and version is None:
        build_lines = False
    build_info = {"hip": hip[0] if hip else None, "cuda": cuda[0] if cuda else None} if build_lines else None
    tag = None
    if version:
        found = torch_version_observations(version[0], version[1], hip=hip[0] if hip else None)
        out += [o for o in found if o.path not in ("torch.flavour", "torch.rocm_version")]
        tag = local_tag(version[0])
    if version or build_lines:
        flavour = torch_flavour(tag, build_info)
        if flavour:
            out.append(Observation("torch.flavour", flavour, (version or hip or cuda or values["ROCM used to build PyTorch"])[1]))
        rocm = rocm_version(tag, hip[0] if hip else None) if flavour == "rocm" and (version or hip) else None
        if rocm:
            out.append(Observation("torch.rocm_version", rocm, (hip or version)[1]))
    if hip:
        out.append(Observation("torch.hip_version", hip[0], hip[1]))
    if cuda:
        out.append(Observation("torch.cuda_version", cuda[0], cuda[1]))
    available = _known(values, "Is CUDA available")
    if available and available[0] in ("True", "False"):
        out.append(Observation("torch.live.cuda_available", available[0] == "True", available[1]))
    runtime = _known(values, "HIP runtime version")
    if runtime:
        out.append(Observation("torch.live.hip_runtime_version", runtime[0], runtime[1]))
    python = _known(values, "Python version")
    if python:
        match = re.match(r"(\d+\.\d+\.\d+)", python[0])
        if match:
            out.append(Observation("python.version", match.group(1), python[1]))
    platform = _known(values, "Python platform")
    if platform:
        out += python_platform_observations(platform[0], platform[1])
    os_line = _known(values, "OS")
    if os_line:
        out += distro_observations(re.sub(r"(?<!\s)\s*\((?:x86_64|aarch64|64-bit|AMD64)\)\s*$", "", os_line[0]), os_line[1])
    # pip's own row of a companion says what the interpreter imports; a conda row's build string is read only when pip
    # lists no row of that name (a pip install over a conda package leaves conda's record behind)
    from_pip = {name for name, _, _, lister, _ in packages if lister != "conda"}
    for name, pkg_version, line, lister, build in packages:
        out += companion_observations(name, pkg_version, line, build if lister == "conda" and name not in from_pip else "")
    return out


def companion_observations(name: str, version: str, line: Line, build: str = "") -> List[Observation]:
    """torchvision / torchaudio / triton versions from a ``name==version`` line, or from a ``conda list`` row whose
    ``build`` string names the build when the version has no local tag (``torchvision 0.15.2 py310_cu117``)."""
    out: List[Observation] = []
    if name in ("torchvision", "torchaudio"):
        out.append(Observation(f"torch.{name}_version", version, line))
        tag = local_tag(version)
        flavour = flavour_from_tag(tag) or (conda_build_flavour(build) if build and tag is None else None)
        if flavour:
            out.append(Observation(f"torch.{name}_flavour", flavour, line))
    elif name in ("pytorch-triton-rocm", "triton-rocm", "pytorch-triton", "triton"):
        out.append(Observation("torch.triton_package", name, line))
        out.append(Observation("torch.triton_version", version, line))
        if name in ("pytorch-triton-rocm", "triton-rocm") or "+rocm" in version:
            out.append(Observation("torch.triton_flavour", "rocm", line))
        elif name == "pytorch-triton":
            out.append(Observation("torch.triton_flavour", "cuda", line))
    return out
