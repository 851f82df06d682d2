"""/proc and KFD content of any shape is bad input at worst: parsers and a whole ``ps`` never raise."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rocm_doctor.facts.parsers.proc import drm_bytes, drm_keys, kfd_vram_gpu_id, mapped_paths, uint_text
from rocm_doctor.facts.process_scan import scan_processes
from rocm_doctor.render.ps import ps_document
from rocm_doctor.system.recorded import RecordedSystem

LINES = st.lists(
    st.one_of(
        st.text(max_size=80),
        st.sampled_from([
            "7f0000000000-7f0000001000 r-xp 00000000 08:01 123 /opt/rocm/lib/libamdhip64.so.6",
            "7f0000000000-7f0000001000 r-xp 00000000 08:01 123 /x/torch/lib/libtorch_hip.so (deleted)",
            "7f0000000000-7f0000001000 r-xp 00000000 08:01 123",
            "drm-driver:\tamdgpu", "drm-memory-vram:\t12 KiB", "drm-memory-vram: x MiB", "drm-pdev: 0000:03:00.0",
            "vram_\u0661\u0662", "123\n", "\x00\x00",
        ]),
    ),
    max_size=30,
).map("\n".join)


@given(LINES)
def test_the_proc_parsers_take_any_text(text: str) -> None:
    for path in mapped_paths(text):
        assert path.startswith("/") or path[1] == ":"
    keys = drm_keys(text)
    assert all(k.startswith("drm-") for k in keys)
    for value in keys.values():
        size = drm_bytes(value)
        assert size is None or size >= 0
    assert uint_text(text) is None or uint_text(text) >= 0
    assert kfd_vram_gpu_id(text) is None or kfd_vram_gpu_id(text) >= 0


def _machine(folder: Path, maps: str, fdinfo: str, vram: str, environ: object) -> RecordedSystem:
    files = folder / "files"
    (files / "proc" / "4242" / "fdinfo").mkdir(parents=True)
    (files / "proc" / "4242" / "maps").write_text(maps, encoding="utf-8", errors="replace")
    (files / "proc" / "4242" / "fdinfo" / "5").write_text(fdinfo, encoding="utf-8", errors="replace")
    kfd = files / "sys" / "class" / "kfd" / "kfd"
    (kfd / "proc" / "4242").mkdir(parents=True)
    (kfd / "proc" / "4242" / "vram_2834").write_text(vram, encoding="utf-8", errors="replace")
    (kfd / "topology" / "nodes" / "1").mkdir(parents=True)
    (kfd / "topology" / "nodes" / "1" / "gpu_id").write_text(vram, encoding="utf-8", errors="replace")
    meta = {
        "platform": {"system": "Linux"},
        "identity": {"user": "user", "uid": 1000},
        "processes": [{"pid": 4242, "ppid": 1, "name": "python3", "user": "user", "uid": 1000,
                       "cmdline": ["python3", "train.py"], "age_seconds": 120.0, "environ": environ}],
    }
    (folder / "machine.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
    return RecordedSystem(folder)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES, LINES, st.text(max_size=30), st.dictionaries(st.text(min_size=1, max_size=10), st.text(max_size=10), max_size=4))
def test_ps_on_a_recorded_process_with_any_proc_content_never_raises(maps: str, fdinfo: str, vram: str, environ) -> None:
    folder = Path(tempfile.mkdtemp())
    try:
        machine = _machine(folder, maps, fdinfo, vram, environ)
        document = ps_document(scan_processes(machine))
        assert document.scanned == 1
        for row in document.processes:
            assert row.verdict in ("gpu", "cpu-only", "no-gpu-build", "mixed-runtimes", "unknown")
    finally:
        shutil.rmtree(folder)
