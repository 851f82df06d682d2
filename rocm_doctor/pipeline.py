"""The one pipeline: gather -> derive -> judge -> decide -> render.

Every command that judges a machine (``check``, ``fix``, ``dockerfile``, ``docker-run``,
``report``, ``health``, ``fleet``) gets its facts (gather: a live or recorded machine, a pasted
report, a node file), then calls :func:`evaluate`, which runs the three middle stages in order,
then renders the :class:`~rocm_doctor.judge.report.CheckResult` it returns:

1. **derive** (:func:`derive`): the derived facts over the gathered facts, computed lazily and
   memoised (:class:`~rocm_doctor.judge.derived.DerivedValues`);
2. **judge** (:func:`rocm_doctor.judge.engine.judge`): every rule over the facts and derived
   values: findings, undecided rules, counts;
3. **decide** (:func:`decide`): every finding's typed fixes turned into exact steps for this
   machine, its shell and interpreter, and the machine's plan
   (:func:`rocm_doctor.remedy.decide.decide`), given the findings and the derived values it needs.

``docs/architecture.md`` draws the floors; ``tests/test_architecture.py`` holds the imports to them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Optional

from rocm_doctor.crashlog import write_crash_log
from rocm_doctor.errors import DoctorError
from rocm_doctor.facts.model import Crash, Facts
from rocm_doctor.judge.derived import DerivedValues, Tables
from rocm_doctor.judge.derived_facts.driver import kernel_driver
from rocm_doctor.judge.engine import judge
from rocm_doctor.judge.report import CheckResult
from rocm_doctor.model.rules import Rule

if TYPE_CHECKING:
    from rocm_doctor.remedy.decide import Context

__all__ = ["decide", "derive", "evaluate"]


def derive(facts: Facts, tables: Optional[Tables] = None) -> DerivedValues:
    """The derive stage: the derived facts over ``facts`` (computed when first asked for, then kept)."""
    return DerivedValues(facts, tables)


def decide(judged: CheckResult, derived: DerivedValues, context: "Optional[Context]" = None) -> CheckResult:
    """The decide stage: ``judged`` with each finding's remedy and the machine's plan.

    A chooser that raises leaves the findings standing, without remedies, and adds a crashed row.
    """
    # Imported when the decide stage runs, for start-up speed only (a downward import: remedy is below
    # the pipeline); judging alone (rule cases, `explain`, `rules list`) never loads the chooser.
    from rocm_doctor.remedy.decide import Context, decide as decide_remedies

    facts = judged.facts
    try:
        decision = decide_remedies(
            judged.findings, facts, context or Context(), driver=kernel_driver(facts, derived.tables)
        )
    except DoctorError:
        raise
    except Exception as exc:  # noqa: BLE001 - the findings stand; the remedies could not be decided
        crash = Crash(what="remedy chooser", reason=f"{type(exc).__name__}: {exc}", log=write_crash_log("remedy chooser"))
        return judged.model_copy(update={"crashes": [*judged.crashes, crash]})
    return judged.model_copy(update={"findings": decision.findings, "plan": decision.plan})


def evaluate(
    rules: Iterable[Rule], facts: Facts, tables: Optional[Tables] = None, context: "Optional[Context]" = None
) -> CheckResult:
    """Derive, judge and decide over gathered ``facts``: the result every renderer takes."""
    derived = derive(facts, tables)
    return decide(judge(rules, facts, derived), derived, context)
