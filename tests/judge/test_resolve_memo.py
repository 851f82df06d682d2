"""paths.resolve's memo on the derived values: a fact found once per snapshot and GPU, never another snapshot's."""

from __future__ import annotations

import gc
import weakref

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import known
from rocm_doctor.judge.derived import DerivedValues
from rocm_doctor.judge.paths import Scope, resolve


def _with_os(facts: Facts, os_name: str) -> Facts:
    return facts.model_copy(update={"host": facts.host.model_copy(update={"os": known(os_name, "test")})})


def test_a_scope_over_other_facts_than_the_derived_values_gets_its_own_fact() -> None:
    base = _with_os(Facts(), "linux")
    derived = DerivedValues(base)
    assert resolve("host.os", Scope(base, derived)).value == "linux"
    # snapshots made and freed one after another reuse each other's ids: each must still read its own value
    for step in range(200):
        wanted = "windows" if step % 2 else "linux"
        assert resolve("host.os", Scope(_with_os(base, wanted), derived)).value == wanted


def test_the_memo_keeps_the_snapshot_it_answered_for_so_its_id_is_not_reused() -> None:
    derived = DerivedValues(_with_os(Facts(), "linux"))
    other = _with_os(Facts(), "windows")
    seen = weakref.ref(other)
    assert resolve("host.os", Scope(other, derived)).value == "windows"
    del other
    gc.collect()
    assert seen() is not None  # freed, its id could be another snapshot's key in the memo


def test_the_same_snapshot_gets_the_memoised_fact() -> None:
    facts = _with_os(Facts(), "linux")
    derived = DerivedValues(facts)
    assert resolve("host.os", Scope(facts, derived)) is resolve("host.os", Scope(facts, derived))
