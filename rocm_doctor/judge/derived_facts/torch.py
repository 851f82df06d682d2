"""Derived facts about the installed PyTorch: release, ROCm build vs system, Python, companions.

Sources: rules/data/torch_wheels.yaml through
:mod:`rocm_doctor.knowledge.torch_wheels`; the ROCm release of the system from ``rocm.version``.
"""

from __future__ import annotations

from typing import Callable, Optional

from packaging.version import Version

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import (
    carry,
    combine,
    derive,
    from_input,
    lookup,
    on_rocm_torch,
    pytorch_org_rocm,
    table_wheels,
    then,
    torch_version,
    version_series,
)
from rocm_doctor.knowledge._tables import parse_version, series

WHEEL_SOURCE = "rules/data/torch_wheels.yaml"


def _from_torch_version(facts: Facts, compute: Callable[[str], object]) -> Fact:
    """``compute(torch version)`` sourced from ``torch.version`` when that is a valid version."""
    version = torch_version(facts)
    return then(version, lambda value: derive(version, compute(value), "torch.version"))


@machine_fact("torch_release", "Public version of the installed torch without the local tag (2.5.1+rocm6.2 -> 2.5.1).")
def torch_release(facts: Facts, tables: Tables) -> Fact:
    return _from_torch_version(facts, lambda version: Version(version).public)


@machine_fact("torch_series", "Release series major.minor of the installed torch (2.5.1+rocm6.2 -> 2.5).")
def torch_series(facts: Facts, tables: Tables) -> Fact:
    return version_series(torch_version(facts), "torch.version")


@machine_fact(
    "torch_is_nightly",
    "The installed torch is a nightly/dev build (2.6.0.dev20241015+rocm6.2); nightlies carry regressions "
    "that releases fix (ROCm/hipBLASLt#1243, vladmandic/sdnext#3181).",
)
def torch_is_nightly(facts: Facts, tables: Tables) -> Fact:
    return _from_torch_version(facts, lambda version: Version(version).is_devrelease)


@machine_fact(
    "torch_is_pytorch_org_rocm",
    "The installed torch is a download.pytorch.org ROCm wheel of a release in rules/data/torch_wheels.yaml "
    "(flavour rocm, +rocmX.Y tag that is one of the release's variants); false for AMD, TheRock and source builds.",
)
def torch_is_pytorch_org_rocm(facts: Facts, tables: Tables) -> Fact:
    return pytorch_org_rocm(facts, tables)


@machine_fact("torch_rocm_series", "ROCm series major.minor the installed ROCm torch was built for (6.2.4 -> 6.2); absent for other flavours.")
def torch_rocm_series(facts: Facts, tables: Tables) -> Fact:
    return on_rocm_torch(facts, lambda: version_series(facts.torch.rocm_version, "torch.rocm_version"))


HIP_NAMES_ROCM_UP_TO = 6
"""The last ROCm major whose HIP version is named by the ROCm release: HIP's own version file at each ROCm
5.x/6.x release tag carries that release's major.minor (rocm-6.2.0: 6.2.41133, rocm-5.7.0: 5.7.31921,
https://github.com/ROCm/HIP/blob/rocm-6.2.0/VERSION; before 5.5 hipvars.pm's HIP_BASE_VERSION_MAJOR/MINOR,
https://github.com/ROCm/HIP/blob/rocm-5.0.0/bin/hipvars.pm); from ROCm 7 the two may differ
(AMD: "moving forward these versions are allowed to diverge", hipcc printing HIP 7.1,
https://github.com/pytorch/pytorch/pull/168097)."""


@machine_fact(
    "system_rocm_series",
    "ROCm series major.minor of the system's ROCm user space (rocm.version 6.2.0 -> 6.2); without rocm.version, "
    "that of the system's HIP (hipconfig/hipcc 6.2.41133 -> 6.2) for ROCm 5.x and 6.x, whose HIP carries the release.",
)
def system_rocm_series(facts: Facts, tables: Tables) -> Fact:
    series = version_series(facts.rocm.version, "rocm.version")
    if series.is_known or not facts.rocm.hip_version.is_known:
        return series
    hip = version_series(facts.rocm.hip_version, "rocm.hip_version")
    if hip.is_known and 5 <= Version(hip.value).major <= HIP_NAMES_ROCM_UP_TO:
        return hip
    return series


