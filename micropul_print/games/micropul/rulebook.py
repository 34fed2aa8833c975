"""Micropul's rulebook: its claims (about placements, groups and legal placements,
read from :func:`micropul_print.games.micropul.analysis.analyse`, the public JSON contract), its
figures (position files drawn with the sheets' tile art) and its shared values.

The analysis gives ``placements`` (each with ``tile``, ``legal``, ``reason``,
``draws``, ``plus``), ``groups`` (``colour``, ``points``, ``closed``, ``stones``,
``quadrants``) and, for a tile asked about, ``legal``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from micropul_print.base.errors import Diagnostic, UserError
from micropul_print.base.resources import package_file
from micropul_print.base.yamlsource import (
    YamlNode,
    YamlScalar,
    YamlSequence,
    describe,
    expect_int,
    expect_text,
    join_choices,
)
from micropul_print.draw.theme import Theme
from micropul_print.games.micropul.analysis import group_at, quadrant_key
from micropul_print.games.micropul.model import QUADRANT_NAMES, Catalogue, Tile
from micropul_print.games.micropul.position import PositionSpec, load_position
from micropul_print.rulebook.book import (
    Book,
    BookRules,
    Claim,
    ClaimKey,
    ClaimValue,
    Figure,
    LegendRow,
    read_bool,
)
from micropul_print.rulebook.claims import Evaluate, Value, check_claims
from micropul_print.rulebook.games import GameRulebook
from micropul_print.rulebook.verify import VerifiedFigure

if TYPE_CHECKING:
    from micropul_print.draw.primitives import Drawing
    from micropul_print.rulebook.layout import Picture

AUTHOR = "Jean-François Lassonde (game); micropul-print (rulebook)"

# What a claim may be about, and the properties of each subject it may state.
SUBJECT_PROPERTIES: dict[str, tuple[str, ...]] = {
    "placement": ("legal", "reason", "draws", "plus", "tile"),
    "group": ("colour", "points", "closed", "stones"),
    "legal_placements": ("count",),
}
# Legend rows show a tile symbol (a quadrant value, or a big tile) or a figure mark.
LEGEND_MARKS = ("highlight", "group", "cross", "stone")
# Placeholders any text of the structure may use: facts of the catalogue.
CATALOGUE_VALUES = frozenset({"tile_count"})

_BOOL_PROPS = ("legal", "closed")
_TEXT_PROPS = ("reason", "colour")


def read_subject(subject: str, node: YamlNode,
                 out: list[Diagnostic]) -> tuple[ClaimKey, str] | None:
    """A placement number, a tile id, or a group named by one micropul [x, y, quadrant]."""
    if subject != "group":
        number = expect_int(node, f"the {subject} claimed about", out)
        if number is None:
            return None
        if subject == "legal_placements":
            return number, f"the legal placements of tile {number}"
        return number, f"placement {number}"
    items = node.items if isinstance(node, YamlSequence) else ()
    if (len(items) == 3 and all(isinstance(i, YamlScalar) for i in items[:2])
            and isinstance(items[2], YamlScalar) and items[2].raw in QUADRANT_NAMES):
        x, y = expect_int(items[0], "x", out), expect_int(items[1], "y", out)
        if x is not None and y is not None:
            return (x, y, items[2].raw), f"the group at ({x}, {y}, {items[2].raw})"
        return None
    out.append(node.diagnostic(
        f"a group is named by one of its micropul: [x, y, quadrant], quadrant one of "
        f"{join_choices(QUADRANT_NAMES)}; got {describe(node)}"))
    return None


def read_value(prop: str, node: YamlNode, out: list[Diagnostic]) -> ClaimValue | None:
    if prop in _BOOL_PROPS:
        return read_bool(prop, node, out)
    if prop in _TEXT_PROPS:
        return expect_text(node, f"'{prop}'", out)
    return expect_int(node, f"'{prop}'", out)


def check_figure(figure: Figure) -> list[Diagnostic]:
    """Two tiles counted in one figure (the engine lists the legal placements of one
    tile per position)."""
    counted = {c.key for c in figure.claims if c.subject == "legal_placements"}
    if len(counted) > 1:
        return [figure.where.diagnostic(
            "a figure may count the legal placements of one tile only")]
    return []


BOOK_RULES = BookRules(SUBJECT_PROPERTIES, read_subject, read_value, LEGEND_MARKS,
                       ("highlight", "outline"), check_figure)


def legal_tile(figure: Figure) -> int | None:
    """The tile whose legal placements a claim counts (at most one per figure)."""
    for claim in figure.claims:
        if claim.subject == "legal_placements" and isinstance(claim.key, int):
            return claim.key
    return None


def evaluator(analysis: Mapping[str, Any]) -> Evaluate:
    """Claims evaluated on one analysis."""
    return lambda claim: engine_value(claim, analysis)


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
        x, y, quadrant = quadrant_key(claim.key)
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


def _count(value: object) -> int:
    """A number the contract may give as a count, a flag or a list (of stones)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, list | tuple):
        return len(value)
    return 0


