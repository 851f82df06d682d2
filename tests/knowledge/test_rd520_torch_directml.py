"""rev51d: what RD520 says of torch-directml holds for its releases (microsoft/DirectML#473, #544)."""

from __future__ import annotations

from rocm_doctor.judge.loader import load_rules


def _rd520():
    return next(r for r in load_rules() if r.id == "RD520")


def test_rd520_calls_torch_directml_a_backend_beside_torch_not_a_build_of_torch():
    text = " ".join(_rd520().explanation.split())
    assert "DirectML build of torch for" not in text
    assert "DirectML backend package that installs beside torch" in text


def test_rd520_dates_torch_directml_python_311_and_312_wheels_to_may_2024():
    """The release of 2024-05-21 added Python 3.11 and 3.12 (a Microsoft engineer in DirectML#473), so
    "3.10 and older for the releases of 2022-2024" was wrong for 2024's releases."""
    rule = _rd520()
    text = " ".join(rule.explanation.split())
    assert "2022-2024" not in text
    assert "before its release of May 2024, which added 3.11 and 3.12" in text
    assert any(r.url == "https://github.com/microsoft/DirectML/issues/473" for r in rule.references)
