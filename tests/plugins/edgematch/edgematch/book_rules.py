"""Edgematch's one-page rulebook: a claim is about a placement of a figure's position
(legal or not) or about the position (legal moves left), checked by its engine."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import edgematch
from micropul_print.base.errors import Diagnostic, UserError
from micropul_print.base.yamlsource import YamlNode, expect_int
from micropul_print.draw.theme import Theme
from micropul_print.rulebook.book import (
    Book,
    BookRules,
    Claim,
    ClaimKey,
    ClaimValue,
    LegendRow,
    read_bool,
)
from micropul_print.rulebook.claims import Value, check_claims
from micropul_print.rulebook.games import GameRulebook
from micropul_print.rulebook.verify import VerifiedFigure


def read_subject(subject: str, node: YamlNode,
                 out: list[Diagnostic]) -> tuple[ClaimKey, str] | None:
    number = expect_int(node, f"the {subject} claimed about", out)
    return None if number is None else (number, f"{subject} {number}")


def read_value(prop: str, node: YamlNode, out: list[Diagnostic]) -> ClaimValue | None:
    return read_bool(prop, node, out) if prop == "legal" else expect_int(node, prop, out)


RULES = BookRules({"placement": ("legal",), "position": ("moves",)}, read_subject,
                  read_value, legend_marks=())


def engine_value(claim: Claim, analysis: Mapping[str, Any]) -> tuple[Value, str]:
    if claim.subject == "position":
        return int(analysis["legal_moves"]), ""
    placements = analysis["placements"]
    assert isinstance(claim.key, int)
    if not 1 <= claim.key <= len(placements):
        return "", f"the position has {len(placements)} placements"
    return bool(placements[claim.key - 1]["legal"]), ""


def _evaluator(analysis: Mapping[str, Any]) -> Callable[[Claim], tuple[Value, str]]:
    return lambda claim: engine_value(claim, analysis)


def verify_figures(book: Book, catalogue: Any, root: Path) -> list[VerifiedFigure]:
    verified: list[VerifiedFigure] = []
    problems: list[Diagnostic] = []
    for figure in book.figures:
        try:
            state, analysis = edgematch.read_position(root / figure.position, catalogue)
        except UserError as exc:
            problems.extend(exc.diagnostics)
            continue
        values, false = check_claims(figure, _evaluator(analysis))
        problems.extend(false)
        verified.append(VerifiedFigure(figure, state, analysis, values))
    if problems:
        raise UserError(problems)
    return verified


class EdgeArt:
    def __init__(self, catalogue: Any, theme: Theme) -> None:
        self.catalogue = catalogue

    def figure(self, verified: VerifiedFigure) -> tuple[Any, float]:
        from micropul_print.draw.primitives import Drawing, Group

        state = verified.position
        size = edgematch.SIDE * edgematch.TILE_MM
        items = []
        for (x, y), edges in sorted(state.grid.items()):
            face = edgematch.face_drawing(edgematch.EdgeTile(0, edges))
            items.append(Group(face.items[:-1], dx=x * edgematch.TILE_MM,
                               dy=y * edgematch.TILE_MM))
        return Drawing(size, size, tuple(items)), edgematch.TILE_MM

    def legend(self, row: LegendRow) -> Any:
        raise ValueError("Edgematch's book has no legend")


EDGEMATCH = GameRulebook(
    game="edgematch",
    folder=edgematch.HERE / "book",
    rules=RULES,
    output_dir="edgematch/rules",
    author=lambda _catalogue: "micropul-print tests",
    shared_names=frozenset({"tile_count"}),
    shared_values=lambda catalogue: {"tile_count": len(catalogue.tiles)},
    verify_figures=verify_figures,
    art=EdgeArt,
)