def verify_figures(book: Book, catalogue: Catalogue, root: Path) -> list[VerifiedFigure]:
    """Analyse every figure's position and check its claims; raise one UserError
    naming every figure file and claim that is false."""
    from micropul_print.games.micropul.analysis import analyse

    verified: list[VerifiedFigure] = []
    problems: list[Diagnostic] = []
    for figure in book.figures:
        try:
            position = load_position(root / figure.position, catalogue)
        except UserError as exc:
            problems.extend(exc.diagnostics)
            continue
        analysis = dict(analyse(position, catalogue, None))
        tile = legal_tile(figure)
        if tile is not None:
            analysis["legal"] = analyse(_before(position, tile), catalogue, tile)["legal"]
        values, false = check_claims(figure, evaluator(analysis))
        problems.extend(false)
        for key in figure.outline:
            x, y, quadrant = quadrant_key(key)
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


def shown_tiles(book: Book, catalogue: Catalogue, root: Path) -> dict[str, frozenset[str]]:
    """The tiles each figure shows (those placed, and the one whose placements it
    counts) and the legend's (its big tile: the catalogue's first), by face file."""
    from micropul_print.games.micropul.pieces import tile_name

    shown: dict[str, frozenset[str]] = {}
    for figure in book.figures:
        position = load_position(root / figure.position, catalogue)
        ids = {placement.tile for placement in position.placements}
        counted = legal_tile(figure)
        if counted is not None:
            ids.add(counted)
        shown[figure.position] = frozenset(tile_name(tile) for tile in ids)
    big = next((tile.id for tile in catalogue.tiles if tile.big is not None), None)
    shown["legend"] = frozenset() if big is None else frozenset({tile_name(big)})
    return shown


def shared_values(catalogue: Catalogue) -> dict[str, Value]:
    return {"tile_count": len(catalogue.tiles)}


class MicropulArt:
    """Micropul's figures and legend pictures, from the sheets' tile and stone art."""

    def __init__(self, catalogue: Catalogue, theme: Theme) -> None:
        from micropul_print.games.micropul.faces import check_theme

        check_theme(theme)
        self.catalogue = catalogue
        self.theme = theme
        self.cell = self.tile_art(catalogue.tiles[0]).width

    def tile_art(self, tile: Tile) -> Drawing:
        from micropul_print.games.micropul.faces import tile_drawing

        return tile_drawing(tile, self.theme, show_number=False)

    def stone_art(self, player: int, diameter: float) -> Drawing:
        from micropul_print.games.micropul.faces import stone_drawing

        return stone_drawing(player, self.theme, diameter, number=False)  # the figure numbers it

    def figure(self, verified: VerifiedFigure) -> tuple[Drawing, float]:
        from micropul_print.games.micropul.figures import figure_drawing

        return figure_drawing(verified, self.catalogue, self.tile_art,
                              self.stone_art), self.cell

    def legend(self, row: LegendRow) -> Picture:
        from micropul_print.games.micropul.figures import legend_mark, legend_symbol
        from micropul_print.rulebook import layout

        cell = self.cell
        if row.mark:
            return layout.Picture(legend_mark(row.mark, cell, self.stone_art),
                                  layout.LEGEND_PICTURE_MM)
        if row.symbol == "big":
            return layout.Picture(legend_symbol("big", self.catalogue, self.tile_art),
                                  layout.LEGEND_PICTURE_MM, frame=True)
        return layout.Picture(legend_symbol(row.symbol, self.catalogue, self.tile_art),
                              layout.LEGEND_PICTURE_MM, clip=(0.0, 0.0, cell / 2, cell / 2),
                              frame=True)


MICROPUL = GameRulebook(
    game="micropul",
    folder=package_file("micropul_print.games.micropul", "book"),
    rules=BOOK_RULES,
    output_dir="rules",
    author=lambda _catalogue: AUTHOR,
    shared_names=CATALOGUE_VALUES,
    shared_values=shared_values,
    verify_figures=verify_figures,
    art=MicropulArt,
    shown_tiles=shown_tiles,
)
