"""A CUDA binding missing from torch._C shows a torch built without CUDA or ROCm (signature
torch_c_lacks_cuda_binding; reports lshqqytiger/stable-diffusion-webui-amdgpu#625 and #628,
junyanz/pytorch-CycleGAN-and-pix2pix#660)."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, signature_errors

AMD = "RX 6800 XT on Ubuntu 22.04 with ROCm 6.1\n"


@pytest.mark.parametrize(
    "line",
    [
        "AttributeError: module 'torch._C' has no attribute '_CudaDeviceProperties'",
        "AttributeError: module 'torch._C' has no attribute '_cuda_getDeviceCount'",
        "AttributeError: 'module' object has no attribute '_cuda_setDevice'",
        "AttributeError: module \u2018torch._C\u2019 has no attribute \u2018_CudaDeviceProperties\u2019",
    ],
)
def test_a_cuda_binding_missing_from_torch_c_reads_as_a_cpu_only_torch(line: str) -> None:
    facts = ingest(AMD + line + "\n").facts
    assert "torch_c_lacks_cuda_binding" in signature_errors(line + "\n")
    assert facts.torch.flavour.value == "cpu"


@pytest.mark.parametrize(
    "line",
    [
        # names no torch build has: the program's mistake, not the build's
        "AttributeError: module 'torch.version' has no attribute 'rocm'",
        "AttributeError: module 'torch.backends' has no attribute 'rocm'",
        "AttributeError: module 'torch' has no attribute 'hip'",
        # a binding of another backend, or a non-CUDA name of the C module
        "AttributeError: module 'torch._C' has no attribute '_xpu_getDeviceCount'",
        "AttributeError: module 'torch._C' has no attribute '_get_privateuse1_backend_name'",
        # another module's missing CUDA-looking name
        "AttributeError: module 'torchvision' has no attribute '_cuda_version'",
    ],
)
def test_other_missing_attributes_do_not_read_as_a_cpu_only_torch(line: str) -> None:
    assert "torch_c_lacks_cuda_binding" not in signature_errors(line + "\n")
    assert not ingest(AMD + line + "\n").facts.torch.flavour.is_known
