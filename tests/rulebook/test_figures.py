"""Figure drawings: the game's tile art in each cell, turned as placed, plus the
figure marks (frame on the tile just played, cross on an illegal one, stones)."""

from __future__ import annotations

import pytest

from micropul_print.catalogue.loader import load_catalogue
from micropul_print.catalogue.model import Catalogue, Tile
from micropul_print.draw.primitives import Circle, Drawing, Group, Line, Rect, Text
from micropul_print.draw.theme import load_theme
from micropul_print.games.micropul import stone_drawing, tile_drawing
from micropul_print.rulebook.micropul import MICROPUL
from micropul_print.rulebook.micropul_figures import (
    STYLE,
    figure_drawing,
    legend_mark,
    legend_symbol,
)
from micropul_print.rulebook.verify import VerifiedFigure

THEME = load_theme("classic")


def tile_art(tile: Tile) -> Drawing:
    return tile_drawing(tile, THEME, show_number=False)


def stone_art(player: int, diameter: float) -> Drawing:
    return stone_drawing(player, THEME, diameter, number=False)  # as MicropulArt draws it


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue()


@pytest.fixture(scope="module")
def figures(catalogue: Catalogue) -> dict[str, VerifiedFigure]:
    return {v.figure.position: v for v in MICROPUL.verify(MICROPUL.load_book(), catalogue)}


def _tiles(drawing: Drawing) -> list[Group]:
    return [item for item in drawing.items if isinstance(item, Group)
            and len(item.items) > 4]


def test_each_tile_is_the_sheet_drawing_turned_in_its_cell(
        figures: dict[str, VerifiedFigure], catalogue: Catalogue) -> None:
    drawing = figure_drawing(figures["figures/catalysts.yaml"], catalogue, tile_art, stone_art)
    groups = _tiles(drawing)
    placements = figures["figures/catalysts.yaml"].position.placements
    assert len(groups) == len(placements) == 6
    for group, spec in zip(groups, placements, strict=True):
        assert group.items == tile_art(catalogue.tile(spec.tile)).items
        assert group.rotate == spec.rotation
        assert (group.dx, group.dy) == (STYLE.margin + (spec.x + 1) * 30,
                                        STYLE.margin + (spec.y + 1) * 30)
    assert (drawing.width, drawing.height) == (3 * 30 + 2 * STYLE.margin,
                                               2 * 30 + 2 * STYLE.margin)


def test_the_last_tile_is_framed(figures: dict[str, VerifiedFigure],
                                 catalogue: Catalogue) -> None:
    drawing = figure_drawing(figures["figures/legal.yaml"], catalogue, tile_art, stone_art)
    frames = [i for i in drawing.items if isinstance(i, Rect) and i.stroke == STYLE.highlight]
    assert len(frames) == 1
    assert 30 + STYLE.margin < frames[0].x < 31 + STYLE.margin


def test_an_illegal_placement_is_crossed_out(figures: dict[str, VerifiedFigure],
                                             catalogue: Catalogue) -> None:
    drawing = figure_drawing(figures["figures/clash.yaml"], catalogue, tile_art, stone_art)
    crosses = [i for i in drawing.items if isinstance(i, Line) and i.stroke == STYLE.cross]
    assert len(crosses) == 2
    assert not [i for i in drawing.items if isinstance(i, Rect) and i.stroke == STYLE.highlight]


def test_stones_are_numbered_in_a_readable_colour(figures: dict[str, VerifiedFigure],
                                                   catalogue: Catalogue) -> None:
    drawing = figure_drawing(figures["figures/merged.yaml"], catalogue, tile_art, stone_art)
    numbers = {i.text: i.fill for i in drawing.items if isinstance(i, Text)}
    assert numbers == {"1": "#000000", "2": "#ffffff"}  # light stone, dark stone


