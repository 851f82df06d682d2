"""Score ``check --from`` on real bug reports: recall per root-cause class, top-1, healthy errors.

Two corpora: ``../shared/corpus`` (the team's development set) and ``tests/corpus``
(cases this project added, same fields, each with its public ``source``). A case is a
hit when the report's text, read and judged by the shipped rules, gives an error or
warning finding of the category its ``root_cause_class`` maps to; top-1 when the first
error or warning is of that category; a healthy case must get no error.

Rows under the totals: problems hit by a rule that is not a generic checklist
(:data:`GENERIC_RULES`), and healthy cases with no warning either.

Run as a script for the table: ``python tests/ingest/corpus_scoring.py [-v]``.
"""

from __future__ import annotations

import os
import sys
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _shared_corpus() -> Path:
    """``ROCM_DOCTOR_SHARED_CORPUS``, else the nearest ``shared/corpus`` above the checkout (a worktree
    sits one folder deeper than the main checkout)."""
    named = os.environ.get("ROCM_DOCTOR_SHARED_CORPUS")
    if named:
        return Path(named)
    for parent in ROOT.parents:
        if (parent / "shared" / "corpus").is_dir():
            return parent / "shared" / "corpus"
    return ROOT.parent / "shared" / "corpus"


SHARED_CORPUS = _shared_corpus()
SHARED_HELDBACK_LIST = ROOT / "tests" / "corpus" / "shared_heldback.txt"
"""Ids of the ``../shared/corpus`` cases scored only in aggregate (the file's header says how they were drawn)."""
OWN_CORPUS = ROOT / "tests" / "corpus"
HOLDOUT_CORPUS = OWN_CORPUS / "holdout"
"""Cases scored only in aggregate: nobody tunes a reader or rule while looking at them."""

CATEGORY_OF_CLASS: Dict[str, Set[str]] = {
    "wrong_torch_build": {"torch-build"},
    "cuda_wheel_on_amd": {"torch-build"},
    "torch_rocm_mismatch": {"torch-rocm-mismatch"},
    "unsupported_gfx_needs_override": {"gfx-unsupported", "gfx-override"},
    "gfx_not_in_wheel": {"gfx-unsupported"},
    "permissions_render_group": {"permissions"},
    "igpu_selected": {"device-selection"},
    "windows_unsupported_training": {"platform"},
    "wsl_setup": {"platform"},
    "driver_too_old": {"driver"},
    "hipblaslt_unsupported": {"blas"},
    "env_var_misuse": {"env"},
    "package_mismatch": {"packages"},
}
"""Issue 6's mapping from root-cause class to finding category."""

