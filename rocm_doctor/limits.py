"""The limits on every input rocm-doctor reads, each with a name that its error message prints.

Input is checked against these before any work is done on it, so a hostile or broken
file ends in exit code 2 and one line naming the limit, never in a crash, a hang or a
machine out of memory. ``docs/limits.md`` lists them all (a test keeps the two in step).
The limits inside the paste reader (lines read per shape, matches per line) are in ``docs/reading.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rocm_doctor.errors import InputError

MiB = 1024 * 1024


@dataclass(frozen=True)
class Limit:
    """One named limit: ``yaml.max_depth = 64``."""

    name: str
    value: int
    unit: str = ""

    def __str__(self) -> str:
        if self.unit == "bytes" and self.value % MiB == 0:
            return f"{self.name} = {self.value // MiB} MiB"
        return f"{self.name} = {self.value:,} {self.unit}"


class LimitError(InputError):
    """Input over one of the limits; the message names the input and the limit."""

    def __init__(self, what: str, problem: str, limit: Limit) -> None:
        super().__init__(f"{what}: {problem} (limit {limit})")
        self.limit = limit


# -- documents: rule files, data tables, recorded machines, facts files ----------------------------
YAML_BYTES = Limit("yaml.max_bytes", 16 * MiB, "bytes")
"""A rule file, data table, ``machine.yaml`` or ``commands.yaml``."""
YAML_DEPTH = Limit("yaml.max_depth", 64, "levels")
"""Nested mappings and lists (the shipped rules use 10); checked on the event stream, before the loader."""
YAML_NODES = Limit("yaml.max_nodes", 500_000, "nodes")
"""Scalars and collections, counted with every alias expanded (a billion-laughs file is refused)."""
INTEGER_DIGITS = Limit("number.max_digits", 100, "digits")
"""An integer literal in YAML or JSON (a byte count needs 20)."""
MATCH_CHARS = Limit("rules.max_match_chars", 4096, "characters")
"""How much of a fact's value a rule's ``matches`` regular expression searches."""
JSON_BYTES = Limit("json.max_bytes", 16 * MiB, "bytes")
"""A ``--facts`` file, and each node file ``fleet`` reads (one over it is skipped with the reason)."""
JSON_DEPTH = Limit("json.max_depth", 64, "levels")
"""Nested objects and arrays in a ``--facts`` file, a ``fleet`` node file or a benchmark protocol line."""

# -- pasted reports (check --from, report --from) -------------------------------------------------
PASTE_BYTES = Limit("paste.max_bytes", 20 * MiB, "bytes")
"""A pasted report, from a file or stdin."""
PASTE_LINES = Limit("paste.max_lines", 500_000, "lines")
"""Lines of a pasted report (a 20 MiB training log of 80-character lines has 260,000)."""
PASTE_WAIT = Limit("paste.max_wait_seconds", 30, "s")
"""How long a paste given as a pipe or FIFO (``--from <(dmesg)``) may take to reach its end, a FIFO's
wait for its writer included."""

# -- facts, wherever they come from (checked before rules judge them) ------------------------------
FACTS_GPUS = Limit("facts.max_gpus", 128, "GPU agents")
"""GPU agents in one snapshot (8 MI300X in CPX mode show 64)."""
FACTS_ENTRIES = Limit("facts.max_entries", 10_000, "entries")
"""Items of one list or mapping fact (installed packages, environment variables, benchmark results)."""
FACTS_TEXT = Limit("facts.max_text", 65_536, "characters")
"""One text fact (a kernel command line, a path, a reason)."""
FACT_FILE_BYTES = Limit("facts.max_file_bytes", 8 * MiB, "bytes")
"""Bytes read from one file for facts, on the live machine or a recorded one (a wheel's ``RECORD``
is the largest: torch's is about 2 MiB); each read asks for less (a ``/proc`` file 1 MiB, a package's
``METADATA`` its header) and is cut there."""
TORCH_VERSION_PY_BYTES = Limit("torch.max_version_py_bytes", 64 * 1024, "bytes")
"""``torch/version.py`` (torch 2.x's is under 1 KB); a larger one is a failed fact with the reason.
It is read statement by statement, so even this much never becomes one large syntax tree."""

# -- recorded machine folders (--machine) --------------------------------------------------------
MACHINE_ENTRIES = Limit("machine.max_entries", 100_000, "files and folders")
"""Entries under a recorded machine folder."""
FOLDER_DEPTH = Limit("folder.max_depth", 64, "levels")
"""Folders nested under a recorded machine folder or a folder ``fleet`` reads
(``files/sys/class/kfd/kfd/topology/nodes/1/mem_banks/0`` is 10)."""

# -- files rocm-doctor merges into ---------------------------------------------------------------
EDIT_BYTES = Limit("edit.max_bytes", 16 * MiB, "bytes")
"""An env file or Dockerfile that ``fix --write-env`` / ``dockerfile -o`` merges into or replaces."""
EDIT_LINES = Limit("edit.max_lines", 100_000, "lines")
"""Lines of an env file that ``fix --write-env`` merges into (a long ``.bashrc`` has a few thousand)."""
REQUIREMENTS_BYTES = Limit("requirements.max_bytes", 16 * MiB, "bytes")
"""A ``fix --requirements`` file."""
REQUIREMENTS_LINES = Limit("requirements.max_lines", 50_000, "lines")
"""Lines of a ``fix --requirements`` file and the files it includes with ``-r``/``-c``, together."""
REQUIREMENTS_DEPTH = Limit("requirements.max_include_depth", 16, "levels")
"""How deeply ``-r`` includes nest below a ``fix --requirements`` file. pip itself sets no limit
(a long chain ends in its RecursionError); real projects nest two or three levels
(``requirements/dev.txt`` including ``base.txt``), so 16 is generous and a chain of 1,000
files is refused with a clear line instead of a crash."""

# -- child processes (gathering commands, the torch probe, benchmarks, fix --apply) ---------------
CHILD_OUTPUT_BYTES = Limit("child.max_output_bytes", 8 * MiB, "bytes")
"""Output kept per stream of one command; the rest is counted, dropped and noted."""
CHILD_LINE_BYTES = Limit("child.max_line_bytes", 64 * 1024, "bytes")
"""One line of a benchmark worker or of pip under ``fix --apply``; a longer line is cut with a note."""
CHILD_EXIT_GRACE = Limit("child.exit_grace_seconds", 1, "s")
"""How long output is still read after a command exits while something it started holds the pipe."""
BENCH_NOISE_LINES = Limit("bench.max_noise_lines", 50, "lines")
"""Non-protocol lines a benchmark run keeps (each cut to 200 characters); the rest are counted."""

# -- rule-database updates (rules update) ---------------------------------------------------------
UPDATE_INDEX_BYTES = Limit("update.max_index_bytes", 64 * 1024, "bytes")
"""The index document ``rules update`` fetches first (a few hundred bytes)."""
UPDATE_BUNDLE_BYTES = Limit("update.max_bundle_bytes", 16 * MiB, "bytes")
"""The compressed bundle the index names (today's database packs to under 200 KiB)."""
UPDATE_UNPACKED_BYTES = Limit("update.max_unpacked_bytes", 64 * MiB, "bytes")
"""Every file in a bundle together, as unpacked (a compression bomb is refused at the entry that crosses it)."""
UPDATE_FILES = Limit("update.max_files", 2_000, "entries")
"""Entries in a bundle (today's database has about 30 files)."""
UPDATE_SECONDS = Limit("update.max_seconds", 60, "s")
"""How long each download may take in all, redirects included (``rules update --timeout`` lowers it)."""

# -- baselines (baseline save, diff, fix --to) ----------------------------------------------------
BASELINE_BYTES = Limit("baseline.max_bytes", 16 * MiB, "bytes")
"""A stored baseline read back (redacted facts, findings and benchmark figures: a few hundred KiB)."""
BASELINE_COUNT = Limit("baseline.max_count", 1_000, "baselines")
"""Baselines ``baseline list`` and ``diff``'s benchmark history read (restore points accumulate)."""

ALL = (
    YAML_BYTES, YAML_DEPTH, YAML_NODES, INTEGER_DIGITS, MATCH_CHARS, JSON_BYTES, JSON_DEPTH,
    PASTE_BYTES, PASTE_LINES, PASTE_WAIT, FACTS_GPUS, FACTS_ENTRIES, FACTS_TEXT, FACT_FILE_BYTES, TORCH_VERSION_PY_BYTES,
    MACHINE_ENTRIES, FOLDER_DEPTH,
    EDIT_BYTES, EDIT_LINES, REQUIREMENTS_BYTES, REQUIREMENTS_LINES, REQUIREMENTS_DEPTH,
    CHILD_OUTPUT_BYTES, CHILD_LINE_BYTES, CHILD_EXIT_GRACE, BENCH_NOISE_LINES,
    UPDATE_INDEX_BYTES, UPDATE_BUNDLE_BYTES, UPDATE_UNPACKED_BYTES, UPDATE_FILES, UPDATE_SECONDS,
    BASELINE_BYTES, BASELINE_COUNT,
)
"""Every limit, in the order ``docs/limits.md`` lists them."""
