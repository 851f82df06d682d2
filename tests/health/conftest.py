"""Fixtures: the in-process CLI runner shared with the other test folders."""

from __future__ import annotations

from cli_runner import run_cli  # noqa: F401
