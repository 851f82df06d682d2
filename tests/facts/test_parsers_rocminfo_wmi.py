"""rocminfo and PowerShell Win32_VideoController parsers, on real output formats."""

from __future__ import annotations
from pathlib import Path

import pytest
import yaml

from rocm_doctor.facts.parsers.rocminfo import parse_rocminfo
from rocm_doctor.facts.parsers.wmi import WmiParseError, parse_pnp_device_id, parse_video_controllers

MACHINES = Path(__file__).resolve().parents[1] / "machines"

# Agent 3 of the rocminfo in ROCm/ROCm#2330 (ROCm 5.6, Raphael iGPU), trimmed; trailing spaces as printed.
RAPHAEL = """ROCk module is loaded
==========               
HSA Agents               
==========               
*******                  
Agent 3                  
*******                  
  Name:                    gfx1036                            
  Uuid:                    GPU-XX                             
  Marketing Name:          AMD Radeon Graphics                
  Vendor Name:             AMD                                
  Node:                    2                                  
  Device Type:             GPU                                
  Cache Info:              
    L1:                      16(0x10) KB                        
  Chip ID:                 5710(0x164e)                       
  BDFID:                   28160                              
  Compute Unit:            2                                  
  Pool Info:               
    Pool 1                   
      Segment:                 GLOBAL; FLAGS: COARSE GRAINED      
      Size:                    524288(0x80000) KB                 
  ISA Info:                
    ISA 1                    
      Name:                    amdgcn-amd-amdhsa--gfx1036         
*** Done ***`
"""


def recorded_stdout(machine: str, argv0: str) -> str:
    commands = yaml.safe_load((MACHINES / machine / "commands.yaml").read_text())
    return next(c["stdout"] for c in commands if c.get("argv", [None])[0] == argv0)


def test_rocminfo_agent_fields_with_trailing_padding():
    report = parse_rocminfo(RAPHAEL)
    assert report.complete and report.hsa_agents_seen and not report.wsl
    (agent,) = report.gpus
    assert agent.number == 3 and agent.name == "gfx1036"
    assert agent.get("Marketing Name") == "AMD Radeon Graphics"
    assert agent.get_int("Chip ID") == 0x164E and agent.get_int("BDFID") == 28160 and agent.get_int("Node") == 2
    assert agent.get_int("Compute Unit") == 2
    assert agent.vram_kb == 524288
    assert agent.get("L1") is None, "cache lines are not agent fields"


def test_rocminfo_two_gpus_and_cpu_agent_in_recorded_machine():
    report = parse_rocminfo(recorded_stdout("docker-2x7900xt-rocm62", "rocminfo"))
    assert [a.device_type for a in report.agents] == ["CPU", "GPU", "GPU"]
    assert [a.get("Marketing Name") for a in report.gpus] == ["Radeon RX 7900 XT", "Radeon RX 7900 XT"]
    assert [a.vram_kb for a in report.gpus] == [20955136, 20955136]


def test_rocminfo_wsl_header_and_missing_bdfid():
    report = parse_rocminfo(recorded_stdout("wsl2-7900xtx-pytorchorg", "rocminfo"))
    assert report.wsl and report.complete
    (gpu,) = report.gpus
    assert gpu.name == "gfx1100" and gpu.get_int("BDFID") is None and gpu.get("Uuid") is None


def test_rocminfo_apu_marker():
    report = parse_rocminfo(recorded_stdout("ubuntu-7900xtx-igpu-norender", "rocminfo"))
    assert [(a.name, a.is_apu) for a in report.gpus] == [("gfx1036", True), ("gfx1100", False)]


def test_rocminfo_truncated_output_keeps_agents_read_so_far():
    text = recorded_stdout("docker-2x7900xt-rocm62", "rocminfo")
    cut = text[: text.index("Agent 3")]
    report = parse_rocminfo(cut)
    assert not report.complete
    assert [a.name for a in report.gpus] == ["gfx1100"]


def test_rocminfo_garbage_has_no_agents():
    report = parse_rocminfo("Segmentation fault (core dumped)\n\x00\x01garbage: yes\n")
    assert report.agents == [] and not report.hsa_agents_seen and not report.complete


# Windows PowerShell 5.1 ConvertTo-Json: & is written \u0026, one adapter is a bare object.
ONE_ADAPTER = """{
    "Name":  "AMD Radeon RX 7900 XTX",
    "PNPDeviceID":  "PCI\\\\VEN_1002\\u0026DEV_744C\\u0026SUBSYS_0E3A1002\\u0026REV_C8\\\\6\\u002615A6C2F3\\u00260\\u002600000019",
    "DriverVersion":  "32.0.12033.1030",
    "AdapterRAM":  4293918720
}"""


def test_wmi_single_adapter_object():
    (adapter,) = parse_video_controllers("\ufeff" + ONE_ADAPTER)
    assert (adapter.vendor_id, adapter.device_id) == ("0x1002", "0x744c")
    assert adapter.name == "AMD Radeon RX 7900 XTX" and adapter.driver_version == "32.0.12033.1030"
    assert adapter.pnp_device_id.startswith("PCI\\VEN_1002&DEV_744C&")


def test_wmi_list_with_a_virtual_adapter():
    adapters = parse_video_controllers(recorded_stdout("win11-9070xt-rocm72", "powershell"))
    assert [(a.vendor_id, a.device_id) for a in adapters] == [("0x1002", "0x7550"), ("0x8086", "0xa780"), (None, None)]
    assert adapters[2].adapter_ram is None


def test_wmi_empty_output_means_no_adapters_and_garbage_raises():
    assert parse_video_controllers("  \r\n") == []
    with pytest.raises(WmiParseError):
        parse_video_controllers("Get-CimInstance : Access denied")


def test_pnp_device_id():
    assert parse_pnp_device_id("PCI\\VEN_10DE&DEV_2484&SUBSYS_88D9103C&REV_A1\\4&32396228&0&0009") == ("0x10de", "0x2484")
    assert parse_pnp_device_id("ROOT\\BasicDisplay\\0000") is None
