"""Reading reports the way people write them: each construct of issue 10, pinned by behaviour.

Every text here is a form found in several real reports (see tests/corpus); none is a
copy of one report. The assertions are about facts, not about which rule fires.
"""

from __future__ import annotations

from typing import List

import pytest
from ingest_helpers import ingest, report_contexts

from rocm_doctor.facts.model import Facts


def facts(text: str) -> Facts:
    return ingest(text).facts


def gfx_list(f: Facts) -> List[str]:
    return [str(a.gfx.value) for a in f.gpus.agents if a.gfx.is_known]


# ----------------------------------------------------------------- labelled fields


@pytest.mark.parametrize(
    "text",
    [
        "* GPU: RX 7900 XTX\n",
        "1. GPU: RX 7900 XTX\n",
        "- **GPU:** RX 7900 XTX\n",
        "**Graphics card**: AMD Radeon RX 7900 XTX\n",
        "GPU — RX 7900 XTX\n",
        "| GPU | AMD Radeon RX 7900 XTX |\n",
        "### GPU\n\nAMD Radeon RX 7900 XTX\n",
        "Hardware: AMD Radeon RX 7900 XTX 24GB\n",
    ],
)
def test_a_labelled_gpu_is_read_in_any_decoration(text: str) -> None:
    assert gfx_list(facts(text)) == ["gfx1100"]


@pytest.mark.parametrize(
    "value, os_name, wsl, extra",
    [
        ("Win 11 24H2", "windows", None, ("windows_release", "11")),
        ("Windows 10 Pro", "windows", None, ("windows_release", "10")),
        ("Windows 10.0.26200", "windows", None, ("windows_release", "11")),
        ("Ubuntu 24.04 (WSL2)", "linux", 2, ("distro_version", "24.04")),
        ("Ubuntu 22.04 on WSL", "linux", 2, ("distro_id", "ubuntu")),
        ("WSL2 Ubuntu 22.04", "linux", 2, ("distro_version", "22.04")),
        ("Arch", "linux", None, ("distro_id", "arch")),
        ("Fedora 41", "linux", None, ("distro_version", "41")),
    ],
)
def test_operating_system_values_follow_their_grammar(value: str, os_name: str, wsl, extra) -> None:
    f = facts(f"* OS: {value}\n")
    assert f.host.os.value == os_name
    if wsl is not None:
        assert f.host.wsl_version.value == wsl
    field, expected = extra
    assert getattr(f.host, field).value == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        ("2x RX 7900 XT", ["gfx1100", "gfx1100"]),
        ("8x MI355X", ["gfx950"] * 8),
        ("MI210, RX 6600", ["gfx90a", "gfx1032"]),
        ("AMD Instinct MI210, AMD Radeon RX 6600", ["gfx90a", "gfx1032"]),
    ],
)
def test_gpu_lists_give_one_agent_per_card(value: str, expected: List[str]) -> None:
    assert gfx_list(facts(f"GPU: {value}\n")) == expected


def test_an_igpu_in_the_list_is_an_integrated_agent() -> None:
    f = facts("GPU: 7900XTX + iGPU\n")
    assert [a.integrated.value for a in f.gpus.agents] == [False, True]


def test_several_fields_on_one_line_are_each_read() -> None:
    f = facts("GPU: RX 6600, OS: Ubuntu 22.04, ROCm: 6.2.4\n")
    assert gfx_list(f) == ["gfx1032"] and f.host.distro_version.value == "22.04" and f.rocm.version.value == "6.2.4"


def test_a_bare_cpu_model_in_a_cpu_field_gives_its_igpu() -> None:
    f = facts("* GPU: RX7900XTX\n* CPU: 7800X3D\n")
    assert sorted(gfx_list(f)) == ["gfx1036", "gfx1100"]
    assert [a for a in f.gpus.agents if a.integrated.value][0].gfx.value == "gfx1036"


# ----------------------------------------------------------------- entities anywhere


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I got Radeon VII gfx_906 using ComfyUI", "gfx906"),
        ("Cannot find CO for ISA: amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", "gfx90a"),
        ("My laptop has a Radeon 780M", "gfx1103"),
        ("Radeon VII, ROCm 5.7, torch 2.1", "gfx906"),
        ("Strix Halo with Radeon 8060S, 128 GB", "gfx1151"),
        ("VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Barcelo (rev c1)", "gfx90c"),
        ("03:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 31 [Radeon RX 7900 XT/7900 XTX] (rev c8)", "gfx1100"),
        ("it runs on 4 nodes with MI250X each", "gfx90a"),
        ("Device 0: AMD Radeon RX 7700S, compute capability 11.0, VMM: no", "gfx1102"),
        ("Framework 16 with the RX 7600M XT graphics module", "gfx1102"),
        ("GPU: Radeon RX Vega 64, Ubuntu 22.04", "gfx900"),
        ("my Vega 56 stopped working after ROCm 6.0", "gfx900"),
        ("Vega Frontier Edition 16GB", "gfx900"),
    ],
)
def test_gpus_are_named_in_prose_logs_and_lspci_lines(text: str, expected: str) -> None:
    assert expected in gfx_list(facts(text + "\n"))


def test_a_vega_igpus_marketing_name_names_no_gfx() -> None:
    # "Radeon Vega 8 Graphics" is sold on Raven (gfx902) and Renoir (gfx90c) alike
    assert gfx_list(facts("Ryzen 5 with Radeon Vega 8 Graphics\n")) == []


def test_a_list_of_supported_targets_is_not_the_machines_gpu() -> None:
    text = 'msg="amdgpu is not supported (supported types:[gfx1010 gfx1012 gfx1030 gfx1100])" gpu_type=gfx1031\n'
    assert gfx_list(facts(text)) == ["gfx1031"]


def test_a_cpu_model_in_prose_carries_its_igpu() -> None:
    f = facts("I have an AMD Ryzen AI Max+ 395 w/ Radeon 8060S laptop.\n")
    assert gfx_list(f) == ["gfx1151"] and f.gpus.agents[0].integrated.value is True


@pytest.mark.parametrize(
    "text, version, flavour, rocm",
    [
        ("pip install torch==2.5.1+rocm6.2", "2.5.1+rocm6.2", "rocm", "6.2"),
        ("it prints `2.12.0+cu130` and `None`", "2.12.0+cu130", "cuda", None),
        ("https://download.pytorch.org/whl/nightly/rocm6.0/torch-2.3.0.dev20240126%2Brocm6.0-cp310-cp310-linux_x86_64.whl", "2.3.0.dev20240126+rocm6.0", "rocm", "6.0"),
        ("pytorch version: 2.5.1+rocm6.2", "2.5.1+rocm6.2", "rocm", "6.2"),
    ],
)
def test_torch_versions_anywhere_give_one_identity(text: str, version: str, flavour: str, rocm) -> None:
    f = facts(text + "\n")
    assert f.torch.version.value == version and f.torch.flavour.value == flavour
    assert (f.torch.rocm_version.value if rocm else None) == rocm


def test_an_index_url_implies_the_flavour_and_rocm_series() -> None:
    f = facts("pip3 install --pre torch --index-url https://download.pytorch.org/whl/nightly/rocm6.1\n")
    assert f.torch.flavour.value == "rocm" and f.torch.rocm_version.value == "6.1" and f.torch.distributor.value == "pytorch.org"


