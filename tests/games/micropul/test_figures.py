"""Figure drawings: the game's tile art in each cell, turned as placed, plus the
figure marks (frame on the tile just played, cross on an illegal one, stones)."""

from __future__ import annotations

import math

import pytest

from micropul_print.draw.primitives import Circle, Drawing, Group, Line, Primitive, Rect, Text
from micropul_print.draw.theme import load_theme
from micropul_print.games.micropul.faces import stone_drawing, tile_drawing
from micropul_print.games.micropul.figures import (
    STYLE,
    figure_drawing,
    legend_mark,
    legend_symbol,
)
from micropul_print.games.micropul.model import Catalogue, Tile
from micropul_print.games.micropul.rulebook import MICROPUL
from micropul_print.rulebook.verify import VerifiedFigure

THEME = load_theme("classic")


def tile_art(tile: Tile) -> Drawing:
    return tile_drawing(tile, THEME, show_number=False)


def stone_art(player: int, diameter: float) -> Drawing:
    return stone_drawing(player, THEME, diameter, number=False)  # as MicropulArt draws it


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
    assert len(crosses) >= 2
    assert not [i for i in drawing.items if isinstance(i, Rect) and i.stroke == STYLE.highlight]


def _distance_to_segment(px: float, py: float, line: Line) -> float:
    dx, dy = line.x2 - line.x1, line.y2 - line.y1
    t = max(0.0, min(1.0, ((px - line.x1) * dx + (py - line.y1) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - line.x1 - t * dx, py - line.y1 - t * dy)


@pytest.mark.parametrize("position", ["figures/clash.yaml", "figures/no-link.yaml"])
def test_the_cross_leaves_the_crossed_tiles_catalysts_clear(
        figures: dict[str, VerifiedFigure], catalogue: Catalogue, position: str) -> None:
    """The captions of both illegal placements talk about the new tile's catalyst: the
    X breaks around it (and every other catalyst of that tile), and still runs from
    corner to corner of the tile."""
    verified = figures[position]
    drawing = figure_drawing(verified, catalogue, tile_art, stone_art)
    lines = [i for i in drawing.items if isinstance(i, Line) and i.stroke == STYLE.cross]
    (spec,) = [p for p, outcome in zip(verified.position.placements,
                                       verified.analysis["placements"], strict=True)
               if not outcome["legal"]]
    left = min(p.x for p in verified.position.placements)
    top = min(p.y for p in verified.position.placements)
    x0, y0 = STYLE.margin + (spec.x - left) * 30, STYLE.margin + (spec.y - top) * 30
    centres = [(x0 + fx * 30, y0 + fy * 30) for value, (fx, fy) in zip(
        catalogue.tile(spec.tile).rotated(spec.rotation),
        ((0.25, 0.25), (0.75, 0.25), (0.75, 0.75), (0.25, 0.75)), strict=True)
        if value in ("dot", "double", "plus")]
    assert centres  # the figure is about a catalyst
    assert len(lines) > 2  # so at least one diagonal is broken
    for cx, cy in centres:
        assert all(_distance_to_segment(cx, cy, line) >= STYLE.cross_clearance - 1e-9
                   for line in lines)
    ends = {(round(v[0] - x0, 6), round(v[1] - y0, 6)) for line in lines
            for v in ((line.x1, line.y1), (line.x2, line.y2))}
    inset = STYLE.cross_frame_width
    assert {(inset, inset), (30 - inset, 30 - inset), (30 - inset, inset),
            (inset, 30 - inset)} <= ends


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


def _texts(items: tuple[Primitive, ...]) -> list[str]:
    return [text for item in items for text in (
        [item.text] if isinstance(item, Text) else
        _texts(item.items) if isinstance(item, Group) else [])]


@pytest.mark.parametrize("position", ["figures/closed-group.yaml", "figures/merged.yaml",
                                      "figures/big.yaml"])
def test_labels_are_drawn_over_group_outlines(figures: dict[str, VerifiedFigure],
                                              catalogue: Catalogue, position: str) -> None:
    """START lies on the edge of an outlined group in three figures: the outline must
    not hide it, so the tile's label (plate and word) is drawn after the lines, and
    only there: the PDF's text says START once."""
    drawing = figure_drawing(figures[position], catalogue, tile_art, stone_art)
    assert _texts(drawing.items).count("START") == 1
    last_line = max(i for i, item in enumerate(drawing.items)
                    if isinstance(item, Line) and item.stroke == STYLE.group)
    later = [item for item in drawing.items[last_line:] if isinstance(item, Group)
             and any(isinstance(i, Text) and i.text == "START" for i in item.items)]
    assert len(later) == 1
    (label,) = later
    assert [type(i) for i in label.items] == [Rect, Text]  # the plate, then the word
    start = next(p for p in figures[position].position.placements
                 if catalogue.tile(p.tile).start)
    art = tile_art(catalogue.tile(start.tile)).items
    (tile,) = [g for g in _tiles(drawing)
               if g.items == tuple(i for i in art if i not in label.items)]
    assert (label.dx, label.dy, label.rotate) == (tile.dx, tile.dy, start.rotation)


def test_a_frame_is_drawn_over_the_outlines(figures: dict[str, VerifiedFigure],
                                            catalogue: Catalogue) -> None:
    """The big tile's outlined group runs on into START: the orange line crosses the
    edge between the tiles, under the blue frame of the tile just played."""
    drawing = figure_drawing(figures["figures/big.yaml"], catalogue, tile_art, stone_art)
    (frame,) = [i for i, item in enumerate(drawing.items)
                if isinstance(item, Rect) and item.stroke == STYLE.highlight]
    assert frame > max(i for i, item in enumerate(drawing.items)
                       if isinstance(item, Line) and item.stroke == STYLE.group)


def test_a_group_outline_lies_inside_the_group(figures: dict[str, VerifiedFigure],
                                               catalogue: Catalogue) -> None:
    """The big tile's group (the big tile and the white half of START below it): a
    rectangle one tile wide and 1.5 tiles high, drawn group_inset inside its edge, so
    a clear gap separates it from the blue frame of the tile just played."""
    drawing = figure_drawing(figures["figures/big.yaml"], catalogue, tile_art, stone_art)
    lines = [i for i in drawing.items if isinstance(i, Line) and i.stroke == STYLE.group]
    xs = {round(v, 6) for line in lines for v in (line.x1, line.x2) if line.x1 == line.x2}
    ys = {round(v, 6) for line in lines for v in (line.y1, line.y2) if line.y1 == line.y2}
    m, inset = STYLE.margin, STYLE.group_inset
    assert xs == {round(m + inset, 6), round(m + 30 - inset, 6)}
    assert ys == {round(m + inset, 6), round(m + 45 - inset, 6)}
    assert inset - STYLE.group_width / 2 == STYLE.highlight_width + STYLE.group_gap
    assert STYLE.group_gap >= 0.5  # 0.3 mm at the figures' 18 mm tiles


def test_the_group_legend_mark_is_an_orange_frame() -> None:
    (frame,) = legend_mark("group", 30.0, stone_art).items
    assert isinstance(frame, Rect) and frame.stroke == STYLE.group
