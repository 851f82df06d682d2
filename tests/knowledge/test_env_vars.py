"""The environment-variable knowledge API (rocm_doctor/knowledge/env_vars.py)."""

from __future__ import annotations

import pytest
from packaging.version import Version

from rocm_doctor.errors import InputError
from rocm_doctor.knowledge import env_vars


def test_myth_variables_are_not_read_and_real_ones_are() -> None:
    assert env_vars.is_read_by_runtime("HIP_DISABLE_IPC") is False
    assert env_vars.is_read_by_runtime("PAL_HIP_IPC_FLAG") is True
    assert env_vars.is_read_by_runtime("PYTORCH_ROCM_ARCH") is False
    assert env_vars.is_read_by_runtime("NOT_A_KNOWN_VARIABLE") is None


def test_per_node_override_matches_the_pattern_row() -> None:
    row = env_vars.lookup("HSA_OVERRIDE_GFX_VERSION_2")
    assert row is not None and row.read_by == "rocr"


def test_every_row_names_a_source_url() -> None:
    rows = env_vars.known_variables()
    assert len(rows) > 30 and all(r.source.startswith("http") for r in rows)


def test_a_malformed_row_is_a_one_line_input_error() -> None:
    bad = {"variables": [{"name": "X", "meaning": "m", "read_by": "nobody", "runtime_reads": False,
                          "platforms": [], "values": "v", "source": "https://x"}]}
    with pytest.raises(InputError, match=r"variables\[0\]\.read_by"):
        env_vars.EnvVarTable.from_data(bad)


def test_rows_corrected_by_the_audit() -> None:
    pre_vega = env_vars.lookup("ROC_ENABLE_PRE_VEGA")
    assert pre_vega is not None and pre_vega.read_by == "none" and pre_vega.runtime_reads is False
    log = env_vars.lookup("AMD_LOG_LEVEL")
    assert log is not None and log.values == "0-5"
    hip_lt = env_vars.lookup("DISABLE_ADDMM_HIP_LT")
    assert hip_lt is not None and hip_lt.unread_with_torch(Version("2.13")) is True
    assert hip_lt.unread_with_torch(Version("2.3.1")) is False
    assert hip_lt.unread_with_torch(None) is None
    assert env_vars.is_read_by_runtime("ROCBLAS_USE_HIPBLASLT") is True


def test_read_by_torch_only_for_pytorch_variables() -> None:
    bad = {"variables": [{"name": "X", "meaning": "m", "read_by": "rocr", "read_by_torch": "<2.5", "runtime_reads": True,
                          "platforms": [], "values": "v", "source": "https://x.example"}]}
    with pytest.raises(InputError, match=r"read_by_torch"):
        env_vars.EnvVarTable.from_data(bad)
