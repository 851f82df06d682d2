"""Loading facts for a command, saying which pieces of a pasted report (``--from``) were recognised."""

from __future__ import annotations

from rocm_doctor.cli.app import stderr_console
from rocm_doctor.cli.inputs import FactsSource, load_facts, within_limits
from rocm_doctor.facts.model import Facts


def load_facts_noting_pieces(source: FactsSource, quiet: bool = False) -> Facts:
    """:func:`load_facts`; for ``--from`` also print the recognised pieces on stderr (issue 6)."""
    if source.from_file is None or source.machine is not None or source.facts_file is not None:
        return load_facts(source)
    from rocm_doctor.ingest import ingest_report_file, render_pieces

    ingested = ingest_report_file(source.from_file)
    if not quiet:
        stderr_console().print(
            "Recognised in the report:\n  " + "\n  ".join(render_pieces(ingested)), markup=False, highlight=False
        )
    return within_limits(ingested.facts, source)