def _wheel_vs_system(facts: Facts, tables: Tables, compare: Callable[[str, str], bool]) -> Fact:
    """``compare(wheel ROCm series, system ROCm series)`` when both are known."""
    return combine(torch_rocm_series(facts, tables), system_rocm_series(facts, tables), compare)


@machine_fact(
    "torch_rocm_matches_system",
    "The ROCm series the torch wheel was built for equals the system ROCm series (6.2 vs 6.2). "
    "pytorch.org wheels bundle their ROCm user space (or, from the rocm7.14 variant, take it from pip "
    "packages), so a difference matters for WSL2 and for builds that use the system libraries.",
)
def torch_rocm_matches_system(facts: Facts, tables: Tables) -> Fact:
    return _wheel_vs_system(facts, tables, lambda w, s: w == s)


@machine_fact(
    "torch_rocm_newer_than_system",
    "The torch wheel's ROCm series is newer than the system's ROCm series (7.2 vs 6.2).",
)
def torch_rocm_newer_than_system(facts: Facts, tables: Tables) -> Fact:
    return _wheel_vs_system(facts, tables, lambda w, s: Version(w) > Version(s))


@machine_fact(
    "torch_rocm_major_differs",
    "The torch wheel's ROCm major differs from the system's (6 vs 7): library names change "
    "(libamdhip64.so.6 vs .7, libhipblas.so.2 vs .3), so mixing them fails "
    "(https://github.com/ROCm/legacy-rocm-build/issues/5339).",
)
def torch_rocm_major_differs(facts: Facts, tables: Tables) -> Fact:
    return _wheel_vs_system(facts, tables, lambda w, s: Version(w).major != Version(s).major)


PIP_ROCM_DISTRIBUTIONS = ("rocm-sdk-core", "rocm-sdk-libraries")
"""The pip distributions of TheRock's ``rocm`` package that torch wheels load ROCm from."""


@machine_fact(
    "torch_rocm_from_pip",
    "The installed ROCm torch takes its ROCm libraries from the rocm-sdk-* pip packages "
    "(site-packages/_rocm_sdk_*, through RPATH) rather than from torch/lib or /opt/rocm: true when "
    "rocm-sdk-core is installed, or for a pytorch.org wheel of the rocm7.14 variant or later "
    "(pytorch/pytorch#191688); absent for a non-ROCm torch.",
)
def torch_rocm_from_pip(facts: Facts, tables: Tables) -> Fact:
    def decide() -> Fact:
        packages = facts.packages.installed
        if packages.is_known and any(name in (packages.value or {}) for name in PIP_ROCM_DISTRIBUTIONS):
            return known(True, packages.source or "packages.installed")
        rocm = facts.torch.rocm_version
        org = pytorch_org_rocm(facts, tables)
        if org.is_known and org.value and rocm.is_known:
            from_pip = table_wheels(tables).rocm_from_pip(rocm.value)
            if from_pip is not None:
                return known(from_pip, WHEEL_SOURCE)
        if packages.is_known:
            return known(False, packages.source or "packages.installed")
        return unknown("the installed Python packages are not known")

    return on_rocm_torch(facts, decide)


@machine_fact("python_series", "Python series major.minor of the target interpreter (3.12.3 -> 3.12).")
def python_series(facts: Facts, tables: Tables) -> Fact:
    return version_series(facts.python.version, "python.version")


@machine_fact(
    "torch_rocm_pythons",
    "Python versions with pytorch.org ROCm wheels of the installed torch release (pytorch/test-infra build matrix); "
    "absent when the table does not list the release.",
)
def torch_rocm_pythons(facts: Facts, tables: Tables) -> Fact:
    def pythons(version: str) -> Optional[list]:
        rel = table_wheels(tables).release(version)
        return list(rel.python) if rel else None

    return lookup(torch_version(facts), pythons, WHEEL_SOURCE, "no pytorch.org ROCm wheels are listed for torch {value}")