def test_a_cuda_extra_index_means_a_cuda_build_but_a_rocm_extra_index_decides_nothing() -> None:
    assert facts("pip install torch --extra-index-url https://download.pytorch.org/whl/cu121\n").torch.flavour.value == "cuda"
    assert facts("pip install torch --extra-index-url https://download.pytorch.org/whl/rocm6.2\n").torch.flavour.status == "unknown"


def test_rocm_paths_packages_and_images_give_the_rocm_release() -> None:
    assert facts("ls /opt/rocm-6.0.1/lib\n").rocm.version.value == "6.0.1"
    assert facts("ii  rocm-core   6.2.0.60200-66~22.04   amd64   ROCm Runtime\n").rocm.version.value == "6.2.0"
    assert facts("python-pytorch-rocm 2.3.1-5\n").torch.distributor.value == "distro"
    image = facts("docker run -it rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0\n")
    assert image.rocm.version.value == "6.2" and image.host.container.value == "docker"


@pytest.mark.parametrize(
    ("text", "rocm"),
    [
        ("/nix/store/0123456789abcdfghijklmnpqrsvwxyz-rocm-runtime-5.7.1/lib/libhsa-runtime64.so.1\n", "5.7.1"),
        ("On NixOS with a recent rocm-runtime-5.7.2, the default torch segfaults\n", "5.7.2"),
        ("rocm-runtime-6.1.2-1.fc40.x86_64\n", "6.1.2"),
        ("pip download rocm-runtime-5.7.2-py3.whl\n", None),
    ],
)
def test_nix_name_version_spellings_give_the_rocm_release(text: str, rocm: object) -> None:
    assert facts(text).rocm.version.value == rocm


def test_a_package_named_in_prose_does_not_hide_the_torch_on_the_same_line() -> None:
    f = facts("with rocm-runtime-5.7.2, the default `torch==2.0.1+rocm5.4.2` for Navi 2 segfaults\n")
    assert f.rocm.version.value == "5.7.2" and f.torch.version.value == "2.0.1+rocm5.4.2"


def test_a_one_liner_and_the_line_it_printed() -> None:
    f = facts('$ python3 -c "import torch; print(torch.__version__, torch.version.hip)"\n2.12.0+cu130 None\n')
    assert f.torch.version.value == "2.12.0+cu130" and f.torch.flavour.value == "cuda"


def test_ollama_log_lines_list_its_gpus() -> None:
    text = 'level=INFO source=types.go:131 msg="inference compute" id=0 library=rocm variant="" compute=gfx1100 driver=6.8 name=1002:744c total="24.0 GiB"\n'
    f = facts(text)
    assert gfx_list(f) == ["gfx1100"] and f.driver.amdgpu_version.value == "6.8"


# ----------------------------------------------------------------- environment settings


@pytest.mark.parametrize(
    "text, origin",
    [
        ("export HSA_OVERRIDE_GFX_VERSION=10.3.0\n", "export"),
        ("```\nHSA_OVERRIDE_GFX_VERSION=10.3.0 python main.py\n```\n", "command-prefix"),
        ('PS C:\\> $env:HSA_OVERRIDE_GFX_VERSION="10.3.0"\n', "powershell"),
        ("```\nset HSA_OVERRIDE_GFX_VERSION=10.3.0\n```\n", "cmd-set"),
        ("setx HSA_OVERRIDE_GFX_VERSION 10.3.0\n", "setx"),
        ("set -gx HSA_OVERRIDE_GFX_VERSION 10.3.0\n", "fish"),
        ('Environment="HSA_OVERRIDE_GFX_VERSION=10.3.0"\n', "systemd"),
        ("ENV HSA_OVERRIDE_GFX_VERSION=10.3.0\n", "dockerfile"),
        ("docker run -e HSA_OVERRIDE_GFX_VERSION=10.3.0 rocm/pytorch\n", "docker-run"),
        ("environment:\n  - HSA_OVERRIDE_GFX_VERSION=10.3.0\n", "compose"),
        ("os.environ['HSA_OVERRIDE_GFX_VERSION'] = '10.3.0'\n", "python"),
        ("I set HSA_OVERRIDE_GFX_VERSION to 10.3.0\n", "prose"),
        ("```\n$ env | grep HSA\nHSA_OVERRIDE_GFX_VERSION=10.3.0\n```\n", "env-listing"),
    ],
)
def test_settings_in_every_syntax_keep_their_origin(text: str, origin: str) -> None:
    f = facts(text)
    assert f.env.vars.value == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}
    assert [s.origin for s in f.env.settings.value] == [origin]


def test_a_programs_printed_set_hint_in_a_log_is_no_setting_while_a_bat_line_with_several_words_is() -> None:
    # xFormers' "can't load C++/CUDA extensions" warning ends so (easydiffusion/easydiffusion#1603 pastes it)
    hint = facts("```\n  Please reinstall xformers\n  Set XFORMERS_MORE_DETAILS=1 for more details\n```\n")
    assert not hint.env.settings.value
    bat = facts("```\nset COMMANDLINE_ARGS=--precision full --no-half\n```\n")
    assert [(s.origin, s.value) for s in bat.env.settings.value] == [("cmd-set", "--precision full --no-half")]


def test_a_lower_case_printed_set_hint_with_a_sentence_after_its_value_is_no_cmd_line_while_bat_values_are() -> None:
    # halogen-flash-server's start-up log (peonist-ai/halogen-flash-server#46) advises a variable in lower case
    hint = facts("```\nhalogen: a vision sidecar is present but NOT loaded: /models/v.hgn\n"
                 "         set HALOGEN_VISION_TOWER=/models/v.hgn to accept images.\n```\n")
    assert [(s.origin, s.value) for s in hint.env.settings.value] == [("prose", "/models/v.hgn")]
    for line, value in [
        ("set COMMANDLINE_ARGS=--use-zluda --medvram", "--use-zluda --medvram"),
        ("set COMMANDLINE_ARGS=--precision full --no-half", "--precision full --no-half"),
        ("set PYTHON=C:\\Program Files\\Python310\\python.exe", "C:\\Program Files\\Python310\\python.exe"),
    ]:
        bat = facts(f"```\n{line}\n```\n")
        assert [(s.origin, s.value) for s in bat.env.settings.value] == [("cmd-set", value)], line


def test_a_partial_listing_does_not_make_other_variables_unset() -> None:
    f = facts("export HSA_OVERRIDE_GFX_VERSION=10.3.0\n")
    assert f.env.coverage.value == [] and not f.env.covers("HIP_VISIBLE_DEVICES")
    grep = facts("```\n$ env | grep -E 'HSA|HIP'\nHSA_OVERRIDE_GFX_VERSION=10.3.0\n```\n")
    assert grep.env.covers("HIP_VISIBLE_DEVICES") and not grep.env.covers("ROCR_VISIBLE_DEVICES")