CATEGORY_OF_OTHER: Dict[str, Set[str]] = {
    # session 67 re-split: held-back `other` cases that joined the development cases, with the categories set for
    # them in heldback_other_categories.txt by a reader who did not run the doctor on them (2026-11-29)
    "amdgpu-26-kvm-vfio-passthrough-pci-rejects-atomics": {"platform"},
    "comfyui-5387-fedora-python3127-torch241-rocm61-segfault": {"packages"},
    "forge-amdgpu-123-win-9070xt-zluda-rocblas-dll-looked-up-in-python-dir": {"platform"},
    "h34t-04": {"runtime"},
    "h34v-03": {"packages"},
    "h34v-05": {"packages"},
    "h34x-02": {"platform"},
    "h34x-11": {"runtime"},
    "h35s-04": {"runtime"},
    "h35s-07": {"packages"},
    "h35v-04": {"driver", "platform"},
    "h35x-07": {"packages"},
    "h36b-06": {"torch-build"},
    "h36b-07": {"packages", "torch-build"},
    "strix-halo-toolboxes-75-nomodeset-blocks-amdgpu-bind": {"driver", "platform"},
    # complete66: a Talos kernel built without CONFIG_HSA_AMD, so no /dev/kfd although amdgpu drives the display
    "siderolabs-pkgs-892-talos-kernel-without-hsa-amd-no-kfd": {"driver", "platform"},
    # blind66b blind batch: a Kubernetes pod whose device cgroup permissions make access(F_OK) on the render node fail with EPERM
    "k8s-device-plugin-65-pod-device-cgroup-rw-access-eperm-render-node": {"permissions"},
    # blind66b blind batch: pip's string order of local versions picks a rocm7.x torch over rocm10.x and downgrades the ROCm SDK wheels
    "therock-7183-pip-local-version-sort-picks-rocm7-torch-downgrades-sdk": {"packages"},
    # blind66b blind batch: RCCL on ROCm 5.3 needing HSA_FORCE_FINE_GRAIN_PCIE=1 (not needed from ROCm 5.7 on)
    "rccl-tests-84-rocm53-needs-fine-grain-pcie-oom": {"env", "runtime"},
    # blind66 blind batch: a Strix Halo machine whose BIOS graphics carve-out left too little GTT memory for the GPU
    "halogen-46-strix-halo-bios-carveout-gtt-oom": {"driver", "platform"},
    # blind66 blind batch: a vendor container whose ROCm user space predated ROCm 7.0, which MI355X (gfx950) needs
    "modular-5548-max-amd-container-pre-rocm7-mi355x": {"gfx-unsupported"},
    # recent66: an extension built against a ROCm torch without the ROCm development headers (TheRock's rocm[devel])
    # recent66e: a ROCm library from TheRock needs the system's libatomic.so.1, which the image or distribution lacks
    "therock-2518-rhel-sles-tarball-rocminfo-libatomic-missing": {"packages"},
    "therock-5819-rocm-sdk-test-devel-libatomic-missing": {"packages"},
    "therock-7348-rocm714-torch-wheels-libatomic-dependency": {"packages"},
    "nix-amd-ai-59-nixos-therock-runtime-libatomic-missing": {"packages"},
    "therock-2152-gfx1151-jit-extension-hipblas-header-not-found": {"packages"},
    "therock-pr6379-ci-torch-device-only-without-rocm-devel-hipblas-header": {"packages"},
    "pytorch-pr196503-rocm-home-takes-rocm-sdk-core-without-headers": {"packages"},
    # recent66c: a convolution stage (VAE decode, a TTS decoder) stalling in MIOpen's per-shape find/tuning on ROCm
    "rocm-4729-wsl-vae-decode-driver-timeout-default-miopen-find-mode": {"runtime"},
    "yue-167-win-7900xtx-miopen-solver-discovery-slow-vae-decode": {"runtime"},
    "unsloth-11636-win-cudnn-benchmark-miopen-exhaustive-tuning-vae-decode": {"runtime"},
    "ace-step-310-rocm-vae-decode-hangs-in-miopen-conv-solvers": {"runtime"},
    "kokoro-518-7900xtx-miopen-compiles-per-unseen-shape": {"runtime"},
    "rocm-5474-win-gfx1151-comfyui-sdxl-resolutions-stuck-vae-decoder-miopen": {"runtime"},
    # recent66: Windows' code integrity (Smart App Control / App Control) refusing the unsigned files of the AMD stack
    "unsloth-6648-win-smart-app-control-blocks-rocm-sdk-rocfft-dll": {"platform"},
    "stabilitymatrix-1712-win-rx6800-smart-app-control-blocks-rocsolver-dll": {"platform"},
    "unsloth-8490-win-gfx1030-application-control-blocks-unsloth-exe": {"platform"},
    # blind65d blind batch: the xformers README pointed at a ROCm 6.4 wheel index that had no xformers build yet
    "xformers-1311-no-rocm64-wheel-published-yet": {"packages"},
    # blind65c blind batch: an RX 7600 XT (gfx1102) that ROCm 6.1 and its PyTorch wheels did not support (INVALID_ISA)
    "rocm-3054-rx7600xt-rocm61-wheel-invalid-isa-unsupported": {"gfx-unsupported"},
    # blind65c blind batch: an installer pinning an onnxruntime version with no build for the installed ROCm
    "sdnext-2836-onnxruntime-1163-pin-no-rocm57-build": {"packages"},
    # blind65c blind batch: Arch's hip-runtime-amd 5.6 package dropped the /opt/rocm/hip/bin links a build still used
    "rocm-arch-tf-57-hip-runtime-amd-56-drops-hip-bin-links": {"packages"},
    # blind65b blind batch: a Talos Linux Kubernetes node without /dev/kfd (no ROCm kernel driver on an unsupported distro)
    "k8s-device-plugin-23-talos-vega11-no-kfd": {"driver", "platform"},
    # blind65b blind batch: an MI210 that amdgpu cannot probe (error -12) until the host BIOS settings are changed
    "rocm-install-on-linux-615-mi210-error-12-bios-config": {"driver", "platform"},
    # blind65b blind batch: Polaris (gfx803) in an FX 8300 / PCIe 2.0 system; KFD skips it because PCI rejects atomics
    "rocm-1086-fx8300-polaris-pcie-atomics-rejected": {"driver", "platform"},
    # blind65b blind batch: an RX 7900 XT on a PCIe x1 gen1 link without the PCIe atomics ROCm requires
    "rocm-2926-7900xt-pcie-x1-gen1-riser-no-atomics": {"driver", "platform"},
    # hunt63 blind batch: Windows TheRock ROCm without support for the Raphael iGPU (gfx1036) when it is the only AMD GPU
    "rocm-6167-win-igpu-only-raphael-gfx1036-not-enumerated-unsupported": {"gfx-unsupported", "platform"},
    # hunt63 blind batch: a desktop app whose Windows bundle of Ollama lost the ROCm runtime files it shipped before
    "shinkai-699-win-strix-halo-app-bundle-lost-rocm-runtime": {"packages"},
    # blind60b blind batch: Windows TheRock ROCm 7.0 does not enumerate a gfx906 Radeon Pro VII (pending support on Windows)
    "h60b-02": {"gfx-unsupported", "platform"},
    # Session 60 (lead): blind60's h60a-07, drawn as healthy_env (nothing wrong in the user's environment) and scored
    # blind so (RD503's error counted against the batch). Moved here after its text was read: "invalid device function"
    # is HIP finding no code for the GPU in the module that ran, and the reporter's bisection puts that in Ollama
    # 0.11.5's own Windows ROCm build for gfx1100 (0.11.4 works on the same machine), which is RD503's category.
    "ollama-12045-win-7900gre-0115-release-invalid-device-function": {"gfx-unsupported"},
    # blind60 blind batch: a PyTorch source build linking the distribution libhsa-runtime64 (pulled in by libopenmpi-dev) instead of TheRock's
    "h60a-01": {"packages", "runtime"},
    # blind60 blind batch: an RX 570 (gfx803) on a platform without PCIe atomics; rocminfo shows no GPU agent
    "h60a-06": {"driver", "platform"},
    # blind59 blind batch: a community gfx803 torch wheel needing libopenmpi3 and libstdc++-12-dev on the host
    "h59a-03": {"packages"},
    # blind59 blind batch: ROCm 3.7+ libraries broken on gfx803 (RX 580); ROCm 3.5.1 works
    "h59a-09": {"gfx-unsupported"},
    # learn56h blind batch: a TheRock Windows wheel needing MSVC's libomp140 DLL (WinError 126 on fbgemm.dll)
    "therock-1167-win-gfx1151-wheel-fbgemm-dll-needs-msvc-openmp": {"platform", "packages"},
    # recent66b: gfx1151 hangs from compute wave save/restore (CWSR) in the kernel driver, and leftover MES 0x83
    # firmware packages; the fix is a kernel parameter or a newer kernel driver and ROCm (RD387 for the first)
    "legacy-rocm-build-6012-gfx1151-four-processes-gpu-hang-cwsr-off-fixes": {"driver"},
    "legacy-rocm-build-5991-gfx1151-tensor-ops-hang-pagefault-leftover-mes-firmware-cwsr": {"driver"},
    "legacy-rocm-build-5590-strix-halo-mes-0x80-hang-compute-wave-save-restore": {"driver"},
    # learn56h blind batch: gfx1151 MES firmware regression arriving with a distribution kernel update
    "rocm-5747-strix-halo-fedora-kernel-6179-firmware-regression-memory-fault": {"driver"},
    # learn56h blind batch: gfx1151 GPU hang from a KFD/MES defect whose fix had not reached the released driver
    "rocm-libraries-1132-strix-halo-llamacpp-gpu-hang-mes-kfd-fix-unreleased": {"driver"},
    # learn56d blind batch: Fedora's ROCm 7.1.1 comgr crashes on RDNA2 (gfx1030); a ROCm 6.3.1 beside it works
    "llamacpp-27275-rx6900xt-fedora-rocm711-comgr-segfault-rdna2": {"gfx-unsupported", "packages"},
    # learn56e blind batch: the ROCm 6.x runtime finds no kernels when its install path holds a space
    "ollama-8765-rocm-install-path-with-space-no-kernel-image": {"runtime"},
    # learn56b blind batch: a gfx1151 kernel-driver hang whose fix was not yet released; a 780M-only machine ROCm
    # does not support; a 7900 XTX stable only with its clocks/voltage (power management) restricted
    "therock-1413-gfx1151-llamacpp-hangs-kernel-fix-not-released": {"driver"},
    "rocm-4444-780m-8845hs-gpu-resets-igpu-unsupported": {"gfx-unsupported"},
    "rocm-3452-7900xtx-sd-crashes-stable-after-clock-voltage-limits": {"driver"},
    # learn55i blind batch: an upstream bitsandbytes branch whose ROCm library was not ready (the ROCm fork's works)
    "bnb-1608-mi300x-multi-backend-refactor-branch-fails-rocm-fork-works": {"packages"},
    # learn55e blind batch: a VMware guest that sees no AMD GPU, on a host whose only AMD GPU is an unsupported iGPU
    "rocm-1505-vmware-guest-ryzen-4800u-igpu-rock-not-loaded": {"platform", "gfx-unsupported"},
    # learn54n blind batch: a thunk (libhsakmt) left from older ROCK/ROCR packages beside the new ROCK driver
    "hip-16-stale-thunk-from-older-rock-rocr-packages": {"packages", "driver"},
    # learn54n blind batch: an incomplete ROCm install (rocminfo and libamd_comgr never installed)
    "rocm-1412-rx580-rocm40-incomplete-install-comgr-missing": {"packages"},
    # learn54n blind batch: a per-GPU nightly index lacking torch's pure-Python dependencies
    "therock-2344-gfx1150-index-missing-torch-deps-filelock": {"packages"},
    # rev57h: tbuild57 blind batch, relabelled: only torch routed to uv's explicit ROCm index, its pytorch-triton-rocm
    # looked up on PyPI (an index without a dependency, as therock-2344)
    "uv-10712-rocm-index-explicit-pytorch-triton-rocm-unresolvable": {"packages"},

    # learn54i blind batch: libraries installed but off the loader path, packaging faults, amdsmi of another ROCm
    "tensorflow-40751-tf-rocm22-libhip-hcc-not-on-loader-path": {"env", "runtime"},
    "rocprofiler-62-rocprof-libhsa-runtime-not-on-loader-path": {"env", "runtime"},
    "justxi-rocm-13-gentoo-rocr-installs-libhsa-off-loader-path": {"packages", "env", "runtime"},
    "nixpkgs-453789-amdsmi-cannot-open-libdrm-package-wrapper": {"packages", "env", "runtime"},
    "rocm-opencl-runtime-42-libhsa-missing-fixed-by-reinstalling-hsa-packages": {"packages"},
    "therock-7890-multi-rocm-amdsmi-python-package-breaks-amd-smi": {"packages"},

    # learn54j blind batch: a Windows Adrenalin driver update (25.3.1) broke generation; rolling the driver back fixed it
    "forge-amdgpu-80-win-adrenalin-2531-update-breaks-generation-downgrade-fixes": {"driver"},
    # learn54b blind batch: gfx8/Navi GPUs behind a PCIe path that rejects atomics (chipset slot, switch, old I/O hub)
    "rocm-910-rx560-x570-chipset-slot-pci-rejects-atomics": {"driver", "platform"},
    "xuhuisheng-rocm-build-18-navi14-pci-rejects-atomics": {"driver", "platform"},
    "rocm-804-wx7100-centos7-5500-ioh-pci-rejects-atomics": {"driver", "platform"},
    "rocm-237-vega-b250-chipset-slot-rejects-atomics": {"driver", "platform"},

    # learn54e blind batch: a TensorFlow node under ZLUDA needs cuDNN, which ZLUDA does not implement
    "comfyui-zluda-37-tensorflow-node-needs-cudnn": {"platform"},
    # learn52g blind batch: Ollama 0.30+ drops an AMD iGPU unless OLLAMA_IGPU_ENABLE=1 is set
    "project-nomad-1092-ollama-030-drops-amd-igpu": {"env", "device-selection"},
    # learn53e blind batch: a Renoir iGPU-only laptop; ROCm does not support the integrated GPU (as hip-3805)
    "rocm-1527-ryzen-4800u-renoir-igpu-only-rocm-unsupported-hang": {"gfx-unsupported"},
    # learn52a blind batch: an app platform that does not pass /dev/kfd into containers
    "truenas-apps-2145-immich-rocm-5700g-kfd-not-passed-before-2504": {"platform"},
    # rev52a: a stale user-space thunk (libhsakmt) left from the previous ROCm release beside the new kernel driver;
    # the driver is the newer side, so not driver_too_old (as rocm-1284 and rocm-1129, libhsakmt left behind: packages)
    "rocm-151-rocm16-kernel-with-stale-libhsakmt-hsa-init-fails": {"packages", "driver"},
    # learn51c blind batch
    "rocm-4311-mi250x-jax-pypi-missing-rocm-plugin-packages": {"packages"},
    "jax-25856-jax0431-no-rocm-extra-cpu-only": {"torch-build", "packages"},
    "hip-3805-rx580-windows-hipsdk-unsupported": {"gfx-unsupported"},
    "rocm-1214-rx580-xeon-x5650-pcie-atomics-rejected": {"driver", "platform"},
    "sdnext-3181-amdsmi-nameerror-nightly-torch": {"torch-build", "packages"},
    "hip-3910-windows-7900xtx-vcredist": {"platform"},
    "rocm-systems-7643-amdsmi-pip-zero-devices-mi355x": {"packages"},
    "vllm-7207-docker-desktop-no-kfd-passthrough": {"platform"},
    "rocm-558-rx580-xeon-e5v2-pcie-atomics-rejected": {"driver", "platform"},
    "pytorch-188561-rocm714-nightly-import-needs-ld-library-path": {"torch-build", "runtime"},
    "rocm-5724-strix-point-mes-0x83-firmware-regression": {"driver"},
    "container-toolkit-86-docker-desktop-blocks-kfd": {"platform"},
    "comfyui-zluda-5-win-hip-sdk-bin-not-on-path-winerror-126": {"platform"},
    "zluda-lshqqytiger-135-build-needs-amdhip64-7-on-hip6": {"platform"},
    "zluda-vosen-326-rx580-driver-ships-only-hip5-dlls": {"platform"},
    "zluda-lshqqytiger-134-v396-fails-on-hip-sdk-642": {"platform"},
    "zluda-lshqqytiger-131-sdnext-nightly-404-hip-sdk-711-unsupported": {"platform"},
    "stabilitymatrix-692-sdnext-zluda-on-directml-install-skips-hip-sdk": {"platform", "torch-build"},
    "sdwebui-amdgpu-529-win-directml-fails-corrupt-amd-driver-reinstall": {"driver"},
    "a1111-15874-rocm61-nightly-torch-amdsmi-nameerror": {"packages", "torch-build"},
    "rocm-5966-multi-rocm-amdsmi-package-lacks-node-handle": {"packages"},
    "rlinf-1507-pypi-amdsmi-702-in-rocm64-venv-breaks-import-torch": {"packages"},
    "comfyui-3576-rocm61-torch-amdsmi-nameerror-conda": {"packages", "torch-build"},
    "vllm-28680-amdsmi-package-of-another-rocm-than-643-cli": {"packages"},
    "atri-plugin-3-win-torch-no-vc-redist-c10-dll": {"platform"},
    "ollama-2392-stale-amdgpu-module-after-swap-to-nvidia": {"driver", "device-selection"},
    "rocm-3166-7900xtx-ring-gfx-timeout-power-profile": {"driver"},
    "rocm-755-rx580-x8-rig-pcie-switch-rejects-atomics": {"driver", "platform"},
    "rocm-594-rx560-chipset-x4-slot-rejects-atomics": {"driver", "platform"},
    "rocm-1218-rx580-i7-3770k-ivy-bridge-no-pcie-atomics": {"driver", "platform"},
    # learn51e blind batch
    "rocm-939-nuc8-radeon540-pcie-atomics-rejected": {"driver", "platform"},
    "rocm-827-rx550-laptop-chipset-port-rejects-atomics": {"driver", "platform"},
    "rocm-587-six-rx580-rig-four-reject-atomics": {"driver", "platform"},
    "rocm-595-debian9-rx470-no-pcie-atomics": {"driver", "platform"},
    "rocm-578-ubuntu1404-libstdcxx-too-old-for-rocm-runtime": {"platform"},
    "rocm-1284-rocm391-upgrade-libhsakmt-missing": {"packages"},
    "rocm-1129-rocminfo-deb-missing-deps-libhsakmt": {"packages"},
    "rocm-662-topaz-r7-m260-laptop-unsupported-gpu": {"gfx-unsupported"},
    # other62: GCN 1 chips named by lshw (R9 270X Curacao/Pitcairn; HD 8790M Mars/Oland) that KFD never supports
    "rocm-538-r9-270x-curacao-pitcairn-lshw-kfd-not-supported": {"gfx-unsupported"},
    "rocm-1804-hd8790m-mars-oland-lshw-not-supported-in-kfd": {"gfx-unsupported"},
    "rocm-2043-rx6950xt-ubuntu2004-rocm543-glibc-234-not-found": {"platform", "packages"},
    "rocprofiler-compute-549-rhel8-roofline-binary-needs-glibc-234": {"platform"},
    "pytorch-186516-pip-amdsmi-duplicate-libamd-smi-zero-devices": {"packages"},
    # learn54f blind batch: an amdsmi Python package and libamd_smi of another ROCm than the amd-smi CLI
    "amdsmi-186-cli-711-python-pkg-and-lib-of-701": {"packages"},
    "lmstudio-1899-win-9060xt-adrenalin-2651-breaks-rocm-runtime": {"driver"},
    # h31e: a GPU generation ROCm does not support (an old GPU on any driver is the GPU, not the driver)
    "rocm-2119-four-rx480-rocm542-polaris-no-longer-supported": {"gfx-unsupported"},
    "rocm-528-hainan-sun-xt-gfx6-rocminfo-4104-not-supported": {"gfx-unsupported"},
    # h33m: a self-built torch wheel whose system library dependencies were not installed
    "h33m-03": {"packages", "torch-build"},
    # h35b: ROCm's clang without the libstdc++ headers of the newest GCC (a missing system package)
    "rochpcg-56-ubuntu2204-hipcc-cmath-needs-libstdcxx-12-dev": {"packages"},
    "rocm-1843-mint-hipcc-cmath-missing-libstdcxx-dev": {"packages"},
    # h37b: a host without PCIe atomics (the PCIe atomics rows above)
    "h37b-02": {"driver", "platform"},
    "hartmark-sd-rocm-4-compose-kfd-commented-out": {"platform"},
    # libs42: glibc 2.41+ refuses a ROCm library that asks for an executable stack (the bundled or built
    # library's flag, not the GPU); and a nightly wheel built against a ROCm library it did not bundle
    "a1111-17051-arch-libamdhip64-execstack-glibc241": {"packages", "torch-build"},
    "easydiffusion-1921-tumbleweed-torch113-rocm52-execstack": {"packages", "torch-build"},
    "rocm-sdk-builder-241-devuan-librccl-execstack-glibc241": {"packages", "torch-build"},
    "demucs-gui-151-arch-appimage-libamdhip64-execstack": {"packages", "torch-build"},
    "therock-4150-nightly-rocm72-wheel-lacks-librocprofiler-sdk": {"torch-build"},
    # learn52d blind batch: a hipBLASLt library-loading defect on a supported target (Windows TheRock build)
    "therock-681-win-selfbuilt-hipblaslt-cannot-load-gfx1100-library": {"blas"},
    # learn51d blind batch
    "roct-thunk-69-navy-flounder-rocm41-not-in-gfxip-table": {"gfx-unsupported"},
    # learn51a blind batch: ZLUDA/HIP SDK runtime not found or of another HIP SDK version (Windows
    # platform layer, like comfyui-zluda-5); a kernel-driver regression on Strix Halo (driver)
    "comfyui-zluda-9-win-7900xtx-caffe2-nvrtc-winerror126-path": {"platform"},
    "onetrainer-911-win-zluda-hiprtc0507-with-hipsdk62": {"platform"},
    "comfyui-zluda-107-win-rx7800-hip62-needs-newer-zluda-torch": {"platform"},
    "sdnext-4578-strix-halo-kernel-6186-segfault-regression": {"driver"},
    # learn51a phase 3: ZLUDA DLLs Windows could not load (ctypes' "Could not find module ... (or one of its dependencies)")
    "cs1o-sdinfo-10-win-6800xt-zluda-nvrtc-dll-stale-path-entries": {"platform"},
    "sdnext-4259-win-mi50-zluda-nvcuda-dll-loader-search-path": {"platform"},
    "lshqqytiger-onetrainer-12-win-zluda-hiprtc0507-with-hipsdk64": {"platform"},
    # learn51b blind batch
    "lemonade-838-strix-halo-rocm-hang-fixed-by-firmware-downgrade": {"driver"},
    "jan-8312-ubuntu-rocm72-libs-not-on-loader-path": {"runtime", "env"},
    "nixpkgs-375359-ollama-rocm-054-package-ships-no-rocm-runner": {"torch-build", "packages"},
    "llamacpp-25807-rocm714-libhipblas-so3-not-on-loader-path": {"runtime", "env"},
    # rev51b: a learn51b development case, same cause as llamacpp-25807
    "therock-6716-rocm714-native-packages-lib-folder-not-in-loader-cache": {"runtime", "env"},
    # learn53k blind batch: two LLVM copies (ROCm's for comgr, the graphics stack's) in one Blender process
    "rocm-arch-995-nixos-blender-cycles-9070xt-two-llvm-copies-comgr-preload": {"packages", "runtime"},
    # other60: the same two-LLVM crash on NixOS (ROCm's libLLVM 22 beside the system's 19), fixed by preloading comgr
    "nixpkgs-530702-blender-hip-cycles-two-llvm-versions-comgr-preload": {"packages", "runtime"},
    # learn55b blind batch: an installed HIP SDK shadowing an app's bundled runtime (Windows platform layer,
    # like the ZLUDA/HIP SDK cases); a release without its AMD GPU module; an app installer that picks CUDA
    # wheels for an AMD GPU; an app's own ROCm runtime regression
    "llamafile-271-win-hip-sdk-57-installed-breaks-amd-gpu": {"platform", "runtime"},
    "llamafile-441-win-085-release-missing-amd-gpu-dll": {"packages"},
    "comfyui-sam3dbody-38-installer-picks-cuda-for-amd-r9700": {"torch-build", "packages"},
    "lmstudio-2033-win-rx6800-rocm-runtime-2221-gpu-survey-fails": {"runtime", "packages"},
}
"""Class ``other``: the category of the finding that describes the thread's root cause."""

