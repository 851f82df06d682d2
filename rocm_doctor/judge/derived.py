"""The registry of derived facts: what YAML conditions cannot say, computed in Python.

A derived fact is a named, documented function over the gathered facts (and the
data tables under ``rules/data/``) that returns a :class:`~rocm_doctor.facts.value.Fact`.
Two scopes:

* machine-wide, path ``derived.<name>``::

      @machine_fact("amd_gpu_count", "Number of AMD GPU agents found.")
      def amd_gpu_count(facts: Facts, tables: Tables) -> Fact: ...

* per GPU agent, path ``gpu.<name>`` (only inside ``for_each: gpu`` rules)::

      @gpu_fact("is_amd", "The agent is an AMD GPU.")
      def is_amd(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact: ...

Names may be given with or without the ``derived.`` / ``gpu.`` prefix. Modules
that define derived facts live in :mod:`rocm_doctor.judge.derived_facts`; every
module there is imported automatically, so defining the function registers it.

Values are computed lazily, once per evaluation, and memoised. A derived fact
that raises becomes a ``failed`` fact naming the exception (a bug in one derived
fact must not hide every other finding); an :class:`~rocm_doctor.errors.InputError`
(a malformed data table) propagates so the user sees the file and line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

from rocm_doctor.crashlog import write_crash_log
from rocm_doctor.data import load_table, load_table_head
from rocm_doctor.errors import DoctorError
from rocm_doctor.facts.model import Crash, Facts, GpuAgent
from rocm_doctor.facts.value import Fact, failed

MACHINE_PREFIX = "derived"
GPU_PREFIX = "gpu"
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class Tables:
    """Read access to the data tables (``rules/data/<name>.yaml``), loaded on first use.

    ``tables["gfx_products"]`` returns the parsed YAML. Tests pass ``overrides``
    to substitute a table without touching the rule database.
    """

    def __init__(
        self,
        overrides: Optional[Dict[str, Any]] = None,
        loader: Callable[[str], Any] = load_table,
    ) -> None:
        self._overrides = dict(overrides or {})
        self._loader = loader

    def __getitem__(self, name: str) -> Any:
        if name in self._overrides:
            return self._overrides[name]
        return self._loader(name)

    def head(self, name: str) -> Any:
        """The small top-level fields of a table (:func:`rocm_doctor.data.load_table_head`), without its
        rows when the shipped table is read; a substituted table is its own head."""
        if name in self._overrides or self._loader is not load_table:
            return self[name]
        return load_table_head(name)

    def with_overrides(self, extra: Dict[str, Any]) -> "Tables":
        """The same tables with ``extra`` substituted on top."""
        return Tables({**self._overrides, **extra}, loader=self._loader)


MachineFn = Callable[[Facts, Tables], Fact]
GpuFn = Callable[[Facts, GpuAgent, Tables], Fact]


@dataclass(frozen=True)
class DerivedFact:
    """One registered derived fact."""

    path: str
    """Full fact path: ``derived.<name>`` or ``gpu.<name>``."""
    doc: str
    scope: str
    """``machine`` or ``gpu``."""
    fn: Callable[..., Fact]
    module: str


REGISTRY: Dict[str, DerivedFact] = {}
"""Every registered derived fact by full path."""


def _full_path(name: str, prefix: str) -> str:
    short = name[len(prefix) + 1 :] if name.startswith(prefix + ".") else name
    if not _NAME.match(short):
        raise ValueError(f"derived fact name {name!r} must be snake_case")
    return f"{prefix}.{short}"


def _register(name: str, doc: str, scope: str, prefix: str) -> Callable[[Callable[..., Fact]], Callable[..., Fact]]:
    path = _full_path(name, prefix)
    if not doc or not doc.strip():
        raise ValueError(f"derived fact {path} needs a doc string")
    if scope == "gpu" and path.split(".", 1)[1] in GpuAgent.model_fields:
        raise ValueError(f"derived fact {path} would shadow the GPU agent field of the same name")

    def decorate(fn: Callable[..., Fact]) -> Callable[..., Fact]:
        existing = REGISTRY.get(path)
        if existing is not None and (existing.module, existing.fn.__qualname__) != (fn.__module__, fn.__qualname__):
            raise ValueError(f"derived fact {path} is registered twice ({existing.module} and {fn.__module__})")
        REGISTRY[path] = DerivedFact(path=path, doc=doc.strip(), scope=scope, fn=fn, module=fn.__module__)
        return fn

    return decorate


def machine_fact(name: str, doc: str) -> Callable[[MachineFn], MachineFn]:
    """Register ``fn(facts, tables) -> Fact`` as ``derived.<name>``."""
    return _register(name, doc, "machine", MACHINE_PREFIX)


def gpu_fact(name: str, doc: str) -> Callable[[GpuFn], GpuFn]:
    """Register ``fn(facts, agent, tables) -> Fact`` as ``gpu.<name>``."""
    return _register(name, doc, "gpu", GPU_PREFIX)


def load_all() -> Dict[str, DerivedFact]:
    """Import every derived-fact module (they register on import) and return the registry."""
    import rocm_doctor.judge.derived_facts  # noqa: F401  - imports its modules

    return REGISTRY


def registered_names(scope: Optional[str] = None) -> List[str]:
    """Full paths of every derived fact (``derived.x``, ``gpu.y``), optionally of one scope."""
    load_all()
    return sorted(p for p, d in REGISTRY.items() if scope is None or d.scope == scope)


def _call(entry: DerivedFact, *args: Any, crashes: Optional[List[Crash]] = None) -> Fact:
    try:
        value = entry.fn(*args)
    except DoctorError:
        raise
    except Exception as exc:  # noqa: BLE001 - a broken derived fact is a failed fact and a crash row
        if crashes is not None and not any(c.what == f"derived fact {entry.path}" for c in crashes):
            crashes.append(Crash(what=f"derived fact {entry.path}", reason=f"{type(exc).__name__}: {exc}",
                                 log=write_crash_log(f"derived fact {entry.path}")))
        return failed(f"derived fact {entry.path}", f"{type(exc).__name__}: {exc}")
    if not isinstance(value, Fact):
        return failed(f"derived fact {entry.path}", f"returned {type(value).__name__}, not a Fact")
    return value


class DerivedValues:
    """Lazily computed, memoised derived facts for one Facts snapshot."""

    def __init__(self, facts: Facts, tables: Optional[Tables] = None) -> None:
        load_all()
        self.facts = facts
        self.tables = tables if tables is not None else Tables()
        self._machine: Dict[str, Fact] = {}
        self._gpu: Dict[tuple, Fact] = {}
        self.plain: Dict[tuple, tuple] = {}
        """Facts found at plain paths (paths.resolve's memo; the facts are frozen): by path and the ids of the
        snapshot and GPU, each with that snapshot and GPU, so that their ids stay theirs."""
        self.crashes: List[Crash] = []
        """Derived facts that raised while this snapshot was judged."""

    def continue_with(self, tables: Tables, recompute: Tuple[str, ...]) -> None:
        """Go on with ``tables``; the machine-wide derived facts in ``recompute`` (the ones that read
        what changed) are computed again, every other value is kept."""
        self.tables = tables
        for path in recompute:
            self._machine.pop(path, None)

    def machine(self, path: str) -> Optional[Fact]:
        """``derived.<name>``, or None when no such derived fact is registered."""
        found = self._machine.get(path)  # only registered machine-wide facts are ever kept
        if found is not None:
            return found
        entry = REGISTRY.get(path)
        if entry is None or entry.scope != "machine":
            return None
        if path not in self._machine:
            self._machine[path] = _call(entry, self.facts, self.tables, crashes=self.crashes)
        return self._machine[path]

    def gpu(self, path: str, agent: GpuAgent) -> Optional[Fact]:
        """``gpu.<name>`` for ``agent``, or None when no such derived fact is registered."""
        entry = REGISTRY.get(path)
        if entry is None or entry.scope != "gpu":
            return None
        key = (path, agent.index)
        if key not in self._gpu:
            self._gpu[key] = _call(entry, self.facts, agent, self.tables, crashes=self.crashes)
        return self._gpu[key]


def compute_machine(facts: Facts, tables: Optional[Tables] = None) -> Dict[str, Fact]:
    """Every machine-wide derived fact, by full path."""
    values = DerivedValues(facts, tables)
    return {p: values.machine(p) for p in registered_names("machine")}  # type: ignore[misc]


def compute_gpu(facts: Facts, agent: GpuAgent, tables: Optional[Tables] = None) -> Dict[str, Fact]:
    """Every per-GPU derived fact for ``agent``, by full path."""
    values = DerivedValues(facts, tables)
    return {p: values.gpu(p, agent) for p in registered_names("gpu")}  # type: ignore[misc]
