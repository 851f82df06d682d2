"""One node's verdict for machines (``rocm-doctor health``).

* :mod:`.bounded`: gathering under a wall-clock budget; a gatherer that hangs costs only
  its own section, which becomes failed facts naming the budget;
* :mod:`.verdict`: the most severe finding's action class, the one-line message and the
  exit code (documented in README.md and docs/rules.md).
"""