HELDBACK_OTHER_LIST = OWN_CORPUS / "heldback_other_categories.txt"
"""Class ``other`` in the held-back part: ``id: category, category`` per line, set from each thread's
established cause by someone who did not run the doctor on the case (its header says how), so that the
categories of held-back cases need not be read here, where readers and rules are written."""


@lru_cache(maxsize=1)
def heldback_other_categories() -> Dict[str, Set[str]]:
    if not HELDBACK_OTHER_LIST.is_file():
        return {}
    found: Dict[str, Set[str]] = {}
    for line in HELDBACK_OTHER_LIST.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            case_id, _, categories = line.partition(":")
            found[case_id.strip()] = {c.strip() for c in categories.split(",") if c.strip()}
    return found


GENERIC_RULES = frozenset({"RD599", "RD529", "RD530", "RD536"})
"""Rules that fire on any report of a kind (an unexplained error, any WSL2 or Windows report's
checklist): a hit from them alone is reported apart, as it names the area, not the cause."""


@dataclass(frozen=True)
class Outcome:
    case_id: str
    corpus: str
    klass: str
    expected: Optional[Set[str]]
    hit: bool
    top1: bool
    shown: Tuple[Tuple[str, str, str], ...]
    crashed: Optional[str] = None
    specific: bool = False
    """A hit from a rule that is not in :data:`GENERIC_RULES` (healthy cases: no warning at all)."""


