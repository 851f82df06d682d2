"""A ROCm wheel index or torch build whose release predates the GPU (issue 23: gfx_not_in_wheel).

The index forms are the ones real reports use: a launcher's TORCH_COMMAND with --extra-index-url
(AUTOMATIC1111/stable-diffusion-webui#6032, #7459, #10358), pip's --index-url with or without '=',
nightly and test channels (pytorch/pytorch#100625). Texts are written for the test.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate


def indexes(text: str) -> list:
    found = ingest(text).facts.symptoms.wheel_indexes
    return list(found.value or []) if found.is_known else []


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("TORCH_COMMAND='pip install torch torchvision --extra-index-url https://download.pytorch.org/whl/rocm5.2' python launch.py\n", ["rocm5.2"]),
        ('export TORCH_COMMAND="pip install torch==2.0.1+rocm5.4.2 --index-url https://download.pytorch.org/whl/rocm5.4.2"\n', ["rocm5.4.2"]),
        ("pip3 install --pre torch --index-url=https://download.pytorch.org/whl/nightly/rocm5.5\n", ["nightly/rocm5.5"]),
        ("pip install torch -f https://download.pytorch.org/whl/test/rocm6.2/\n", ["test/rocm6.2"]),
        ("I went from https://download.pytorch.org/whl/rocm5.2 to https://download.pytorch.org/whl/rocm5.6\n", ["rocm5.2", "rocm5.6"]),
    ],
)
def test_every_download_pytorch_org_rocm_index_named_is_read_with_its_channel(text: str, wanted: list) -> None:
    assert indexes(text) == wanted


def test_an_index_of_another_host_or_a_cuda_index_is_not_a_pytorch_org_rocm_index() -> None:
    assert indexes("pip install torch --index-url https://download.pytorch.org/whl/cu118\n") == []
    assert indexes("pip install torch --index-url https://repo.radeon.com/rocm/manylinux/rocm-rel-6.2/\n") == []


def _first_problem(text: str) -> tuple:
    findings = evaluate(load_rules([], use_env=False), ingest(text).facts).findings
    serious = [f for f in findings if f.severity in ("error", "warning")]
    return (serious[0].id, serious[0].category) if serious else ("", "")


def test_an_rdna3_gpu_with_torch_from_the_rocm5_2_index_reads_first_as_a_gfx_finding() -> None:
    report = (
        "My GPU is an RX 7900 XTX, Ubuntu 22.04.\n\n"
        "```\nTORCH_COMMAND='pip install torch torchvision --extra-index-url https://download.pytorch.org/whl/rocm5.2' python launch.py\n"
        "AssertionError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check\n```\n"
    )
    assert _first_problem(report) == ("RD791", "gfx-unsupported")


def test_an_rdna3_gpu_with_a_torch_1_13_rocm_build_reads_first_as_a_gfx_finding() -> None:
    report = (
        "GPU: Radeon RX 7900 XT\n"
        "Successfully installed torch-1.13.1+rocm5.2 torchvision-0.14.1+rocm5.2\n"
        "RuntimeError: HIP error: invalid device function\n"
    )
    assert _first_problem(report)[1] == "gfx-unsupported"
    ids = [f.id for f in evaluate(load_rules([], use_env=False), ingest(report).facts).findings]
    assert "RD790" in ids


def test_an_rdna2_gpu_on_the_rocm5_2_index_is_left_to_the_override_rules() -> None:
    report = (
        "GPU: RX 6700 XT\n"
        "TORCH_COMMAND='pip install torch --extra-index-url https://download.pytorch.org/whl/rocm5.2' python launch.py\n"
    )
    ids = [f.id for f in evaluate(load_rules([], use_env=False), ingest(report).facts).findings]
    assert "RD791" not in ids and "RD790" not in ids


def _signatures(text: str) -> list:
    found = ingest(text).facts.symptoms.signatures
    return list(found.value or []) if found.is_known else []


@pytest.mark.parametrize(
    ("line", "gfx"),
    [
        ('time=2024-05-02T12:17:03.657Z level=WARN source=amd_linux.go:116 msg="amdgpu [0] gfx1103 is not supported by /tmp/ollama2145067703/rocm [gfx1030 gfx1100 gfx1101 gfx1102 gfx900 gfx906 gfx908 gfx90a gfx940 gfx941 gfx942]"\n', "gfx1103"),
        ('level=WARN source=amd_linux.go:114 msg="amdgpu [1] gfx1010 is not supported by /tmp/ollama402405963/rocm [gfx1030 gfx1100]"\n', "gfx1010"),
        ('Mar 17 03:02:51 host ollama[812]: time=2024-03-17T03:02:51.431+01:00 level=WARN msg="amdgpu [0] gfx1103 is not supported by /opt/rocm/lib [gfx1030 gfx1100 gfx1101 gfx1102]"\n', "gfx1103"),
    ],
)
def test_ollamas_older_unsupported_gfx_line_is_read_with_the_gpu_it_names(line: str, gfx: str) -> None:
    result = ingest(line)
    assert "ollama_gfx_not_in_its_rocm" in _signatures(line)
    assert [a.gfx.value for a in result.facts.gpus.agents] == [gfx]


def test_ollamas_gfx000_agent_is_no_gpu() -> None:
    # ollama 0.1.29 listed a CPU agent as gfx000 (ollama/ollama#3304); the GPU beside it was supported
    line = 'level=WARN source=amd_linux.go:114 msg="amdgpu [0] gfx000 is not supported by /tmp/ollama1698492372/rocm [gfx1030 gfx1100]"\n'
    assert "ollama_gfx_not_in_its_rocm" not in _signatures(line)


def test_an_ollama_server_skipping_an_rdna3_igpu_without_override_reads_first_as_the_override_finding() -> None:
    report = (
        "Laptop: AMD Ryzen 7 PRO 7840U w/ Radeon 780M Graphics\n\n"
        'time=2024-05-02T12:17:01.881Z level=INFO source=routes.go:1143 msg="Listening on [::]:11434 (version 0.1.32)"\n'
        'time=2024-05-02T12:17:03.657Z level=WARN source=amd_linux.go:116 msg="amdgpu [0] gfx1103 is not supported by /tmp/ollama2145067703/rocm [gfx1030 gfx1100 gfx1101 gfx1102 gfx900 gfx906 gfx908 gfx90a gfx940 gfx941 gfx942]"\n'
    )
    assert _first_problem(report) == ("RD792", "gfx-override")


def test_ollamas_unsupported_line_without_its_source_attribute_is_read_apart() -> None:
    # ollama/ollama#12071 quotes the line without slog's source= attribute: the platform is not in it
    line = 'time=... level=WARN msg="amdgpu is not supported (supported types:[])" gpu_type=gfx1103 gpu=0 library=C:\\Users\\me\\lib\\ollama\\rocm\n'
    assert _signatures(line) == ["ollama_gfx_unsupported_platform_not_shown"]
    with_source = 'time=2025-01-29T21:15:25.522-03:00 level=WARN source=amd_linux.go:378 msg="amdgpu is not supported (supported types:[gfx1030 gfx1100])" gpu_type=gfx1031 gpu=0 library=/usr/lib/ollama\n'
    assert _signatures(with_source) == ["ollama_gfx_check_without_override"]


def test_an_ollama_server_on_windows_skipping_its_only_gpu_reads_as_no_kernels() -> None:
    report = (
        "OS: Windows 11\n\n"
        'time=... level=WARN msg="amdgpu is not supported (supported types:[gfx1030 gfx1100 gfx1101])" gpu_type=gfx1010 gpu=0 library=C:\\Users\\me\\AppData\\Local\\Programs\\Ollama\\lib\\ollama\\rocm\n'
        'time=... level=INFO msg="no compatible GPUs were discovered"\n'
    )
    ids = [f.id for f in evaluate(load_rules([], use_env=False), ingest(report).facts).findings]
    assert "RD793" in ids


def _build_targets(text: str) -> list:
    found = ingest(text).facts.symptoms.build_targets
    return list(found.value or []) if found.is_known else []


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("cmake -B build -DGGML_HIP=ON -DAMDGPU_TARGETS=gfx1100 -DCMAKE_BUILD_TYPE=Release\n", ["gfx1100"]),
        ('export PYTORCH_ROCM_ARCH="gfx90a;gfx942"\n', ["gfx90a;gfx942"]),
        ("make GPU_TARGETS=gfx1030,gfx1100 -j16\n", ["gfx1030;gfx1100"]),
        ('AMDGPU_TARGETS="gfx906:xnack+" go generate ./...\n', ["gfx906:xnack+"]),
        ("cmake .. -D AMDGPU_TARGETS=gfx1030 -DCMAKE_HIP_ARCHITECTURES=gfx1030\n", ["gfx1030", "gfx1030"]),
    ],
)
def test_build_target_lists_are_read_in_cmake_make_and_shell_forms(text: str, wanted: list) -> None:
    assert _build_targets(text) == wanted


def test_a_shell_default_expansion_is_not_a_target_list() -> None:
    assert _build_targets("PYTORCH_ROCM_ARCH=${PYTORCH_ROCM_ARCH:-gfx90a}\n") == []


def test_a_build_for_another_family_reads_as_a_gfx_finding() -> None:
    report = (
        "GPU: RX 6800 XT\n"
        "cmake -B build -DGGML_HIP=ON -DAMDGPU_TARGETS=gfx1100 -DCMAKE_BUILD_TYPE=Release\n"
        "ROCm error: invalid device function\n"
    )
    ids = [f.id for f in evaluate(load_rules([], use_env=False), ingest(report).facts).findings]
    assert "RD795" in ids and _first_problem(report)[1] == "gfx-unsupported"


@pytest.mark.parametrize(
    "line",
    [
        'time=2025-02-26T01:11:02.714-05:00 level=WARN source=amd_linux.go:309 msg="amdgpu too old gfx803" gpu=0\n',
        'time=2024-03-15T14:15:29.928-06:00 level=WARN source=amd_linux.go:84 msg="amdgpu [0] too old gfx803"\n',
    ],
)
def test_ollamas_too_old_line_names_the_gpu_and_reads_as_no_kernels(line: str) -> None:
    assert "ollama_gfx_too_old" in _signatures(line)
    ids = [f.id for f in evaluate(load_rules([], use_env=False), ingest(line).facts).findings]
    assert "RD793" in ids


def test_ollamas_too_old_gfx000_is_no_gpu() -> None:
    assert "ollama_gfx_too_old" not in _signatures('level=WARN source=amd_linux.go:163 msg="amdgpu too old gfx000" gpu=0\n')


def test_ollamas_newer_rocblas_drop_line_names_the_gpu_and_reads_as_the_override_finding() -> None:
    line = 'time=2026-08-30T10:00:00.000Z level=WARN source=amd.go:470 msg="dropping ROCm device — no rocblas support for gfx target" device="AMD Radeon RX 6700 XT" gfx_target=gfx1031 supported="map[gfx1030:true gfx1100:true]" hint="set HSA_OVERRIDE_GFX_VERSION to map to a supported target"\n'
    assert "ollama_rocblas_lacks_gfx" in _signatures(line)
    assert _first_problem("OS: Ubuntu 24.04\n" + line) == ("RD792", "gfx-override")
