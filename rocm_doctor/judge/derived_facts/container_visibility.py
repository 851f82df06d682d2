"""A visibility variable that names a host GPU index inside a container given one GPU.

libhsakmt skips a GPU node whose render node it cannot open (topology_sysfs_check_node_supported,
https://github.com/ROCm/ROCT-Thunk-Interface/blob/rocm-6.2.4/src/topology.c), so a container started
with one ``/dev/dri/renderD<N>`` sees one GPU, numbered 0 by ROCR_VISIBLE_DEVICES and by HIP's
HIP_/CUDA_VISIBLE_DEVICES alike (rocclr/utils/flags.hpp,
https://github.com/ROCm/clr/blob/rocm-6.2.2/rocclr/utils/flags.hpp). An index of 1 or more, often the
GPU's index on the host, then names no device. Reports of the construct: ollama/ollama#5766 (AMD),
selkies-project/docker-selkies-glx-desktop#65 and NVIDIA/enroot#207 (host indices kept inside a
container that renumbers its GPUs from 0).
"""

from __future__ import annotations

from typing import List

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import when_context_says
from rocm_doctor.judge.derived_facts.devices import VISIBILITY_VARS
from rocm_doctor.numbers import small_int

ONE_RENDER_NODE = "container_given_one_render_node"
"""Context of rocm_doctor/ingest/formats/container_devices.py: a copy, since judging a live machine imports no
ingest (tests/test_startup.py)."""
HOST_ONLY_ORIGINS = frozenset(("shell-rc", "systemd", "persistent", "setx", "powershell", "cmd-set"))
"""Where a setting cannot be the container's own: a host shell's startup file, a host service's unit,
Windows' own settings. A setting not in force for the reported error (``for_error`` False: an export in the
shell right before ``docker run`` that does not forward it, a command run after the error) is left out too."""


def _past_the_one_gpu(value: str) -> bool:
    indices = [small_int(token.strip()) for token in value.split(",") if token.strip()]
    return any(index is not None and index >= 1 for index in indices)


@machine_fact(
    "container_visibility_past_one_gpu",
    "'NAME=value' visibility settings (ROCR_/HIP_/CUDA_VISIBLE_DEVICES) with an index of 1 or more in a "
    "report whose container command passes exactly one /dev/dri/renderD node (not /dev/dri, not "
    "--privileged): inside, ROCm sees that one GPU as device 0, so the index names no device. Settings "
    "of a host's startup file or service, or of the shell that starts the container without forwarding them, are "
    "left out. Absent when there is none.",
)
def container_visibility_past_one_gpu(facts: Facts, tables: Tables) -> Fact:
    return when_context_says(facts, [ONE_RENDER_NODE], "no container command passes exactly one render node",
                             lambda _said, source: _past_one_gpu(facts, source))


def _past_one_gpu(facts: Facts, context_source: str) -> Fact:
    settings = facts.env.settings
    if not settings.is_known:
        return absent(settings.source or "paste", settings.reason or "the report shows no visibility setting")
    found: List[str] = sorted({
        f"{s.name}={s.value}"
        for s in settings.value or []
        if s.name in VISIBILITY_VARS and s.value is not None and s.origin not in HOST_ONLY_ORIGINS and s.for_error is not False
        and _past_the_one_gpu(s.value)
    })
    if not found:
        return absent(settings.source or "paste", "no visibility setting names an index past the container's one GPU")
    return known(found, f"{settings.source or 'paste'}; {context_source}")
