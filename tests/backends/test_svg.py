from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from micropul_print.backends.fonts import CAP_HEIGHT, text_width
from micropul_print.backends.svg import text_outline, to_svg
from micropul_print.draw.primitives import (
    Circle,
    Drawing,
    Group,
    Line,
    Polygon,
    Primitive,
    Rect,
    Text,
)
from micropul_print.draw.recording import mm_text as num
from micropul_print.draw.theme import THEME_NAMES, load_theme
from micropul_print.games.micropul.faces import back_drawing, stone_drawing, tile_drawing
from micropul_print.games.micropul.model import BLACK, DOT, DOUBLE, PLUS, WHITE, BigMicropul, Tile

NS = "{http://www.w3.org/2000/svg}"
TAGS = {Rect: "rect", Circle: "circle", Line: "line", Polygon: "polygon", Text: "path",
        Group: "g"}
TILES = [
    Tile(41, (WHITE, WHITE, BLACK, BLACK), start=True),
    Tile(31, (WHITE, DOUBLE, DOT, "empty")),
    Tile(38, (BLACK, BLACK, BLACK, BLACK), big=BigMicropul(BLACK, PLUS)),
]


def elements(svg: bytes) -> tuple[ET.Element, list[ET.Element]]:
    root = ET.fromstring(svg)
    return root, [child for child in root if child.tag != f"{NS}defs"]


def assert_maps_one_to_one(items: tuple[Primitive, ...], nodes: list[ET.Element]) -> None:
    assert [TAGS[type(i)] for i in items] == [n.tag.removeprefix(NS) for n in nodes]
    for item, node in zip(items, nodes, strict=True):
        if isinstance(item, Circle):
            assert (node.get("cx"), node.get("cy"), node.get("r")) == (
                num(item.cx), num(item.cy), num(item.r))
            assert node.get("fill") == (item.fill or "none")
        elif isinstance(item, Rect):
            assert (node.get("x"), node.get("y"), node.get("width"), node.get("height")) == (
                num(item.x), num(item.y), num(item.width), num(item.height))
        elif isinstance(item, Line):
            assert node.get("stroke") == item.stroke
            assert node.get("stroke-width") == num(item.stroke_width)
        elif isinstance(item, Polygon):
            assert len((node.get("points") or "").split()) == len(item.points)
        elif isinstance(item, Text):
            assert node.get("aria-label") == item.text
            assert node.get("fill") == item.fill
            assert (node.get("d") or "").startswith("M")
        elif isinstance(item, Group):
            assert_maps_one_to_one(item.items, list(node))


@pytest.mark.parametrize("theme_name", THEME_NAMES)
def test_every_primitive_is_one_svg_element(theme_name: str) -> None:
    theme = load_theme(theme_name)
    for drawing in [*(tile_drawing(t, theme) for t in TILES), back_drawing(theme),
                    stone_drawing(2, theme)]:
        _root, nodes = elements(to_svg(drawing))
        assert_maps_one_to_one(drawing.items, nodes)


def test_true_size_in_millimetres() -> None:
    drawing = tile_drawing(TILES[0], load_theme("classic"), bleed=3.0)
    root, _nodes = elements(to_svg(drawing))
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == (
        "36mm", "36mm", "0 0 36 36")


def test_groups_turn_clockwise_then_move() -> None:
    drawing = Drawing(60, 30, (Group((Rect(0, 0, 30, 30, fill="#ff0000"),), dx=30, rotate=90,
                                     rotate_cx=15, rotate_cy=15),))
    _root, (group,) = elements(to_svg(drawing))
    assert group.get("transform") == "translate(30 0) rotate(90 15 15)"
    assert_maps_one_to_one(drawing.items, [group])


def test_same_drawing_same_bytes() -> None:
    theme = load_theme("ink-saver")
    assert to_svg(tile_drawing(TILES[2], theme)) == to_svg(tile_drawing(TILES[2], theme))


@pytest.mark.parametrize(("value", "text"), [
    (30.0, "30"), (7.5, "7.5"), (0.30000000000000004, "0.3"), (-0.0, "0"), (-0.00001, "0"),
    (1 / 3, "0.3333"),
])
def test_numbers_are_short_and_stable(value: float, text: str) -> None:
    assert num(value) == text


def outline_box(text: Text) -> tuple[float, float, float, float]:
    """Bounds of the path's points (on-curve and control points)."""
    xs: list[float] = []
    ys: list[float] = []
    command = ""
    pending: list[float] = []
    for token in re.findall(r"[A-Za-z]|-?\d+(?:\.\d+)?", text_outline(text)):
        if token.isalpha():
            command, pending = token, []
        elif command == "H":
            xs.append(float(token))
        elif command == "V":
            ys.append(float(token))
        else:
            pending.append(float(token))
            if len(pending) == 2:
                xs.append(pending[0])
                ys.append(pending[1])
                pending = []
    return min(xs), min(ys), max(xs), max(ys)


