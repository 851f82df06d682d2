"""A paste that tells a story: two or more complete states of a machine in one paste (``rocm-doctor
report`` files, ``facts --json`` or ``check --json`` documents pasted one after the other, as an
issue thread collects them: "this worked", then "this is after the update").

The states are the complete facts documents the paste reader finds, in the order they appear; when
every one says when it was gathered, in that order instead. The first is "before", the last "after".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Sequence, Tuple

from rocm_doctor.facts.model import Facts

if TYPE_CHECKING:
    from rocm_doctor.diff.model import DiffResult
    from rocm_doctor.model.rules import Rule


def states_in_paste(text: str) -> List[Facts]:
    """The complete facts documents in ``text``, in the order they appear (one pass over its blocks)."""
    # ingest is imported only when a paste is read (start-up: docs/architecture.md)
    from rocm_doctor.ingest.blocks import split_blocks
    from rocm_doctor.ingest.formats import json_docs

    return [piece.facts for block in split_blocks(text) for piece in json_docs.parse(block) if piece.facts is not None]


def before_and_after(states: List[Facts]) -> Optional[Tuple[Facts, Facts]]:
    """(first state, last state), by the time each was gathered when all say it, else by position; None for fewer than two."""
    if len(states) < 2:
        return None
    ordered = list(states)
    if all(s.meta.gathered_at for s in states):
        ordered.sort(key=lambda s: str(s.meta.gathered_at))
    return ordered[0], ordered[-1]


def story_of_paste(path_or_dash: str) -> Optional[Tuple[Facts, Facts]]:
    """The before and after states of a pasted report file (stdin cannot be read twice: None for ``-``)."""
    if path_or_dash == "-":
        return None
    from rocm_doctor.ingest import read_report

    return before_and_after(states_in_paste(read_report(path_or_dash)))


FIRST, LAST = "the paste's first state", "its last state"


def story_diff(pair: Tuple[Facts, Facts], rules: "Sequence[Rule]") -> "DiffResult":
    """What changed from the paste's first state to its last, with the findings each state has."""
    from rocm_doctor.diff.compare import diff
    from rocm_doctor.diff.model import FindingRef
    from rocm_doctor.pipeline import evaluate

    def refs(facts: Facts) -> List[FindingRef]:
        return [FindingRef(id=f.id, severity=f.severity, title=f.title, gpu=f.gpu) for f in evaluate(list(rules), facts).findings]

    before, after = pair
    return diff(before, after, refs(before), refs(after))
