"""Fixtures for the engine's tests (defined in judge_helpers)."""

from __future__ import annotations

from judge_helpers import make_facts  # noqa: F401
