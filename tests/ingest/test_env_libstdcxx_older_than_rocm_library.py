"""An environment's own libstdc++ older than a ROCm library needs (stdcxx63; RD894).

The loader names the libstdc++.so.6 it checked: a conda base or env (found first through the interpreter's
bin/../lib RPATH) or an application's bundled copy (Julia's lib/julia) is the environment's, and when the
library it refused is ROCm's, the environment's C++ runtime is the package to update. The shapes are those
of ROCm/legacy-rocm-build#3914 (a conda env, torch/lib/libhsa-runtime64.so), ROCm/AMDMIGraphX#3405
(/opt/conda, libmigraphx_gpu), lamikr/rocm_sdk_builder#222 (miniconda3, the SDK's flang2),
xorbitsai/xllamacpp#51 (a conda env, ROCm's HSA runtime) and JuliaGPU/AMDGPU.jl#272 (Julia, librocfft);
the texts are written for the test.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

SIG = "env_libstdcxx_older_than_rocm_library"


@pytest.mark.parametrize(
    "text",
    [
        "ImportError: /home/u/miniconda3/envs/pose/bin/../lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /home/u/miniconda3/envs/pose/lib/python3.10/site-packages/torch/lib/libhsa-runtime64.so)\n",
        "ImportError: /opt/conda/bin/../lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /src/MIGraphX/build/lib/libmigraphx_gpu.so.2011000)\n",
        "/opt/rocm_sdk_612/bin/flang2: /home/k/miniconda3/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /opt/rocm_sdk_612/bin/flang2)\n",
        "/root/miniconda3/envs/xinf/lib/libstdc++.so.6: version 'GLIBCXX_3.4.30' not found (required by /opt/rocm/lib/libhsa-runtime64.so.1)\n",
        "/home/u/julia-1.7.1/bin/../lib/julia/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /opt/rocm/lib/librocfft.so)\n",
        "OSError: /home/u/anaconda3/envs/ai/lib/libstdc++.so.6: version `CXXABI_1.3.13' not found (required by /home/u/anaconda3/envs/ai/lib/python3.12/site-packages/_rocm_sdk_core/lib/libamdhip64.so.7)\n",
    ],
)
def test_an_environment_copy_too_old_for_a_rocm_library_is_read(text: str) -> None:
    assert SIG in signature_errors(text)
    shown = problems_shown(text)
    assert "RD894" in shown
    assert "RD999" not in shown


@pytest.mark.parametrize(
    "text",
    [
        # the system's own copy: the distribution release (RD999), not the environment
        "/opt/rocm/bin/rocminfo: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /opt/rocm/lib/libhsa-runtime64.so.1)\n",
        # a library that is not ROCm's: an extension, a CUDA build of torch
        "ImportError: /home/u/miniconda3/envs/x/bin/../lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /home/u/miniconda3/envs/x/lib/python3.11/site-packages/scipy/_lib/_uarray.cpython-311-x86_64-linux-gnu.so)\n",
        "ImportError: /opt/conda/lib/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by /opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)\n",
        # told as past or as advice
        "I used to get /home/u/miniconda3/envs/pose/bin/../lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by .../torch/lib/libhsa-runtime64.so)\n",
        "Update the env's runtime, otherwise you will see /opt/conda/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /opt/rocm/lib/libamdhip64.so.6)\n",
    ],
)
def test_the_system_copy_other_libraries_and_the_past_are_not_read(text: str) -> None:
    assert SIG not in signature_errors(text)
    assert "RD894" not in problems_shown(text)
