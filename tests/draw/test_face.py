"""The generic face layer: grids of marks, big marks, labels, numbers, outlines, bleed.

Written without any game, including the kinds of faces a second game needs (plain
one-colour tiles, a large square board)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from micropul_print.backends.fonts import CAP_HEIGHT, text_width
from micropul_print.draw.bounds import Box, item_bounds
from micropul_print.draw.face import SAFE_ZONE, Face, face_drawing, mark_items
from micropul_print.draw.primitives import Circle, Drawing, Line, Polygon, Rect, Text
from micropul_print.draw.theme import Hatch, MarkStyle, Theme, load_theme
from micropul_print.games.micropul.faces import MARKS, TILE_SIZE_MM, tile_drawing
from micropul_print.games.micropul.model import Catalogue


@pytest.fixture(scope="module")
def theme() -> Theme:
    return load_theme("classic")


def of_type(drawing: Drawing, kind: type) -> list[object]:
    return [item for item in drawing.items if isinstance(item, kind)]


def test_grid_cells_are_centred_in_their_quarters(theme: Theme) -> None:
    face = Face(cells=(("disc-light", "blank"), ("blank", "disc-dark")), outline=False)
    drawing = face_drawing(face, theme, size=30.0)
    background, light, dark = drawing.items
    assert background == Rect(0, 0, 30, 30, fill=theme.background)
    margin = theme.mark("disc-light").margin
    assert isinstance(light, Circle) and (light.cx, light.cy, light.r) == (7.5, 7.5, 7.5 - margin)
    assert isinstance(dark, Circle) and (dark.cx, dark.cy) == (22.5, 22.5)
    assert dark.fill == theme.mark("disc-dark").fill


def test_bleed_moves_the_face_and_stretches_only_the_background(theme: Theme) -> None:
    face = Face(cells=(("disc-light", "dot2"), ("plus", "disc-dark")), number="7", label="GO")
    plain = face_drawing(face, theme, size=30.0)
    bled = face_drawing(face, theme, size=30.0, bleed=3.0)
    assert (bled.width, bled.height) == (36.0, 36.0)
    assert bled.items[0] == Rect(0, 0, 36, 36, fill=theme.background)
    # Without bleed the last item is the cut outline; with bleed there is none.
    outline = plain.items[-1]
    assert isinstance(outline, Rect) and outline.stroke == theme.outline
    assert len(bled.items) == len(plain.items) - 1
    # Everything but the number (its text and underline, last before the outline) is
    # only moved by the bleed; the number keeps to the safe zone (the next test).
    for a, b in zip(plain.items[1:-3], bled.items[1:-2], strict=True):
        assert shifted(a, 3.0) == b


@pytest.mark.parametrize("theme_name", ["classic", "ink-saver", "colour-safe"])
@pytest.mark.parametrize("bleed", [1.0, 3.0])
def test_with_bleed_the_number_keeps_to_the_safe_zone_clear_of_the_marks(
        theme_name: str, bleed: float, catalogue: Catalogue) -> None:
    """A face printed with bleed (a print shop's file, --bleed sheets) keeps its number
    SAFE_ZONE inside the cut line, on no mark of any Micropul tile (over a big mark,
    in the mark's content colour)."""
    look = load_theme(theme_name)
    safe = Box(bleed, bleed, bleed + TILE_SIZE_MM, bleed + TILE_SIZE_MM).grown(-SAFE_ZONE)
    for tile in catalogue.tiles:
        drawing = tile_drawing(tile, look, bleed=bleed)
        text, underline = drawing.items[-2:]
        assert isinstance(text, Text) and text.text == str(tile.id)
        assert isinstance(underline, Line)
        # The ink: figures reach from the cap height down to the baseline (no
        # descender), the underline below them.
        under = item_bounds(underline)
        reach = Box(under.x0, text.y - CAP_HEIGHT * text.size, under.x1, under.y1)
        assert safe.contains(reach.x0, reach.y0) and safe.contains(reach.x1, reach.y1)
        if tile.big is None:
            marks = [item_bounds(item) for item in drawing.items[1:-2]]
            assert not any(reach.overlaps(mark) for mark in marks), tile.id
        else:
            assert text.fill == look.mark(MARKS[tile.big.colour]).content


def test_with_bleed_no_line_lies_on_the_cut(theme: Theme) -> None:
    """A slight mis-cut of a face printed with bleed must find art, never the outline."""
    face = Face(cells=(("disc-light", "blank"), ("blank", "disc-dark")), number="7")
    for bleed in (1.0, 3.0):
        bled = face_drawing(face, theme, size=30.0, bleed=bleed)
        lines_on_cut = [i for i in bled.items if isinstance(i, Rect) and i.fill is None]
        assert lines_on_cut == []
    plain = face_drawing(face, theme, size=30.0)
    half = theme.outline_width / 2
    assert Rect(half, half, 30 - 2 * half, 30 - 2 * half, stroke=theme.outline,
                stroke_width=theme.outline_width) in plain.items


def shifted(item: object, d: float) -> object:
    if isinstance(item, Rect):
        return replace(item, x=round(item.x + d, 4), y=round(item.y + d, 4))
    if isinstance(item, Circle):
        return replace(item, cx=round(item.cx + d, 4), cy=round(item.cy + d, 4))
    if isinstance(item, Text):
        return replace(item, x=round(item.x + d, 4), y=round(item.y + d, 4))
    if isinstance(item, Line):
        return replace(item, x1=round(item.x1 + d, 4), y1=round(item.y1 + d, 4),
                       x2=round(item.x2 + d, 4), y2=round(item.y2 + d, 4))
    if isinstance(item, Polygon):
        return replace(item, points=tuple((round(x + d, 4), round(y + d, 4))
                                          for x, y in item.points))
    raise AssertionError(item)


def test_centre_mark_takes_the_big_marks_content_colour(theme: Theme) -> None:
    drawing = face_drawing(Face(big="disc-dark", centre="dot1", outline=False), theme, size=30.0)
    _background, big, dot = drawing.items
    assert isinstance(big, Circle) and big.r == 15 - theme.mark("disc-dark").margin
    assert isinstance(dot, Circle) and (dot.cx, dot.cy) == (15, 15)
    assert dot.fill == theme.mark("disc-dark").content != theme.mark("dot1").fill


def test_plate_under_centre_mark_when_the_theme_asks() -> None:
    ink = load_theme("ink-saver")
    style = ink.mark("disc-dark")
    drawing = face_drawing(Face(big="disc-dark", centre="plus", outline=False), ink, size=30.0)
    plate = drawing.items[-2]
    assert plate == Circle(15, 15, style.plate / 2, fill=style.plate_colour)
    assert isinstance(drawing.items[-1], Polygon)


def test_hatch_lines_stay_inside_their_disc() -> None:
    style = MarkStyle(shape="disc", stroke="#000000", stroke_width=1.0, margin=1.0,
                      hatch=Hatch(spacing=0.9, width=0.3, angle=30.0, colour="#000000"))
    items = mark_items(style, 0.0, 0.0, 20.0, 20.0)
    lines = [i for i in items if isinstance(i, Line)]
    assert len(lines) > 15
    for line in lines:
        for x, y in ((line.x1, line.y1), (line.x2, line.y2)):
            assert math.hypot(x - 10, y - 10) <= 9.0 + 1e-3
        # the requested angle, measured with y pointing up the page
        angle = math.degrees(math.atan2(-(line.y2 - line.y1), line.x2 - line.x1))
        assert angle == pytest.approx(30.0, abs=0.01)
    assert isinstance(items[-1], Circle) and items[-1].stroke_width == 1.0  # outline on top


def test_hatched_square_clips_lines_to_the_square() -> None:
    style = MarkStyle(shape="square", hatch=Hatch(spacing=1.0, width=0.2, angle=45.0,
                                                  colour="#000000"))
    lines = [i for i in mark_items(style, 5.0, 5.0, 10.0, 10.0) if isinstance(i, Line)]
    assert lines
    for line in lines:
        for v in (line.x1, line.y1, line.x2, line.y2):
            assert 5.0 - 1e-3 <= v <= 15.0 + 1e-3


def test_two_dots_sit_side_by_side_gap_apart(theme: Theme) -> None:
    style = theme.mark("dot2")
    a, b = mark_items(style, 0.0, 0.0, 15.0, 15.0)
    assert isinstance(a, Circle) and isinstance(b, Circle)
    assert b.cx - a.cx == pytest.approx(style.gap)
    assert (a.cy, b.cy) == (7.5, 7.5) and (a.cx + b.cx) / 2 == pytest.approx(7.5)


def test_cross_is_a_symmetric_plus(theme: Theme) -> None:
    style = theme.mark("plus")
    (cross,) = mark_items(style, 0.0, 0.0, 15.0, 15.0)
    assert isinstance(cross, Polygon) and len(cross.points) == 12
    xs = [x for x, _ in cross.points]
    ys = [y for _, y in cross.points]
    assert max(xs) - min(xs) == pytest.approx(style.size)
    assert max(ys) - min(ys) == pytest.approx(style.size)
    assert sum(xs) / 12 == pytest.approx(7.5) and sum(ys) / 12 == pytest.approx(7.5)


def test_label_sits_centred_on_a_plate_wide_enough(theme: Theme) -> None:
    drawing = face_drawing(Face(label="START", outline=False), theme, size=30.0)
    _background, plate, text = drawing.items
    assert isinstance(plate, Rect) and isinstance(text, Text)
    width = text_width("START", theme.label.size, theme.label.weight)
    assert plate.width == pytest.approx(width + 2 * theme.plate.padding, abs=1e-3)
    assert plate.x + plate.width / 2 == pytest.approx(15.0, abs=1e-3)
    assert plate.y + plate.height / 2 == pytest.approx(15.0, abs=1e-3)
    assert (text.x, text.anchor, text.weight) == (15.0, "middle", theme.label.weight)


def test_number_is_small_underlined_in_the_bottom_left_corner(theme: Theme) -> None:
    drawing = face_drawing(Face(number="9", outline=False), theme, size=30.0)
    _background, number, underline = drawing.items
    assert isinstance(number, Text) and isinstance(underline, Line)
    assert number.text == "9" and number.size == theme.number.size < 3.0
    assert number.anchor == "start" and number.x == theme.number.inset
    assert number.fill == underline.stroke == theme.number.colour
    assert underline.y1 == underline.y2 > number.y  # below the baseline: marks "down"
    assert underline.y1 < 30.0 - theme.number.inset + 1e-9
    assert underline.x2 - underline.x1 == pytest.approx(
        text_width("9", theme.number.size, theme.number.weight), abs=1e-3)


def test_round_face_paints_nothing_outside_its_circle(theme: Theme) -> None:
    drawing = face_drawing(Face(big="stone-2", round=True), theme, size=14.0)
    assert (drawing.width, drawing.height) == (14.0, 14.0)
    assert not of_type(drawing, Rect)
    outline = drawing.items[-1]
    assert isinstance(outline, Circle) and outline.stroke == theme.outline
    assert outline.r + outline.stroke_width / 2 == pytest.approx(7.0)


def test_one_colour_face_fills_its_bleed(theme: Theme) -> None:
    """A plain black tile side (the next game's tiles): the background mark paints the
    whole drawing, bleed included."""
    drawing = face_drawing(Face(background="square-dark", outline=False), theme,
                           size=30.0, bleed=2.0)
    assert drawing.items == (Rect(0, 0, 34, 34, fill=theme.mark("square-dark").fill),)


def test_a_large_board_grid_is_drawable(theme: Theme) -> None:
    rows = tuple(tuple("square-dark" if (r + c) % 2 else "square-light" for c in range(9))
                 for r in range(9))
    drawing = face_drawing(Face(cells=rows), theme, size=180.0)
    squares = of_type(drawing, Rect)[1:-1]
    assert len(squares) == 81
    assert all(isinstance(s, Rect) and s.width == pytest.approx(20.0) for s in squares)


def test_unknown_mark_names_the_theme_and_its_marks(theme: Theme) -> None:
    with pytest.raises(KeyError, match="theme 'classic' has no mark 'disc-purple'"):
        face_drawing(Face(cells=(("disc-purple",),)), theme, size=30.0)
