"""Redaction holds on other machines' data: names from the data itself, every address spelling, serials by key."""

from __future__ import annotations

import ipaddress
import shutil
from pathlib import Path
from typing import Dict, List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rocm_doctor.cli.report_cmd import facts_redactor
from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact
from rocm_doctor.judge.cases import load_baseline, overlay
from rocm_doctor.pipeline import evaluate
from rocm_doctor.redact import IdentifierRedactor, ReportRedactor
from rocm_doctor.report.markdown import build_report

TESTS = Path(__file__).resolve().parents[1]
SOURCE = TESTS / "machines" / "ubuntu2204-6700xt"
BASELINE = TESTS / "rule_cases" / "baseline.json"

# What one planted machine carries: its own user and host (not this machine's), every spelling.
PLANTED = {
    "user": "zedcarter",
    "host": "zeds-rig",
    "ipv6_short": "fe80::1c2d:3e4f:5a6b:7c8d",
    "ipv6_zone": "fe80::aa:bbb%eth0",
    "ipv6_mapped": "::ffff:192.0.2.77",
    "bootif": "01-3c-7c-3f-aa-bb-cc",
    "mac_dotted": "3c7c.3fa1.b2c3",
    "serial_underscored": "SNQX778812",
    "serial_json": "0xDEADBEEF1234",
}


@pytest.fixture
def planted_machine(tmp_path: Path) -> Path:
    folder = tmp_path / "zed"
    shutil.copytree(SOURCE, folder)
    for name in ("machine.yaml", "commands.yaml"):
        path = folder / name
        text = path.read_text(encoding="utf-8").replace("/home/user", "/home/zedcarter")
        path.write_text(text.replace("  user: user", "  user: zedcarter"), encoding="utf-8")
    (folder / "files/home/user").rename(folder / "files/home/zedcarter")
    (folder / "files/etc/hostname").write_text("zeds-rig\n", encoding="utf-8")
    cmdline = folder / "files/proc/cmdline"
    cmdline.write_text(
        cmdline.read_text().strip() + f" BOOTIF={PLANTED['bootif']} ip=[{PLANTED['ipv6_short']}] hostname=zeds-rig"
        f" ipv6.gw={PLANTED['ipv6_zone']} peer={PLANTED['ipv6_mapped']} eth.mac={PLANTED['mac_dotted']}"
        f" board_serial={PLANTED['serial_underscored']}\n"
    )
    with open(folder / "commands.yaml", "a", encoding="utf-8") as handle:
        handle.write(
            '- argv: ["amd-smi", "static", "--json"]\n  returncode: 0\n  stdout: |\n'
            f'    [{{"gpu": 0, "asic": {{"market_name": "AMD Radeon RX 6700 XT", "asic_serial": "{PLANTED["serial_json"]}"}}}}]\n'
        )
    return folder


def _leaks(text: str) -> List[str]:
    lowered = text.lower()
    return [name for name, value in PLANTED.items() if value.lower() in lowered]


def test_report_of_a_recorded_machine_leaves_none_of_its_identifiers(run_cli, planted_machine: Path) -> None:
    unredacted = run_cli("report", "--machine", str(planted_machine), "--no-redact").stdout
    assert {"user", "host", "ipv6_short", "bootif", "serial_underscored"} <= set(_leaks(unredacted))
    result = run_cli("report", "--machine", str(planted_machine))
    assert result.exit_code == 0, result.stderr
    assert _leaks(result.stdout) == []


def test_report_of_a_pasted_report_leaves_none_of_its_host_and_user_names(run_cli, tmp_path: Path) -> None:
    # The paste's own host and user, not this machine's: found in its prompts, uname and hostname output.
    paste = tmp_path / "paste.txt"
    paste.write_text(
        "zedcarter@zeds-rig:~/proj$ uname -a\n"
        "Linux zeds-rig 6.8.0-45-generic #45-Ubuntu SMP x86_64 GNU/Linux\n"
        "zedcarter@zeds-rig:~/proj$ hostname\nzeds-rig\n"
        "zedcarter@zeds-rig:~/proj$ python -c 'import torch; print(torch.__version__)'\n2.5.1+rocm6.2\n"
        "File \"/home/zedcarter/proj/train.py\", line 3\n"
        "RuntimeError: HIP error: invalid device function\n",
        encoding="utf-8",
    )
    unredacted = run_cli("report", "--from", str(paste), "--no-redact").stdout
    assert "user" in _leaks(unredacted)  # the home path carries it (the host name is not a fact a paste gives)
    result = run_cli("report", "--from", str(paste))
    assert result.exit_code == 0, result.stderr
    assert _leaks(result.stdout) == []


def test_recording_a_recorded_machine_leaves_none_of_its_identifiers(run_cli, planted_machine: Path, tmp_path: Path) -> None:
    folder = tmp_path / "again"
    result = run_cli("facts", "--machine", str(planted_machine), "--record", str(folder))
    assert result.exit_code == 0, result.stderr
    texts = {p: p.read_text(encoding="utf-8") for p in folder.rglob("*") if p.is_file()}
    leaks = {str(p.relative_to(folder)): _leaks(t) + _leaks(str(p.relative_to(folder))) for p, t in texts.items()}
    assert {p: found for p, found in leaks.items() if found} == {}
    assert run_cli("facts", "--machine", str(folder)).exit_code == 0  # the redacted folder still replays


