"""Launchers that manage GPU visibility themselves: Ray on AMD nodes.

Ray 2.45 and later select AMD GPUs with HIP_VISIBLE_DEVICES, raise "Please use HIP_VISIBLE_DEVICES
instead of ROCR_VISIBLE_DEVICES" when ROCR_VISIBLE_DEVICES is set, and assert that CUDA_VISIBLE_DEVICES
equals HIP_VISIBLE_DEVICES (ray-project/ray#51104, #52701, #53737).
"""

from __future__ import annotations

from typing import Dict

from packaging.version import InvalidVersion, Version

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import ids_shown
from rocm_doctor.judge.derived_facts.env import with_env
RAY_REFUSES_ROCR = Version("2.45")
"""Ray's AMD accelerator manager raises when ROCR_VISIBLE_DEVICES is set from 2.45 on
(ray-project/ray#51104; amd_gpu.py at https://github.com/ray-project/ray/blob/008e15e9d62fe09bcd0a2f31990a1b73f1b2bd69/python/ray/_private/accelerators/amd_gpu.py)."""


@machine_fact(
    "ray_beside_rocr_visible_devices",
    "The report runs Ray (context ray_named) and its environment sets ROCR_VISIBLE_DEVICES, which Ray 2.45 "
    "and later refuse on AMD nodes (they select GPUs with HIP_VISIBLE_DEVICES); the value is "
    "'ROCR_VISIBLE_DEVICES=<value>'. Absent when the installed Ray is known to be older, when "
    "HIP_VISIBLE_DEVICES is also set (ray-project/ray#53757 lets that through) and the report shows no failure "
    "(no error signature, no Python traceback), or either is missing.",
)
def ray_beside_rocr_visible_devices(facts: Facts, tables: Tables) -> Fact:
    context = ids_shown(facts.symptoms.context)
    if "ray_named" not in context:
        return absent(facts.symptoms.context.source or "paste", "the report does not run Ray")
    installed = facts.packages.installed.value if facts.packages.installed.is_known else None
    ray_version = (installed or {}).get("ray")
    if ray_version:
        try:
            if Version(str(ray_version)) < RAY_REFUSES_ROCR:
                return absent(facts.packages.installed.source or "packages", f"ray {ray_version} predates the check")
        except InvalidVersion:
            pass

    signatures = ids_shown(facts.symptoms.signatures)
    failed = bool(signatures) or "python_traceback_shown" in context

    def compute(env: Dict[str, str]) -> Fact:
        value = env.get("ROCR_VISIBLE_DEVICES")
        if value is None:
            return absent("env", "ROCR_VISIBLE_DEVICES is not set")
        if env.get("HIP_VISIBLE_DEVICES") is not None and not failed:
            # ray-project/ray#53757 ignores ROCR_VISIBLE_DEVICES when HIP_VISIBLE_DEVICES is set, and the
            # Ray release is rarely shown: with both set, only a report that shows a failure (ray#53737) speaks.
            return absent("env", "HIP_VISIBLE_DEVICES is also set, which later Ray releases accept (ray#53757), and nothing failed")
        return known(f"ROCR_VISIBLE_DEVICES={value}", "env")

    # The report's settings together, not each program's environment (env60): a command prefix does not say which
    # command runs Ray ("ROCR_VISIBLE_DEVICES=0 ollama serve" beside "HIP_VISIBLE_DEVICES=1 python train_ray.py"), so
    # judged per program the ollama server's ROCR_VISIBLE_DEVICES would be read as Ray's.
    return with_env(facts, compute, needs=("ROCR_VISIBLE_DEVICES",))
