"""Torch facts on recorded machines: files, triton, companions and every live-probe outcome."""

from __future__ import annotations

import pytest

from core_machine import build_machine, context, dist_info, probe_lines, python_info

from rocm_doctor.facts import python_env, torch_probe
from rocm_doctor.facts.torch import gather_torch

SITE = "/usr/local/lib/python3.10/dist-packages"
VERSION_PY = "__version__ = '{v}'\ndebug = False\ncuda = {cuda!r}\ngit_version = 'abc'\nhip = {hip!r}\n"
HIP = "6.2.41133-dd7f95766"

OK_PROBE = probe_lines(
    {"stage": "import", "status": "start"},
    {"stage": "import", "status": "ok", "seconds": 2.5, "version": "2.5.1+rocm6.2", "hip": HIP, "cuda": None},
    {"stage": "cuda_init", "status": "start"},
    {"stage": "cuda_init", "status": "ok", "is_available": True, "device_count": 1},
    {"stage": "devices", "status": "start"},
    {"stage": "devices", "status": "ok", "devices": [
        {"index": 0, "name": "AMD Radeon RX 7900 XT", "gcnArchName": "gfx1100", "total_memory": 21458059264}]},
    {"stage": "arch_list", "status": "start"},
    {"stage": "arch_list", "status": "ok", "arch_list": ["gfx900", "gfx1100"]},
    {"stage": "kernel", "status": "start"},
    {"stage": "kernel", "status": "ok", "ran": True, "value": 8.0},
    {"stage": "done", "status": "ok"},
)


def torch_files(version="2.5.1+rocm6.2", hip=HIP, cuda=None, lib=("libhsa-runtime64.so", "libtorch.so")):
    files = {**dist_info(SITE, "torch", version), f"{SITE}/torch/version.py": VERSION_PY.format(
        v=version, cuda=cuda, hip=hip)}
    for name in lib:
        files[f"{SITE}/torch/lib/{name}"] = ""
    return files


def gather(tmp_path, files, probe=None, name="m", **options):
    commands = [{"label": python_env.LABEL, "returncode": 0, "stdout": python_info([SITE])}]
    if probe is not None:
        commands.append(dict(label=torch_probe.LABEL, **probe))
    system = build_machine(tmp_path, files=files, commands=commands, name=name)
    ctx = context(system, **options)
    ctx.sections["python"] = python_env.gather_python(ctx)
    return gather_torch(ctx), system


def test_pytorch_org_rocm_wheel_static_and_live(tmp_path):
    facts, _ = gather(tmp_path, torch_files(), {"returncode": 0, "stdout": OK_PROBE})
    assert facts.version.value == "2.5.1+rocm6.2" and facts.flavour.value == "rocm"
    assert facts.rocm_version.value == "6.2" and facts.hip_version.value == HIP
    assert facts.cuda_version.status == "absent" and facts.distributor.value == "pytorch.org"
    assert facts.bundled_hsa_runtime.value is True and facts.location.value == SITE
    live = facts.live
    assert live.probe.value == "ok" and live.cuda_available.value is True and live.device_count.value == 1
    assert live.devices.value[0].gcn_arch_name == "gfx1100"
    assert live.arch_list.value == ["gfx900", "gfx1100"] and live.import_seconds.value == 2.5


def test_cuda_wheel_takes_cuda_version_from_version_py(tmp_path):
    files = torch_files("2.5.1+cu124", hip=None, cuda="12.4", lib=("libtorch.so",))
    facts, _ = gather(tmp_path, files, torch=False)
    assert facts.flavour.value == "cuda" and facts.cuda_version.value == "12.4"
    assert facts.rocm_version.status == "absent" and facts.bundled_hsa_runtime.value is False