@machine_fact(
    "python_has_wheel_for_torch",
    "pytorch.org publishes a ROCm wheel of the installed torch release for this Python (pytorch/test-infra build matrix); "
    "when false, pip silently falls back to PyPI's CUDA or CPU wheel (ROCm/legacy-rocm-build#2354).",
)
def python_has_wheel_for_torch(facts: Facts, tables: Tables) -> Fact:
    return combine(torch_rocm_pythons(facts, tables), python_series(facts, tables), lambda pythons, py: py in pythons, WHEEL_SOURCE)


@machine_fact(
    "newest_rocm_torch_for_python",
    "Newest stable torch release with a pytorch.org ROCm wheel for this Python; absent when none.",
)
def newest_rocm_torch_for_python(facts: Facts, tables: Tables) -> Fact:
    def newest(python: str) -> Optional[str]:
        choice = table_wheels(tables).newest_release_for(None, python)
        return choice.torch if choice else None

    return lookup(python_series(facts, tables), newest, WHEEL_SOURCE, "no pytorch.org ROCm wheel exists for Python {value}")


@machine_fact(
    "python_in_newest_rocm_torch",
    "The newest stable pytorch.org ROCm release has a wheel for this Python (false: Python too old or too new).",
)
def python_in_newest_rocm_torch(facts: Facts, tables: Tables) -> Fact:
    def listed(python: str) -> Optional[bool]:
        table = table_wheels(tables)
        newest = table.newest_release_for(None, None)
        return None if newest is None else python in table.release(newest.torch).python  # type: ignore[union-attr]

    return lookup(python_series(facts, tables), listed, WHEEL_SOURCE, "the wheel table lists no stable release", none_absent=False)


def _companion_matches(facts: Facts, tables: Tables, package: str, version_fact: Fact) -> Fact:
    version = torch_version(facts)
    if not version.is_known:
        return version
    if not version_fact.is_known:
        return carry(version_fact, f"torch.{package}_version")
    torch_v, other_v = parse_version(version.value), parse_version(version_fact.value)
    if other_v is None:
        return unknown(f"{package} version {version_fact.value!r} is not a PEP 440 version")
    if torch_v.is_prerelease or other_v.is_prerelease:  # type: ignore[union-attr]
        return unknown("pre-release and nightly builds do not follow the release pairing")
    expected = table_wheels(tables).companion(version.value, package)
    if expected is None:
        return unknown(f"the wheel table does not list the {package} release for torch {version.value}")
    return known(series(other_v) == expected, "rules/data/torch_wheels.yaml companions")


@machine_fact(
    "torchvision_expected",
    "torchvision series built for the installed torch release (2.5 -> 0.20; pytorch/pytorch wiki 'PyTorch Versions').",
)
def torchvision_expected(facts: Facts, tables: Tables) -> Fact:
    return lookup(
        torch_version(facts),
        lambda version: table_wheels(tables).companion(version, "torchvision"),
        f"{WHEEL_SOURCE} companions",
        "the wheel table does not list the torchvision release for torch {value}",
        none_absent=False,
    )


@machine_fact(
    "torchvision_matches_torch",
    "The installed torchvision is the series built for the installed torch (0.20.x with 2.5.x); unknown for "
    "nightlies/pre-releases and releases the table does not list.",
)
def torchvision_matches_torch(facts: Facts, tables: Tables) -> Fact:
    return _companion_matches(facts, tables, "torchvision", facts.torch.torchvision_version)


@machine_fact(
    "torchaudio_matches_torch",
    "The installed torchaudio is the series built for the installed torch (2.5.x with 2.5.x, through 2.10; "
    "torchaudio 2.11 is built against the stable ABI, so later pairs are not tabled).",
)
def torchaudio_matches_torch(facts: Facts, tables: Tables) -> Fact:
    return _companion_matches(facts, tables, "torchaudio", facts.torch.torchaudio_version)


