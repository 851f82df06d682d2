"""ROCm libraries of two installs in what a report pastes of one process or one binary (ldd, backtrace frames,
LD_DEBUG; rocm_doctor/ingest/formats/loaded_libraries.py and derived.rocm_process_two_installs; two60).
Wordings from pytorch/pytorch#141014 and koharu-rs/koharu#972; look-alikes from ROCm/TheRock#1113 (one install
split over folders) and the rocminfo-beside-torch case the issue names."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

from rocm_doctor.ingest.formats.loaded_libraries import install_root
from rocm_doctor.judge.derived_facts.link_installs import rocm_process_two_installs


def _mix(text: str):
    return rocm_process_two_installs(ingest(text).facts, None)


@pytest.mark.parametrize(
    "text, library",
    [
        # pytorch/pytorch#141014: ldd of one program, filtered by grep
        ("$ ldd test_app | grep libamdhip64\n"
         "        libamdhip64.so.6 => /opt/rocm-6.2.4/lib/llvm/bin/../../../lib/libamdhip64.so.6 (0x00007a97ada00000)\n"
         "        libamdhip64.so => /scratch/f/miniconda3/envs/py310/lib/python3.10/site-packages/torch/lib/libamdhip64.so (0x00007a97aac00000)\n",
         "libamdhip64"),
        # the same program's backtrace: frames from /opt/rocm-6.2.4's HIP and the wheel's rocSPARSE, a wrapped "from"
        ("#10 0x00007fffa1ca3950 in ?? () from /opt/rocm-6.2.4/lib/llvm/bin/../../../lib/libamdhip64.so.6\n"
         "#11 0x00007ffdef605d72 in __hip_module_dtor ()\n"
         "   from /scratch/f/miniconda3/envs/py310/lib/python3.10/site-packages/torch/lib/librocsparse.so\n"
         "#12 0x00007fffa1247372 in __cxa_finalize (d=0x7ffdf1f01f40 <__dso_handle>) at ./stdlib/cxa_finalize.c:83\n",
         "librocsparse"),
        # two AMD releases side by side: /opt/rocm-5.7.1's HSA runtime under /opt/rocm-6.2.0's HIP
        ("\tlibamdhip64.so.6 => /opt/rocm-6.2.0/lib/libamdhip64.so.6 (0x00007f0000000000)\n"
         "\tlibhsa-runtime64.so.1 => /opt/rocm-5.7.1/lib/libhsa-runtime64.so.1 (0x00007f0000000000)\n",
         "libhsa-runtime64"),
        # LD_DEBUG=libs: an app's bundled runtime, then a ROCm tree's comgr from LD_LIBRARY_PATH (koharu-rs/koharu#972)
        ("     4242:\tcalling init: /home/u/.cache/koharu/packages/rocm/7.14.0/gfx1201/_rocm_sdk_core/lib/libamdhip64.so.7\n"
         "     4242:\tcalling init: /opt/therock-tarball/install/lib/libamd_comgr.so.3\n",
         "libamd_comgr"),
        # a wheel's torch whose HSA runtime resolves to a distribution's folder (LD_LIBRARY_PATH or ld.so.conf)
        ("$ ldd .venv/lib/python3.12/site-packages/torch/lib/libtorch_hip.so\n"
         "\tlinux-vdso.so.1 (0x00007ffd5f3e6000)\n"
         "\tlibamdhip64.so => /home/u/.venv/lib/python3.12/site-packages/torch/lib/libamdhip64.so (0x00007f1c2a000000)\n"
         "\tlibhsa-runtime64.so.1 => /usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1 (0x00007f1c29c00000)\n"
         "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f1c29800000)\n",
         "libhsa-runtime64"),
    ],
)
def test_rocm_libraries_of_two_installs_in_one_listing_are_read(text: str, library: str) -> None:
    fact = _mix(text)
    assert fact.is_known, fact
    assert library in fact.value


@pytest.mark.parametrize(
    "text",
    [
        # ROCm/TheRock#1113: one install split over torch/lib, _rocm_sdk_core and _rocm_sdk_libraries_*
        "(venv) root@beast:/test# ldd ~/venv/lib/python3.12/site-packages/torch/lib/libtorch.so\n"
        "\tlinux-vdso.so.1 (0x0000710867818000)\n"
        "\tlibtorch_cpu.so => /root/venv/lib/python3.12/site-packages/torch/lib/libtorch_cpu.so (0x000071085a46f000)\n"
        "\tlibroctracer64.so.4 => /root/venv/lib/python3.12/site-packages/_rocm_sdk_core/lib/libroctracer64.so.4 (0x00007108548b3000)\n"
        "\tlibamdhip64.so.7 => /root/venv/lib/python3.12/site-packages/_rocm_sdk_core/lib/libamdhip64.so.7 (0x0000710852f42000)\n"
        "\tlibhipblas.so.3 => /root/venv/lib/python3.12/site-packages/_rocm_sdk_libraries_gfx110X_all/lib/libhipblas.so.3 (0x0000710852f42000)\n"
        "\t/lib64/ld-linux-x86-64.so.2 (0x000071086781a000)\n",
        # two programs' listings: rocminfo from /opt/rocm, torch from its wheel (a healthy machine)
        "$ ldd /opt/rocm/bin/rocminfo | grep hsa\n"
        "\tlibhsa-runtime64.so.1 => /opt/rocm/lib/libhsa-runtime64.so.1 (0x00007f0000000000)\n"
        "$ ldd venv/lib/python3.12/site-packages/torch/lib/libtorch_hip.so | grep amdhip\n"
        "\tlibamdhip64.so => /home/u/venv/lib/python3.12/site-packages/torch/lib/libamdhip64.so (0x00007f0000000000)\n",
        # /opt/rocm is a link to /opt/rocm-6.2.0; llvm/lib and lib are one install
        "\tlibamdhip64.so.6 => /opt/rocm/lib/libamdhip64.so.6 (0x00007f0000000000)\n"
        "\tlibhsa-runtime64.so.1 => /opt/rocm-6.2.0/lib/libhsa-runtime64.so.1 (0x00007f0000000000)\n"
        "\tlibamd_comgr.so.2 => /opt/rocm/lib/llvm/lib/../../lib/libamd_comgr.so.2 (0x00007f0000000000)\n",
        # a distribution's ROCm in /usr/lib and /lib (usrmerge)
        "\tlibamdhip64.so.6 => /usr/lib/x86_64-linux-gnu/libamdhip64.so.6 (0x00007f0000000000)\n"
        "\tlibhsa-runtime64.so.1 => /lib/x86_64-linux-gnu/libhsa-runtime64.so.1 (0x00007f0000000000)\n",
        # NixOS: every package in its own store folder
        "\tlibamdhip64.so.6 => /nix/store/aaa-clr-6.3.3/lib/libamdhip64.so.6 (0x00007f0000000000)\n"
        "\tlibhsa-runtime64.so.1 => /nix/store/bbb-rocm-runtime-6.3.3/lib/libhsa-runtime64.so.1 (0x00007f0000000000)\n",
        # a listing of both installs is no load
        "$ ls /opt/rocm/lib/libamdhip64.so* .venv/lib/python3.12/site-packages/torch/lib/libamdhip64.so\n"
        "/opt/rocm/lib/libamdhip64.so.6\n/home/u/.venv/lib/python3.12/site-packages/torch/lib/libamdhip64.so\n",
        # a backtrace wholly inside the wheel
        "#0  0x00007fffa62e0457 in hip::Graph::GetRunListUtil () from /root/miniforge3/lib/python3.12/site-packages/torch/lib/libamdhip64.so\n"
        "#1  0x00007fffa62dcf0c in hipGraphInstantiate () from /root/miniforge3/lib/python3.12/site-packages/torch/lib/libamdhip64.so\n",
    ],
)
def test_one_install_or_separate_programs_are_not_two_installs(text: str) -> None:
    assert not _mix(text).is_known


def test_install_root_keeps_one_install_together() -> None:
    assert install_root("/opt/rocm/lib/llvm/bin/../../../lib/libamdhip64.so.6") == "/opt/rocm"
    assert install_root("/opt/rocm-6.2.4/lib/libamdhip64.so.6") == "/opt/rocm-6.2.4"
    assert install_root("/e/lib/python3.12/site-packages/_rocm_sdk_core/lib/libamdhip64.so.7") == "/e/lib/python3.12/site-packages"
    assert install_root("/opt/therock-tarball/install/lib/libamd_comgr.so.3") == "/opt/therock-tarball/install"
