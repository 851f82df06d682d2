"""Make the ingest test helpers importable."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cli_runner import run_cli  # noqa: F401,E402
