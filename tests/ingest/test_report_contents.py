"""What a report holds: the kernel parameters that bear on the GPU only, a place for the user's own
error, one entry per finding with its GPUs, and facts JSON that reads back whatever the user is called."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from rocm_doctor.cli.inputs import FactsSource, load_facts
from rocm_doctor.facts.model import Facts
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.redact import Redactor, ReportRedactor
from rocm_doctor.report.kernel_params import kept_parameters
from rocm_doctor.report.markdown import build_report

MACHINES = Path(__file__).resolve().parents[1] / "machines"
CMDLINE = ('BOOT_IMAGE=/vmlinuz-6.8.0 root=/dev/mapper/vg--acme-root ro cryptdevice=UUID=0f5c2e4a:luks-acme quiet '
           'splash amdgpu.ppfeaturemask=0xffffffff iommu=pt amd-iommu=on pci=noaer ttm.pages_limit=3959290 '
           'nfsroot=10.1.2.3:/export/acme acpi_osi="Windows 2020"')


def test_only_the_kernel_parameters_that_bear_on_the_gpu_are_kept() -> None:
    assert kept_parameters(CMDLINE) == (
        "amdgpu.ppfeaturemask=0xffffffff iommu=pt amd-iommu=on pci=noaer ttm.pages_limit=3959290", 8)


def test_a_redacted_report_keeps_the_gpus_kernel_parameters_and_says_the_rest_was_dropped(run_cli, tmp_path: Path) -> None:
    folder = tmp_path / "m"
    shutil.copytree(MACHINES / "ubuntu2204-6700xt", folder)
    (folder / "files/proc/cmdline").write_text(CMDLINE + "\n", encoding="utf-8")
    assert "acme" in run_cli("report", "--machine", str(folder), "--no-redact").stdout
    result = run_cli("report", "--machine", str(folder))
    assert result.exit_code in (0, 1)
    assert "acme" not in result.stdout and "nfsroot" not in result.stdout and "BOOT_IMAGE" not in result.stdout
    assert "| Kernel parameters | amdgpu.ppfeaturemask=0xffffffff iommu=pt amd-iommu=on pci=noaer ttm.pages_limit=3959290 (8 other" \
        in result.stdout
    report = tmp_path / "r.md"
    report.write_text(result.stdout, encoding="utf-8")
    # iommu=pt still reaches the rules: the report reads back to the machine's findings.
    again = run_cli("check", "--from", str(report), "--json")
    direct = run_cli("check", "--machine", str(folder), "--json")
    assert _ids(again.stdout) == _ids(direct.stdout)


def _ids(document: str) -> list:
    return sorted((f["id"], f["gpu"]) for f in json.loads(document)["findings"])


def test_a_command_line_with_no_gpu_parameter_says_so_in_the_report(run_cli) -> None:
    text = run_cli("report", "--machine", str(MACHINES / "ubuntu2204-6700xt")).stdout
    assert "| Kernel parameters | none that bear on the GPU (6 other parameters left out" in text


def test_the_report_has_a_section_for_the_users_own_command_and_error(run_cli) -> None:
    text = run_cli("report", "--machine", str(MACHINES / "ubuntu2204-6700xt")).stdout
    section = text.split("## What I ran and what went wrong", 1)[1].split("## Findings", 1)[0]
    assert "Paste the command that failed" in section and "not redacted" in section
    assert "```text\n\n```" in section
    assert text.index("## What I ran") < text.index("## Findings")


def test_a_finding_about_several_gpus_is_one_entry_that_lists_them(run_cli) -> None:
    text = run_cli("report", "--machine", str(MACHINES / "docker-2x7900xt-rocm62")).stdout
    findings = text.split("## Findings", 1)[1].split("## Machine", 1)[0]
    entries = [line for line in findings.splitlines() if line.startswith("- ")]
    assert len([e for e in entries if "**RD160**" in e]) == 1
    assert [e for e in entries if "**RD160**" in e][0].endswith("(GPUs 0, 1)")
    assert len(entries) == len(set(entries))
    counts = re.search(r"\*\*(\d+) error\(s\), (\d+) warning\(s\), (\d+) note\(s\)", findings)
    assert counts is not None and sum(int(n) for n in counts.groups()) == len(entries)


@pytest.mark.parametrize("user", ["python", "status", "known", "name", "value", "gfx"])
def test_a_user_named_like_a_field_or_a_status_leaves_facts_json_that_reads_back(user: str) -> None:
    facts = load_facts(FactsSource(machine=MACHINES / "ubuntu2204-6700xt"))
    report = build_report(evaluate(load_rules([], use_env=False), facts), "test",
                          ReportRedactor.create(Redactor.from_identity(user, "box")))
    document = report.split("```json\n", 1)[1].split("\n```", 1)[0]
    read_back = Facts.model_validate(json.loads(document))
    assert read_back.gpus.agents[0].gfx.value == facts.gpus.agents[0].gfx.value
    assert read_back.torch.version.value == facts.torch.version.value
    assert read_back.driver.kernel_cmdline.status == facts.driver.kernel_cmdline.status
