"""The target interpreter's self-description script and command line, with no imports of rocm-doctor's own.

Kept apart so the CLI can start it before it imports anything heavy (:mod:`rocm_doctor.cli.early`);
:mod:`rocm_doctor.facts.python_env` reads its output.
"""

from __future__ import annotations

from typing import List

LABEL = "python-info"


PYTHON_INFO_SCRIPT = r"""
import json, os, platform, site, sys, sysconfig

def _user_site_enabled():
    # -I disables the user site in this child; report what a normal run would do.
    if os.environ.get("PYTHONNOUSERSITE"):
        return False
    if sys.prefix != sys.base_prefix:
        cfg = os.path.join(sys.prefix, "pyvenv.cfg")
        try:
            with open(cfg, encoding="utf-8") as handle:
                for line in handle:
                    key, _, value = line.partition("=")
                    if key.strip() == "include-system-site-packages":
                        return value.strip().lower() == "true"
        except OSError:
            pass
        return False
    return True

dirs = []
paths = sysconfig.get_paths()
candidates = [paths.get("purelib"), paths.get("platlib")]
try:
    candidates += site.getsitepackages()
except AttributeError:
    pass
user_site = None
try:
    user_site = site.getusersitepackages()
except AttributeError:
    pass
if user_site and _user_site_enabled():
    candidates.append(user_site)
for entry in candidates:
    if entry and os.path.isdir(entry) and entry not in dirs:
        dirs.append(entry)
print(json.dumps({
    "executable": sys.executable,
    "version": platform.python_version(),
    "implementation": platform.python_implementation(),
    "prefix": sys.prefix,
    "base_prefix": sys.base_prefix,
    "site_packages": dirs,
    "user_site": user_site,
    "conda_prefix": os.environ.get("CONDA_PREFIX"),
    "conda_default_env": os.environ.get("CONDA_DEFAULT_ENV"),
    "virtual_env": os.environ.get("VIRTUAL_ENV"),
    "is_conda": os.path.isdir(os.path.join(sys.prefix, "conda-meta")),
    "platform": sysconfig.get_platform(),
}))
"""


def info_argv(python: str) -> List[str]:
    """The command that runs the script in the target interpreter (isolated mode: no user site, no cwd)."""
    return [python, "-I", "-c", PYTHON_INFO_SCRIPT]


def info_timeout(command_timeout: float, torch_timeout: float) -> float:
    """``--timeout`` bounds everything the target interpreter runs, its inspection included."""
    return min(command_timeout, torch_timeout)
