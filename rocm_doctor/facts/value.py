"""One fact: a value with the place it was read from, or the reason it is missing.

Four states, never a "Could not collect" string:

* ``known``   -- read, with ``value`` and the ``source`` it came from;
* ``absent``  -- looked, and it is not there (no such file, tool not installed,
  variable not set); a definite answer that rules may use;
* ``failed``  -- could not look (timeout, permission denied, unparsable output),
  with the ``reason``; rules treat it as unknown;
* ``unknown`` -- nobody looked (a pasted report that does not mention it, a probe
  that was switched off with ``--no-torch``); rules treat it as unknown.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Generic, Literal, Optional, TypeVar

from pydantic import BaseModel, ConfigDict, model_validator

T = TypeVar("T")

FactStatus = Literal["known", "absent", "failed", "unknown"]


class Fact(BaseModel, Generic[T]):
    """A single fact about the machine and where it came from."""

    model_config = ConfigDict(frozen=True)

    status: FactStatus = "unknown"
    value: Optional[T] = None
    source: Optional[str] = None
    """Where the fact was read: a path, an argv, ``env``, ``paste:block 2 line 5``."""
    reason: Optional[str] = None
    """Why the fact is absent, failed or unknown, in words a user can act on."""

    @model_validator(mode="after")
    def _known_has_a_value(self) -> "Fact[T]":
        # Rules and derived facts read a known fact's value without checking it for None; a facts
        # document that says "known" with a null value is malformed input, not a fact.
        if self.status == "known" and self.value is None:
            raise ValueError("a fact whose status is 'known' needs a value (it is null)")
        return self

    @property
    def is_known(self) -> bool:
        return self.status == "known"

    @property
    def is_decided(self) -> bool:
        """True when rules may use it: known or definitely absent."""
        return self.status in ("known", "absent")


def known(value: Any, source: str) -> Fact[Any]:
    """A fact that was read; a null read (a probe's ``null``, a null entry of a document) is a failed read."""
    if value is None:
        return failed(source, "read as null: the output gives no value")
    return Fact(status="known", value=value, source=source)


def absent(source: str, reason: Optional[str] = None) -> Fact[Any]:
    """A fact that was looked for and is not there."""
    return Fact(status="absent", source=source, reason=reason)


def failed(source: str, reason: str) -> Fact[Any]:
    """A fact that could not be read, with the reason."""
    return Fact(status="failed", source=source, reason=reason)


def unknown(reason: str = "not gathered") -> Fact[Any]:
    """A fact nobody looked at."""
    if type(reason) is str:
        return _unknown(reason)
    return Fact(status="unknown", reason=reason)


@lru_cache(maxsize=4096)
def _unknown(reason: str) -> Fact[Any]:
    """One frozen fact per reason: judging one report made some hundred unknown facts of the same few reasons (a path
    the report does not give, a derived fact whose input is missing), each validated again."""
    return Fact(status="unknown", reason=reason)
