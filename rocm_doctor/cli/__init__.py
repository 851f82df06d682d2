"""The ``rocm-doctor`` command line (typer + rich).

``rocm-doctor --version`` answers before typer, rich and the command modules are imported. This module
imports nothing but ``gc`` and ``sys`` before :func:`main` stops the collector: in a fresh virtual
environment (no ``.pth`` file imports ``typing`` first) importing ``typing`` here made four collections
during start-up.
"""

from __future__ import annotations

import gc
import sys


def main() -> None:
    """Console-script entry point."""
    if sys.argv[1:] == ["--version"]:
        from rocm_doctor import __version__

        sys.stdout.write(f"rocm-doctor {__version__}\n")
        sys.exit(0)
    # Start-up imports build tens of thousands of objects that live as long as the process (modules,
    # pydantic schemas); the cyclic collector walking them again and again was a tenth of
    # `check --no-torch`. Collect nothing while the command's modules load, then freeze what they
    # built (never collected, never walked) and collect the command's own garbage as usual.
    gc.disable()
    from rocm_doctor.cli.app import main as run

    run(after_start_up=_settle_start_up_heap)


def _settle_start_up_heap() -> None:
    gc.freeze()
    gc.enable()


def __getattr__(name: str) -> object:
    if name == "app":
        from rocm_doctor.cli.app import app

        return app
    raise AttributeError(name)


__all__ = ["app", "main"]
