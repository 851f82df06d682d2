"""A traceback cut on the line of amdsmi_wrapper.py that binds a libamd_smi function: the package and the library
are from different ROCm releases (read as amdsmi_binding_frame_failed, judged by RD780)."""

from __future__ import annotations

import pytest
from ingest_helpers import block

from rocm_doctor.ingest.signatures import match_block

SIGNATURE = "amdsmi_binding_frame_failed"
FRAME = '  File "{path}/site-packages/amdsmi/amdsmi_wrapper.py", line 2178, in <module>\n'


def _ids(text: str) -> list:
    return [p.kind.split(":", 1)[1] for p in match_block(block(text)) if p.kind.startswith("error:")]


@pytest.mark.parametrize(
    "binding",
    [
        "    amdsmi_reset_gpu_compute_partition = _l",
        "    amdsmi_reset_gpu_compute_partition = _l[...]",
        "    amdsmi_get_gpu_partition_metrics_info = _libraries['libamd_smi.so'].amdsmi_get_gpu_partition_metrics_info",
    ],
)
def test_a_traceback_cut_on_a_binding_line_of_the_wrapper_is_read(binding: str) -> None:
    for path in ("/home/u/venv/lib/python3.12", "C:\\Users\\Some One\\venv\\Lib"):
        text = "Traceback (most recent call last):\n" + FRAME.format(path=path) + binding + "\n"
        assert SIGNATURE in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        # the binding line without the wrapper's frame (a source listing, a diff)
        "    amdsmi_reset_gpu_compute_partition = _libraries['libamd_smi.so'].amdsmi_reset_gpu_compute_partition\n",
        # the wrapper's frame on the line that loads the library: the library itself did not load
        FRAME.format(path="/venv/lib/python3.12") + "    _libraries['libamd_smi.so'] = ctypes.CDLL(find_smi_library())\n",
        # another module's frame on a binding-like line
        '  File "/venv/lib/python3.12/site-packages/app/smi.py", line 12, in <module>\n    amdsmi_version = _lookup()\n',
    ],
)
def test_other_lines_of_an_amdsmi_traceback_are_not_read_as_a_binding_failure(text: str) -> None:
    assert SIGNATURE not in _ids(text)
