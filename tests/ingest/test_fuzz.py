"""Fuzzing: no input makes a parser, the signature matcher or the whole pipeline raise.

The pipeline catches a parser that raises (so one bad parser cannot hide the others),
so each parser is fuzzed directly as well, on arbitrary text and on text built from
fragments of the formats it reads. Bounded example counts keep this fast enough for CI.
"""

from __future__ import annotations

from typing import List

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rocm_doctor.facts.model import Facts
from rocm_doctor.ingest import PARSERS, ingest_text, render_pieces
from rocm_doctor.ingest.blocks import split_blocks
from rocm_doctor.ingest.model import Piece

FRAGMENTS = [
    "```", "```json", "~~~", "<details>", "</details>", "<summary>x</summary>", "{", "}", "[", "]", '"schema_version": 1,',
    '"meta": {}', '{"gpu": 0, "asic": {"target_graphics_version": "gfx1100"}}', "PyTorch version: 2.5.1+rocm6.2",
    "ROCM used to build PyTorch: 6.2.41133-dd7f95766", "CUDA used to build PyTorch: N/A", "Is CUDA available: True",
    "GPU models and configuration: AMD Radeon RX 7900 XTX (gfx1100)", "GPU 0: ", "[pip3] torch==2.5.1", "Python platform: Linux-",
    "OS: Ubuntu 24.04", "Python version: 3.12.3", "HSA Agents", "*******", "Agent 1", "Agent 99999999999999999999",
    "  Name:                    gfx1100", "  Device Type:             GPU", "  Chip ID:                 29772(0x744c)",
    "  Memory Properties:       APU", "      Pool 1", "        Segment:   GLOBAL; FLAGS: COARSE GRAINED", "        Size:  x(0x1) KB",
    "Name: amdgcn-amd-amdhsa--gfx90c:xnack-", "*** Done ***", "WSL environment detected.", "ROCk module is NOT loaded",
    "GPU: 0", "    MARKET_NAME: ", "    DEVICE_ID: 0xzz", "    BDF: 0000:03:00.0", "AMDSMI Tool: | ROCm version: 6.2 | amdgpu version: x",
    "GPU[0]\t\t: Card series: \t\tNavi 31 [Radeon RX 7900 XT/7900 XTX]", "GPU[0]\t\t: Card series: \t\tNavi 31 [Rade",
    "GPU[0] : GFX Version: gfx1100", "Driver version: 6.8.5",
    "device#  0", "Name:  AMD Radeon", "gcnArchName: gfx1036", "ggml_cuda_init: found 2 ROCm devices:", "  Device 0: , gfx",
    "Package    Version", "---------- -------", "torch  2.5.1+rocm6.2", "numpy==1.26.4", "torch @ file:///x", "torch==",
    "Linux host 6.8.0-45-generic #1 SMP x86_64", "ID=ubuntu", 'VERSION_ID="24.04"', "amdgpu/6.8.5, 6.8.0, x86_64: installed",
    "03:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 22 [Radeon RX 6700/6700 XT] [1002:73df]",
    "Device-1: AMD chip ID: 1002:67df", "/lib/modules/6.14.0-1013-oem/kernel/amdgpu.ko", "In [1]: torch.__version__",
    "Out[1]: '2.2.0+rocm5.7'", ">>> torch.cuda.is_available()", "True", ">>> torch.cuda.get_arch_list()", "['gfx1100', 1]",
    "# '2.0.1+rocm5.4.2'", "torch version = 2.2.1+rocm5.7", "device count = 99999999999999999999", "### GPU", "### Operating System",
    "WSL2 Ubuntu 22.04", "Windows 11", "| OS | Windows 10.0.99999 |", "OS：Centos， kernel：5.14", "ROCm：5.7", "Kernel 5.3.0-46-generic",
    "kfd kfd: amdgpu: skipped device 1002:67df, PCI rejects atomics", "HIP error: invalid device function",
    "Cannot read /x/TensileLibrary.dat: Illegal seek for GPU arch : gfx1032", "Found no NVIDIA driver on your system",
    "--extra-index-url https://download.pytorch.org/whl/rocm6.2", "'stdlib.h' file not found", "triton\\backends\\amd",
    "$ cat /opt/rocm/.info/version", "6.2.0-66", "$ hipconfig --version", "$ groups", "uid=0(root) gid=0(root) groups=0(root)",
    "root@box:~# python3 -V", "Python 3.12.3",
    # labelled fields, mentions, settings, packages (the general readers)
    "**ROCm version:** 6.2", "- GPU: RX 7900 XTX", "| GPU | 2x Radeon RX 7900 XT |", "### ROCm Version", "ROCm 6.", "**Torch**: ",
    "I have a Ryzen 9 7950X and an RX 6700 XT", "Ryzen AI Max+ 395", "Strix Halo", "gfx", "gfx_1100", "amdgcn-amd-amdhsa--gfx",
    "Navi 48", "2x MI300X", "99999999999x RX 7900 XTX", "torch-2.3.0+rocm6.0-cp311-cp311-linux_x86_64.whl", "torch==2.+rocm",
    "https://download.pytorch.org/whl/rocm6.2/", "https://download.pytorch.org/whl/nightly/rocm", "rocm/pytorch:latest",
    "/opt/rocm-6.2.0/lib/libamdhip64.so", "amdgpu-install --usecase=rocm", "export HSA_OVERRIDE_GFX_VERSION=10.3.0",
    "export HSA_OVERRIDE_GFX_VERSION=", '$env:HIP_VISIBLE_DEVICES="0"', "set HSA_ENABLE_SDMA=0", 'set "X=1"', "ENV A=B C=D",
    "-e ROCR_VISIBLE_DEVICES=1", "Environment=\"HSA_OVERRIDE_GFX_VERSION=11.0.0\"", "HSA_OVERRIDE_GFX_VERSION=11.0.0 python x.py",
    "$ env", "$ env | grep HSA", "$ printenv", "PATH=/usr/bin", 'msg="server config" env="map[HSA_OVERRIDE_GFX_VERSION:10.3.0 OLLAMA_HOST:]"',
    'time=x level=INFO source=amd_linux.go:1 msg="amdgpu is not supported" gpu=0 gpu_type=gfx1032',
    "ii  rocm-hip-runtime  6.2.0.60200-66~22.04  amd64  ROCm", "rocm-hip-runtime-6.2.0-1.el9.x86_64", "python-pytorch-opt-rocm 2.5.1-1",
    "PS C:\\Users\\me> python -c \"import torch\"", "C:\\>pip list", "amdhip64_6.dll", "WSL", "wsl --version",
    "# rocminfo", "Unable to open /dev/kfd read-write: Permission denied", "Missing CO for these ISAs - gfx1031",
    "rocblaslt warning: No paths matched gfx1151", "ROCm version: (6, 2)", "python -c 'import torch; print(torch.__version__)'",
    "HIP_VISIBLE_DEVICES contains more devices than ROCR_VISIBLE_DEVICES", "works fine with sudo", "is not member of render group",
]

