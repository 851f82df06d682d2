"""ROCm user space: version and where it was read, installs, HIP version, tools.

The version comes from ``$ROCM_PATH/.info/version`` when ``ROCM_PATH`` is set,
else ``/opt/rocm/.info/version``. Tools are looked up on ``PATH``
and then in ``<rocm>/bin`` (ROCm does not put itself on ``PATH``).
"""

from __future__ import annotations

from typing import Any, Optional

from rocm_doctor.facts.common import file_fact, join_path, os_kind
from rocm_doctor.facts.context import GatherContext
from rocm_doctor.facts.model import RocmFacts, RocmTools
from rocm_doctor.facts.parsers.rocm_version import install_version, parse_hipconfig_version, parse_version_file
from rocm_doctor.facts.value import Fact, absent, failed, known

DEFAULT_ROCM = "/opt/rocm"
OPT = "/opt"
TOOL_NAMES = {
    "rocminfo": "rocminfo",
    "rocm_agent_enumerator": "rocm_agent_enumerator",
    "amd_smi": "amd-smi",
    "rocm_smi": "rocm-smi",
    "hipconfig": "hipconfig",
}
"""RocmTools field -> executable name."""


def _rocm_path(ctx: GatherContext) -> Fact[str]:
    env_path = ctx.system.environ().get("ROCM_PATH")
    if env_path:
        if ctx.system.is_dir(env_path):
            return known(env_path, "env ROCM_PATH")
        return failed("env ROCM_PATH", f"ROCM_PATH is set to {env_path}, which is not a directory")
    if os_kind(ctx.system) == "linux" and ctx.system.is_dir(DEFAULT_ROCM):
        return known(DEFAULT_ROCM, DEFAULT_ROCM)
    return absent(DEFAULT_ROCM, "no ROCm installation (ROCM_PATH unset, /opt/rocm missing)")


def _installs(ctx: GatherContext) -> Fact[Any]:
    if os_kind(ctx.system) != "linux":
        return absent(OPT, "versioned /opt/rocm-X.Y.Z installs exist on Linux only")
    try:
        names = ctx.system.list_dir(OPT)
    except FileNotFoundError:
        return absent(OPT, "/opt does not exist")
    except OSError as exc:
        return failed(OPT, f"cannot list /opt: {exc.strerror or exc}")
    found = [f"{OPT}/{name}" for name in names if install_version(name)]
    if not found:
        return absent(OPT, "no /opt/rocm-X.Y.Z directory")
    return known(found, OPT)


def _tool(ctx: GatherContext, executable: str, rocm: Optional[str]) -> Fact[str]:
    found = ctx.system.which(executable)
    if found:
        return known(found, "PATH")
    if rocm:
        candidate = join_path(rocm, "bin", executable)
        if ctx.system.exists(candidate):
            return known(candidate, join_path(rocm, "bin"))
    return absent("PATH", f"{executable} is not on PATH" + (f" or in {rocm}/bin" if rocm else ""))


def _hip_version(ctx: GatherContext, hipconfig: Fact[str]) -> Fact[str]:
    if not hipconfig.is_known:
        return absent("hipconfig", "hipconfig is not installed")
    argv = [str(hipconfig.value), "--version"]
    source = "hipconfig --version"
    result = ctx.system.run(argv, timeout=ctx.options.command_timeout)
    if result.missing:
        return absent(source, result.failure_reason())
    if not result.ok:
        return failed(source, result.failure_reason())
    version = parse_hipconfig_version(result.stdout)
    if version is None:
        return failed(source, f"unrecognised output: {result.stdout.strip()[:80]!r}")
    return known(version, source)


def gather_rocm(ctx: GatherContext) -> RocmFacts:
    """Find the ROCm installation, its version, the HIP version and the tools."""
    path = _rocm_path(ctx)
    rocm = str(path.value) if path.is_known else None
    if rocm:
        version = file_fact(ctx.system, join_path(rocm, ".info", "version"), parse_version_file)
    else:
        version = absent(path.source or DEFAULT_ROCM, path.reason or "ROCm is not installed")
    tools = RocmTools(**{field: _tool(ctx, exe, rocm) for field, exe in TOOL_NAMES.items()})
    return RocmFacts(
        version=version,
        path=path,
        installs=_installs(ctx),
        hip_version=_hip_version(ctx, tools.hipconfig),
        tools=tools,
    )
