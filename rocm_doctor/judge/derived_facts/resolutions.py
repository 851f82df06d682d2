"""Derived facts: what the reporter says fixed the problem (symptoms.resolutions), as one finding category.

The reader (rocm_doctor/ingest/formats/resolutions.py) keeps each resolution statement as
``<row id>: <the sentence>``; the row's category and meaning are in rules/data/resolution_statements.yaml.
A report that states fixes of two categories ("adding my user to the render group and setting
HSA_OVERRIDE_GFX_VERSION fixed it") does not say which of them was the cause: the category is then unknown.
"""

from __future__ import annotations

from typing import Dict, List, Tuple

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import carry

TABLE = "resolution_statements"
SOURCE = "rules/data/resolution_statements.yaml"


def _rows(tables: Tables) -> Dict[str, Dict[str, str]]:
    return {str(row["id"]): row for row in (tables[TABLE] or {}).get("changes") or [] if isinstance(row, dict) and row.get("id")}


def _statements(facts: Facts, tables: Tables) -> Tuple[List[Tuple[Dict[str, str], str]], Fact]:
    """(row, sentence) of each statement whose row the table knows, and the fact to return when there are none."""
    said = facts.symptoms.resolutions
    if not said.is_known:
        return [], carry(said, "symptoms.resolutions")
    rows = _rows(tables)
    out = []
    for entry in said.value or []:
        row_id, _, sentence = str(entry).partition(": ")
        if row_id in rows:
            out.append((rows[row_id], sentence))
    return out, absent(said.source or "paste", "the report states no resolution the table knows")


@machine_fact(
    "resolution_category",
    "The finding category of what the report says fixed the problem or was its cause (symptoms.resolutions, "
    "each statement's row in rules/data/resolution_statements.yaml) when every statement agrees; unknown when "
    "they name changes of different categories; absent when the report states none.",
)
def resolution_category(facts: Facts, tables: Tables) -> Fact:
    statements, none = _statements(facts, tables)
    if not statements:
        return none
    categories = sorted({str(row["category"]) for row, _ in statements})
    if len(categories) > 1:
        return unknown(f"the report says changes of different kinds fixed it ({', '.join(categories)}): which one was the cause it does not say")
    return known(categories[0], f"{facts.symptoms.resolutions.source or 'paste'}; {SOURCE}")


@machine_fact(
    "resolution_said",
    "What the report says fixed the problem, quoted, with what the change is (the row's meaning in "
    "rules/data/resolution_statements.yaml): '\"<sentence>\" (<meaning>)', statements joined by '; '. Known "
    "only when derived.resolution_category is.",
)
def resolution_said(facts: Facts, tables: Tables) -> Fact:
    category = resolution_category(facts, tables)
    if not category.is_known:
        return category
    statements, _ = _statements(facts, tables)
    quoted = list(dict.fromkeys(f"\"{sentence}\" ({row['meaning']})" for row, sentence in statements))
    return known("; ".join(quoted), category.source or SOURCE)