def test_legend_pictures(catalogue: Catalogue) -> None:
    white = legend_symbol("white", catalogue, tile_art)
    assert white.items == tile_art(Tile(0, ("white", "empty", "empty", "empty"))).items
    big = legend_symbol("big", catalogue, tile_art)
    assert big.items == tile_art(catalogue.tile(37)).items
    stone = legend_mark("stone", 30.0, stone_art)
    assert stone.width == 15.0
    assert any(isinstance(i, Circle) and i.fill == STYLE.highlight for i in stone.items)


def test_an_outlined_group_is_bounded_by_the_engine_quadrants(
        figures: dict[str, VerifiedFigure], catalogue: Catalogue) -> None:
    """The merged black group of figures/merged.yaml: 2 + 4 + 3 quadrants, one from the
    stone of player 2; its boundary is every quadrant side it does not share."""
    verified = figures["figures/merged.yaml"]
    drawing = figure_drawing(verified, catalogue, tile_art, stone_art)
    lines = [i for i in drawing.items if isinstance(i, Line) and i.stroke == STYLE.group]
    (group,) = [g for g in verified.analysis["groups"] if [1, 1, "tl"] in g["quadrants"]]
    squares = {(2 * x + (q in ("tr", "br")), 2 * y + (q in ("br", "bl")))
               for x, y, q in group["quadrants"]}
    shared = sum((sx + 1, sy) in squares for sx, sy in squares) + \
        sum((sx, sy + 1) in squares for sx, sy in squares)
    assert len(lines) == 4 * len(squares) - 2 * shared


@pytest.mark.parametrize("position", ["figures/closed-group.yaml", "figures/merged.yaml",
                                      "figures/big.yaml"])
def test_labels_are_drawn_over_group_outlines(figures: dict[str, VerifiedFigure],
                                              catalogue: Catalogue, position: str) -> None:
    """START lies on the edge of an outlined group in two figures: the outline must
    not hide it, so the tile's label (plate and word) comes again after the lines."""
    drawing = figure_drawing(figures[position], catalogue, tile_art, stone_art)
    last_line = max(i for i, item in enumerate(drawing.items)
                    if isinstance(item, Line) and item.stroke == STYLE.group)
    later = [item for item in drawing.items[last_line:] if isinstance(item, Group)
             and any(isinstance(i, Text) and i.text == "START" for i in item.items)]
    assert len(later) == 1
    (label,) = later
    assert [type(i) for i in label.items] == [Rect, Text]  # the plate, then the word
    start = next(p for p in figures[position].position.placements
                 if catalogue.tile(p.tile).start)
    assert (label.dx, label.rotate) == (
        next(g.dx for g in _tiles(drawing) if g.items == tile_art(catalogue.tile(
            start.tile)).items), start.rotation)


def test_a_group_outline_lies_inside_the_group(figures: dict[str, VerifiedFigure],
                                               catalogue: Catalogue) -> None:
    """The big tile's group (the big tile and the white half of START below it): a
    rectangle one tile wide and 1.5 tiles high, drawn group_inset inside its edge, so
    it never lies on the blue frame of the tile just played."""
    drawing = figure_drawing(figures["figures/big.yaml"], catalogue, tile_art, stone_art)
    lines = [i for i in drawing.items if isinstance(i, Line) and i.stroke == STYLE.group]
    xs = {round(v, 6) for line in lines for v in (line.x1, line.x2) if line.x1 == line.x2}
    ys = {round(v, 6) for line in lines for v in (line.y1, line.y2) if line.y1 == line.y2}
    m, inset = STYLE.margin, STYLE.group_inset
    assert xs == {round(m + inset, 6), round(m + 30 - inset, 6)}
    assert ys == {round(m + inset, 6), round(m + 45 - inset, 6)}
    assert inset - STYLE.group_width / 2 >= STYLE.highlight_width


def test_the_group_legend_mark_is_an_orange_frame() -> None:
    (frame,) = legend_mark("group", 30.0, stone_art).items
    assert isinstance(frame, Rect) and frame.stroke == STYLE.group
