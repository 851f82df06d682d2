"""The ``rocm-doctor`` command line (typer + rich).

``rocm-doctor --version`` answers before typer, rich and the command modules are imported.
"""

from __future__ import annotations

import sys
from typing import Any


def main() -> None:
    """Console-script entry point."""
    if sys.argv[1:] == ["--version"]:
        from rocm_doctor import __version__

        sys.stdout.write(f"rocm-doctor {__version__}\n")
        sys.exit(0)
    from rocm_doctor.cli.app import main as run

    run()


def __getattr__(name: str) -> Any:
    if name == "app":
        from rocm_doctor.cli.app import app

        return app
    raise AttributeError(name)


__all__ = ["app", "main"]
