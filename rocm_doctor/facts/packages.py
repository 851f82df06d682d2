"""Every distribution installed in the target environment (canonical name -> version)."""

from __future__ import annotations

from rocm_doctor.facts.distributions import scan_distributions, target_site_dirs
from rocm_doctor.facts.context import GatherContext
from rocm_doctor.facts.model import PackagesFacts
from rocm_doctor.facts.value import failed, known


def gather_packages(ctx: GatherContext) -> PackagesFacts:
    """Read the dist-info / egg-info entries of the target's site directories."""
    dirs = target_site_dirs(ctx.sections)
    if not dirs.is_known:
        return PackagesFacts(installed=dirs)
    source = ", ".join(dirs.value or []) or "site-packages"
    scan = scan_distributions(ctx.system, dirs.value or [])
    if scan.readable_dirs == 0 and scan.problems:
        return PackagesFacts(installed=failed(source, "; ".join(scan.problems)))
    installed = {name: dist.version for name, dist in sorted(scan.found.items())}
    fact = known(installed, source)
    if scan.problems:
        fact = fact.model_copy(update={"reason": "partly read: " + "; ".join(scan.problems[:3])})
    # every dist-info of the site directories was read: a name missing from them is not installed
    return PackagesFacts(installed=fact, complete=known(True, source))
