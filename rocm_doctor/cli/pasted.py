"""Loading facts for a command, saying which pieces of a pasted report (``--from``) were recognised."""

from __future__ import annotations

from rocm_doctor.cli.app import stderr_console
from rocm_doctor.cli.inputs import FactsSource, load_facts, within_limits
from rocm_doctor.facts.model import Facts


def load_facts_noting_pieces(source: FactsSource, quiet: bool = False, conflicts: bool = False) -> Facts:
    """:func:`load_facts`; for ``--from`` also print the recognised pieces on stderr and,
    with ``conflicts``, the readings of one fact that disagreed and which one was kept (by trust)."""
    if source.from_file is None or source.machine is not None or source.facts_file is not None:
        return load_facts(source)
    from rocm_doctor.ingest import ingest_report_file, render_conflicts, render_pieces

    ingested = ingest_report_file(source.from_file)
    if not quiet:
        lines = ["Recognised in the report:"] + ["  " + line for line in render_pieces(ingested)]
        if conflicts and ingested.conflicts:
            lines += ["Readings that disagreed (the more trusted one is kept):"] + ["  " + l for l in render_conflicts(ingested)]
        stderr_console().print("\n".join(lines), markup=False, highlight=False)
    return within_limits(ingested.facts, source)
