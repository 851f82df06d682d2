"""A package beside torch that asks for NVIDIA's CUDA runtime: the Python traceback's last frame above the loader's
"<CUDA library>: cannot open shared object file" lies in another package's folder under site-packages, not in torch.

The loader's message says a CUDA build asked for the CUDA toolkit's library (signature ``cuda_runtime_message``); the
traceback says which package's compiled module did. When that is a package that runs beside torch (flash-attn,
xformers, a custom node's extension, an inference engine's kernels) and not torch itself, the CUDA build is that
companion, not the torch in the environment: its ROCm build (or none) is the fix, and reinstalling torch is not.
Frames of torch itself, and of the other frameworks that are the program rather than a companion of torch
(TensorFlow, JAX, ONNX Runtime, CuPy, Paddle, MXNet, CTranslate2, TensorRT), are not read: a CUDA build of those is
the wrong build of the framework.

Python prints a frame as ``File "<path>", line N, in <name>`` with the source line under it, and the exception
after the last frame (``traceback.format_exception``, https://github.com/python/cpython/blob/v3.12.0/Lib/traceback.py).
Reports of a CUDA-built companion in a ROCm environment: theroyallab/tabbyAPI#5
(``site-packages/flash_attn/flash_attn_interface.py`` importing flash_attn_2_cuda, "libcudart.so.12: cannot open shared
object file", on an AMD machine; the project's requirements installed the CUDA flash-attn wheel),
visualbruno/ComfyUI-Trellis2#156 (cumesh, nvdiffrast and o_voxel built for CUDA torch ask for cudart64_12.dll beside
torch 2.9.1+rocmsdk; Windows names no frame, rule RD992 reads the ROCm torch there), sgl-project/sglang#2584 (a
ROCm environment without CUDA libraries; sglang 0.4.1's import asks for libcudart.so.12). The frame's form, the same
on NVIDIA machines: Dao-AILab/flash-attention#631, huggingface/autotrain-advanced#292. Not libcuda.so.1 (the driver's
library, sgl-project/sglang#4778's sgl_kernel): a machine without NVIDIA's driver lacks it for every CUDA build,
torch's too.

Context id :data:`CONTEXT` (``symptoms.context``); rule RD992 reads it. Where the last frame is torch's own,
:data:`TORCH_CONTEXT` instead: the torch that ran is the CUDA build, whatever torch another command shows (review67b).
"""

from __future__ import annotations

from typing import List, Optional

from rocm_doctor.ingest.blocks import Block
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import TRUST_SIGNATURE, Observation, Piece
from rocm_doctor.lazy_regex import when_used

CONTEXT = "cuda_runtime_asked_by_companion"
KIND = "context:" + CONTEXT
TORCH_CONTEXT = "cuda_runtime_asked_by_torch"
"""Context id: the last frame above the loader's message lies in torch's own folder: the torch that ran is the CUDA build,
whatever torch another command of the report shows (a ``pip list`` of another environment); RD992 does not put the
CUDA build beside torch then (review67b)."""
MAX_LINE = 2000
FRAME_REACH = 4
"""Lines above the loader's message that may hold the last frame: the frame, its source line, and a caret line
or a wrapped source line that Python 3.11+ and pasting add."""

_MISSING = when_used(
    # the CUDA toolkit's own libraries, as the loader names them (not libcuda.so, the driver's: see the module doc)
    r"\blib(?:cudart|cublas|cublasLt|cudnn\w{0,24}|nvrtc|cufft|curand|cusparse|cusolver|nvToolsExt|nccl)\.so[\w.]{0,16}"
    r":\s{0,3}cannot\s{1,3}open\s{1,3}shared\s{1,3}object\s{1,3}file"
)
_FRAME = when_used(r"^\s{0,16}File\s{1,3}\"(?P<path>[^\"\n]{1,600})\",\s{0,3}line\s{1,3}\d{1,7}")
_IN_PACKAGE = when_used(r"[/\\](?:site|dist)-packages[/\\](?P<package>[A-Za-z_][\w]{0,80})[/\\]")
NOT_COMPANIONS = frozenset(
    {
        "torch", "tensorflow", "tensorflow_core", "jax", "jaxlib", "onnxruntime", "cupy", "paddle", "mxnet",
        "ctranslate2", "tensorrt",
    }
)
"""Packages whose own CUDA build is the framework's wrong build, not a companion beside torch."""


def _last_frame_package(block: Block, index: int) -> Optional[str]:
    for before in reversed(block.lines[max(0, index - FRAME_REACH) : index]):
        frame = _FRAME.match(before.text[:MAX_LINE])
        if frame is None:
            continue
        # the last site-packages folder of the path: a folder above the environment may carry the name too
        # ("/home/me/site-packages/lib/python3.10/site-packages/torch/...", review67b)
        found = _IN_PACKAGE.findall(frame.group("path"))
        return found[-1] if found else ""
    return None


def parse(block: Block) -> List[Piece]:
    for index, line in enumerate(block.lines):
        if _MISSING.search(line.text[:MAX_LINE]) is None:
            continue
        package = _last_frame_package(block, index)
        if package and package.lower() == "torch":
            return [make_piece("context:" + TORCH_CONTEXT, [line], [Observation("symptoms.context", [TORCH_CONTEXT], line, TRUST_SIGNATURE)])]
        if package and package.lower() not in NOT_COMPANIONS:
            return [make_piece(KIND, [line], [Observation("symptoms.context", [CONTEXT], line, TRUST_SIGNATURE)])]
    return []