def load(corpus: Path) -> List[dict]:
    if not corpus.is_dir():
        return []
    # libyaml's safe loader where PyYAML has it: the same cases in a twentieth of the time
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return [yaml.load(path.read_text(encoding="utf-8"), Loader=loader) for path in sorted(corpus.glob("*.yaml"))]


def shared_heldback_ids() -> Set[str]:
    lines = SHARED_HELDBACK_LIST.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def corpora() -> List[Tuple[str, List[dict]]]:
    """Every corpus as (name, cases): the shared one split into the part readers may be written from
    (``shared``) and the held-back part (``shared-held``), then ``tests`` and ``holdout``."""
    held = shared_heldback_ids()
    shared = load(SHARED_CORPUS)
    return [
        ("shared", [case for case in shared if case["id"] not in held]),
        ("shared-held", [case for case in shared if case["id"] in held]),
        ("tests", load(OWN_CORPUS)),
        ("holdout", load(HOLDOUT_CORPUS)),
    ]


def expected(case: dict) -> Optional[Set[str]]:
    """The categories that count as a hit; None for a healthy case."""
    klass = case["root_cause_class"]
    if klass == "healthy_env":
        return None
    if klass == "other":
        return CATEGORY_OF_OTHER.get(case["id"]) or heldback_other_categories().get(case["id"], set())
    return CATEGORY_OF_CLASS[klass]


