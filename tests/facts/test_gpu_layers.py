"""GPU discovery: every layer, the fallback order and the failure paths, on small recorded machines."""

from __future__ import annotations

from core_machine import build_machine, context

from rocm_doctor.facts.gpu import KFD_NODES, PCI_DEVICES, WMI_COMMAND, drafts_from_amdsmi, gather_gpus, merge_layers
from rocm_doctor.facts.gpu import LayerResult, without_overrides
from rocm_doctor.facts.model import DiscoveryAttempt

NODE0 = "cpu_cores_count 16\nsimd_count 0\ngfx_target_version 0\nvendor_id 0\ndevice_id 0\nlocation_id 0\n"
NAVI22 = ("cpu_cores_count 0\nsimd_count 80\nsimd_per_cu 2\ngfx_target_version 100301\nvendor_id 4098\n"
          "device_id 29663\nlocation_id 768\ndomain 0\ndrm_render_minor 128\n")
ROCMINFO = """ROCk module version 6.8.5 is loaded
==========
HSA Agents
==========
*******
Agent 1
*******
  Name:                    AMD Ryzen 7 5800X 8-Core Processor
  Device Type:             CPU
*******
Agent 2
*******
  Name:                    gfx1031
  Marketing Name:          AMD Radeon RX 6700 XT
  Vendor Name:             AMD
  Node:                    1
  Device Type:             GPU
  Chip ID:                 29663(0x73df)
  BDFID:                   768
  Compute Unit:            40
*** Done ***
"""


def kfd_files(node1=NAVI22, vram=12 << 30):
    return {
        f"{KFD_NODES}/0/properties": NODE0, f"{KFD_NODES}/0/gpu_id": "0\n",
        f"{KFD_NODES}/1/properties": node1, f"{KFD_NODES}/1/gpu_id": "61642\n",
        f"{KFD_NODES}/1/mem_banks/0/properties": f"heap_type 1\nsize_in_bytes {vram}\n",
    }


def pci_files(address="0000:03:00.0", vendor="0x1002", device="0x73df", klass="0x030000", render="renderD128"):
    base = f"{PCI_DEVICES}/{address}"
    files = {f"{base}/vendor": vendor + "\n", f"{base}/device": device + "\n", f"{base}/class": klass + "\n"}
    if render:
        files[f"{base}/drm/{render}/dev"] = "226:128\n"
    return files


def rocminfo_cmd(**entry):
    return {"argv": ["rocminfo"], "returncode": 0, "stdout": ROCMINFO, **entry}


ROCM_PATH_FILES = {"/opt/rocm/bin/rocminfo": ""}
ENV = {"PATH": "/usr/bin:/opt/rocm/bin"}


def gpus(tmp_path, **kwargs):
    kwargs.setdefault("env", ENV)
    return gather_gpus(context(build_machine(tmp_path, **kwargs)))


def statuses(facts):
    return {a.layer: a.status for a in facts.attempts}


def test_kfd_answers_and_rocminfo_and_pci_enrich_the_same_gpu(tmp_path):
    facts = gpus(tmp_path, files={**kfd_files(), **pci_files(), **ROCM_PATH_FILES}, commands=[rocminfo_cmd()])
    assert facts.discovery.value == "kfd"
    assert statuses(facts) == {"amdsmi": "skipped", "kfd": "answered", "rocminfo": "answered", "pci": "answered", "wmi": "skipped"}
    (gpu,) = facts.agents
    assert gpu.source == "kfd" and gpu.index == 0
    assert gpu.gfx.value == "gfx1031" and gpu.gfx.source == f"{KFD_NODES}/1/properties"
    assert gpu.gfx_target_version.value == 100301 and gpu.kfd_node.value == 1
    assert gpu.name.value == "AMD Radeon RX 6700 XT" and gpu.name.source == "rocminfo"
    assert gpu.product.value == "Radeon RX 6700 / 6700 XT / 6750 XT / 6800M / 6850M XT" and gpu.product.source == "rules/data/gpus.yaml"
    assert gpu.pci_bus.value == "0000:03:00.0" and gpu.render_node.value == "/dev/dri/renderD128"
    assert gpu.vram_bytes.value == 12 << 30 and gpu.compute_units.value == 40
    assert gpu.integrated.value is False and gpu.vendor.value == "AMD" and gpu.device_id.value == "0x73df"