def test_no_torch_flag_skips_the_probe(tmp_path):
    facts, system = gather(tmp_path, torch_files(), {"returncode": 0, "stdout": OK_PROBE}, torch=False)
    assert facts.live.probe.status == "unknown" and facts.live.probe.reason == "--no-torch"
    assert facts.version.value == "2.5.1+rocm6.2"
    assert len(system.calls) == 1  # only python-info


def test_torch_not_installed_is_absent_and_not_probed(tmp_path):
    facts, system = gather(tmp_path, dist_info(SITE, "numpy", "1.26.4"), {"returncode": 0, "stdout": OK_PROBE})
    assert facts.version.status == "absent" and facts.live.probe.status == "absent"
    assert len(system.calls) == 1


def test_unparsable_version_py_is_failed_but_version_still_known(tmp_path):
    files = torch_files()
    files[f"{SITE}/torch/version.py"] = "hip = '6.2\n"
    facts, _ = gather(tmp_path, files, torch=False)
    assert facts.hip_version.status == "failed" and "cannot parse" in (facts.hip_version.reason or "")
    assert facts.flavour.value == "rocm" and facts.rocm_version.value == "6.2"


def test_probe_timeout_in_import_names_the_stage(tmp_path):
    stdout = probe_lines({"stage": "import", "status": "start"})
    facts, _ = gather(tmp_path, torch_files(), {"timeout": True, "stdout": stdout}, torch_timeout=60)
    assert facts.live.probe.status == "failed"
    assert facts.live.probe.reason == "torch import hung for 60 s in stage 'import'"
    assert facts.live.cuda_available.status == "failed" and facts.version.is_known


def test_probe_abort_keeps_earlier_stages_and_stderr_tail(tmp_path):
    stdout = OK_PROBE.split('{"stage": "kernel", "status": "ok"')[0]
    stderr = ("hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n"
              "Devices:\n  Device 0: gfx1031 - Not Found\n")
    facts, _ = gather(tmp_path, torch_files(), {"returncode": -6, "stdout": stdout, "stderr": stderr})
    reason = facts.live.probe.reason or ""
    assert reason.startswith("the torch probe aborted (SIGABRT) in stage 'kernel': hipErrorNoBinaryForGpu")
    assert "gfx1031 - Not Found" in reason
    assert facts.live.arch_list.value == ["gfx900", "gfx1100"] and facts.live.cuda_available.value is True


def test_python_exception_in_a_stage_is_reported(tmp_path):
    stdout = probe_lines({"stage": "import", "status": "start"}, {
        "stage": "import", "status": "error",
        "error": "ImportError: libamdhip64.so: cannot open shared object file"})
    facts, _ = gather(tmp_path, torch_files(), {"returncode": 1, "stdout": stdout})
    assert facts.live.probe.reason == ("stage 'import' failed: ImportError: libamdhip64.so: "
                                       "cannot open shared object file")


def test_garbage_probe_output_is_failed(tmp_path):
    facts, _ = gather(tmp_path, torch_files(), {"returncode": 0, "stdout": "hello\n{oops\n"})
    assert facts.live.probe.status == "failed" and "printed no result" in (facts.live.probe.reason or "")


def test_windows_access_violation_is_decoded():
    assert torch_probe.describe_exit(3221225477) == "access violation (0xC0000005)"
    assert torch_probe.describe_exit(-11) == "crashed (SIGSEGV)"
    assert torch_probe.describe_exit(2) == "exited with status 2"


