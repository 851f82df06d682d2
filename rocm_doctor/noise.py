"""The noise model for benchmark figures: median and median absolute deviation (MAD).

A figure is far below a set of earlier or peer figures when it is at most :data:`MAX_RATIO` of
their median *and* its robust z-score (0.6745 x (value - median) / MAD, Iglewicz and Hoaglin) is
below :data:`MIN_Z`; with fewer than :data:`MIN_PEERS` figures nothing is judged. ``fleet`` asks it
of a node against its peers, ``diff`` of a run against the machine's earlier runs.
"""

from __future__ import annotations

import statistics
from typing import Sequence, Tuple

MIN_PEERS = 5
"""Figures that must have been measured before any one of them is judged."""
MAX_RATIO = 0.75
"""Far below is at most this fraction of the median ..."""
MIN_Z = -3.5
"""... and this far below it in robust z-score (the usual cut-off for the modified z-score)."""


def median_mad(values: Sequence[float]) -> Tuple[float, float]:
    """The median of ``values`` and their median absolute deviation."""
    median = statistics.median(values)
    return median, statistics.median(abs(v - median) for v in values)


def far_below(value: float, median: float, mad: float) -> bool:
    """``value`` is at most :data:`MAX_RATIO` of ``median`` and below it by a robust z-score under :data:`MIN_Z`."""
    if median <= 0:
        return False
    z = 0.6745 * (value - median) / mad if mad > 0 else (float("-inf") if value < median else 0.0)
    return value / median <= MAX_RATIO and z < MIN_Z
