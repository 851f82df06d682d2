"""The target interpreter, installed distributions and the Windows HIP SDK on recorded machines."""

from __future__ import annotations

import json

from core_machine import build_machine, context, dist_info, python_info

from rocm_doctor.facts.packages import gather_packages
from rocm_doctor.facts.python_env import LABEL, gather_python
from rocm_doctor.facts.windows import gather_windows, sdk_versions

SITE = "/opt/venv/lib/python3.12/site-packages"


def _python(tmp_path, entry, **kwargs):
    system = build_machine(tmp_path, commands=[dict(label=LABEL, **entry)], **kwargs)
    return gather_python(context(system))


def test_venv_interpreter(tmp_path):
    out = python_info([SITE], prefix="/opt/venv", base_prefix="/usr", executable="/opt/venv/bin/python")
    facts = _python(tmp_path, {"returncode": 0, "stdout": out})
    assert (facts.env_kind.value, facts.env_name.value) == ("venv", "venv")
    assert facts.version.value == "3.12.3" and facts.site_packages.value == [SITE]


def test_conda_environment_uses_its_name(tmp_path):
    out = python_info(["/c/envs/ml/lib/python3.11/site-packages"], prefix="/c/envs/ml", is_conda=True,
                      conda_prefix="/c/envs/ml", conda_default_env="ml")
    facts = _python(tmp_path, {"returncode": 0, "stdout": out})
    assert (facts.env_kind.value, facts.env_name.value) == ("conda", "ml")


def test_system_interpreter_has_no_env_name(tmp_path):
    facts = _python(tmp_path, {"returncode": 0, "stdout": python_info(["/usr/lib/python3/dist-packages"])})
    assert facts.env_kind.value == "system" and facts.env_name.status == "absent"


def test_missing_interpreter_is_failed_not_found(tmp_path):
    system = build_machine(tmp_path)
    facts = gather_python(context(system, python="/nope"))
    assert facts.version.status == "failed" and "not found" in (facts.version.reason or "")
    assert system.calls[0][:2] == ["/nope", "-I"]


def test_hanging_interpreter_is_failed_with_timeout(tmp_path):
    facts = _python(tmp_path, {"timeout": True})
    assert facts.executable.status == "failed" and "did not finish" in (facts.executable.reason or "")


def test_garbage_output_is_failed(tmp_path):
    facts = _python(tmp_path, {"returncode": 0, "stdout": "Python 3.12\n{not json\n"})
    assert facts.site_packages.status == "failed" and "no JSON" in (facts.site_packages.reason or "")
    incomplete = _python(tmp_path / "b", {"returncode": 0, "stdout": json.dumps({"executable": "x"})})
    assert "lacks" in (incomplete.site_packages.reason or "")


def test_crashing_interpreter_reports_exit_status(tmp_path):
    facts = _python(tmp_path, {"returncode": 1, "stderr": "Fatal Python error: init_fs_encoding\n"})
    assert "status 1" in (facts.prefix.reason or "") and "init_fs_encoding" in (facts.prefix.reason or "")


def _packages(tmp_path, files, sites=(SITE,), **kwargs):
    system = build_machine(tmp_path, files=files, commands=[
        {"label": LABEL, "returncode": 0, "stdout": python_info(list(sites), prefix="/opt/venv", base_prefix="/usr")}
    ], **kwargs)
    ctx = context(system)
    ctx.sections["python"] = gather_python(ctx)
    return gather_packages(ctx)


def test_packages_are_read_from_metadata_with_canonical_names(tmp_path):
    files = {**dist_info(SITE, "Flash_Attn", "2.6.3"), **dist_info(SITE, "torch", "2.5.1+rocm6.2"),
             f"{SITE}/PyYAML-6.0.1.egg-info": "Metadata-Version: 1.1\nName: PyYAML\nVersion: 6.0.1\n",
             f"{SITE}/numpy-1.26.4.dist-info": None, f"{SITE}/not_a_dist": None}
    facts = _packages(tmp_path, files)
    assert facts.installed.value == {"flash-attn": "2.6.3", "numpy": "1.26.4", "pyyaml": "6.0.1",
                                     "torch": "2.5.1+rocm6.2"}


def test_first_site_directory_wins(tmp_path):
    other = "/usr/lib/python3/dist-packages"
    facts = _packages(tmp_path, {**dist_info(SITE, "numpy", "2.1.0"), **dist_info(other, "numpy", "1.21.5")},
                      sites=(SITE, other))
    assert facts.installed.value == {"numpy": "2.1.0"}


def test_unreadable_site_packages_is_failed(tmp_path):
    facts = _packages(tmp_path, dist_info(SITE, "numpy", "2.1.0"), unreadable=[SITE])
    assert facts.installed.status == "failed" and "cannot list" in (facts.installed.reason or "")


def test_packages_fail_when_the_interpreter_could_not_be_asked(tmp_path):
    ctx = context(build_machine(tmp_path), python="/nope")
    ctx.sections["python"] = gather_python(ctx)
    facts = gather_packages(ctx)
    assert facts.installed.status == "failed" and "not found" in (facts.installed.reason or "")


WIN_SITE = r"C:\Python312\Lib\site-packages"


def test_windows_hip_sdk_and_dlls(tmp_path):
    files = {r"C:\Program Files\AMD\ROCm\6.4\bin\amdhip64_6.dll": "", r"C:\Windows\System32\amdhip64_6.dll": "",
             r"C:\Windows\System32\kernel32.dll": "", WIN_SITE + r"\_rocm_sdk_core\bin\amdhip64_7.dll": ""}
    env = {"HIP_PATH": "C:\\Program Files\\AMD\\ROCm\\6.4\\", "HIP_PATH_64": "C:\\Program Files\\AMD\\ROCm\\6.4\\",
           "HIP_PATH_57": "C:\\Program Files\\AMD\\ROCm\\5.7\\", "SystemRoot": "C:\\Windows"}
    system = build_machine(tmp_path, system="Windows", version="10.0.26100", files=files, env=env, commands=[
        {"label": LABEL, "returncode": 0, "stdout": python_info([WIN_SITE], prefix="C:\\Python312")}])
    ctx = context(system)
    ctx.sections["python"] = gather_python(ctx)
    facts = gather_windows(ctx)
    assert facts.hip_path.value == "C:\\Program Files\\AMD\\ROCm\\6.4\\"
    assert facts.hip_sdk_versions.value == ["5.7", "6.4"]
    assert facts.amdhip_dlls.value == [r"C:\Program Files\AMD\ROCm\6.4\bin\amdhip64_6.dll",
                                       r"C:\Windows\System32\amdhip64_6.dll",
                                       WIN_SITE + r"\_rocm_sdk_core\bin\amdhip64_7.dll"]
    assert facts.driver_version.status == "unknown"


def test_windows_without_hip_is_absent_and_linux_is_not_applicable(tmp_path):
    facts = gather_windows(context(build_machine(tmp_path, system="Windows", version="10.0.22631", name="w")))
    assert facts.hip_path.status == "absent" and facts.amdhip_dlls.status == "absent"
    assert facts.hip_sdk_versions.status == "absent"
    linux = gather_windows(context(build_machine(tmp_path, name="l")))
    assert linux.hip_path.reason == "not applicable on Linux"
    assert sdk_versions({"HIP_PATH_61": "x", "HIP_PATH_7": "y", "HIP_PATH_612": "z"}) == ["6.1", "6.12"]
