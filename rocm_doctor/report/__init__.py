"""``rocm-doctor report``: a markdown bug-report bundle, redacted by default."""
