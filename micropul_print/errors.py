"""User-facing problems as values: every problem found in an input is a Diagnostic.

Loaders collect all diagnostics in one pass and return them; the command line prints
each as ``file:line:col: severity: message`` and exits non-zero. Raising
:class:`UserError` is the single path from deep inside a command to that exit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

T = TypeVar("T")

# C0 and C1 control characters (ANSI escapes start with one), and DEL.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` safe to print on a terminal: each control character written as an
    escape (\\x1b, \\n...), so that text from a user's file cannot move the cursor,
    change colours or forge lines."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    NOTICE = "notice"


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem in one input file. ``line`` and ``col`` are 1-based; 0 means unknown."""

    file: str
    line: int
    col: int
    message: str
    severity: Severity = Severity.ERROR

    def __str__(self) -> str:
        where = self.file
        if self.line:
            where += f":{self.line}:{self.col}"
        return f"{where}: {self.severity.value}: {self.message}"


class UserError(Exception):
    """Something the user can fix; carries the diagnostics to print. Never a bug."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


def errors_in(diagnostics: Iterable[Diagnostic], strict: bool = False) -> list[Diagnostic]:
    """The diagnostics that make an input unusable; with ``strict``, warnings too."""
    bad = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    return [d for d in diagnostics if d.severity in bad]


def usable(value: T | None, diagnostics: Sequence[Diagnostic], strict: bool = False) -> T:
    """``value`` when it came without errors (nor warnings, with ``strict``); otherwise
    raise UserError with those, or with every diagnostic if the value is missing."""
    errors = errors_in(diagnostics, strict)
    if value is None or errors:
        raise UserError(errors or list(diagnostics))
    return value