def test_amd_gpu_without_rocm_or_kfd_is_named_by_pci_and_the_table(tmp_path):
    facts = gpus(tmp_path, files=pci_files(device="0x744c", render=None))
    assert facts.discovery.value == "pci"
    assert statuses(facts)["kfd"] == "absent" and statuses(facts)["rocminfo"] == "absent"
    (gpu,) = facts.agents
    assert gpu.gfx.value == "gfx1100" and gpu.gfx.source == "rules/data/gpus.yaml"
    assert gpu.gfx_target_version.value == 110000
    assert gpu.name.status == "absent"


def test_rocminfo_answers_when_kfd_is_missing(tmp_path):
    facts = gpus(tmp_path, files=ROCM_PATH_FILES, commands=[rocminfo_cmd()])
    assert facts.discovery.value == "rocminfo"
    (gpu,) = facts.agents
    assert gpu.gfx.value == "gfx1031" and gpu.pci_bus.value == "0000:03:00.0" and gpu.kfd_node.value == 1


def test_rocminfo_runs_without_the_gfx_override_so_it_names_the_native_target():
    env = {"HSA_OVERRIDE_GFX_VERSION": "10.3.0", "HSA_OVERRIDE_GFX_VERSION_1": "10.3.0", "HSA_XNACK": "1", "PATH": "/bin"}
    assert without_overrides(env) == {"HSA_XNACK": "1", "PATH": "/bin"}


def test_rocminfo_timeout_is_a_failed_attempt_and_discovery_goes_on(tmp_path):
    facts = gpus(tmp_path, files={**pci_files(), **ROCM_PATH_FILES}, commands=[rocminfo_cmd(timeout=True)])
    rocminfo = next(a for a in facts.attempts if a.layer == "rocminfo")
    assert rocminfo.status == "failed" and "did not finish" in rocminfo.detail
    assert facts.discovery.value == "pci" and facts.agents[0].gfx.value == "gfx1031"


def test_rocminfo_garbage_and_error_exit_are_failed_attempts(tmp_path):
    garbage = gpus(tmp_path, files=ROCM_PATH_FILES, commands=[rocminfo_cmd(stdout="\x7fELF garbage\n")], name="a")
    assert statuses(garbage)["rocminfo"] == "failed" and garbage.agents == []
    assert garbage.discovery.status == "failed" and "rocminfo: failed" in garbage.discovery.reason
    crashed = gpus(tmp_path, files=ROCM_PATH_FILES, name="b", commands=[
        rocminfo_cmd(returncode=1, stdout="WSL environment detected.\n", stderr="hsa_init Failed, possibly no supported GPU devices\n")])
    attempt = next(a for a in crashed.attempts if a.layer == "rocminfo")
    assert attempt.status == "failed" and "hsa_init Failed" in attempt.detail


def test_rocminfo_recorded_but_not_installed_is_absent(tmp_path):
    facts = gpus(tmp_path, files=pci_files(), commands=[rocminfo_cmd()])
    assert statuses(facts)["rocminfo"] == "absent"


def test_permission_denied_on_kfd_topology_falls_back_to_pci(tmp_path):
    facts = gpus(tmp_path, files={**kfd_files(), **pci_files()}, unreadable=[KFD_NODES])
    kfd = next(a for a in facts.attempts if a.layer == "kfd")
    assert kfd.status == "failed" and "permission denied" in kfd.detail
    assert facts.discovery.value == "pci" and facts.agents[0].gfx.value == "gfx1031"


def test_unreadable_gpu_node_properties_fail_the_kfd_layer(tmp_path):
    facts = gpus(tmp_path, files=kfd_files(), unreadable=[f"{KFD_NODES}/1/properties"])
    kfd = next(a for a in facts.attempts if a.layer == "kfd")
    assert kfd.status == "failed" and f"{KFD_NODES}/1/properties" in kfd.detail
    assert facts.agents == [] and facts.discovery.status == "failed"


def test_nvidia_and_intel_gpus_are_reported_and_virtual_displays_ignored(tmp_path):
    files = {**pci_files("0000:01:00.0", "0x10de", "0x2684"), **pci_files("0000:00:02.0", "0x8086", "0xa780", render=None),
             **pci_files("0000:00:08.0", "0x1af4", "0x1050", render=None),
             **pci_files("0000:00:1f.3", "0x8086", "0x7a50", klass="0x040380", render=None)}
    facts = gpus(tmp_path, files=files)
    assert [(a.vendor.value, a.device_id.value) for a in facts.agents] == [("Intel", "0xa780"), ("NVIDIA", "0x2684")]
    assert all(a.gfx.status == "unknown" for a in facts.agents)
    pci = next(a for a in facts.attempts if a.layer == "pci")
    assert "0000:00:08.0 (vendor 0x1af4)" in pci.detail


