"""Loading facts for a command, saying which pieces of a pasted report (``--from``) were recognised,
and what is being read while a live machine is gathered (the torch probe can take up to its timeout)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator, Optional

from rich.console import Console

from rocm_doctor.cli.app import stderr_console
from rocm_doctor.cli.inputs import FactsSource, ingest_paste, load_facts, within_limits
from rocm_doctor.facts.model import Facts
from rocm_doctor.render.safe import can_encode

SECTION_WORDS = {
    "host": "the operating system",
    "python": "the target interpreter",
    "cpu": "the CPU",
    "gpus": "the GPUs",
    "driver": "the kernel driver",
    "rocm": "the ROCm install",
    "windows": "the Windows HIP runtime",
    "packages": "the installed packages",
    "env": "the environment",
    "permissions": "the device permissions",
}
"""What the spinner says while a section is gathered; ``torch`` gets its own line (it waits for a child)."""


@contextmanager
def gathering_status(console: Console, source: FactsSource) -> Iterator[Optional[Callable[[str], None]]]:
    """A spinner on ``console`` naming the section being read, only on a terminal (piped: nothing).

    Yields the progress callback for :func:`~rocm_doctor.facts.gather.gather`, or None when
    nothing is shown.
    """
    if not console.is_terminal:
        yield None
        return
    torch_line = (
        f"Starting torch in the target interpreter (up to {source.timeout:g} s) ..."
        if not source.no_torch else "Reading what torch's files say ..."
    )
    # braille dots where the stream can encode them; a cp1252 console gets ASCII (- / | and a backslash)
    spinner = "dots" if can_encode(console.encoding, "⠋") else "line"
    with console.status("Reading this machine ...", spinner=spinner) as status:
        yield lambda section: status.update(
            torch_line if section == "torch" else f"Reading {SECTION_WORDS.get(section, section)} ..."
        )


def load_facts_noting_pieces(source: FactsSource, quiet: bool = False, conflicts: bool = False) -> Facts:
    """:func:`load_facts`; for ``--from`` also print the recognised pieces on stderr and,
    with ``conflicts``, the readings of one fact that disagreed and which one was kept (by trust).

    A live gathering shows a spinner on a terminal's stderr unless ``quiet``."""
    if source.from_file is None or source.machine is not None or source.facts_file is not None:
        if quiet or not source.is_live:
            return load_facts(source)
        with gathering_status(stderr_console(), source) as progress:
            return load_facts(source, progress)
    from rocm_doctor.ingest import render_conflicts, render_pieces

    ingested = ingest_paste(source.from_file)
    if not quiet:
        lines = ["Recognised in the report:"] + ["  " + line for line in render_pieces(ingested)]
        if conflicts and ingested.conflicts:
            lines += ["Readings that disagreed (the more trusted one is kept):"] + ["  " + l for l in render_conflicts(ingested)]
        stderr_console().print("\n".join(lines), markup=False, highlight=False)
    return within_limits(ingested.facts, source)
