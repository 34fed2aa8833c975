"""User-facing problems as values: every problem found in an input is a Diagnostic.

Loaders collect all diagnostics in one pass and return them; the command line prints
each as ``file:line:col: severity: message`` and exits non-zero. Raising
:class:`UserError` is the single path from deep inside a command to that exit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from typing import TypeVar

from micropul_print.base.record import record

T = TypeVar("T")

# The command's name, as every message of the command line starts.
PROG = "micropul-print"


class UsageError(Exception):
    """A command-line value the command cannot take (exit status 2)."""


def usage_error(command: str, message: str) -> str:
    """A usage error as every command says it: "micropul-print build: error: ..."."""
    return f"{command}: error: {printable(message)}"


# Longest user text a message quotes whole; longer text is cut (see quoted).
QUOTE_LIMIT = 60


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on or hide (control characters,
    line breaks, bidirectional overrides, lone surrogates, unassigned code points) shown as
    ``repr`` shows it, ``\\x1b`` or ``\\u202e``: a message quoting a file's text must not
    recolour, rewrite or reorder the user's terminal, nor fail to encode."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() or char == " " else _escape(char) for char in text)


def printable_lines(text: str) -> str:
    """``text`` with each line :func:`printable`, its line breaks kept: a listing on
    stdout that quotes a catalogue's texts (a name holding U+202E reordered the line)."""
    return "\n".join(printable(line) for line in text.split("\n"))


def _escape(char: str) -> str:
    return repr(char)[1:-1]  # as repr writes it: \n, \x1b, \u202e


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """User text as a message quotes it: in quotes, escaped like ``repr``, and cut after
    ``limit`` characters (saying how long it was), so one huge value gives one short line."""
    if len(text) <= limit:
        return repr(text)
    start = repr(text[:limit])
    return f"{start[:-1]}…{start[-1]} ({len(text)} characters)"


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    NOTICE = "notice"


@record(order=True)
class Diagnostic:
    """One problem in one input file. ``line`` and ``col`` are 1-based; 0 means unknown."""

    file: str
    line: int
    col: int
    message: str
    severity: Severity = Severity.ERROR

    def __str__(self) -> str:
        """``file:line:col: severity: message`` on one line, whatever the file's name
        and the text the message quotes hold (see printable)."""
        where = self.file
        if self.line:
            where += f":{self.line}:{self.col}"
        return printable(f"{where}: {self.severity.value}: {self.message}")


class UserError(Exception):
    """Something the user can fix; carries the diagnostics to print. Never a bug."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


def errors_in(diagnostics: Iterable[Diagnostic], strict: bool = False) -> list[Diagnostic]:
    """The diagnostics that make an input unusable; with ``strict``, warnings too."""
    bad = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    return [d for d in diagnostics if d.severity in bad]


def failure_summary(command: str, failed: Sequence[Diagnostic], what: str = "") -> str:
    """A failed run's last line, ``check failed: 2 problem(s) with the set`` (``what``:
    " with the set"); warnings alone failed only by --strict, and it says so."""
    if failed and all(d.severity is Severity.WARNING for d in failed):
        return f"{command} failed: {len(failed)} warning(s){what} treated as errors (--strict)"
    return f"{command} failed: {len(failed)} problem(s){what}"


# The warnings and notices of inputs that usable() let through, until the command
# line prints them (take_warnings): a build, a rulebook or a position read through it
# printed none of them, though a warning is meant to be seen.
_LET_THROUGH: list[Diagnostic] = []


def without_errors(value: T | None, diagnostics: Sequence[Diagnostic],
                   strict: bool = False) -> T:
    """``value`` when it came without errors (nor warnings, with ``strict``); otherwise
    raise UserError with those errors, then the other diagnostics (every problem of the
    input in one run), or with every diagnostic if the value is missing. For a caller
    that prints the warnings itself; see usable."""
    errors = errors_in(diagnostics, strict)
    if value is None or errors:
        raise UserError(with_the_rest(errors, diagnostics) if errors else diagnostics)
    return value


def usable(value: T | None, diagnostics: Sequence[Diagnostic], strict: bool = False) -> T:
    """As without_errors, the warnings of a usable value kept for take_warnings."""
    found = without_errors(value, diagnostics, strict)
    _LET_THROUGH.extend(diagnostics)
    return found


def joined(problem: UserError, reading: Callable[[], object]) -> UserError:
    """``problem`` (one input's) with the problems ``reading`` another input raises, if
    any: every input's problems in one run, where the first would have hidden the rest."""
    try:
        reading()
    except UserError as other:
        return UserError([*problem.diagnostics, *other.diagnostics])
    return problem


def with_the_rest(errors: Sequence[Diagnostic],
                  diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """``errors``, then the diagnostics that are not among them (warnings, notices)."""
    shown = set(errors)
    return [*errors, *(d for d in diagnostics if d not in shown)]


def let_through(diagnostics: Iterable[Diagnostic]) -> None:
    """Keep warnings found outside usable() for take_warnings, as it keeps its own."""
    _LET_THROUGH.extend(diagnostics)


def take_warnings() -> list[Diagnostic]:
    """The diagnostics usable() and let_through() let through since the last call, each
    once, in order."""
    taken = list(dict.fromkeys(_LET_THROUGH))
    _LET_THROUGH.clear()
    return taken
