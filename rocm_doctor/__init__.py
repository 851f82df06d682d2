"""rocm-doctor: see a ROCm + PyTorch machine truthfully, judge it, and fix it."""

__version__ = "0.1.0"