@pytest.mark.parametrize(
    "command, covered, not_covered",
    [
        ("env | grep -E '^(HSA|HIP)'", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"),
        ("env | grep 'HSA\\|HIP'", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"),
        ("env | grep -e HSA -e ROCR", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES"),
        ("env | grep -i hsa", "HSA_ENABLE_SDMA", "HIP_VISIBLE_DEVICES"),
        ("set | findstr HSA HIP", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"),
    ],
)
def test_a_filtered_listing_covers_what_its_filter_would_show(command: str, covered: str, not_covered: str) -> None:
    f = facts(f"```\n$ {command}\nHSA_OVERRIDE_GFX_VERSION=10.3.0\n```\n")
    assert f.env.covers(covered) and not f.env.covers(not_covered)


@pytest.mark.parametrize(
    "listing",
    [
        "$ env | grep -v PATH\nROCM_PATH=/opt/rocm\n",  # inverted: shows what does not match
        "$ env | grep -c HSA\n1\n",  # a count, not rows
        "$ env | grep 'HSA$'\nMY_HSA=1\n",  # anchored at the end of the value
        "$ env\nHOME=/root\n...\nPATH=/usr/bin\n",  # cut short
    ],
)
def test_a_listing_that_may_hide_rows_claims_no_completeness(listing: str) -> None:
    coverage = facts(f"```\n{listing}```\n").env.coverage
    assert coverage.status != "known" or coverage.value == []


def test_a_prefix_before_sudo_does_not_reach_and_a_second_assignment_is_no_command() -> None:
    sudo = facts("```\n$ HSA_OVERRIDE_GFX_VERSION=10.3.0 sudo python3 run.py\n```\n").env.settings.value[0]
    assert sudo.origin == "command-prefix" and sudo.reaches is False and "sudo" in sudo.reason
    after_sudo = facts("```\n$ sudo HSA_OVERRIDE_GFX_VERSION=10.3.0 python3 run.py\n```\n").env.settings.value[0]
    assert after_sudo.reaches is True
    two = facts("```\n$ HSA_OVERRIDE_GFX_VERSION=11.0.0 HIP_VISIBLE_DEVICES=0\n```\n")
    assert set(two.env.vars.value) == {"HSA_OVERRIDE_GFX_VERSION", "HIP_VISIBLE_DEVICES"}
    assert all(s.origin != "command-prefix" for s in two.env.settings.value)


def test_a_fish_universal_variable_without_export_never_reaches_the_program() -> None:
    f = facts("set -U HSA_OVERRIDE_GFX_VERSION 10.3.0\n")
    setting = f.env.settings.value[0]
    assert setting.reaches is False and "HSA_OVERRIDE_GFX_VERSION" not in (f.env.vars.value or {})


def test_a_setting_the_programs_own_log_contradicts_does_not_reach_it() -> None:
    text = (
        'Environment="HSA_OVERRIDE_GFX_VERSION=10.3.0"\n\n'
        'level=WARN source=amd_linux.go:378 msg="amdgpu is not supported (supported types:[gfx1030 gfx1100])" gpu_type=gfx1031 gpu=0\n'
    )
    setting = facts(text).env.settings.value[0]
    assert setting.origin == "systemd" and setting.reaches is False


def test_pytorchs_own_error_text_names_no_setting() -> None:
    text = "HIP kernel errors might be asynchronously reported\nFor debugging consider passing AMD_SERIALIZE_KERNEL=3\n"
    assert facts(text).env.vars.status == "unknown"


# ----------------------------------------------------------------- trust and conflicts


def test_tool_output_beats_a_labelled_field_which_beats_prose() -> None:
    text = "I think I have ROCm 6.1.\nROCm version: 6.2\n```\n$ cat /opt/rocm/.info/version\n6.3.0-12\n```\n"
    result = ingest(text)
    assert result.facts.rocm.version.value == "6.3.0"
    assert any(c.path == "rocm.version" for c in result.conflicts)


def test_a_more_specific_reading_of_the_same_value_is_no_conflict() -> None:
    result = ingest("I have the rocm 6.0 packages installed in /opt/rocm-6.0.1/lib\n")
    assert result.facts.rocm.version.value == "6.0.1"
    assert not [c for c in result.conflicts if c.path == "rocm.version"]


# ----------------------------------------------------------------- signatures that extract what they name


@pytest.mark.parametrize(
    "text, signature, gfx",
    [
        (":1:hip_fatbin.cpp :117 : Missing CO for these ISAs - \n:1:hip_fatbin.cpp :120 :      amdgcn-amd-amdhsa--gfx1102\n", "missing_code_object", "gfx1102"),
        ("rocblaslt warning: No paths matched /venv/torch/lib/hipblaslt/library/*gfx906*co. Make sure that HIPBLASLT_TENSILE_LIBPATH is set correctly.\n", "hipblaslt_no_kernels_for_gfx", "gfx906"),
        ("rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory for GPU arch : gfx1032\n", "tensile_library_missing_arch", "gfx1032"),
    ],
)
def test_a_signature_gives_the_gpu_it_names(text: str, signature: str, gfx: str) -> None:
    f = facts(text)
    assert signature in f.symptoms.signatures.value and gfx in gfx_list(f)


def test_a_kfd_permission_error_proves_no_read_write_access() -> None:
    f = facts("ROCk module is loaded\nUnable to open /dev/kfd read-write: Permission denied\n")
    assert f.permissions.kfd_rw.value is False and f.host.wsl_version.status == "absent"


@pytest.mark.parametrize(
    "text, wsl",
    [
        ("WSL: no\n", None),
        # a field that denies WSL in words (rev52e found these read as WSL 2)
        ("WSL: not installed\n", None),
        ("WSL: No, native\n", None),
        ("WSL: native Ubuntu 24.04\n", None),
        ("WSL: Ubuntu 22.04\n", 2),
        ("WSL version: 1\n", 1),
        ("WSL: yes\n", 2),
        ("OS: Ubuntu 22.04 (WSL2)\n", 2),
        ("OS: Windows 11 (not using WSL)\n", None),
        ("I moved away from WSL2 and now run native Ubuntu 24.04.\n", None),
        ("I run it in WSL2 with Ubuntu 22.04.\n", 2),
        # the Windows host named first or last (environment tables and reports write both)
        ("OS: Windows 11 + WSL2 (Ubuntu 24)\n", 2),
        ("Host OS: Windows 11 (WSL2)\n", 2),
        ("OS: Ubuntu 24.04 via WSL2 on Windows 11\n", 2),
        ("Windows 11, WSL2, rocminfo fails\n", 2),
        ("Environment: WSL2, Ubuntu 22.04\n", 2),
        # the name spelled out is WSL, never native Windows (its "on Windows" is not the host's platform)
        ("I'm running Ubuntu 22.04 on Windows Subsystem for Linux with a 7900 XTX.\n", 2),
        ("I run ROCm under the Windows Subsystem for Linux.\n", 2),
        ("I moved from Windows 11 + WSL2 to native Ubuntu 24.04.\n", None),
        # a setup left behind (r30a)
        ("I used to run Windows 11 + WSL2, now I'm on native Ubuntu 24.04.\n", None),
        ("Previously: Windows 11 + WSL2. Now: Ubuntu 24.04 on bare metal.\n", None),
        ("Before, I ran it on WSL2 Ubuntu; now it runs on Fedora 40.\n", None),
    ],
)
def test_wsl_is_read_with_its_version_and_never_from_a_denial(text: str, wsl) -> None:
    version = facts(text).host.wsl_version
    assert (version.value if version.status == "known" else None) == wsl


@pytest.mark.parametrize(
    "text, wsl",
    [
        # a setup asked about, not in use (pytorch/pytorch#106608, microsoft/WSL#4471)
        ("Can I use my 7900 XTX under WSL?\n", None),
        ("does anyone know if I can use ROCm in WSL2? I have an RX 6800 on Ubuntu 22.04\n", None),
        ("so if i use WSL, can i use ROCm and tensorflow-gpu?\n", None),
        # whether WSL supports something, with native Linux stated as the one in use
        ("Does ROCm work in WSL2? Right now I run Ubuntu 22.04 natively and is_available() is False.\n", None),
        ("Does ROCm work in WSL2? On bare metal Arch my RX 6800 is found.\n", None),
        # a distribution named alone is no such statement: people on WSL name theirs without it
        ("Does ROCm work in WSL2? I have an RX 7900 XTX on Ubuntu 22.04 and is_available() is False.\n", 2),
        # ... asked from WSL, with no other platform stated (ROCm/legacy-rocm-build#4503, #1249; microsoft/WSL#5495)
        ("Does 6950xt support ROCm via wsl?\n\nrocminfo can not get amdgpu info.\n", 2),
        ("It is possible to install the ROCm framework on WSL2? I can't find any GPU through the command line.\n", 2),
        ("Is the RX 590 compatible with WSL2?\nWSL2 Ubuntu 20.04\n", 2),
        # a question about the setup in use, or a failure stated
        ("How can I fix rocminfo in WSL2? It only lists the CPU.\n", 2),
        ("Why can't ROCm see my GPU under WSL2?\n", 2),
        ("I'm running Ubuntu 22.04 in WSL2, why does rocminfo fail?\n", 2),
    ],
)
def test_a_question_about_wsl_is_the_platform_only_when_asked_from_it(text: str, wsl) -> None:
    version = facts(text).host.wsl_version
    assert (version.value if version.status == "known" else None) == wsl


@pytest.mark.parametrize(
    "text, integrated_agents",
    [
        ("My Intel iGPU is fine, the dGPU is an RX 7900 XTX.\n", 0),
        ("I disabled the iGPU in the BIOS; the card is an RX 7900 XTX.\n", 0),
        ("The RX 7900 XTX works, but the iGPU gets picked first.\n", 1),
    ],
)
def test_an_integrated_gpu_mention_counts_only_when_it_is_amds_and_present(text: str, integrated_agents: int) -> None:
    agents = facts(text).gpus.agents
    assert sum(1 for a in agents if a.integrated.status == "known" and a.integrated.value) == integrated_agents


@pytest.mark.parametrize(
    "text, gfx",
    [
        ("Note: this is specific to `gfx1151`. The same builds were tested on `gfx1201` and do not exhibit this problem.\n", ["gfx1151"]),
        ("It fails on gfx1201. It is not available there or the bug not occurring like in the case of `gfx1150`.\n", ["gfx1201"]),
        ("The matmul is wrong on gfx1201; I also tested on an RX 6800, where it did not fail.\n", ["gfx1201"]),
        ("I tested it on my gfx1100 and it crashes.\n", ["gfx1100"]),
        ("The RX 7900 XTX crashes; the same code does not crash on CPU.\n", ["gfx1100"]),
        ("The same code does not crash on my RX 7900 XTX, only when the iGPU is picked.\n", ["gfx1100"]),
        # a GPU named before the comparison is the one the problem was seen on
        ("The RX 7900 XTX crashes, but the same code does not crash on an RX 6800.\n", ["gfx1100"]),
        ("On an RX 7900 XTX next to a gfx1036 iGPU: the same code does not crash when HIP_VISIBLE_DEVICES=0 is set.\n", ["gfx1036", "gfx1100"]),
    ],
)
def test_a_gpu_said_to_be_tested_without_the_problem_is_not_the_machines(text: str, gfx: List[str]) -> None:
    agents = facts(text).gpus.agents
    assert sorted(a.gfx.value for a in agents if a.gfx.status == "known") == gfx


@pytest.mark.parametrize(
    "text, gfx",
    [
        ("On kernel 6.17 with an RX 7900 XTX the node has no codename. This needs a check from someone with an RX 6700/6750 XT or similar.\n", ["gfx1100"]),
        ("My MI300X shows it. Anyone with a gfx1151 can reproduce the numbers too.\n", ["gfx942"]),
        ("Users with an RX 6600 report the same; mine is an RX 7900 XTX.\n", ["gfx1100"]),
        ("I run it with an RX 6700 XT.\n", ["gfx1031"]),
        # "else" / "other": the reporter has the GPU too (the RX 7900 XTX was dropped and the iGPU
        # left as the machine's only GPU made RD527 speak)
        ("Anyone else with a 7900 XTX seeing this crash? It is next to the Raphael iGPU (gfx1036).\n", ["gfx1036", "gfx1100"]),
        ("Other users with an RX 7900 XTX report the same.\n", ["gfx1100"]),
    ],
)
def test_a_gpu_named_as_someone_elses_is_not_the_machines(text: str, gfx: List[str]) -> None:
    agents = facts(text).gpus.agents
    assert sorted(a.gfx.value for a in agents if a.gfx.status == "known") == gfx


@pytest.mark.parametrize(
    "text, gfx",
    [
        # a GPU named in what ROCm supported, as a product, beside the reporter's card (RD527 spoke of the R9 290)
        ("The R9 290 was dropped in ROCm 2.x. My card is an RX 7800 XT.\n", ["gfx1101"]),
        ("Support for the Radeon VII was removed in ROCm 6.0, but I have an RX 7900 XTX.\n", ["gfx1100"]),
        ("Vega 64 support ended with ROCm 5.x. I'm on a Radeon RX 7900 XT.\n", ["gfx1100"]),
        ("Polaris cards like the RX 480 are no longer supported. I have an RX 6900 XT.\n", ["gfx1030"]),
        ("ROCm 5.0 removed the RX 480 from the support list. I run an RX 7800 XT.\n", ["gfx1101"]),
        ("The compatibility matrix lists the RX 7900 XTX; my card is an RX 7600.\n", ["gfx1102"]),
        ("The Radeon VII was supported until ROCm 6.3. I have an RX 7900 XTX.\n", ["gfx1100"]),
        # the past, by the words before it in its sentence
        ("Before the upgrade I ran an RX 5700 XT. Now: RX 7900 GRE.\n", ["gfx1100"]),
    ],
)
def test_a_gpu_named_in_a_support_history_or_the_past_is_not_the_machines_beside_its_own(text: str, gfx: List[str]) -> None:
    agents = facts(text).gpus.agents
    assert sorted(a.gfx.value for a in agents if a.gfx.status == "known") == gfx


@pytest.mark.parametrize(
    "text, gfx",
    [
        # a past state or a timing said of the card still in the machine, beside another GPU named
        ("It crashes before the first step on the RX 7900 XTX. It works on an RTX 3090 in another box.\n", ["gfx1100"]),
        ("It used to be fast on the RX 6800. The Radeon 780M iGPU is disabled in BIOS.\n", ["gfx1030", "gfx1103"]),
        # a tool that lists the machine's card is not a support list
        ("rocminfo lists the RX 7900 XTX, but torch only sees the Radeon 780M.\n", ["gfx1100", "gfx1103"]),
        ("Device Manager lists the RX 6700 XT and also an RTX 3060.\n", ["gfx1031"]),
        # the card gone from a listing, or one program's present lack of it, is the machine's card
        ("After the kernel update the RX 6800 was dropped from rocminfo; only the Radeon 780M is listed now.\n", ["gfx1030", "gfx1103"]),
        ("The RX 6600 is no longer supported by ollama 0.5, so it runs on the Radeon 680M iGPU instead.\n", ["gfx1032", "gfx1035"]),
        ("Since ROCm 6.2 the RX 6600 XT is deprecated in LM Studio and it falls back to Vulkan on the 780M.\n", ["gfx1032", "gfx1103"]),
    ],
)
def test_a_past_state_or_a_tools_listing_of_the_card_keeps_it_the_machines(text: str, gfx: List[str]) -> None:
    agents = facts(text).gpus.agents
    assert sorted(a.gfx.value for a in agents if a.gfx.status == "known") == gfx


@pytest.mark.parametrize(
    "text, gfx",
    [
        ("My RX 580 is no longer supported by ROCm 6.\n", ["gfx803"]),
        ("ROCm dropped support for my Radeon VII.\n", ["gfx906"]),
        ("The RX 580 was dropped in ROCm 4.x and now my card does not work.\n", ["gfx803"]),
        ("Currently rocBLAS lacks 780M gpu support. Can you add support for that?\n", ["gfx1103"]),
        ("The Windows wheels don't support gfx1031, which is my GPU.\n", ["gfx1031"]),
    ],
)
def test_the_reporters_own_gpu_said_to_be_unsupported_is_still_read(text: str, gfx: List[str]) -> None:
    agents = facts(text).gpus.agents
    assert sorted(a.gfx.value for a in agents if a.gfx.status == "known") == gfx


@pytest.mark.parametrize(
    "text, value",
    [
        ("AMDGPU.jl sets `HSA_OVERRIDE_GFX_VERSION=10.3.0` when a KFD topology node is named `navy_flounder`.\n", None),
        ("The launcher sets HSA_OVERRIDE_GFX_VERSION=10.3.0 if the GPU is gfx1031.\n", None),
        ("I set HSA_OVERRIDE_GFX_VERSION=10.3.0 when launching ComfyUI.\n", "10.3.0"),
        ("The script sets HSA_OVERRIDE_GFX_VERSION=9.4.2 for MI300X automatically.\n", "9.4.2"),
    ],
)
def test_a_setting_a_program_makes_on_a_condition_is_not_a_setting_made(text: str, value) -> None:
    found = facts(text).env.vars
    assert ((found.value or {}).get("HSA_OVERRIDE_GFX_VERSION") if found.status == "known" else None) == value


def test_what_the_windows_asks_tell_users_to_paste_is_read_back() -> None:
    from rocm_doctor.judge.paste_verdict import ENVIRONMENT, KERNEL

    listing = f"```\nPS C:\\Users\\me> {ENVIRONMENT.windows}\nHSA_OVERRIDE_GFX_VERSION=11.0.0\n```\n"
    f = facts(listing)
    assert f.env.vars.value == {"HSA_OVERRIDE_GFX_VERSION": "11.0.0"}
    assert f.env.covers("HIP_VISIBLE_DEVICES") and not f.env.covers("PATH")
    version = facts(f"```\nPS C:\\> {KERNEL.windows}\n\nMicrosoft Windows [Version 10.0.22631.4169]\n```\n").host
    assert version.os.value == "windows" and version.windows_build.value == 22631


def test_powershells_environment_table_is_a_complete_listing() -> None:
    table = (
        "```\nPS C:\\> Get-ChildItem Env:\n\nName                           Value\n"
        "----                           -----\nHSA_OVERRIDE_GFX_VERSION       11.0.0\nPATH                           C:\\Windows\n```\n"
    )
    f = facts(table)
    assert f.env.vars.value == {"HSA_OVERRIDE_GFX_VERSION": "11.0.0", "PATH": "C:\\Windows"}
    assert f.env.covers("HIP_VISIBLE_DEVICES")


@pytest.mark.parametrize(
    "listing, release",
    [
        ("rocminfo/jammy,now 1.0.0.60200-66~22.04 amd64 [installed]\n", "6.2.0"),  # AMD's apt: the build number
        ("ii  hsa-rocr  1.14.0.60200-66~22.04  amd64  HSA runtime\n", "6.2.0"),
        ("ii  hip-runtime-amd  6.2.41133.60200-66~22.04  amd64  HIP\n", "6.2.0"),
        ("rocminfo-1.0.0.60102-119.el9.x86_64\n", "6.1.2"),
        ("rocminfo 6.2.4-1\n", "6.2.4"),  # Arch versions it by ROCm release
    ],
)
def test_a_rocm_package_gives_the_release_not_its_components_own_version(listing: str, release: str) -> None:
    assert facts(listing).rocm.version.value == release


@pytest.mark.parametrize(
    "text, release",
    [
        ("wget https://repo.radeon.com/amdgpu-install/6.2/ubuntu/jammy/amdgpu-install_6.2.60200-1_all.deb\n", "6.2.0"),
        ("sudo apt install ./amdgpu-install_6.1.60103-1_all.deb\n", "6.1.3"),
        ("wget https://repo.radeon.com/amdgpu-install/22.20/ubuntu/focal/amdgpu-install_22.20.50200-1_all.deb\n", "5.2.0"),
        ("https://repo.radeon.com/amdgpu-install/6.4.1/ubuntu/noble/\n", "6.4.1"),
    ],
)
def test_an_amdgpu_install_package_name_gives_the_rocm_release_its_build_number_encodes(text: str, release: str) -> None:
    assert facts(text).rocm.version.value == release


def test_a_radeon_software_release_in_an_amdgpu_install_path_is_not_a_rocm_release() -> None:
    assert not facts("https://repo.radeon.com/amdgpu-install/22.40/ubuntu/jammy/\n").rocm.version.is_known


@pytest.mark.parametrize("cpu, vendor", [("13900K", None), ("14700KF", None), ("7800X3D", "AMD"), ("5600G", "AMD")])
def test_a_bare_cpu_model_is_amds_only_when_the_cpu_table_knows_it(cpu: str, vendor) -> None:
    assert facts(f"CPU: {cpu}\n").cpu.vendor.value == vendor


def test_a_kernel_field_takes_a_release_at_its_start_not_any_number() -> None:
    assert facts("Kernel: Cijk_Ailk_Bljk_HHS 0.35 ms\n").host.kernel_release.status == "unknown"
    assert facts("Kernel: Linux 6.11.0-19-generic\n").host.kernel_release.value == "6.11.0-19-generic"


@pytest.mark.parametrize(
    "text, system, built_for",
    [
        ("I installed torch with pip and then ROCm 6.3 from amdgpu-install.\n", "6.3", None),
        ("My torch is built against ROCm 6.2.\n", None, "6.2"),
        ("I use the nightly ROCm 6.4 wheel.\n", None, "6.4"),
        # the release right after the package's name is the build's, as its wheel tag names it
        ("I'm using pytorch rocm5.6 with ROCm 6.1 on Ubuntu 22.04.\n", "6.1", "5.6"),
        ("Installed pytorch rocm 7.2 using AMD documentation\n", None, "7.2"),
        ("I have ROCm 5.7 installed and installed torch (ROCm 6.0).\n", "5.7", "6.0"),
        ("I have ROCm 5.7 installed and I installed pytorch from the rocm5.6 index.\n", "5.7", "5.6"),
        # a comma lists the stack's parts: the release is the system's
        ("I installed torch, ROCm 6.2 and Ubuntu 22.04.\n", "6.2", None),
        # "is" before a dotted release; "for" between torch's version and its build's release
        ("my rocm version is 5.7 and I use pytorch 2.1.0 for rocm 5.6\n", "5.7", "5.6"),
        ("rocm 5.7.1, pytorch 2.1.0 for rocm 5.6\n", "5.7.1", "5.6"),
        ("ROCm is 5 years old and torch 2.5.1 runs on ROCm 6.2\n", "6.2", None),
        # another program built against a release: by the reporter, the system's ROCm built it; ready-made, neither
        ("I compiled bitsandbytes with ROCm 6.0 and installed pytorch from the rocm5.6 index.\n", "6.0", "5.6"),
        ("I built flash-attention against ROCm 6.2 on my system.\n", "6.2", None),
        ("It runs through CTranslate2 compiled against ROCm 6.2.\n", None, None),
        ("The wheels were compiled with ROCm 6.1 and it crashes.\n", None, "6.1"),
        # "linked against" as "built against"; a wheel of another package is that package's
        ("Pytorch stable builds still link against ROCm 7.2.\n", None, "7.2"),
        ("The image's flash-attn wheel is linked against ROCm 6 (libamdhip64.so.6), but this job runs on ROCm 7.2.\n", "7.2", None),
    ],
)
def test_a_rocm_version_is_the_torch_build_only_when_the_words_say_so(text: str, system, built_for) -> None:
    f = facts(text)
    assert f.rocm.version.value == system and f.torch.rocm_version.value == built_for
    if built_for is not None:
        assert f.torch.flavour.value == "rocm"  # a torch built for a ROCm release is a ROCm build


def test_ollamas_zero_driver_version_is_not_a_version() -> None:
    line = 'time=x level=INFO source=types.go:131 msg="inference compute" id=0 library=rocm variant="" compute=gfx1100 driver=0.0 name=1002:744c total="24.0 GiB"\n'
    assert facts(line).driver.amdgpu_version.status != "known"


@pytest.mark.parametrize(
    "text",
    [
        "torch 2.5.1+rocm6.2\ntorchvision 0.20.1+cu124\n",
        "torch: 2.5.1+rocm6.2\ntorchvision: 0.20.1+cu124\n",
        "[pip3] torch==2.5.1+rocm6.2\n[pip3] torchvision==0.20.1+cu124\n",
        ">>> torch.__version__\n'2.5.1+rocm6.2'\n>>> torchvision.__version__\n'0.20.1+cu124'\n",
        'python -c "import torch, torchvision; print(torch.__version__, torchvision.__version__)"\n2.5.1+rocm6.2 0.20.1+cu124\n',
    ],
    ids=["prose", "labelled", "collect-env-lines", "session", "one-liner"],
)
def test_torchvision_is_read_wherever_torch_is(text: str) -> None:
    f = facts(text)
    assert f.torch.torchvision_version.value == "0.20.1+cu124" and f.torch.torchvision_flavour.value == "cuda"


def test_an_untagged_torchvision_in_prose_says_nothing_about_its_build() -> None:
    assert facts("I use torch 2.4.1+rocm6.1 with torchvision 0.19.1\n").torch.torchvision_version.status != "known"


@pytest.mark.parametrize(
    "text",
    [
        'My RX 7900 XTX with ROCm 6.2.\n$ python -c "import torch; print(torch.__version__, torch.version.hip)"\n2.5.1 None\n',
        "RX 7900 XTX, ROCm 6.2\ntorch: 2.5.1\nHIP: None\n",
    ],
    ids=["one-liner", "labelled"],
)
def test_hip_none_on_an_amd_report_is_an_error_about_the_build(text: str) -> None:
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    found = evaluate(load_rules([], use_env=False), facts(text)).findings
    assert any(f.id == "RD829" and f.severity == "error" for f in found)


def test_collect_envs_hip_runtime_line_is_not_torch_version_hip() -> None:
    assert facts("HIP runtime version: N/A\n").torch.hip_version.status != "absent"


@pytest.mark.parametrize(
    "text",
    [
        "NVIDIA RTX 4090 here, Ubuntu 22.04. My check script prints:\ntorch: 2.5.1\nCUDA: 12.4\nHIP: None\n",
        "My ComfyUI-Zluda setup on Windows 11 with an RX 6800 XT.\ntorch version: 2.3.1\nHIP: None\n",
    ],
    ids=["nvidia", "zluda"],
)
def test_hip_none_alone_or_under_zluda_is_not_a_wrong_build(text: str) -> None:
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    found = evaluate(load_rules([], use_env=False), facts(text)).findings
    assert not any(f.id == "RD829" for f in found)


@pytest.mark.parametrize(
    "name, distro, version",
    [
        ("Kubuntu 20.04", "ubuntu", "20.04"),  # Comfy-Org/ComfyUI#7332's field; the flavours share Ubuntu's os-release
        ("Xubuntu 22.04", "ubuntu", "22.04"),
        ("NixOS 24.05", "nixos", "24.05"),
        ("EndeavourOS", "endeavouros", None),
        ("CachyOS", "cachyos", None),
        ("Nobara 40", "nobara", "40"),
    ],
)
def test_a_distribution_named_in_a_field_is_read_with_its_os_release_id(name: str, distro: str, version: str) -> None:
    host = facts(f"OS: {name}\nGPU: RX 7900 XTX\n").host
    assert (host.os.value, host.distro_id.value, host.distro_version.value) == ("linux", distro, version)


@pytest.mark.parametrize("prompt_line", ["PS C:\\Users\\me> wsl --update", "C:\\Users\\me>wsl.exe -l -v", "PS C:\\WINDOWS\\system32> wsl --shutdown"])
def test_a_windows_prompt_running_wsl_leaves_a_wsl_report_on_linux(prompt_line: str) -> None:
    # WSL is managed from a Windows shell on its host: the prompt says where `wsl` ran, not where ROCm runs
    text = f"Windows 11, WSL2 with Ubuntu 22.04, RX 7900 XTX.\n{prompt_line}\nrocminfo: HSA_STATUS_ERROR_OUT_OF_RESOURCES\n"
    host = ingest(text).facts.host
    assert (host.os.value, host.wsl_version.value) == ("linux", 2)


def test_a_windows_prompt_running_anything_else_is_still_windows() -> None:
    host = ingest("PS C:\\Users\\me> wslconfig /l\nPS C:\\Users\\me> python -c \"import torch\"\n").facts.host
    assert host.os.value == "windows"


@pytest.mark.parametrize("line", [
    "OS: Ubuntu 22.04.3 LTS on Windows 10 x86_64",  # neofetch under WSL
    "export HSA_ENABLE_DXG_DETECTION=1",
    "crw-rw-rw- 1 root root 10, 124 Jun  1 09:00 /dev/dxg",
    "rocminfo loads /opt/rocm/lib/librocdxg.so",
])
def test_what_only_wsl_prints_or_has_makes_the_report_wsl(line: str) -> None:
    host = ingest(f"RX 7900 XTX, torch 2.4.1+rocm6.1\n{line}\ntorch.cuda.is_available() returns False\n").facts.host
    assert (host.os.value, host.wsl_version.value) == ("linux", 2)


@pytest.mark.parametrize("line", [
    # dev65env: WSL or its device named as the condition of a code path, written from a native-Linux machine
    # (unslothai/unsloth#7208), as fixes describe such paths (unslothai/unsloth#7305, ROCm/rocm-systems#11688),
    # and the test in code (unslothai/unsloth#6915's install.sh)
    "The code path that prepends the system ROCm libs is gated on WSL (`/dev/dxg`) only, so native Linux never gets it.",
    "The cpuinfo inference is now skipped on WSL unless the ROCDXG runtime is present.",
    "All WSL logic is behind a runtime `is_wsl()` guard checking /dev/dxg.",
    "    if os.path.exists('/dev/dxg'): lib_dirs = _wsl_system_rocm_lib_dirs()",
    "    [ -e /dev/dxg ] || return 0",
])
def test_wsl_named_as_a_code_paths_condition_is_not_the_platform(line: str) -> None:
    host = ingest(f"RX 7800 XT, ROCm 7.2.4\n{line}\nggml_cuda_init: failed to initialize ROCm: no ROCm-capable device is detected\n").facts.host
    assert host.wsl_version.value != 2


@pytest.mark.parametrize("line", [
    "The workaround is gated on WSL, and I am running Ubuntu 24.04 in WSL2 myself.",
    "Skipped on WSL? I run Ubuntu under WSL2 and rocminfo lists only the CPU.",
])
def test_a_code_condition_beside_the_reporters_own_wsl_keeps_wsl(line: str) -> None:
    assert ingest(f"RX 7900 XTX\n{line}\n").facts.host.wsl_version.value == 2


@pytest.mark.parametrize("line", [
    # review65: the reporter's own WSL said with a verb the code-condition words also use
    "All testing was done in WSL2 Ubuntu 22.04 with ROCm 6.1.3.",
    "GPU acceleration enabled in WSL2, Ubuntu 24.04, driver 25.3.1.",
    "Everything is handled in WSL2 Ubuntu 22.04 on my desktop.",
])
def test_done_or_enabled_in_wsl_without_only_is_the_reporters_wsl(line: str) -> None:
    assert ingest(f"RX 7900 XTX\n{line}\n").facts.host.wsl_version.value == 2


@pytest.mark.parametrize("command", [
    "amdgpu-install -y --usecase=wsl,rocm --no-dkms",  # AMD's WSL guide (ROCm/legacy-rocm-build#5509, #4524)
    "sudo amdgpu-install -y --usecase=rocm,wsl --no-dkms",
    "running amdgpu-install-y -- usecase=wsl, rocm -- no dkms prompts missing",  # #3563's spacing
])
def test_amdgpu_install_s_wsl_use_case_makes_the_report_wsl(command: str) -> None:
    # learn52e: the wsl use case installs the WSL-only runtime and is run only inside WSL
    host = ingest(f"RX 7900 XTX, ROCm 6.2.0\n{command}\nE: Unable to locate package hsa-runtime-rocr4wsl-amdgpu\n").facts.host
    assert (host.os.value, host.wsl_version.value) == ("linux", 2)


@pytest.mark.parametrize("command", ["amdgpu-install -y --usecase=graphics,rocm", "amdgpu-install --usecase=workstation,rocm"])
def test_other_amdgpu_install_use_cases_say_nothing_of_wsl(command: str) -> None:
    assert not ingest(f"RX 7900 XTX\n{command}\n").facts.host.wsl_version.is_known


@pytest.mark.parametrize("text", [
    # rev52e: the wsl use case read about, where the report says the machine runs Linux natively
    "Ubuntu 24.04, RX 7900 XTX.\nThe WSL guide uses --usecase=wsl,rocm but I'm on bare metal so I used --usecase=graphics,rocm.\n"
    "RuntimeError: No HIP GPUs are available\n",
    "Ubuntu 22.04 native, RX 6800. I first ran amdgpu-install -y --usecase=wsl,rocm --no-dkms by mistake from a blog post.\n",
])
def test_the_wsl_use_case_beside_a_native_linux_statement_is_no_wsl(text: str) -> None:
    assert ingest(text).facts.host.wsl_version.value != 2


@pytest.mark.parametrize(
    "host_block, guest_block",
    [
        # the Windows host in its own block, rocminfo's WSL banner in another (ROCm/legacy-rocm-build#4490)
        ("# Windows\n10.0.22631\nAMD Radeon RX 9070 XT\n", "```\nWSL environment detected.\n=====================\nHSA System Attributes\n```\n"),
        # a Host: field with the Windows release, and the guest's WSL kernel (#5509, #6323)
        ("Host:\n```\nOS: Windows 11 25H2 10.0.26200\n```\n", "wsl2:\n```\nOS: Ubuntu 24.04.3 LTS (Noble Numbat)\nuname: Linux u24 6.6.87.2-microsoft-standard-WSL2 #1 SMP\n```\n"),
    ],
)
def test_the_windows_host_of_a_wsl_report_leaves_it_on_linux(host_block: str, guest_block: str) -> None:
    host = ingest(f"{host_block}\n{guest_block}\nrocminfo lists only the CPU.\n").facts.host
    assert (host.os.value, host.wsl_version.value) == ("linux", 2)


def test_windows_with_wsl_only_asked_about_stays_windows() -> None:
    text = "OS: Windows 11 Pro 23H2\nGPU: RX 7900 XTX\n\nCan I run ROCm under WSL2 instead?\n"
    assert ingest(text).facts.host.os.value == "windows"


@pytest.mark.parametrize(
    "text",
    [
        # rev52e: a native Windows report naming WSL in prose, in a block of its own: another setup, a reply's
        # question, another person's machine, a field that denies WSL. None may make the report a WSL one.
        "I'm on Windows 11 with an RX 7900 XTX and ZLUDA.\n\n```\nRuntimeError: CUDA error: invalid device function\n```\n\n"
        "It works fine in WSL2 though, only native Windows fails.\n",
        "Windows 11, RX 6800 XT.\n\n```\ntorch.cuda.is_available() False\n```\n\n> Have you tried running it in WSL2 instead?\n\nNot yet.\n",
        "Windows 11, RX 6800 XT, native ComfyUI-Zluda.\n\n```\nhipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n```\n\n"
        "A friend running in WSL2 on the same card has no problem.\n",
        "### Environment\nOS: Windows 11 Pro\nWSL: not installed\nGPU: RX 7900 XTX\n\n```\nRuntimeError: Windows not yet supported for torch.compile\n```\n",
    ],
)
def test_a_windows_report_naming_wsl_only_in_prose_or_a_field_is_not_made_linux(text: str) -> None:
    assert ingest(text).facts.host.os.value != "linux"


def test_a_native_windows_collect_env_beside_a_wsl_attempt_keeps_windows_in_play() -> None:
    # rev52e: collect_env printed "OS: Microsoft Windows" on Windows itself (inside WSL it prints the guest's
    # OS), so the report holds a native attempt and a WSL one; neither reading is dropped (both stay in play)
    text = (
        "Native Windows first:\n\n```\nPyTorch version: 2.4.0+cpu\nIs debug build: False\nCUDA used to build PyTorch: None\n"
        "ROCM used to build PyTorch: N/A\n\nOS: Microsoft Windows 11 Pro\nGCC version: Could not collect\n"
        "Python platform: Windows-11-10.0.22631-SP0\nIs CUDA available: False\n```\n\nThen I tried WSL2:\n\n"
        "```\n$ rocminfo\nWSL environment detected.\n=====================\nHSA System Attributes\n=====================\n```\n"
    )
    assert ingest(text).facts.host.os.value != "linux"


@pytest.mark.parametrize("line", ["ls: cannot access '/dev/dxg': No such file or directory", "OS: Ubuntu 22.04.3 LTS x86_64"])
def test_a_missing_dxg_device_or_a_plain_os_line_is_no_wsl_2(line: str) -> None:
    host = ingest(f"RX 7900 XTX\n{line}\n").facts.host
    assert not host.wsl_version.is_known


@pytest.mark.parametrize(
    "text",
    [
        "I used to run it on Windows 11, and it was slow. torch.cuda.is_available() returns False",
        "My friend's laptop with Windows 11 runs it fine. Mine returns False for torch.cuda.is_available().",
        "The README says that on Windows 11 you need the HIP SDK. torch.cuda.is_available() returns False",
        "On my other PC under Windows it works; here torch.cuda.is_available() returns False",
    ],
)
def test_a_windows_named_of_the_past_another_machine_or_a_document_is_not_this_machines(text: str) -> None:
    assert ingest(text).facts.host.os.value != "windows"


@pytest.mark.parametrize(
    "text",
    [
        "I'm on Windows 11 with an RX 7900 XTX.",
        "It used to work with ROCm 5.7, but now I run Windows 11 and torch.cuda.is_available() returns False",
    ],
)
def test_a_windows_the_reporter_runs_now_is_read(text: str) -> None:
    assert ingest(text).facts.host.os.value == "windows"


@pytest.mark.parametrize(
    "text",
    [
        "I run ollama-for-amd 0.9.0 on Windows",
        "Installed with the Ollama-For-AMD-Installer",
        "the Ollama for AMD installer has no gfx803 entry",
        "ollama_for_amd v0.5.9 does not use my GPU",
    ],
)
def test_the_ollama_for_amd_fork_is_read_by_its_name(text: str) -> None:
    assert "ollama_for_amd_named" in report_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I want to use Ollama for AMD GPUs but it runs on the CPU",
        "Is there any support in ollama for AMD cards? It uses the CPU.",
    ],
)
def test_official_ollama_wanted_on_amd_hardware_is_not_the_fork(text: str) -> None:
    assert "ollama_for_amd_named" not in report_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I unzipped llama-b4730-bin-win-hip-x64-gfx1030 and ran llama-cli",
        "C:\\Users\\me\\llama-b1254-windows-rocm-gfx103X-x64\\llama-server.exe",
        "Same on koboldcpp_rocm.exe: Initializing dynamic library: koboldcpp_hipblas.dll",
    ],
)
def test_a_windows_release_of_a_ggml_program_says_the_report_is_from_windows(text: str) -> None:
    assert "ggml_windows_release_shown" in report_contexts(text)
    assert ingest(text).facts.host.os.value == "windows"