def test_no_gpu_anywhere_is_an_absent_discovery(tmp_path):
    facts = gpus(tmp_path, files={f"{PCI_DEVICES}": None})
    assert facts.agents == [] and facts.discovery.status == "absent"
    assert statuses(facts)["pci"] == "empty"


def test_apu_without_table_row_is_integrated_by_its_small_carve_out(tmp_path):
    node = NAVI22.replace("device_id 29663", "device_id 4660")
    facts = gpus(tmp_path, files=kfd_files(node1=node, vram=512 << 20))
    (gpu,) = facts.agents
    assert gpu.product.status == "unknown"
    assert gpu.integrated.value is True and "APU carve-out" in gpu.integrated.source


def test_windows_wmi_layer_and_driver_version(tmp_path):
    out = ('[{"Name": "AMD Radeon RX 7900 XTX", "PNPDeviceID": "PCI\\\\VEN_1002&DEV_744C&REV_C8", "DriverVersion": "32.0.12033.1030",'
           ' "AdapterRAM": 4293918720}, {"Name": "Microsoft Basic Display Adapter", "PNPDeviceID": "ROOT\\\\BasicDisplay\\\\0000"}]')
    facts = gpus(tmp_path, system="Windows", env={}, commands=[{"argv": WMI_COMMAND, "returncode": 0, "stdout": out}])
    assert facts.discovery.value == "wmi"
    assert {a.layer: a.status for a in facts.attempts}["kfd"] == "skipped"
    (gpu,) = facts.agents
    assert gpu.driver_version.value == "32.0.12033.1030" and gpu.gfx.value == "gfx1100"
    assert gpu.vram_bytes.status == "unknown", "AdapterRAM saturates at 4 GiB and is not used"


def test_windows_without_powershell_and_with_bad_json(tmp_path):
    missing = gpus(tmp_path, system="Windows", env={}, name="a")
    assert statuses(missing)["wmi"] == "absent" and missing.discovery.status == "absent"
    bad = gpus(tmp_path, system="Windows", env={}, name="b", commands=[{"argv": WMI_COMMAND, "returncode": 0, "stdout": "Access denied"}])
    assert statuses(bad)["wmi"] == "failed" and bad.discovery.status == "failed"


def test_amdsmi_is_skipped_on_recorded_machines_and_when_turned_off(tmp_path):
    system = build_machine(tmp_path)
    assert statuses(gather_gpus(context(system)))["amdsmi"] == "skipped"
    facts = gather_gpus(context(system, use_amdsmi=False))
    assert next(a for a in facts.attempts if a.layer == "amdsmi").detail == "turned off"


def test_amdsmi_records_map_to_agents_that_kfd_then_enriches():
    records = [{"asic": {"market_name": "AMD Radeon RX 7900 XTX", "vendor_id": 4098, "device_id": "0x744c",
                         "target_graphics_version": "gfx1100", "num_compute_units": 96},
                "bdf": "0000:03:00.0", "vram": {"vram_size": 24560}, "kfd": {"node_id": 1}}]
    smi = drafts_from_amdsmi(records)
    kfd = drafts_from_amdsmi([{"asic": {"device_id": 0x744C}, "bdf": "0000:03:00.0", "kfd": {"node_id": 1}}])
    for draft in kfd:
        draft.layer = "kfd"
        draft.put("render_node", "/dev/dri/renderD128", "kfd")
    attempt = DiscoveryAttempt(layer="x", status="answered")
    (merged,) = merge_layers([LayerResult(attempt, smi), LayerResult(attempt, kfd)])
    assert merged.value("name") == "AMD Radeon RX 7900 XTX" and merged.value("gfx") == "gfx1100"
    assert merged.value("vram_bytes") == 24560 << 20 and merged.value("render_node") == "/dev/dri/renderD128"


def test_two_identical_gpus_stay_two_agents_matched_by_bus(tmp_path):
    second = NAVI22.replace("location_id 768", "location_id 2048").replace("drm_render_minor 128", "drm_render_minor 129")
    files = {**kfd_files(), f"{KFD_NODES}/2/properties": second, f"{KFD_NODES}/2/gpu_id": "1234\n",
             **pci_files(), **pci_files("0000:08:00.0", render="renderD129")}
    facts = gpus(tmp_path, files=files)
    assert [(a.kfd_node.value, a.pci_bus.value, a.render_node.value) for a in facts.agents] == [
        (1, "0000:03:00.0", "/dev/dri/renderD128"), (2, "0000:08:00.0", "/dev/dri/renderD129")]