def judge(case: dict, rules: list, corpus: str = "") -> Outcome:
    from rocm_doctor.ingest import ingest_text
    from rocm_doctor.pipeline import evaluate

    want = expected(case)
    try:
        findings = evaluate(rules, ingest_text(case["report"], origin_detail=case["id"]).facts).findings
    except Exception as exc:  # noqa: BLE001 - a crash is an outcome the table reports
        return Outcome(case["id"], corpus, case["root_cause_class"], want, False, False, (), f"{type(exc).__name__}: {exc}")
    serious = [f for f in findings if f.severity in ("error", "warning")]
    shown = tuple((f.id, f.severity, f.category) for f in serious)
    if want is None:
        hit = not any(f.severity == "error" for f in findings)
        top1 = hit
        specific = not serious
    else:
        hit = any(f.category in want for f in serious)
        top1 = bool(serious) and serious[0].category in want
        specific = any(f.category in want and f.id not in GENERIC_RULES for f in serious)
    return Outcome(case["id"], corpus, case["root_cause_class"], want, hit, top1, shown, specific=specific)


def score(rules: list, named_cases: Iterable[Tuple[str, List[dict]]]) -> List[Outcome]:
    return [judge(case, rules, name) for name, cases in named_cases for case in cases]


def table(outcomes: Sequence[Outcome]) -> str:
    """Recall and top-1 per class and overall, for each corpus and both together."""
    lines = []
    groups: Dict[str, List[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        groups[outcome.corpus].append(outcome)
    groups["all"] = list(outcomes)
    header = f"{'class':<32} " + " ".join(f"{name:>15}" for name in groups)
    lines.append(header)
    lines.append("-" * len(header))
    classes = sorted({o.klass for o in outcomes})
    for klass in classes + ["ALL PROBLEMS", "  by a specific rule", "  missed, nothing shown", "HEALTHY without error", "  nor a warning"]:
        cells = []
        for members in groups.values():
            if klass in ("ALL PROBLEMS", "  by a specific rule", "  missed, nothing shown"):
                chosen = [o for o in members if o.expected is not None and o.klass != "other"]
            elif klass in ("HEALTHY without error", "  nor a warning"):
                chosen = [o for o in members if o.expected is None]
            else:
                chosen = [o for o in members if o.klass == klass]
            if klass == "  missed, nothing shown":
                # a miss with no error or warning at all: nothing was read or known (not a wrong or late finding)
                hits = sum(not o.hit and not o.shown for o in chosen)
                cells.append(f"{hits:>3}/{len(chosen):<3}{'':>6}" if chosen else f"{'-':>15}")
                continue
            if klass.startswith("  "):
                hits = sum(o.specific for o in chosen)
                cells.append(f"{hits:>3}/{len(chosen):<3}{'':>6}" if chosen else f"{'-':>15}")
                continue
            hits = sum(o.hit for o in chosen)
            top = sum(o.top1 for o in chosen)
            cells.append(f"{hits:>3}/{len(chosen):<3} t1 {top:>3}" if chosen else f"{'-':>15}")
        lines.append(f"{klass:<32} " + " ".join(f"{c:>15}" for c in cells))
    return "\n".join(lines)


def recall(outcomes: Sequence[Outcome]) -> float:
    problems = [o for o in outcomes if o.expected is not None and o.klass != "other"]
    return sum(o.hit for o in problems) / len(problems) if problems else 1.0


def main(argv: List[str]) -> int:
    from rocm_doctor.judge.loader import load_rules

    rules = load_rules([], use_env=False)
    outcomes = score(rules, corpora())
    if "-v" in argv:
        for o in outcomes:
            if o.corpus in ("holdout", "shared-held"):
                continue
            mark = "ok  " if o.hit else "MISS"
            print(f"{mark} {o.corpus:<6} {o.case_id[:62]:<62} {o.klass[:24]:<24} {list(o.shown)[:4]} {o.crashed or ''}")
    print(table(outcomes))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
