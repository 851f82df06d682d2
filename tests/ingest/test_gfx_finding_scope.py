"""RD527 ("no release build of PyTorch has kernels for gfx803") speaks only where a pasted report shows PyTorch; a
bare rocminfo, clinfo or OpenCL report gets RD152, the same knowledge said of stock ROCm builds, read after the
findings about what the report shows (scope67: ROCm/legacy-rocm-build#415, #595 and #1218 read RD527 first on a
rocminfo report)."""

from __future__ import annotations

from ingest_helpers import problems_shown


def test_a_bare_rocminfo_report_on_gfx803_gets_the_stock_build_finding_last_and_no_pytorch_finding() -> None:
    shown = problems_shown(
        "My RX 570 is not found. rocminfo prints:\n"
        "hsa api call failure at: /src/rocminfo/rocminfo.cc:1102\n"
        "Call returned 4104\n"
    )
    assert "RD527" not in shown
    assert shown[-1:] == ["RD152"] and len(shown) > 1


def test_an_opencl_report_on_gfx803_gets_no_pytorch_finding() -> None:
    shown = problems_shown("clinfo on my RX 580 (Polaris) lists the platform but OpenCL kernels give wrong results.\n")
    assert "RD527" not in shown and "RD152" in shown


def test_a_report_that_shows_pytorch_on_gfx803_keeps_the_pytorch_finding() -> None:
    shown = problems_shown("torch.cuda.is_available() returns False on my RX 570.\n")
    assert "RD527" in shown and "RD152" not in shown
