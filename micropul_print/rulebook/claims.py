"""Checking a figure's claims against the rules engine's verdict on its position.

The verdict is the analysis dictionary of :func:`micropul_print.analysis.analyse`
(the public JSON contract): ``placements`` (each with ``tile``, ``legal``,
``reason``, ``draws``, ``plus``), ``groups`` (``colour``, ``points``, ``closed``,
``stones``, ``quadrants``) and, for a tile asked about, ``legal``. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from micropul_print.errors import Diagnostic
from micropul_print.rulebook.book import Claim, Figure

Value = bool | int | str


def check_claims(figure: Figure, analysis: Mapping[str, Any]) -> tuple[dict[str, Value],
                                                                       list[Diagnostic]]:
    """The engine's value of every named claim (for the caption's placeholders), and a
    diagnostic for each claim the engine contradicts, naming the figure and the claim."""
    values: dict[str, Value] = {}
    problems: list[Diagnostic] = []
    for claim in figure.claims:
        actual, missing = engine_value(claim, analysis)
        if missing:
            problems.append(claim.where.diagnostic(
                f"figure {figure.position}: claim \"{claim.describe()}\" cannot be checked: "
                f"{missing}"))
            continue
        if actual != claim.expected or type(actual) is not type(claim.expected):
            problems.append(claim.where.diagnostic(
                f"figure {figure.position}: claim \"{claim.describe()}\" is false: "
                f"the engine says {_shown(actual)}"))
            continue
        if claim.name:
            values[claim.name] = actual
    return values, problems


def engine_value(claim: Claim, analysis: Mapping[str, Any]) -> tuple[Value, str]:
    """What the engine says about the claim's subject and property, or ("", why not)."""
    if claim.subject == "placement":
        assert isinstance(claim.key, int)
        placements = analysis.get("placements", [])
        if not 1 <= claim.key <= len(placements):
            return "", f"the position has {len(placements)} placements"
        placement = placements[claim.key - 1]
        if claim.prop == "reason":
            return str(placement.get("reason") or "none"), ""
        if claim.prop == "legal":
            return bool(placement["legal"]), ""
        return _count(placement.get(claim.prop)), ""
    if claim.subject == "group":
        assert isinstance(claim.key, tuple)
        x, y, quadrant = claim.key
        group = group_at(analysis, x, y, quadrant)
        if group is None:
            return "", f"no micropul group covers ({x}, {y}, {quadrant})"
        if claim.prop == "closed":
            return bool(group["closed"]), ""
        if claim.prop == "colour":
            return str(group["colour"]), ""
        return _count(group.get(claim.prop)), ""
    legal = analysis.get("legal")
    if legal is None:
        return "", "the engine listed no legal placements"
    return len(legal), ""


def group_at(analysis: Mapping[str, Any], x: int, y: int,
             quadrant: str) -> Mapping[str, Any] | None:
    """The group of the analysis that holds the micropul at (x, y, quadrant), if any."""
    for group in analysis.get("groups", []):
        if [x, y, quadrant] in [list(q) for q in group.get("quadrants", [])]:
            result: Mapping[str, Any] = group
            return result
    return None


def _count(value: object) -> int:
    """A number the contract may give as a count, a flag or a list (of stones)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, list | tuple):
        return len(value)
    return 0


def _shown(value: Value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)
