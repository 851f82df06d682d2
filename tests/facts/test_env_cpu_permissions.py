"""Environment variables, CPU and device permissions on recorded machines."""

from __future__ import annotations

from core_machine import build_machine, context

from rocm_doctor.facts.cpu import gather_cpu
from rocm_doctor.facts.env import gather_env, is_recorded, rocm_path_entries
from rocm_doctor.facts.host import gather_host
from rocm_doctor.facts.permissions import gather_permissions


def test_relevant_variables_are_kept_and_others_dropped(tmp_path):
    env = {"HSA_OVERRIDE_GFX_VERSION": "11.0.0", "PYTORCH_HIP_ALLOC_CONF": "expandable_segments:True",
           "HIP_VISIBLE_DEVICES": "0,1", "CUDA_VISIBLE_DEVICES": "0", "NCCL_DEBUG": "INFO",
           "HOME": "/home/alice", "AWS_SECRET_ACCESS_KEY": "x", "PATH": "/opt/rocm/bin:/usr/bin:/opt/ROCm-6.2/llvm/bin"}
    facts = gather_env(context(build_machine(tmp_path, env=env)))
    assert facts.vars.value == {"CUDA_VISIBLE_DEVICES": "0", "HIP_VISIBLE_DEVICES": "0,1",
                                "HSA_OVERRIDE_GFX_VERSION": "11.0.0", "NCCL_DEBUG": "INFO",
                                "PYTORCH_HIP_ALLOC_CONF": "expandable_segments:True"}
    assert facts.rocm_path_entries.value == ["/opt/rocm/bin", "/opt/ROCm-6.2/llvm/bin"]


def test_no_relevant_variable_is_a_known_empty_dict(tmp_path):
    facts = gather_env(context(build_machine(tmp_path, env={"PATH": "/usr/bin"})))
    assert facts.vars.status == "known" and facts.vars.value == {}
    assert facts.rocm_path_entries.value == []


def test_windows_path_uses_semicolons_and_hip_path():
    path = r"C:\Windows;C:\Program Files\AMD\ROCm\6.4\bin;D:\HIP\bin"
    assert rocm_path_entries(path, ";", hip_path="D:\\HIP\\") == [r"C:\Program Files\AMD\ROCm\6.4\bin", r"D:\HIP\bin"]


def test_recording_keeps_only_relevant_and_context_variables():
    assert is_recorded("HSA_XNACK") and is_recorded("PATH") and is_recorded("KUBERNETES_SERVICE_HOST")
    assert not is_recorded("GITHUB_TOKEN") and not is_recorded("SSH_AUTH_SOCK")


def test_cpu_vendor_is_named_and_missing_numbers_are_failed(tmp_path):
    system = build_machine(tmp_path, resources={"cpu_model": "AMD Ryzen 9 7950X", "cpu_vendor": "AuthenticAMD",
                                                "logical_cores": 32, "physical_cores": 16,
                                                "memory_total": 64 << 30})
    facts = gather_cpu(context(system))
    assert (facts.model.value, facts.vendor.value, facts.logical_cores.value) == ("AMD Ryzen 9 7950X", "AMD", 32)
    assert facts.memory_available_bytes.status == "failed"


def _permissions(tmp_path, **kwargs):
    ctx = context(build_machine(tmp_path, **kwargs))
    ctx.sections["host"] = gather_host(ctx)
    return gather_permissions(ctx)


DEVICES = {"/dev/kfd": "", "/dev/dri/renderD128": "", "/dev/dri/renderD129": ""}


def test_user_not_in_render_group_without_access(tmp_path):
    facts = _permissions(tmp_path, files=DEVICES,
                         identity={"user": "bob", "uid": 1000, "groups": ["bob", "video"],
                                   "group_ids": {"render": 110, "video": 44}},
                         access={"/dev/kfd": "-", "/dev/dri/renderD128": "-", "/dev/dri/renderD129": "rw"})
    assert facts.in_render_group.value is False and facts.in_video_group.value is True
    assert facts.render_group_gid.value == 110
    assert facts.kfd_rw.value is False
    assert facts.render_nodes_rw.value is False and "renderD128" in (facts.render_nodes_rw.reason or "")
    assert facts.is_root.value is False


def test_numeric_group_in_a_container_counts_as_render(tmp_path):
    facts = _permissions(tmp_path, files=DEVICES, identity={"user": "root", "uid": 0, "groups": ["root", "110"],
                                                            "group_ids": {"render": 110}})
    assert facts.in_render_group.value is True and facts.is_root.value is True
    assert facts.kfd_rw.value is True and facts.render_nodes_rw.value is True


def test_no_devices_means_absent_access(tmp_path):
    facts = _permissions(tmp_path)
    assert facts.kfd_rw.status == "absent" and facts.render_nodes_rw.status == "absent"
    assert facts.render_group_gid.status == "absent"


def test_permissions_do_not_apply_on_windows(tmp_path):
    facts = _permissions(tmp_path, system="Windows", version="10.0.26100")
    assert facts.kfd_rw.status == "unknown" and facts.kfd_rw.reason == "not applicable on Windows"
    assert facts.user.reason == "not applicable on Windows"
