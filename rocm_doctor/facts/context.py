"""What every gatherer gets: the machine, the user's options and the sections gathered so far.

Kept apart from :mod:`rocm_doctor.facts.gather` (which imports every gatherer) so that a
gatherer imports its context without a circle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple, Type, TypeVar

from rocm_doctor.facts.model import Crash, Section
from rocm_doctor.facts.target import target_interpreter
from rocm_doctor.facts.value import Fact, failed
from rocm_doctor.system.base import DEFAULT_TIMEOUT, CommandResult, Started, System

S = TypeVar("S", bound=Section)


@dataclass(frozen=True)
class GatherOptions:
    """What the user asked the gathering to do."""

    python: Optional[str] = None
    """Target interpreter; None means the one running rocm-doctor."""
    torch: bool = True
    """Run the live torch probe (``--no-torch`` turns it off; static facts are still read)."""
    torch_timeout: float = 60.0
    command_timeout: float = DEFAULT_TIMEOUT
    use_amdsmi: bool = True
    """Try the amdsmi Python bindings first (live machines only)."""
    started_early: Tuple[Started, ...] = field(default=(), compare=False)
    """Children the CLI started before its imports (``rocm_doctor.cli.early``: the torch probe, the
    target interpreter's self-description); gathering adopts each that runs exactly the command and
    timeout it would start, and cancels the others."""
    pid: Optional[int] = None
    """The process to read (``--pid``; the system is then a ``ProcessView`` of it)."""


@dataclass
class GatherContext:
    """What a gatherer gets: the machine, the options and the sections gathered so far."""

    system: System
    options: GatherOptions
    sections: Dict[str, Any] = field(default_factory=dict)
    prefetched: Dict[str, Started] = field(default_factory=dict)
    """Slow commands started early, by key."""
    crashes: List[Crash] = field(default_factory=list)

    def result_of(self, key: str, start: Callable[["GatherContext"], Started]) -> CommandResult:
        """The result of the command started early under ``key``, or of ``start(self)`` now."""
        started = self.prefetched.pop(key, None)
        return (started if started is not None else start(self)).result()

    _target: Optional[Tuple[str, str]] = None

    @property
    def target(self) -> Tuple[str, str]:
        """(target interpreter, why it is the target): see :mod:`rocm_doctor.facts.target`."""
        if self._target is None:
            self._target = target_interpreter(self.system, self.options.python)
        return self._target

    @property
    def python(self) -> str:
        """The target interpreter path."""
        return self.target[0]


def failed_section(cls: Type[S], source: str, reason: str) -> S:
    """A section whose every fact failed for the same reason (a crashed gatherer)."""
    values: Dict[str, Any] = {}
    for name, info in cls.model_fields.items():
        annotation = info.annotation
        if isinstance(annotation, type) and issubclass(annotation, Fact):
            values[name] = failed(source, reason)
        elif isinstance(annotation, type) and issubclass(annotation, Section):
            values[name] = failed_section(annotation, source, reason)
    return cls(**values)