@pytest.mark.parametrize("anchor", ["start", "middle", "end"])
def test_text_outlines_sit_on_the_anchor_and_baseline(anchor: str) -> None:
    text = Text(50.0, 20.0, "START", 10.0, anchor=anchor, weight="bold")  # type: ignore[arg-type]
    left, top, right, bottom = outline_box(text)
    width = text_width("START", 10.0, "bold")
    start = {"start": 50.0, "middle": 50.0 - width / 2, "end": 50.0 - width}[anchor]
    assert left == pytest.approx(start, abs=0.5)  # side bearing of the S
    assert right == pytest.approx(start + width, abs=0.5)
    assert bottom == pytest.approx(20.0, abs=0.2)  # capitals stand on the baseline
    assert top == pytest.approx(20.0 - CAP_HEIGHT * 10.0, abs=0.2)


def test_text_outlines_cover_polish_letters() -> None:
    path = text_outline(Text(0.0, 10.0, "Żółć", 10.0))
    assert path.count("M") >= 4  # each letter drawn, none fell back to an empty glyph


def svgwrite_svg(drawing: Drawing) -> bytes:
    """The SVG this backend wrote with svgwrite before writing it with ElementTree: the
    reference its output must still equal byte for byte."""
    import svgwrite

    document = svgwrite.Drawing(size=(f"{num(drawing.width)}mm", f"{num(drawing.height)}mm"),
                                viewBox=f"0 0 {num(drawing.width)} {num(drawing.height)}",
                                profile="full", debug=False)

    def paint(fill: str | None, stroke: str | None, width: float) -> dict[str, str]:
        result = {"fill": fill or "none"}
        if stroke is not None and width > 0:
            result["stroke"] = stroke
            result["stroke_width"] = num(width)
        return result

    def element(item: Primitive) -> object:
        if isinstance(item, Rect):
            extra = ({"rx": num(item.corner_radius), "ry": num(item.corner_radius)}
                     if item.corner_radius > 0 else {})
            return document.rect(insert=(num(item.x), num(item.y)),
                                 size=(num(item.width), num(item.height)), **extra,
                                 **paint(item.fill, item.stroke, item.stroke_width))
        if isinstance(item, Circle):
            return document.circle(center=(num(item.cx), num(item.cy)), r=num(item.r),
                                   **paint(item.fill, item.stroke, item.stroke_width))
        if isinstance(item, Line):
            return document.line(start=(num(item.x1), num(item.y1)),
                                 end=(num(item.x2), num(item.y2)),
                                 **paint(None, item.stroke, item.stroke_width))
        if isinstance(item, Polygon):
            return document.polygon(points=[(num(x), num(y)) for x, y in item.points],
                                    **paint(item.fill, item.stroke, item.stroke_width))
        if isinstance(item, Text):
            return document.path(d=text_outline(item), fill=item.fill or "none",
                                 **{"aria-label": item.text})
        assert isinstance(item, Group)
        transforms = []
        if item.dx or item.dy:
            transforms.append(f"translate({num(item.dx)} {num(item.dy)})")
        if item.rotate % 360:
            transforms.append(f"rotate({item.rotate % 360} {num(item.rotate_cx)} "
                              f"{num(item.rotate_cy)})")
        group = document.g(transform=" ".join(transforms)) if transforms else document.g()
        for child in item.items:
            group.add(element(child))
        return group

    for item in drawing.items:
        document.add(element(item))
    text: str = document.tostring()
    return text.encode("utf-8") + b"\n"


ODD_DRAWING = Drawing(12.5, 7.25, (
    Rect(0.0, 0.0, 12.5, 7.25, fill="#ffffff", stroke="#000000", stroke_width=0.0),
    Rect(1.0, 1.0, 3.0, 2.0, stroke="#123456", stroke_width=0.25, corner_radius=0.5),
    Polygon(()),
    Polygon(((0.0, 0.0), (1.00004, -2.5), (3.33333, 1.5)), fill="#00ff00"),
    Line(0.0, 0.0, 5.0, 5.0, stroke=None),
    Circle(2.0, 2.0, 1.0),
    Group((Text(1.0, 2.0, 'a<b & "c">d', 1.5, anchor="start"),
           Group((Text(0.0, 0.0, "Żółć\tx", 2.0, fill=None),), dx=1.0)),
          rotate=270, rotate_cx=3.0, rotate_cy=3.0),
    Group(()),
    Text(0.0, 1.0, "", 2.0, anchor="end", weight="bold"),
))


@pytest.mark.parametrize("theme", THEME_NAMES)
def test_svg_bytes_are_what_svgwrite_wrote(theme: str) -> None:
    from micropul_print.catalogue.loader import load_catalogue

    look = load_theme(theme)
    drawings = [tile_drawing(tile, look, bleed=bleed, show_number=bleed == 0.0)
                for tile in load_catalogue().tiles for bleed in (0.0, 3.0)]
    drawings += [back_drawing(look), back_drawing(look, bleed=2.0),
                 stone_drawing(1, look), stone_drawing(2, look), ODD_DRAWING]
    for drawing in drawings:
        assert to_svg(drawing) == svgwrite_svg(drawing)


def test_attribute_values_are_escaped_as_elementtree_escaped_them() -> None:
    import xml.etree.ElementTree as ET

    from micropul_print.backends import svg

    for value in ['a&b<c>d"e\rf\ng\th', "&amp;", "plain 12", "é ü"]:
        assert svg._escape(value) == ET._escape_attrib(value)  # type: ignore[attr-defined]