# -- property: identifiers planted in every string field of the facts never reach a report ----------

_names = st.from_regex(r"[a-z]{2}[a-z0-9]{4,9}", fullmatch=True).map(lambda s: "u" + s)
_octet = st.integers(0, 255)
_serial_keys = st.sampled_from(
    ["serial", "Serial Number", "serial_number", "SerialNumber", "asic_serial", "board_serial", "unique_id",
     "Unique ID", '"serial_number"', "'sn'", "product_serial", "SERIAL_NO"]
)


@st.composite
def _ipv6(draw) -> str:
    address = ipaddress.IPv6Address(draw(st.integers(0x2001 << 112, (1 << 128) - 1)))
    form = draw(st.sampled_from(["full", "short", "zone", "mapped"]))
    if form == "mapped":
        return "::ffff:" + ".".join(str(draw(_octet)) for _ in range(4))
    text = address.exploded if form == "full" else address.compressed
    return text + ("%eth0" if form == "zone" else "")


@st.composite
def _mac(draw) -> str:
    octets = [f"{draw(_octet):02x}" for _ in range(6)]
    if draw(st.booleans()):
        octets = [o.upper() for o in octets]
    form = draw(st.sampled_from([":", "-", "bootif", "dotted"]))
    if form == "dotted":
        joined = "".join(octets)
        return ".".join(joined[i:i + 4] for i in (0, 4, 8))
    if form == "bootif":
        return "01-" + "-".join(octets)
    return form.join(octets)


@st.composite
def _identifier(draw) -> tuple:
    """(planted text, the secret inside it)."""
    kind = draw(st.sampled_from(["ipv4", "ipv6", "mac", "serial", "uuid"]))
    if kind == "ipv4":
        secret = ".".join(str(draw(st.integers(11, 250))) for _ in range(4))
        return f"addr={secret}", secret
    if kind == "ipv6":
        secret = draw(_ipv6())
        return f"addr {secret} up", secret
    if kind == "mac":
        secret = draw(_mac())
        return f"BOOTIF={secret}" if secret.startswith("01-") else f"link/ether {secret} brd", secret
    if kind == "serial":
        secret = draw(st.from_regex(r"[A-Z][A-Z0-9]{5,11}", fullmatch=True))
        return f"{draw(_serial_keys)}: {secret}", secret
    secret = str(draw(st.uuids()))
    return f"root=UUID={secret}", secret


def _string_fields(facts: Facts) -> List[tuple]:
    """(section, field) of every string fact of the model."""
    found = []
    for section_name in Facts.model_fields:
        section = getattr(facts, section_name)
        for field_name, info in type(section).model_fields.items() if hasattr(type(section), "model_fields") else []:
            if "Fact[str]" in str(info.annotation):
                found.append((section_name, field_name))
    return found


_BASE = load_baseline(BASELINE)
_FIELDS = _string_fields(Facts.from_dict(_BASE))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(user=_names, planted=st.lists(_identifier(), min_size=len(_FIELDS), max_size=len(_FIELDS)))
def test_identifiers_planted_in_every_fact_never_reach_the_report(user: str, planted: List[tuple]) -> None:
    change: Dict[str, Dict[str, object]] = {}
    for (section, name), (text, _) in zip(_FIELDS, planted):
        value = f"/home/{user}/x {text}" if section == "python" else text
        change.setdefault(section, {})[name] = Fact(status="known", value=value, source=f"/home/{user}").model_dump()
    change.setdefault("permissions", {})["user"] = Fact(status="known", value=user, source="id").model_dump()
    change["env"] = {"vars": Fact(status="known", value={"HIP_PATH": f"/home/{user}/hip", "X": planted[0][0]},
                                  source="env").model_dump()}
    facts = Facts.from_dict(overlay(_BASE, change))
    result = evaluate([], facts)
    report = build_report(result, "rules-test", ReportRedactor.create(facts_redactor(facts)))
    secrets = [user] + [secret for _, secret in planted]
    assert [s for s in secrets if s.lower() in report.lower()] == []


def test_a_file_named_for_a_serial_is_redacted_whole() -> None:
    redactor = ReportRedactor.create(facts_redactor(Facts()))
    assert redactor.file("/sys/class/drm/card1/device/serial_number", "PQ99887766\n") == "<serial-1>\n"
    assert redactor.file("/sys/devices/virtual/dmi/id/product_uuid", "N/A\n") == "N/A\n"


def test_versions_times_pci_addresses_and_code_are_not_identifiers() -> None:
    text = "torch 2.5.1+rocm6.2 at 12:34:56, bus 0000:03:00.0, x[1::2], std::vector, ::1, Serial: N/A, gfx1100"
    assert IdentifierRedactor().text(text) == text