@machine_fact("numpy_major", "Major version of the installed numpy (packages.installed.numpy 2.3.4 -> 2).")
def numpy_major(facts: Facts, tables: Tables) -> Fact:
    installed = facts.packages.installed
    source = installed.source or "packages.installed"

    def major(packages: Optional[dict]) -> Fact:
        value = (packages or {}).get("numpy")
        if value is None:
            return absent(source, "numpy is not installed")
        parsed = parse_version(value)
        return unknown(f"numpy version {value!r} is not a PEP 440 version") if parsed is None else known(parsed.major, source)

    return from_input(installed, "packages.installed", major)


@machine_fact(
    "torch_supports_numpy2",
    "The installed torch release was built against numpy 2 (torch >= 2.3); earlier wheels were built "
    "for numpy 1.x and fail to import numpy 2 arrays (TorchIO#1183; AMD radeon docs pin numpy==1.26.4).",
)
def torch_supports_numpy2(facts: Facts, tables: Tables) -> Fact:
    return lookup(
        torch_version(facts), table_wheels(tables).supports_numpy2, f"{WHEEL_SOURCE} numpy2", "the wheel table has no numpy 2 threshold", none_absent=False
    )


def _xformers_pin(facts: Facts, tables: Tables) -> Fact:
    """(xformers version, torch release, is-minimum) for a released xformers the wheel table pins."""
    installed = facts.packages.installed
    if not installed.is_known:
        return carry(installed, "packages.installed")
    value = (installed.value or {}).get("xformers")
    if value is None:
        return absent(installed.source or "packages.installed", "xformers is not in the package list")
    parsed = parse_version(value)
    if parsed is None:
        return unknown(f"xformers version {value!r} is not a PEP 440 version")
    if parsed.local:
        # a source build (0.0.30+6440945.d20250113) is compiled against the torch of its build, and a build from one of
        # pytorch.org's indexes (+cu118, +rocm6.1) is not the PyPI release the CHANGELOG speaks of: pip has shown such
        # a build of a release pinning an older torch than the PyPI wheel of the same release
        return unknown(f"xformers {value} has a local tag (+{parsed.local}): a source or index build, whose torch the CHANGELOG does not name")
    if parsed.is_prerelease or parsed.is_devrelease:
        return unknown(f"xformers {value} is a pre-release or development build")
    pin = table_wheels(tables).xformers_torch(value)
    if pin is None:
        return unknown(f"the wheel table does not pin the torch of xformers {parsed.public}")
    return known((str(value), pin[0], pin[1]), f"{WHEEL_SOURCE} xformers_pins")


@machine_fact(
    "xformers_expected_torch",
    "The torch release the installed xformers' prebuilt wheels were built for (xformers 0.0.28.post3 -> 2.5.1; "
    "'2.10.0 or later' for the stable-ABI releases), from the xformers CHANGELOG (rules/data/torch_wheels.yaml "
    "xformers_pins); unknown for versions with a local tag (source and index builds) and releases the table does not pin.",
)
def xformers_expected_torch(facts: Facts, tables: Tables) -> Fact:
    pin = _xformers_pin(facts, tables)
    if not pin.is_known:
        return pin
    _, release, minimum = pin.value
    return known(f"{release} or later" if minimum else release, pin.source)


@machine_fact(
    "xformers_matches_torch",
    "The installed torch is the release the installed xformers' wheels were built for (exact release, or at least "
    "the minimum for the stable-ABI releases); unknown for nightly/pre-release torch, source-built xformers and "
    "releases the table does not pin.",
)
def xformers_matches_torch(facts: Facts, tables: Tables) -> Fact:
    pin = _xformers_pin(facts, tables)
    if not pin.is_known:
        return pin
    version = torch_version(facts)
    if not version.is_known:
        return carry(version, "torch.version")
    torch_v = parse_version(version.value)
    if torch_v.is_prerelease or torch_v.is_devrelease:  # type: ignore[union-attr]
        return unknown(f"torch {version.value} is a nightly or pre-release: its xformers is built against that build")
    _, release, minimum = pin.value
    wanted = parse_version(release)
    installed = parse_version(torch_v.public)  # type: ignore[union-attr]
    return known(installed >= wanted if minimum else installed == wanted, pin.source)  # type: ignore[operator]
