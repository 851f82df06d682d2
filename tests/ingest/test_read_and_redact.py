"""Reading report files (encodings, stdin, limits) and the identifier redaction reports use."""

from __future__ import annotations

from pathlib import Path

import pytest

from rocm_doctor.errors import InputError
from rocm_doctor.ingest import ingest_report_file, read_report, render_pieces
from rocm_doctor.redact import IdentifierRedactor


def test_a_utf16_file_from_powershell_is_read(tmp_path: Path) -> None:
    path = tmp_path / "collect_env.txt"
    path.write_bytes("PyTorch version: 2.8.0a0+gitfc14c65\r\nIs CUDA available: True\r\n".encode("utf-16"))
    result = ingest_report_file(str(path))
    assert result.facts.torch.version.value == "2.8.0a0+gitfc14c65"
    assert render_pieces(result) == ["collect_env  block 1, lines 1-2"]


def test_undecodable_bytes_do_not_stop_the_reading(tmp_path: Path) -> None:
    path = tmp_path / "log.txt"
    path.write_bytes(b"\xfa\xfb garbage\nRuntimeError: No HIP GPUs are available\n")
    assert "no_hip_gpus" in ingest_report_file(str(path)).facts.symptoms.signatures.value


def test_a_missing_file_is_an_input_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="nothing.md"):
        read_report(str(tmp_path / "nothing.md"))


def test_a_paste_with_nothing_recognised_says_so() -> None:
    from rocm_doctor.ingest import ingest_text

    assert render_pieces(ingest_text("hello, my GPU is broken")) == ["Recognised nothing in the report: every fact is unknown."]


def test_identifiers_get_stable_numbered_placeholders() -> None:
    redactor = IdentifierRedactor()
    text = "eth0 10.1.2.3 peer 10.1.2.4 again 10.1.2.3 mac AA:BB:CC:DD:EE:FF uuid 123e4567-e89b-12d3-a456-426614174000"
    assert redactor.text(text) == "eth0 <ip-1> peer <ip-2> again <ip-1> mac <mac-1> uuid <uuid-1>"
    assert redactor.text("later 10.1.2.4") == "later <ip-2>"


def test_versions_pci_addresses_and_loopback_are_not_identifiers() -> None:
    text = "torch 2.5.1+rocm6.2, HIP 6.2.41133, build 10.0.26100.1, bus 0000:03:00.0, gfx1100, 127.0.0.1, Serial: N/A"
    assert IdentifierRedactor().text(text) == text


@pytest.mark.parametrize("machine", ["ubuntu-7900xtx-igpu-norender", "ubuntu2204-6700xt"])
@pytest.mark.parametrize("user", ["name", "python", "status", "gfx", "index", "total_memory"])
def test_a_user_named_like_a_facts_field_is_redacted_without_breaking_the_report(user: str, machine: str) -> None:
    # Found by the long fuzz runs: redacting dict keys renamed the schema's own fields (exit 3), first
    # a section's, then a torch device's inside the value of torch.live.devices (ubuntu2204-6700xt).
    from rocm_doctor.pipeline import evaluate
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.redact import Redactor, ReportRedactor
    from rocm_doctor.report.markdown import build_report

    from rocm_doctor.cli.inputs import FactsSource, load_facts

    facts = load_facts(FactsSource(machine=Path(__file__).resolve().parents[1] / "machines" / machine))
    assert machine != "ubuntu2204-6700xt" or facts.torch.live.devices.is_known
    report = build_report(evaluate(load_rules([], use_env=False), facts), "test",
                          ReportRedactor.create(Redactor.from_identity(user, "box")))
    assert report.startswith("<!--")
