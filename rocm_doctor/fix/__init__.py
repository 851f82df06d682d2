"""Act on a diagnosis: turn findings into a plan, env files, pip commands and Docker snippets.

The modules here are pure functions over findings and facts, except
:mod:`rocm_doctor.fix.envfile` (writes the file the user asked for),
:mod:`rocm_doctor.fix.index` (reads a package index over HTTP) and
:mod:`rocm_doctor.fix.installer` (runs pip after the user agreed).
"""