def test_a_linux_release_archive_of_llama_cpp_says_nothing_of_windows() -> None:
    assert "ggml_windows_release_shown" not in report_contexts("I run llama-b8204-bin-ubuntu-vulkan-x64 on Debian")


@pytest.mark.parametrize(
    "text",
    [
        "I use LM Studio 0.3.22 with the ROCm llama.cpp engine",
        "LMStudio does not offer the ROCm runtime for my GPU",
        "lms runtime survey --json",
    ],
)
def test_lm_studio_is_read_by_its_name(text: str) -> None:
    assert "lm_studio_named" in report_contexts(text)


def test_lm_studios_model_folder_is_not_lm_studio() -> None:
    assert "lm_studio_named" not in report_contexts(".\\llama-cli -m C:\\Users\\me\\.lmstudio\\models\\qwen.gguf")


@pytest.mark.parametrize(
    "text",
    [
        "cmake -B build -DGGML_HIP=ON -DGPU_TARGETS=gfx1151",
        "cmake -G Ninja -DAMDGPU_TARGETS=gfx1100 -DLLAMA_HIPBLAS=ON ..",
        "make -j16 LLAMA_HIPBLAS=1 AMDGPU_TARGETS=gfx1032",
    ],
)
def test_a_hip_build_the_reporter_made_is_read(text: str) -> None:
    assert "ggml_hip_self_build_shown" in report_contexts(text)


