"""The ``rocm-doctor`` command line (typer + rich)."""

from __future__ import annotations

from rocm_doctor.cli.app import app, main

__all__ = ["app", "main"]
