"""Facts: the typed snapshot of a machine and the code that gathers it."""

from rocm_doctor.facts.model import Facts, FactsFileError
from rocm_doctor.facts.value import Fact, absent, failed, known, unknown

__all__ = ["Fact", "Facts", "FactsFileError", "absent", "failed", "known", "unknown"]