texts = st.one_of(
    st.text(max_size=2000),
    st.lists(
        st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=40)),
        max_size=60,
    ).flatmap(
        lambda parts: st.sampled_from(["\n", "\r\n", "\r", "\n\n"]).map(lambda sep: sep.join(parts))
    ),
)
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


EVERY_PARSER = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""Each drawn text goes through every parser: drawing a text costs more than reading it with all of them, so one
run of 400 texts (twice the draws each parser once had on its own) took about 10 test-seconds where 36 runs of 200
took 37 (2026-11-29, 2-core machine under load)."""


@EVERY_PARSER
@given(texts)
def test_no_text_makes_a_parser_raise(text: str) -> None:
    for block in split_blocks(text):
        for parser, _, _ in PARSERS:
            pieces = parser(block)
            where = f"{parser.__module__}.{parser.__name__}"
            assert isinstance(pieces, list) and all(isinstance(p, Piece) for p in pieces), where
            for piece in pieces:
                assert piece.line_start <= piece.line_end, where


@FUZZ
@given(texts)
def test_the_whole_pipeline_returns_facts_for_any_text(text: str) -> None:
    result = ingest_text(text)
    assert isinstance(result.facts, Facts)
    assert Facts.from_json(result.facts.to_json()) == result.facts
    assert render_pieces(result)


def test_the_fragment_list_covers_every_parser() -> None:
    text = "\n".join(FRAGMENTS)
    kinds: List[str] = [p.kind for block in split_blocks(text) for parser, _, _ in PARSERS for p in parser(block)]
    assert len(set(kinds)) >= 10