def test_a_release_archive_is_not_a_build_the_reporter_made() -> None:
    assert "ggml_hip_self_build_shown" not in report_contexts("llama-b6346-bin-win-hip-radeon-x64 finds the GPU")


@pytest.mark.parametrize(
    "text, field, value",
    [
        ('$ python -c "import torch; print(torch.version.cuda)"\n12.4\n', "cuda_version", "12.4"),
        ('$ python -c "import torch; print(torch.version.cuda)"\n12.10\n', "cuda_version", "12.10"),
        ('$ python3 -c "import torch; print(torch.version.hip)"\n6.2\n', "hip_version", "6.2"),
    ],
)
def test_a_version_a_one_liner_prints_without_quotes_is_read_as_its_text_not_a_float(text: str, field: str, value: str) -> None:
    # cw48: print() shows torch.version.cuda as 12.4, not '12.4' as the REPL does
    assert getattr(facts(text).torch, field).value == value


@pytest.mark.parametrize("text", ["OS: Windows 11\nGPU: RX 7900 XTX\nHIP: 6.1\n", "Windows 11, RX 6800\nHIP version: 6.2\n"])
def test_a_labelled_two_part_hip_numeral_is_not_read_as_a_rocm_torch(text: str) -> None:
    # rev48a: "HIP: 6.1" in a reporter's list is as often the HIP SDK installed on Windows as torch.version.hip;
    # only a printed torch.version.hip/.cuda expression turns an unquoted numeral into a version
    assert facts(text).torch.flavour.status != "known"


