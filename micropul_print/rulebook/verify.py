"""Build-time checks of the rulebook: its texts against its structure, and every
figure's claims against the rules engine. Nothing here draws."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from micropul_print.catalogue.model import Catalogue
from micropul_print.catalogue.position import PositionSpec, load_position
from micropul_print.errors import Diagnostic, UserError
from micropul_print.rulebook.book import Book, Figure
from micropul_print.rulebook.claims import Value, check_claims, group_at
from micropul_print.rulebook.locales import Locale, placeholders

PACKAGE_DIR = Path(__file__).parent

# Texts the page layout uses besides those the structure names, with the
# placeholders the layout fills in each.
PAGE_TEXTS: dict[str, frozenset[str]] = {
    "meta.language_name": frozenset(),
    "meta.title": frozenset(),
    "meta.subject": frozenset(),
    "meta.running_head": frozenset(),
    "meta.page_number": frozenset({"page"}),
    "meta.figure_label": frozenset({"number"}),
}
# Placeholders any text of the structure may use: facts of the catalogue.
CATALOGUE_VALUES = frozenset({"tile_count"})


def catalogue_values(catalogue: Catalogue) -> dict[str, Value]:
    return {"tile_count": len(catalogue.tiles)}


@dataclass(frozen=True)
class VerifiedFigure:
    """A figure whose claims all hold, with what the engine said about it."""

    figure: Figure
    position: PositionSpec
    analysis: Mapping[str, Any]
    values: dict[str, Value]  # placeholder name -> engine value, for the caption


def check_texts(book: Book, reference: Locale) -> list[Diagnostic]:
    """Every key the structure names exists, every reference text is used, and each
    text's placeholders are ones its block can fill."""
    problems: list[Diagnostic] = []
    allowed: dict[str, frozenset[str]] = dict(PAGE_TEXTS)
    for key, where in book.text_keys():
        if key not in reference.texts:
            problems.append(where.diagnostic(f"no text '{key}' in {reference.source}"))
        allowed.setdefault(key, frozenset())
        allowed[key] |= CATALOGUE_VALUES
    for figure in book.figures:
        allowed[figure.caption] |= {c.name for c in figure.claims if c.name}
    for key, text in reference.texts.items():
        if key not in allowed:
            problems.append(reference.error(key, f"text '{key}' is not used by the rulebook "
                                                 f"({book.source})"))
            continue
        for name in sorted(placeholders(text) - allowed[key]):
            problems.append(reference.error(
                key, f"'{key}' uses {{{name}}}, which nothing fills there"))
    return problems


def verify_figures(book: Book, catalogue: Catalogue,
                   root: Path = PACKAGE_DIR) -> list[VerifiedFigure]:
    """Analyse every figure's position and check its claims; raise one UserError
    naming every figure file and claim that is false."""
    from micropul_print.analysis import analyse

    verified: list[VerifiedFigure] = []
    problems: list[Diagnostic] = []
    for figure in book.figures:
        try:
            position = load_position(root / figure.position, catalogue)
        except UserError as exc:
            problems.extend(exc.diagnostics)
            continue
        analysis = dict(analyse(position, catalogue, None))
        tile = figure.legal_tile
        if tile is not None:
            analysis["legal"] = analyse(_before(position, tile), catalogue, tile)["legal"]
        values, false = check_claims(figure, analysis)
        problems.extend(false)
        for x, y, quadrant in figure.outline:
            if group_at(analysis, x, y, quadrant) is None:
                problems.append(figure.where.diagnostic(
                    f"figure {figure.position}: no micropul group to outline at "
                    f"({x}, {y}, {quadrant})"))
        verified.append(VerifiedFigure(figure, position, analysis, values))
    if problems:
        raise UserError(problems)
    return verified


def _before(position: PositionSpec, tile: int) -> PositionSpec:
    """The position just before ``tile`` is placed (all of it if it is not)."""
    for index, placement in enumerate(position.placements):
        if placement.tile == tile:
            return dataclasses.replace(position, placements=position.placements[:index],
                                       stones=())
    return position
