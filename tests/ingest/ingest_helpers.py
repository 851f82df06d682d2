"""Shared helpers of the ingest tests."""

from __future__ import annotations

from typing import Any, Dict, List, Set, Tuple

from rocm_doctor.ingest import IngestResult, ingest_text
from rocm_doctor.ingest.blocks import Block, split_blocks
from rocm_doctor.ingest.model import Piece


def block(text: str) -> Block:
    """The first block of ``text``."""
    return split_blocks(text)[0]


def values(pieces: List[Piece]) -> Dict[str, Any]:
    """path -> value of every observation (later ones win)."""
    return {o.path: o.value for p in pieces for o in p.observations}


def gpu(result: IngestResult, index: int = 0) -> Dict[str, Any]:
    """The known fields of one GPU agent."""
    agent = result.facts.gpus.agents[index]
    return {k: getattr(agent, k).value for k in type(agent).model_fields if k not in ("index", "source") and getattr(agent, k).is_known}


def ingest(text: str) -> IngestResult:
    return ingest_text(text, origin_detail="test")


def signature_errors(text: str) -> List[str]:
    """The error signature ids the first block of ``text`` matches."""
    from rocm_doctor.ingest.signatures import match_block

    return [p.kind.split(":", 1)[1] for p in match_block(block(text)) if p.kind.startswith("error:")]


def signature_contexts(text: str) -> Set[str]:
    """The context signature ids the first block of ``text`` matches."""
    from rocm_doctor.ingest.signatures import match_block

    return {p.kind.split(":", 1)[1] for p in match_block(block(text)) if p.kind.startswith("context:")}


def problems_shown(text: str) -> List[str]:
    """Rule ids of the error and warning findings of ``text`` as a report, in the order a maintainer reads them."""
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    findings = evaluate(load_rules([], use_env=False), ingest(text).facts).findings
    return [f.id for f in findings if f.severity in ("error", "warning")]


def report_contexts(text: str) -> List[str]:
    """The context signature ids the whole report's facts hold (symptoms.context, after assembly)."""
    found = ingest(text).facts.symptoms.context
    return list(found.value or []) if found.is_known else []


def serious_findings(text: str) -> List[Tuple[str, str, str]]:
    """(rule id, severity, category) of the error and warning findings of ``text`` as a report."""
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    findings = evaluate(load_rules([], use_env=False), ingest(text).facts).findings
    return [(f.id, f.severity, f.category) for f in findings if f.severity in ("error", "warning")]
