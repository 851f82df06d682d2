"""Every input channel, fuzzed at a CI-sized budget: the answer is always exit 0, 1 or 2, within seconds.

``benchmarks/fuzz_long.py`` runs the same strategies with thousands of examples per channel.
A failure found there or here becomes a regression case in the test of its channel.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from fuzz_channels import CHANNELS

EXAMPLES = {"from": 8, "rules": 12, "facts": 12, "machine": 6, "python": 6, "env": 25, "bench": 6, "secrets": 4}
"""Examples per channel in the suite (the whole file stays within a few seconds)."""


def _check(name: str, example) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        started = time.monotonic()
        code = CHANNELS[name].run(example, Path(scratch))
        assert code in (0, 1, 2)
        assert time.monotonic() - started < 20


@pytest.mark.skipif(os.name != "posix", reason="fake benchmark workers are shell scripts")
@pytest.mark.parametrize("name", sorted(CHANNELS))
def test_every_channel_answers_0_1_or_2_within_seconds(name: str) -> None:
    @settings(max_examples=EXAMPLES[name], deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(CHANNELS[name].strategy)
    def fuzz(example) -> None:
        _check(name, example)

    fuzz()