def test_triton_flavours(tmp_path):
    cuda_triton = dist_info(SITE, "triton", "3.1.0", record=["triton/backends/nvidia/bin/ptxas",
                                                              "triton/backends/amd/driver.py"])
    facts, _ = gather(tmp_path, {**torch_files(), **cuda_triton}, name="a", torch=False)
    assert (facts.triton_package.value, facts.triton_flavour.value) == ("triton", "cuda")
    both = {**torch_files(), **cuda_triton, **dist_info(SITE, "pytorch-triton-rocm", "3.1.0")}
    facts, _ = gather(tmp_path, both, name="b", torch=False)
    assert facts.triton_package.value == "pytorch-triton-rocm, triton" and facts.triton_flavour.value == "mixed"
    assert facts.triton_version.value == "3.1.0"
    amd_only = dist_info(SITE, "triton", "3.2.0", record=["triton/backends/amd/driver.py"])
    facts, _ = gather(tmp_path, {**torch_files(), **amd_only}, name="c", torch=False)
    assert facts.triton_flavour.value == "rocm"
    no_record = dist_info(SITE, "triton", "3.2.0")
    facts, _ = gather(tmp_path, {**torch_files(), **no_record}, name="d", torch=False)
    assert facts.triton_flavour.status == "unknown" and "RECORD" in (facts.triton_flavour.reason or "")


def test_torchvision_and_torchaudio_flavours(tmp_path):
    files = {**torch_files(), **dist_info(SITE, "torchvision", "0.20.1+rocm6.2"),
             **dist_info(SITE, "torchaudio", "2.6.0a0+1a8f621")}
    facts, _ = gather(tmp_path, files, torch=False)
    assert (facts.torchvision_version.value, facts.torchvision_flavour.value) == ("0.20.1+rocm6.2", "rocm")
    assert facts.torchaudio_flavour.status == "unknown"


def test_a_huge_version_py_is_a_failed_fact_naming_its_size_limit(tmp_path):
    # 1.2 MB of assignments: ast.parse of the whole file took about 1 GB.
    files = torch_files()
    files[f"{SITE}/torch/version.py"] = files[f"{SITE}/torch/version.py"] + "x = [1, 2, 3]\n" * 90_000
    facts, _ = gather(tmp_path, files, torch=False)
    assert facts.hip_version.status == "failed" and "torch.max_version_py_bytes" in (facts.hip_version.reason or "")
    assert facts.version.value == "2.5.1+rocm6.2"


def test_version_py_is_read_statement_by_statement_without_one_syntax_tree():
    import tracemalloc

    from rocm_doctor.knowledge.torch_static import parse_version_py

    text = "hip = '6.2.41133'\n" + "x = [" + "1, " * 20_000 + "]\n"  # 60 KB, under the limit
    tracemalloc.start()
    values = parse_version_py(text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert values["hip"] == "6.2.41133" and len(values["x"]) == 20_000
    assert peak < 40 << 20


def test_a_non_finite_device_memory_in_the_probe_makes_that_field_unknown_not_the_section(tmp_path):
    stdout = OK_PROBE.replace('"total_memory": 21458059264', '"total_memory": 1e999')
    facts, _ = gather(tmp_path, torch_files(), {"returncode": 0, "stdout": stdout})
    assert facts.live.probe.value == "ok" and facts.live.arch_list.value == ["gfx900", "gfx1100"]
    device = facts.live.devices.value[0]
    assert device.gcn_arch_name == "gfx1100" and device.total_memory is None
    assert "total_memory" in (facts.live.devices.reason or "")


@pytest.mark.parametrize("number", ["1e999", "-1e999", "NaN", "Infinity"])
def test_a_non_finite_number_in_any_probe_answer_makes_that_fact_failed_and_the_facts_still_serialise(tmp_path, number):
    # Found by the long fuzz run: "seconds": Infinity made a known fact that JSON writes as null, and a
    # report's facts then failed to validate (exit 3).
    stdout = OK_PROBE.replace('"seconds": 2.5', f'"seconds": {number}')
    facts, _ = gather(tmp_path, torch_files(), {"returncode": 0, "stdout": stdout})
    assert facts.live.import_seconds.status == "failed" and "not finite" in (facts.live.import_seconds.reason or "")
    assert facts.live.probe.value == "ok" and facts.live.arch_list.value == ["gfx900", "gfx1100"]
    assert type(facts).model_validate_json(facts.model_dump_json()) == facts
