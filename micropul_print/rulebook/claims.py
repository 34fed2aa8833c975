"""Checking a figure's claims against what a rules engine says about its position.

The game reads its engine's verdict (``evaluate``: a claim -> the engine's value of its
subject and property, or a reason it cannot be told); this module compares and words
the problems the same way for every game. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable

from micropul_print.base.errors import Diagnostic
from micropul_print.rulebook.book import Claim, ClaimValue, Figure, shown

Value = ClaimValue
# A claim -> (the engine's value, "") or ("", why the engine cannot tell).
Evaluate = Callable[[Claim], tuple[Value, str]]


def check_claims(figure: Figure, evaluate: Evaluate) -> tuple[dict[str, Value],
                                                              list[Diagnostic]]:
    """The engine's value of every named claim (for the caption's placeholders), and a
    diagnostic for each claim the engine contradicts, naming the figure and the claim."""
    values: dict[str, Value] = {}
    problems: list[Diagnostic] = []
    for claim in figure.claims:
        actual, missing = evaluate(claim)
        if missing:
            problems.append(claim.where.diagnostic(
                f"figure {figure.position}: claim \"{claim.describe()}\" cannot be checked: "
                f"{missing}"))
            continue
        if actual != claim.expected or type(actual) is not type(claim.expected):
            problems.append(claim.where.diagnostic(
                f"figure {figure.position}: claim \"{claim.describe()}\" is false: "
                f"the engine says {_quoted(actual)}"))
            continue
        if claim.name:
            values[claim.name] = actual
    return values, problems


def _quoted(value: Value) -> str:
    return f'"{value}"' if isinstance(value, str) else shown(value)