# ----------------------------------------------------------------- a code name inside a URL, repository or file name
# rev51b: learn51b let a code name's words be joined by a hyphen or an underscore ("strix-halo"), so that a slug
# is read as the whole name, not as its first word; a slug or path is still no device line (issue 23).


@pytest.mark.parametrize(
    "text, gfx",
    [
        ("I followed https://github.com/kyuz0/amd-strix-halo-toolboxes to set up the container.\nGPU: AMD Radeon RX 7900 XTX\n", ["gfx1100"]),
        ("distrobox create -n llama --image docker.io/kyuz0/amd-strix-halo-toolboxes:rocm-7.2\nHIP error: invalid device function\n", []),
        ("git clone https://github.com/someone/navi-22-fix.git\ntorch.cuda.is_available() False\n", []),
        ("cd ~/strix_halo_bench && python run.py\nRuntimeError: HIP error: invalid device function\n", []),
        ("Loading /models/strix-point-tuned.gguf on my RX 7900 XTX\n", ["gfx1100"]),
        # rev51f: a file's name with its extension, as in_file_name reads it for the gfx mentions
        ("Config in phoenix.yaml\nHIP error: invalid device function\n", []),
    ],
)
def test_a_code_name_in_a_url_repository_or_file_name_is_no_gpu_of_the_machine(text: str, gfx: List[str]) -> None:
    assert sorted(gfx_list(facts(text))) == gfx


@pytest.mark.parametrize(
    "text, gfx",
    [
        ("My laptop has a Strix Halo (Ryzen AI Max+ 395).\n", ["gfx1151"]),
        ("GPU: Navi 22\n", ["gfx1031"]),
        ("My GPU is a Vega 64.\n", ["gfx900"]),
        # rev51f: a compound adjective after the name is prose, not a slug (rev51b's guard refused it)
        ("I run a Strix Halo-based mini PC.\n", ["gfx1151"]),
        ("My Navi 22-powered card crashes.\n", ["gfx1031"]),
    ],
)
def test_a_code_name_in_prose_or_a_field_is_still_read(text: str, gfx: List[str]) -> None:
    assert sorted(set(gfx_list(facts(text)))) == gfx
