"""What rocm-doctor knows about wheels, ROCm releases and gfx overrides, over ``rules/data``.

Pure functions over the data tables (no machine access), shared by the rules' derived
facts (:mod:`rocm_doctor.judge.derived_facts`) and the fix planner:

* :mod:`rocm_doctor.knowledge.torch_wheels` -- PyTorch releases, their ROCm variants,
  Python versions and compiled-in gfx targets (``rules/data/torch_wheels.yaml``);
* :mod:`rocm_doctor.knowledge.rocm_support` -- ROCm release -> supported gfx per platform
  (``rules/data/rocm_support.yaml``);
* :mod:`rocm_doctor.knowledge.overrides` -- ``HSA_OVERRIDE_GFX_VERSION`` parsing, validity and
  the override to recommend (``rules/data/gfx_overrides.yaml``);
* :mod:`rocm_doctor.knowledge.env_vars` -- environment variables and whether the runtime reads them.
"""
